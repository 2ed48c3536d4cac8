package io.sediment.om.bucket;

import io.sediment.om.core.OmException;
import io.sediment.om.core.OmValidation;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The properties a volume or bucket update may set: each field is left unchanged when
 * {@code null}; a quota of 0 means unlimited. Validated on construction, so a rejected patch
 * changes nothing: the constructor throws {@code OmException} INVALID_ARGUMENT for a bad owner or
 * a negative quota. Immutable.
 */
public record PropertyPatch(String owner, Long quotaInBytes, Long quotaInNamespace) {

  public PropertyPatch {
    OmValidation.checkOwner(owner);
    checkQuota(quotaInBytes);
    checkQuota(quotaInNamespace);
  }

  /** Calls each setter whose field is set, in the order owner, bytes quota, namespace quota. */
  void applyTo(Consumer<String> setOwner, LongConsumer setQuotaInBytes,
      LongConsumer setQuotaInNamespace) {
    if (owner != null) {
      setOwner.accept(owner);
    }
    if (quotaInBytes != null) {
      setQuotaInBytes.accept(quotaInBytes);
    }
    if (quotaInNamespace != null) {
      setQuotaInNamespace.accept(quotaInNamespace);
    }
  }

  private static void checkQuota(Long quota) {
    if (quota != null && quota < 0) {
      throw OmException.invalid("Quota must not be negative (0 = unlimited): " + quota);
    }
  }
}
