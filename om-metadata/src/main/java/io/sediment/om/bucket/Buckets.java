package io.sediment.om.bucket;

import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.PREFIX_TABLE;

import io.sediment.db.BatchOperation;
import io.sediment.db.Table;
import io.sediment.om.acl.DefaultAcls;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.purge.LifecycleCursors;
import io.sediment.om.snapshot.SnapshotRows;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.VolumeInfo;
import java.util.Map;

/**
 * Bucket writes and reads: rows of bucketTable under {@code /volume/bucket}. Every write is one
 * {@link OmContext#write} transaction that checks first and changes nothing when it throws.
 * Thread-safe.
 */
public final class Buckets {

  private final OmContext ctx;
  private final SnapshotRows snapshots;

  public Buckets(OmContext ctx, SnapshotRows snapshots) {
    this.ctx = ctx;
    this.snapshots = snapshots;
  }

  /**
   * Creates a bucket in an existing volume.
   *
   * @param owner the owner; {@code null} or empty for the volume's owner
   * @param quotaInBytes 0 for unlimited
   * @throws OmException INVALID_ARGUMENT for a bad name, layout, owner or quota, NOT_FOUND if the
   *     volume is absent, ALREADY_EXISTS if the bucket exists
   */
  public BucketInfo create(String volume, String bucket, BucketLayout layout, String owner,
      long quotaInBytes) {
    return create(volume, bucket, layout, owner, quotaInBytes, null);
  }

  /**
   * {@link #create(String, String, BucketLayout, String, long)} with the bucket's default
   * replication config: what its new keys, files and uploads get when their request names none.
   *
   * @param defaultReplication null for none (such keys get the store's default)
   * @throws OmException as that method, and INVALID_ARGUMENT for a config
   *     {@link ReplicationConfigs#check} refuses
   */
  public BucketInfo create(String volume, String bucket, BucketLayout layout, String owner,
      long quotaInBytes, ReplicationConfig defaultReplication) {
    OmValidation.checkBucketArgs(volume, bucket);
    ReplicationConfig replication = defaultReplication == null ? null
        : ReplicationConfigs.check(defaultReplication);
    OmValidation.checkOwner(owner);
    if (layout == null || layout == BucketLayout.BUCKET_LAYOUT_UNSPECIFIED
        || layout == BucketLayout.UNRECOGNIZED) {
      throw OmException.invalid("Bucket layout must be OBJECT_STORE, LEGACY or "
          + "FILE_SYSTEM_OPTIMIZED, not " + layout);
    }
    if (quotaInBytes < 0) {
      throw OmException.invalid("Bucket quota must not be negative: " + quotaInBytes);
    }
    return ctx.write(txn -> {
      VolumeInfo vol = ctx.requireVolume(null, volume);
      if (ctx.bucketIfExists(volume, bucket) != null) {
        throw new OmException(Code.ALREADY_EXISTS,
            "Bucket '" + bucket + "' already exists in volume '" + volume + "'");
      }
      BucketInfo info = newRow(vol, bucket, layout, owner, quotaInBytes, txn.allocateId(),
          txn.now());
      if (replication != null) {
        info = info.toBuilder().setDefaultReplicationConfig(replication).build();
      }
      ctx.parsedRows().putBucket(txn, info);
      txn.count(OmCounter.BUCKETS, 1);
      return info;
    });
  }

  /**
   * The row {@link #create} writes for a new bucket of volume {@code vol} with object id
   * {@code id} at time {@code now} ({@code owner} null or empty: the volume's); a bulk load builds
   * its rows with it too, so both write the same bytes.
   */
  public static BucketInfo newRow(VolumeInfo vol, String bucket, BucketLayout layout, String owner,
      long quotaInBytes, long id, long now) {
    String own = owner == null || owner.isEmpty() ? vol.getOwner() : owner;
    return BucketInfo.newBuilder()
        .setVolumeName(vol.getName())
        .setBucketName(bucket)
        .setLayout(layout)
        .setObjectId(id)
        .setVolumeId(vol.getObjectId())
        .setUpdateId(id)
        .setOwner(own)
        .setQuotaInBytes(quotaInBytes)
        .setCreationTime(now)
        .setModificationTime(now)
        .addAllAcls(DefaultAcls.forBucket(own, vol.getAclsList()))
        .build();
  }

  /**
   * Sets a bucket's owner (when {@code owner} is not {@code null}) and quotas (when not
   * {@code null}; 0 = unlimited).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, owner or negative quota, NOT_FOUND if the
   *     volume or bucket is absent
   */
  public BucketInfo setProperties(String volume, String bucket, PropertyPatch patch) {
    return setProperties(volume, bucket, patch, null);
  }

