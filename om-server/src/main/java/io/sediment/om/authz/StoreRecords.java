package io.sediment.om.authz;

import io.sediment.db.Table;
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
import io.sediment.proto.om.VolumeInfo;
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
  private final Table<String, VolumeInfo> volumes;
  private final Table<String, BucketInfo> buckets;
  private final Table<String, KeyInfo> keys;
  private final OmAcls acls;

  StoreRecords(OmMetadataStore store) {
    this.store = Objects.requireNonNull(store, "store");
    this.acls = new OmAcls(store);
    this.volumes = store.dbStore().getTable(OmDBDefinition.VOLUME_TABLE);
    this.buckets = store.dbStore().getTable(OmDBDefinition.BUCKET_TABLE);
    this.keys = store.dbStore().getTable(OmDBDefinition.KEY_TABLE);
  }

  /** The volume, or null if absent. */
  VolumeInfo volume(String volume) {
    return volume.isEmpty() ? null : volumes.getIfExist(OmKeys.volumeKey(volume));
  }

  /** The bucket, or null if absent. */
  BucketInfo bucket(String volume, String bucket) {
    return volume.isEmpty() || bucket.isEmpty() ? null
        : buckets.getIfExist(OmKeys.bucketKey(volume, bucket));
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
      KeyInfo k = keys.getIfExist(
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
