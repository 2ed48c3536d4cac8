package io.sediment.om.authz;

import io.sediment.om.auth.Principal;
import io.sediment.om.auth.Resource;
import io.sediment.proto.om.AclRight;

/**
 * The native authorizer's decision, as a pure function of the records involved (no lookups, no
 * administrators: an administrator passes before this is asked).
 *
 * <ul>
 *   <li>SERVICE: never (only administrators act on the service as a whole);
 *   <li>VOLUME: the volume grants the right ({@link Grants}: owner or an applying entry);
 *   <li>BUCKET: the bucket grants the right, and the volume grants READ;
 *   <li>KEY: the key grants the right (when it exists), or its governing prefix does (the longest
 *       stored prefix of its name), or its bucket does (a right on a bucket covers every key in
 *       it), and the volume grants READ. CREATE on a key is decided by the bucket and the
 *       prefix: the key does not exist yet.
 *   <li>PREFIX: the prefix itself (when stored) or its bucket grants the right, and the volume
 *       grants READ.
 * </ul>
 *
 * A record that does not exist ({@code null}) grants nothing, so a caller who is not an
 * administrator learns nothing about names that do not exist beyond the denial.
 *
 * <p>Stateless and thread-safe.
 */
public final class AclDecision {

  private AclDecision() {
  }

  /**
   * Whether {@code p} holds {@code right} on a resource of {@code type}.
   *
   * @param volume the resource's volume, or null if absent (ignored for SERVICE)
   * @param bucket the resource's bucket, or null if absent (ignored above BUCKET)
   * @param prefix a KEY's governing prefix or a PREFIX's own row, or null if none (ignored
   *     above KEY)
   * @param key the key, file or directory, or null if absent (ignored but for KEY)
   */
  public static boolean allows(Principal p, Resource.Type type, AclRight right, Grants volume,
      Grants bucket, Grants prefix, Grants key) {
    return switch (type) {
      case SERVICE -> false;
      case VOLUME -> volume != null && volume.grants(p, right);
      case BUCKET -> volume != null && bucket != null && volume.grants(p, AclRight.ACL_READ)
          && bucket.grants(p, right);
      case KEY -> volume != null && bucket != null && volume.grants(p, AclRight.ACL_READ)
          && (bucket.grants(p, right) || (prefix != null && prefix.grants(p, right))
              || (right != AclRight.ACL_CREATE && key != null && key.grants(p, right)));
      case PREFIX -> volume != null && bucket != null && volume.grants(p, AclRight.ACL_READ)
          && (bucket.grants(p, right) || (prefix != null && prefix.grants(p, right)));
    };
  }

  /** {@link #allows} with no prefix. */
  public static boolean allows(Principal p, Resource.Type type, AclRight right, Grants volume,
      Grants bucket, Grants key) {
    return allows(p, type, right, volume, bucket, null, key);
  }

  /**
   * Whether deciding a KEY or PREFIX check needs more than the bucket's record (the prefix's, the
   * key's): only when the bucket alone does not already grant the right.
   */
  static boolean needsMore(Principal p, AclRight right, Grants bucket) {
    return bucket != null && !bucket.grants(p, right);
  }
}
