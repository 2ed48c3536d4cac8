package io.sediment.om.authz;

import io.sediment.om.OmAcls;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.fso.FileStatus;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.VolumeInfo;
import java.util.List;
import java.util.Objects;

/**
 * Reads the records an access check decides on from this replica's store, as it has applied
 * them: a volume, a bucket, and a key (OBJECT_STORE and LEGACY buckets), file or directory
 * (FILE_SYSTEM_OPTIMIZED buckets). A record that does not exist, or whose name the store would
 * refuse, is {@code null}.
 *
 * <p>Thread-safe (reads only, over a thread-safe store).
 */
final class StoreRecords {

  private final OmMetadataStore store;
  private final OmAcls acls;

  StoreRecords(OmMetadataStore store) {
    this.store = Objects.requireNonNull(store, "store");
    this.acls = new OmAcls(store);
  }

  /** The volume, or null if absent; kept parsed in memory by the store. */
  VolumeInfo volume(String volume) {
    return store.parsedRows().volume(volume);
  }

  /** The bucket, or null if absent; kept parsed in memory by the store. */
  BucketInfo bucket(String volume, String bucket) {
    return store.parsedRows().bucket(volume, bucket);
  }

  /**
   * The grants of the longest stored prefix of key {@code key} in {@code bucket}, or null if none
   * (always none in a FILE_SYSTEM_OPTIMIZED bucket, whose prefixes are directories). A prefix has
   * no owner: only its entries grant.
   */
  Grants governingPrefix(BucketInfo bucket, String key) {
    if (bucket.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      return null;
    }
    List<OmAcl> entries = acls.governingPrefix(bucket.getVolumeName(), bucket.getBucketName(), key);
    return entries == null ? null : Grants.of("", entries);
  }

  /** The grants of prefix {@code prefix} itself in {@code bucket}, or null if it is not stored. */
  Grants prefix(BucketInfo bucket, String prefix) {
    if (bucket.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED
        || prefix.isEmpty() || prefix.charAt(prefix.length() - 1) != '/') {
      return null;
    }
    try {
      List<OmAcl> entries = acls.get(AclTarget.prefix(bucket.getVolumeName(),
          bucket.getBucketName(), prefix));
      return entries.isEmpty() ? null : Grants.of("", entries);
    } catch (OmException invalid) {
      return null;
    }
  }

  /**
   * The grants of the key, file or directory {@code key} in {@code bucket}, or null if there is
   * none (an empty key or the root of a file-system bucket: the bucket itself).
   */
  Grants key(BucketInfo bucket, String key) {
    if (key.isEmpty()) {
      return null;
    }
    if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      // Read through the store each time: a replica that installs a snapshot serves new files.
      KeyInfo k = store.dbStore().getTable(OmDBDefinition.KEY_TABLE).getIfExist(
          OmKeys.objectKey(bucket.getVolumeName(), bucket.getBucketName(), key));
      return k == null ? null : Grants.of(k.getOwner(), k.getAclsList());
    }
    try {
      FileStatus status = store.fso().getFileStatus(bucket.getVolumeName(),
          bucket.getBucketName(), key);
      if (status.path().isEmpty()) {
        return null;
      }
      if (status.isDirectory()) {
        return Grants.of(status.owner() == null ? "" : status.owner(),
            acls.get(AclTarget.key(bucket.getVolumeName(), bucket.getBucketName(), key)));
      }
      KeyInfo f = store.fso().lookupFile(bucket.getVolumeName(), bucket.getBucketName(), key);
      return Grants.of(f.getOwner(), f.getAclsList());
    } catch (OmException absentOrInvalid) {
      // NOT_FOUND, INVALID_ARGUMENT, FAILED_PRECONDITION: nothing at this path grants anything;
      // the request itself gets the store's answer once the bucket's rights let it through.
      return null;
    }
  }
}
