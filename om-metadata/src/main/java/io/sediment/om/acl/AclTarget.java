package io.sediment.om.acl;

import java.util.Objects;

/**
 * What holds the ACL an operation reads or edits: a volume, a bucket, or a key (in a
 * FILE_SYSTEM_OPTIMIZED bucket, a file or a directory at that path).
 *
 * <p>Immutable. {@link #toString()} is the path form {@code /vol}, {@code /vol/bucket},
 * {@code /vol/bucket/key}.
 *
 * @param volume the volume name
 * @param bucket the bucket name; empty for a volume
 * @param key the key name or FSO path; empty for a volume or bucket
 */
public record AclTarget(String volume, String bucket, String key) {

  /** The kinds of target. */
  public enum Kind { VOLUME, BUCKET, KEY }

  /**
   * @throws IllegalArgumentException if a key is given without a bucket
   */
  public AclTarget {
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    if (bucket.isEmpty() && !key.isEmpty()) {
      throw new IllegalArgumentException("A key target needs its bucket: " + volume + "//" + key);
    }
  }

  public static AclTarget volume(String volume) {
    return new AclTarget(volume, "", "");
  }

  public static AclTarget bucket(String volume, String bucket) {
    return new AclTarget(volume, bucket, "");
  }

  public static AclTarget key(String volume, String bucket, String key) {
    return new AclTarget(volume, bucket, key);
  }

  /** A volume without a bucket, a bucket without a key, else a key. */
  public Kind kind() {
    return bucket.isEmpty() ? Kind.VOLUME : key.isEmpty() ? Kind.BUCKET : Kind.KEY;
  }

  @Override
  public String toString() {
    return switch (kind()) {
      case VOLUME -> "/" + volume;
      case BUCKET -> "/" + volume + "/" + bucket;
      case KEY -> "/" + volume + "/" + bucket + "/" + key;
    };
  }
}
