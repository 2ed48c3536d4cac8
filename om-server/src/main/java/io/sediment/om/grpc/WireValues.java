package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import io.sediment.om.core.OmException;

/**
 * The wire conventions every {@code OmService} RPC shares: empty strings mean "not given"; an
 * absent page size means the store's page cap and an explicit 0 the facade's empty page; uint32
 * and uint64 fields above Java's signed range stay out of range; continuation tokens travel as the
 * bytes of the facade's opaque token text.
 *
 * <p>Immutable and thread-safe.
 */
final class WireValues {

  /** The store's page cap, what an absent page size asks for. */
  private final int maxListSize;

  WireValues(int maxListSize) {
    this.maxListSize = maxListSize;
  }

  /** The store's page cap, also the most keys one batch request may name. */
  int maxListSize() {
    return maxListSize;
  }

  /**
   * An optional page size: absent → the store's cap; present → as given, 0 included (the facade's
   * empty page); a uint32 above {@code Integer.MAX_VALUE} stays "too large".
   */
  int pageSize(boolean present, int requested) {
    if (!present) {
      return maxListSize;
    }
    return uint32(requested);
  }

  /** A uint32 field as an int: values above {@code Integer.MAX_VALUE} become it (out of range). */
  static int uint32(int value) {
    return value < 0 ? Integer.MAX_VALUE : value;
  }

  /** A uint64 field as a long: values above {@code Long.MAX_VALUE} are INVALID_ARGUMENT. */
  static long uint64(String what, long value) {
    if (value < 0) {
      throw new OmException(OmException.Code.INVALID_ARGUMENT, what + " "
          + Long.toUnsignedString(value) + " is too large (at most "
          + Long.MAX_VALUE + ")");
    }
    return value;
  }

  /** A request's token bytes as the facade's token text; empty bytes → {@code null} (none). */
  static String token(ByteString bytes) {
    return bytes.isEmpty() ? null : bytes.toStringUtf8();
  }

  /** A facade token as response bytes; {@code null} or empty → empty bytes (no next page). */
  static ByteString token(String token) {
    return token == null || token.isEmpty() ? ByteString.EMPTY : ByteString.copyFromUtf8(token);
  }

  /** An optional response string: {@code null} → "" (proto3 strings have no null). */
  static String nz(String s) {
    return s == null ? "" : s;
  }
}