  /**
   * {@link #setProperties(String, String, PropertyPatch)} that also replaces the bucket's default
   * replication config when {@code defaultReplication} is not {@code null} (keys already in the
   * bucket keep theirs), in the same write.
   *
   * @throws OmException as that method, and INVALID_ARGUMENT for a config
   *     {@link ReplicationConfigs#check} refuses
   */
  public BucketInfo setProperties(String volume, String bucket, PropertyPatch patch,
      ReplicationConfig defaultReplication) {
    OmValidation.checkBucketArgs(volume, bucket);
    ReplicationConfig replication = defaultReplication == null ? null
        : ReplicationConfigs.check(defaultReplication);
    return ctx.write(txn -> {
      BucketInfo.Builder b = ctx.requireBucket(null, volume, bucket).toBuilder()
          .setModificationTime(txn.now());
      patch.applyTo(b::setOwner, b::setQuotaInBytes, b::setQuotaInNamespace);
      if (replication != null) {
        b.setDefaultReplicationConfig(replication);
      }
      BucketInfo info = b.build();
      ctx.parsedRows().putBucket(txn, info);
      return info;
    });
  }

  /** @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if the volume or bucket is absent */
  public BucketInfo get(String volume, String bucket) {
    OmValidation.checkBucketArgs(volume, bucket);
    return ctx.requireBucket(null, volume, bucket);
  }

  /**
   * The counters of one bucket: what it holds now (exact, maintained by every write). Deleted
   * versions stay counted against the bucket until purged; a deleted bucket's counters are dropped
   * (its pending deletes still count store-wide).
   *
   * @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if absent
   */
  public Map<OmCounter, Long> counters(String volume, String bucket) {
    return ctx.bucketCountersOf(get(volume, bucket).getObjectId());
  }

  /**
   * Deletes a bucket that has no live key (OBS/LEGACY: keyTable; FSO: no row in fileTable or
   * directoryTable, so rows under recursively deleted directories block it until the directory
   * purge has removed them), no multipart upload in progress and no active snapshot, each checked
   * with one bounded iterator that sees live rows only (tombstones of deleted keys do not count).
   * Keys still open in the bucket are discarded in the same batch (their commits then fail with
   * NOT_FOUND); deleted versions stay in deletedTable for the purge service.
   *
   * @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if absent, FAILED_PRECONDITION
   *     if not empty
   */
  public void delete(String volume, String bucket) {
    OmValidation.checkBucketArgs(volume, bucket);
    ctx.write(txn -> {
      BucketInfo info = ctx.requireBucket(null, volume, bucket);
      String names = OmKeys.bucketPrefix(volume, bucket);
      String ids = OmKeys.fsoBucketPrefix(info.getVolumeId(), info.getObjectId());
      boolean fso = info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
      String where = "Bucket '" + volume + "/" + bucket + "'";
      if (fso ? ctx.table(FILE_TABLE).hasLiveKey(ids)
              || ctx.table(DIRECTORY_TABLE).hasLiveKey(ids)
          : ctx.table(KEY_TABLE).hasLiveKey(names)) {
        throw new OmException(Code.FAILED_PRECONDITION,
            where + " is not empty: delete its keys first");
      }
      if (ctx.table(MULTIPART_INFO_TABLE).hasLiveKey(names)) {
        throw new OmException(Code.FAILED_PRECONDITION,
            where + " has multipart uploads in progress: complete or abort them first");
      }
      if (snapshots.hasActive(volume, bucket)) {
        throw new OmException(Code.FAILED_PRECONDITION, where + " has snapshots: delete them first");
      }
      BatchOperation batch = txn.batch();
      ctx.parsedRows().deleteBucket(txn, volume, bucket);
      txn.count(OmCounter.BUCKETS, -1);
      Table<String, KeyInfo> open = ctx.table(fso ? OPEN_FILE_TABLE : OPEN_KEY_TABLE);
      String openPrefix = fso ? ids : names;
      long discarded = open.countRows(openPrefix);
      if (discarded > 0) {
        open.deletePrefixWithBatch(batch, openPrefix);
        txn.count(fso ? OmCounter.OPEN_FILES : OmCounter.OPEN_KEYS, -discarded);
      }
      // The bucket's prefix ACLs go with it (a new bucket of that name starts with none).
      ctx.table(PREFIX_TABLE).deletePrefixWithBatch(batch, names);
      snapshots.forgetBucket(txn, volume, bucket, info.getObjectId());
      LifecycleCursors.forgetBucket(txn, ctx.table(META_TABLE), info.getObjectId());
      txn.dropBucketCounters(info.getObjectId());
      return null;
    });
  }
}
