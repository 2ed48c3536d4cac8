package io.sediment.om.auth;

import java.util.Objects;

/**
 * What an access check is about: the service itself, a volume, a bucket, or a key (or directory,
 * or a key-name prefix) in a bucket.
 *
 * <p>Immutable. {@link #toString()} is the path form used in error messages and the audit log:
 * {@code /}, {@code /vol}, {@code /vol/bucket}, {@code /vol/bucket/key}.
 *
 * @param type the kind of resource
 * @param volume the volume name; empty for {@link Type#SERVICE}
 * @param bucket the bucket name; empty above {@link Type#BUCKET}
 * @param key the key name or prefix; empty above {@link Type#KEY}
 */
public record Resource(Type type, String volume, String bucket, String key) {

  /** The kinds of resource, from the outermost. */
  public enum Type { SERVICE, VOLUME, BUCKET, KEY, PREFIX }

  private static final Resource SERVICE = new Resource(Type.SERVICE, "", "", "");

  public Resource {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
  }

  /** The service as a whole (volume listing and creation, administration). */
  public static Resource service() {
    return SERVICE;
  }

  public static Resource volume(String volume) {
    return new Resource(Type.VOLUME, volume, "", "");
  }

  public static Resource bucket(String volume, String bucket) {
    return new Resource(Type.BUCKET, volume, bucket, "");
  }

  public static Resource key(String volume, String bucket, String key) {
    return new Resource(Type.KEY, volume, bucket, key);
  }

  /** A key-name prefix (ending with {@code /}) of an OBJECT_STORE or LEGACY bucket. */
  public static Resource prefix(String volume, String bucket, String prefix) {
    return new Resource(Type.PREFIX, volume, bucket, prefix);
  }

  @Override
  public String toString() {
    return switch (type) {
      case SERVICE -> "/";
      case VOLUME -> "/" + volume;
      case BUCKET -> "/" + volume + "/" + bucket;
      case KEY, PREFIX -> "/" + volume + "/" + bucket + "/" + key;
    };
  }
}
