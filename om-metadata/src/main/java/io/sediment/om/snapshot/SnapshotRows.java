package io.sediment.om.snapshot;

import static io.sediment.om.core.OmDBDefinition.META_TABLE;
import static io.sediment.om.core.OmDBDefinition.SNAPSHOT_INFO_TABLE;
import static io.sediment.om.core.OmKeys.utf8;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * The bookkeeping of snapshot rows that is not part of the snapshot API: the chain heads in
 * metaTable ({@code snapshotChain/global} and {@code snapshotChain/bucket/<bucketId>}, each the id
 * of the last snapshot created, whatever its status now), the check and the cleanup a bucket
 * delete needs, and the set of checkpoints the store must keep at open. Reads see the store as
 * it is now; writes are added to the caller's {@link WriteTxn}. Thread-safe.
 */
public final class SnapshotRows {

  private static final String CHAIN_GLOBAL = "snapshotChain/global";
  private static final String CHAIN_BUCKET = "snapshotChain/bucket/";

  private final Table<String, SnapshotInfo> table;
  private final Table<String, byte[]> meta;

  public SnapshotRows(OmContext ctx) {
    this.table = ctx.table(SNAPSHOT_INFO_TABLE);
    this.meta = ctx.table(META_TABLE);
  }

  /** Whether bucket {@code volume/bucket} has an ACTIVE snapshot; one bounded scan of its rows. */
  public boolean hasActive(String volume, String bucket) {
    try (TableIterator<String, KeyValue<String, SnapshotInfo>> it =
             table.iterator(OmKeys.bucketPrefix(volume, bucket))) {
      while (it.hasNext()) {
        if (it.next().getValue().getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Adds to {@code txn} the removal of every (DELETED) snapshot row of a bucket being deleted and of
   * its snapshot chain, so a bucket re-created under the same name starts with none. The caller has
   * checked {@link #hasActive} under the same write lock.
   */
  public void forgetBucket(WriteTxn txn, String volume, String bucket, long bucketId) {
    long rows = 0;
    try (TableIterator<String, KeyValue<String, SnapshotInfo>> it =
             table.iterator(OmKeys.bucketPrefix(volume, bucket), IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        table.deleteWithBatch(txn.batch(), it.next().getKey());
        rows++;
      }
    }
    txn.count(OmCounter.SNAPSHOTS, -rows);
    meta.deleteWithBatch(txn.batch(), bucketChain(bucketId));
  }

  /** The id of the last snapshot created in bucket {@code bucketId}; empty if none. */
  String bucketChainHead(long bucketId) {
    return chainHead(bucketChain(bucketId));
  }

  /** The id of the last snapshot created in the store; empty if none. */
  String globalChainHead() {
    return chainHead(CHAIN_GLOBAL);
  }

  /** Adds to {@code txn} snapshot {@code snapshotId} as the head of both chains. */
  void appendToChains(WriteTxn txn, long bucketId, String snapshotId) {
    meta.putWithBatch(txn.batch(), bucketChain(bucketId), utf8(snapshotId));
    meta.putWithBatch(txn.batch(), CHAIN_GLOBAL, utf8(snapshotId));
  }

  /** The checkpoint directories of the ACTIVE snapshots (relative to the snapshot root). */
  Set<String> activeCheckpointDirs() {
    Set<String> active = new HashSet<>();
    try (TableIterator<String, KeyValue<String, SnapshotInfo>> it = table.iterator()) {
      while (it.hasNext()) {
        SnapshotInfo s = it.next().getValue();
        if (s.getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE) {
          active.add(s.getCheckpointDir());
        }
      }
    }
    return active;
  }

  private static String bucketChain(long bucketId) {
    return CHAIN_BUCKET + OmKeys.id(bucketId);
  }

  private String chainHead(String metaKey) {
    byte[] v = meta.get(metaKey);
    return v == null ? "" : new String(v, StandardCharsets.UTF_8);
  }
}
