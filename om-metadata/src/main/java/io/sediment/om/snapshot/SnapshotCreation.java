package io.sediment.om.snapshot;

import static io.sediment.om.core.OmDBDefinition.SNAPSHOT_INFO_TABLE;

import io.sediment.db.Table;
import io.sediment.om.core.FileTrees;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.UnlockedPhase;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The creation of a snapshot ({@link Snapshots#create}): its RocksDB checkpoint taken without the
 * store's write lock, into {@code snapshots/}{@value #PENDING_PREFIX}{@code <random>}, then one
 * short write that checks the bucket (same object id) and the name again, allocates the id,
 * renames the pending directory to {@code snapshots/<id>} (atomically, the root fsynced, before
 * the row can be durable) and writes the row. A failure removes what it made.
 *
 * <h2>Point in time</h2>
 * Every namespace write is one RocksDB write batch committed under the write lock, so the
 * sequence numbers RocksDB gives the batches follow the lock order. A RocksDB checkpoint taken
 * while writes go on is a prefix of that order: it flushes the memtables (a memtable switch waits
 * for the write group in progress, so a memtable holds whole batches), links the SST files, and
 * copies the live write-ahead logs up to their size at one moment; opening the copy replays those
 * logs into the column families whose flushed files do not hold them yet, up to the last whole
 * record. So a snapshot holds exactly the writes committed before some moment between the call
 * and its return: every write acknowledged before {@code create} was called, none called after it
 * returned, each write whole (its rows and its counters), and with any write it holds every write
 * committed before that one. Creates run one at a time (a lock of their own, not the write lock),
 * so the snapshots' order in the chains ({@code path_previous_snapshot_id},
 * {@code global_previous_snapshot_id}) is the order of their points in time. The recording write
 * checks again that the bucket is the one the checkpoint was taken of (same object id: a bucket
 * deleted meanwhile is NOT_FOUND, one deleted and created again FAILED_PRECONDITION) and that the
 * name is free. {@code SnapshotConsistencyTest} races writers against creates and checks each
 * snapshot's contents against what was acknowledged before and called after it.
 *
 * <p>Thread-safe.
 */
final class SnapshotCreation {

  /** Name prefix of a checkpoint not yet recorded by its snapshot's row. */
  static final String PENDING_PREFIX = "pending-";

  private final OmContext ctx;
  private final SnapshotRows rows;
  private final Path root;
  private final Table<String, SnapshotInfo> table;
  /** Held by a create from its checks to its row: creates are serialized (not with writes). */
  private final ReentrantLock createLock = new ReentrantLock();

  SnapshotCreation(OmContext ctx, SnapshotRows rows, Path root) {
    this.ctx = ctx;
    this.rows = rows;
    this.root = root;
    this.table = ctx.table(SNAPSHOT_INFO_TABLE);
  }

  /** See {@link Snapshots#create}; the names are checked. */
  SnapshotInfo create(String volume, String bucket, String name) {
    String key = OmKeys.snapshotKey(volume, bucket, name);
    createLock.lock();
    try {
      // Checked first so that a create bound to fail takes no checkpoint; checked again when
      // the row is written.
      long bucketId = ctx.requireBucket(null, volume, bucket).getObjectId();
      requireFree(table.get(key), volume, bucket, name);
      Path pending = root.resolve(PENDING_PREFIX + UUID.randomUUID());
      try {
        ctx.unlocked().reached(UnlockedPhase.SNAPSHOT_CHECKPOINT_BEGINS, name);
        checkpoint(pending, volume, bucket, name);
        ctx.unlocked().reached(UnlockedPhase.SNAPSHOT_CHECKPOINT_DONE, name);
        return record(volume, bucket, name, key, bucketId, pending);
      } finally {
        SnapshotStores.deleteQuietly(pending);
        SnapshotStores.deleteQuietly(root.resolve(pending.getFileName() + ".tmp"));
      }
    } finally {
      createLock.unlock();
    }
  }

  /**
   * The short write of a create: checks again, allocates the snapshot's id, renames the pending
   * checkpoint to it and writes the row. On failure, removes the renamed directory unless the row
   * made it (a failure after the commit, e.g. the sync).
   */
  private SnapshotInfo record(String volume, String bucket, String name, String key,
      long bucketId, Path pending) {
    String[] made = new String[1];
    try {
      return ctx.write(txn -> {
        BucketInfo info = ctx.requireBucket(null, volume, bucket);
        if (info.getObjectId() != bucketId) {
          throw new OmException(Code.FAILED_PRECONDITION, "Bucket '" + volume + "/" + bucket
              + "' was deleted and created again while snapshot '" + name + "' was taken");
        }
        SnapshotInfo existing = table.get(key);
        requireFree(existing, volume, bucket, name);
        // From the id sequence, not a random source: replicas applying the same log entry
        // name the snapshot (and its checkpoint directory) alike.
        String id = Snapshots.snapshotId(txn.allocateId());
        made[0] = id;
        SnapshotInfo created = SnapshotInfo.newBuilder()
            .setSnapshotId(id)
            .setName(name)
            .setVolumeName(volume)
            .setBucketName(bucket)
            .setStatus(SnapshotStatus.SNAPSHOT_ACTIVE)
            .setCreationTime(txn.now())
            .setCheckpointDir(id)
            .setPathPreviousSnapshotId(rows.bucketChainHead(info.getObjectId()))
            .setGlobalPreviousSnapshotId(rows.globalChainHead())
            .build();
        // Durable before the row can be: a row never names a directory a crash could lose.
        try {
          FileTrees.rename(pending, root.resolve(id));
        } catch (UncheckedIOException e) {
          throw new OmException(Code.INTERNAL, "Cannot move the checkpoint of snapshot '" + name
              + "' of '" + volume + "/" + bucket + "' into place: " + e.getMessage(), e);
        }
        table.putWithBatch(txn.batch(), key, created);
        rows.appendToChains(txn, info.getObjectId(), id);
        txn.count(OmCounter.SNAPSHOTS, existing == null ? 1 : 0);
        return created;
      });
    } catch (RuntimeException | Error e) {
      // If the row cannot be read (store closing), the next open removes an orphan.
      try {
        String id = made[0];
        SnapshotInfo now = id == null ? null : table.get(key);
        if (id != null && (now == null || !id.equals(now.getSnapshotId()))) {
          SnapshotStores.deleteQuietly(root.resolve(id));
        }
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static void requireFree(SnapshotInfo existing, String volume, String bucket,
      String name) {
    if (existing != null && existing.getStatus() != SnapshotStatus.SNAPSHOT_DELETED) {
      throw new OmException(Code.ALREADY_EXISTS, "Snapshot '" + name
          + "' already exists in '" + volume + "/" + bucket + "'");
    }
  }

  private void checkpoint(Path dir, String volume, String bucket, String name) {
    try {
      Files.createDirectories(root);
      ctx.store().createCheckpoint(dir);
    } catch (IOException | RuntimeException e) {
      throw new OmException(Code.INTERNAL, "Cannot create the checkpoint of snapshot '" + name
          + "' of '" + volume + "/" + bucket + "' at " + dir + ": " + e.getMessage(), e);
    }
  }
}
