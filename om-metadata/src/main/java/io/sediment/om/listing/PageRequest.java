package io.sediment.om.listing;

import io.sediment.proto.om.ListKind;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a continuation token is bound to: the listing, the bucket it lists (by name and by object
 * id, so a re-created bucket of the same name does not accept an old token), the prefix (or
 * listed path) and named extras (a delimiter, flags such as {@code recursive}). A token issued
 * for one request is refused by every request that differs in any of these. Immutable.
 *
 * @param extras by name; an empty value is the same as an absent one
 */
public record PageRequest(ListKind kind, String volume, String bucket, long bucketObjectId,
    String prefix, Map<String, String> extras) {

  /** The S3 delimiter of ListObjectsV2. */
  public static final String DELIMITER = "delimiter";
  /** Whether a listing goes below the listed directory. */
  public static final String RECURSIVE = "recursive";
  /** Whether a snapshot listing includes DELETED snapshots. */
  public static final String INCLUDE_DELETED = "includeDeleted";

  /** Marks the hash layout, so no request hashed under another layout can collide with one. */
  private static final String LAYOUT = "sediment.listing.request/2";

  /** Each thread's digest, made once rather than per hash (finding the provider costs more). */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  });

  public PageRequest {
    Objects.requireNonNull(kind, "kind");
    prefix = prefix == null ? "" : prefix;
    TreeMap<String, String> sorted = new TreeMap<>();
    extras.forEach((k, v) -> {
      if (v != null && !v.isEmpty()) {
        sorted.put(k, v);
      }
    });
    extras = Collections.unmodifiableSortedMap(sorted);
  }

  /** A request without extras. */
  public static PageRequest of(ListKind kind, String volume, String bucket, long bucketObjectId,
      String prefix) {
    return new PageRequest(kind, volume, bucket, bucketObjectId, prefix, Map.of());
  }

  /** This request with extra {@code name} set to {@code value} ({@code null}: none). */
  public PageRequest with(String name, String value) {
    TreeMap<String, String> more = new TreeMap<>(extras);
    more.put(Objects.requireNonNull(name, "name"), value);
    return new PageRequest(kind, volume, bucket, bucketObjectId, prefix, more);
  }

  /** This request with flag {@code name} set when {@code on} (an absent flag is off). */
  public PageRequest withFlag(String name, boolean on) {
    return with(name, on ? "true" : null);
  }

  /**
   * SHA-256 over the layout name, the kind, volume, bucket, bucket object id and prefix, the
   * number of extras and each extra's name and value in name order; every field is
   * length-prefixed, so no two requests share an encoding.
   */
  public byte[] hash() {
    MessageDigest md = SHA_256.get();
    md.reset();
    update(md, LAYOUT);
    update(md, kind.name());
    update(md, volume);
    update(md, bucket);
    update(md, Long.toString(bucketObjectId));
    update(md, prefix);
    update(md, Integer.toString(extras.size()));
    for (Map.Entry<String, String> e : extras.entrySet()) {
      update(md, e.getKey());
      update(md, e.getValue());
    }
    return md.digest();
  }

  private static void update(MessageDigest md, String field) {
    byte[] b = (field == null ? "" : field).getBytes(StandardCharsets.UTF_8);
    md.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16),
        (byte) (b.length >>> 8), (byte) b.length});
    md.update(b);
  }
}
