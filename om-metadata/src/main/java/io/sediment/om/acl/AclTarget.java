package io.sediment.om.acl;

import java.util.Objects;

/**
 * What holds the ACL an operation reads or edits: a volume, a bucket, a key (in a
 * FILE_SYSTEM_OPTIMIZED bucket, a file or a directory at that path), or a key-name prefix of an
 * OBJECT_STORE or LEGACY bucket.
 *
 * <p>Immutable. {@link #toString()} is the path form {@code /vol}, {@code /vol/bucket},
 * {@code /vol/bucket/key} (a prefix: {@code /vol/bucket/prefix/}).
 *
 * @param volume the volume name
 * @param bucket the bucket name; empty for a volume
 * @param key the key name, FSO path or prefix; empty for a volume or bucket
 * @param prefix whether {@code key} is a key-name prefix rather than a key
 */
public record AclTarget(String volume, String bucket, String key, boolean prefix) {

  /** The kinds of target. */
  public enum Kind { VOLUME, BUCKET, KEY, PREFIX }

  /**
   * @throws IllegalArgumentException if a key is given without a bucket, or a prefix is empty
   */
  public AclTarget {
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    if (bucket.isEmpty() && !key.isEmpty()) {
      throw new IllegalArgumentException("A key target needs its bucket: " + volume + "//" + key);
    }
    if (prefix && key.isEmpty()) {
      throw new IllegalArgumentException("A prefix target needs its prefix: /" + volume + "/"
          + bucket);
    }
  }

  /** A volume, bucket or key target (never a prefix). */
  public AclTarget(String volume, String bucket, String key) {
    this(volume, bucket, key, false);
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

  /** A key-name prefix of {@code bucket}; see {@link io.sediment.om.aclstore.PrefixAcls}. */
  public static AclTarget prefix(String volume, String bucket, String prefix) {
    return new AclTarget(volume, bucket, prefix, true);
  }

  /** A volume without a bucket, a bucket without a key, a prefix, else a key. */
  public Kind kind() {
    return bucket.isEmpty() ? Kind.VOLUME : key.isEmpty() ? Kind.BUCKET
        : prefix ? Kind.PREFIX : Kind.KEY;
  }

  @Override
  public String toString() {
    return switch (kind()) {
      case VOLUME -> "/" + volume;
      case BUCKET -> "/" + volume + "/" + bucket;
      case KEY, PREFIX -> "/" + volume + "/" + bucket + "/" + key;
    };
  }
}
