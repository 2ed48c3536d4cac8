package io.sediment.om.acl;

import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.OmAcl;
import java.util.ArrayList;
import java.util.List;

/**
 * The ACL a volume, bucket, key, file or directory is created with, from its owner and its
 * parent's ACL only (no clock, no configuration), so every replica applying the same creation
 * writes the same entries:
 *
 * <ul>
 *   <li>a volume: {@code user:OWNER:a};
 *   <li>a bucket: {@code user:OWNER:a}, plus each DEFAULT entry of its volume twice, as an ACCESS
 *       entry (it applies to the bucket) and as a DEFAULT entry (it flows on to the bucket's keys);
 *   <li>a key, file or directory (and the key of a completed multipart upload):
 *       {@code user:OWNER:a}, plus each DEFAULT entry of its bucket as an ACCESS entry.
 * </ul>
 *
 * <p>An empty owner contributes no entry. Results are in {@link AclEntries} canonical form.
 *
 * <p>Stateless; thread-safe.
 */
public final class DefaultAcls {

  private DefaultAcls() {
  }

  /** The ACL of a new volume owned by {@code owner}. */
  public static List<OmAcl> forVolume(String owner) {
    return AclEntries.canonical(ownerEntry(owner));
  }

  /** The ACL of a new bucket owned by {@code owner} in a volume whose ACL is {@code volumeAcls}. */
  public static List<OmAcl> forBucket(String owner, List<OmAcl> volumeAcls) {
    List<OmAcl> acls = new ArrayList<>(ownerEntry(owner));
    for (OmAcl a : volumeAcls) {
      if (a.getScope() == AclScope.ACL_DEFAULT) {
        acls.add(a.toBuilder().setScope(AclScope.ACL_ACCESS).build());
        acls.add(a);
      }
    }
    return AclEntries.canonical(acls);
  }

  /**
   * The ACL of a new key, file or directory owned by {@code owner} in a bucket whose ACL is
   * {@code bucketAcls}.
   */
  public static List<OmAcl> forKey(String owner, List<OmAcl> bucketAcls) {
    List<OmAcl> acls = new ArrayList<>(ownerEntry(owner));
    for (OmAcl a : bucketAcls) {
      if (a.getScope() == AclScope.ACL_DEFAULT) {
        acls.add(a.toBuilder().setScope(AclScope.ACL_ACCESS).build());
      }
    }
    return AclEntries.canonical(acls);
  }

  private static List<OmAcl> ownerEntry(String owner) {
    if (owner == null || owner.isEmpty()) {
      return List.of();
    }
    return List.of(OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName(owner)
        .setRights(AclRights.ALL).setScope(AclScope.ACL_ACCESS).build());
  }
}
