package io.sediment.om;

import static io.sediment.om.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.OmDBDefinition.META_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_FILE_TABLE;

import io.sediment.db.BatchOperation;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One bounded step of the directory purge: removes the subtrees of recursively deleted
 * directories queued in deletedDirectoryTable. A later background service calls it
 * periodically; it can also be called directly (tests, tools).
 *
 * <h2>What a step does</h2>
 * It takes queued directories in deletedDirectoryTable key order and, for each, removes its direct
 * children, which are exactly the ranges {@code /vid/bid/<dirId>/} of directoryTable, fileTable and
 * openFileTable:
 * <ul>
 *   <li>each child directory is queued itself (a deletedDirectoryTable row with its full path), so
 *       a later step finds its own subtree; queuing happens before its row's range is deleted, in
 *       the same batch, so nothing is lost;
 *   <li>each child file moves to deletedTable ({@link OmKeys#deletedKey} with its full path), where
 *       the key purge finds it, as for a deleted OBJECT_STORE key;
 *   <li>each file still open in the directory is discarded;
 *   <li>then each of the three ranges is removed with ONE range delete ({@code deletePrefix}), not
 *       one point delete per child, and the queue row itself is removed.
 * </ul>
 * The children must be read anyway (to queue directories and move files), and they are counted as
 * they are read, so the namespace counters stay exact. Reading them and deleting the range is
 * provably equivalent: the step runs under the store's write lock, and nothing can add a child
 * under a deleted directory (every write resolves parents by path, and the deleted directory is no
 * longer on any path).
 *
 * <h2>Bounds</h2>
 * {@code maxEntries} bounds the work of one step (one write batch): every child row removed counts
 * one, and so does every queue row removed. A directory with more children than the budget left is
 * processed in part: the children read so far are handled and their part of each range is removed
 * with one {@code deleteRange(rangeStart, firstChildNotRead)}; the queue row stays and the next
 * step continues with it (the part already removed is behind a range tombstone, which costs one
 * reseek). Queue rows finished in one step are consecutive in the table, so they are removed with
 * one range delete too (a point delete for a single row).
 *
 * <h2>Resume cursor</h2>
 * The key of the last queue row a step finished is persisted in metaTable under
 * {@value #CURSOR_KEY} (UTF-8), in the step's batch. The next step seeks just past it, so it does
 * not walk again over the tombstones the previous steps left at the head of the queue. Rows queued
 * behind the cursor (the queue is ordered by parent id, not by time) are reached by wrapping: when
 * a step reaches the end of the table with budget left, it continues from the table start up to
 * the cursor (a second bounded iterator, positioned once). So a step returns 0 only when the queue
 * is empty.
 *
 * <h2>Deleted buckets</h2>
 * A bucket cannot be deleted while rows remain below a queued directory (they are live
 * fileTable/directoryTable rows), but an empty queued directory can outlive its bucket. The
 * counters of a bucket that no longer exists (or was re-created: another object id) were dropped
 * with it, so such changes are counted store-wide only.
 */
final class DirectoryPurge {

  /** The metaTable key of the resume cursor: the last finished deletedDirectoryTable key. */
  static final String CURSOR_KEY = "service/directoryPurge/cursor";

  private final OmContext ctx;
  private final WriteTxn txn;
  private final BatchOperation batch;
  private final int budget;
  private int used;

  private final Table<String, BucketInfo> bucketTable;
  private final Table<String, DirectoryInfo> dirTable;
  private final Table<String, KeyInfo> fileTable;
  private final Table<String, KeyInfo> openFileTable;
  private final Table<String, KeyInfo> deletedDirTable;
  private final Table<String, KeyInfo> deletedTable;
  /** Directories queued by this step; put after the finished rows' range delete. */
  private final List<KeyValue<String, KeyInfo>> queued = new ArrayList<>();
  private final Map<Long, Boolean> liveBuckets = new HashMap<>();

  private DirectoryPurge(OmContext ctx, WriteTxn txn, int budget) {
    this.ctx = ctx;
    this.txn = txn;
    this.batch = txn.batch();
    this.budget = budget;
    this.bucketTable = ctx.table(BUCKET_TABLE);
    this.dirTable = ctx.table(DIRECTORY_TABLE);
    this.fileTable = ctx.table(FILE_TABLE);
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
    this.deletedDirTable = ctx.table(DELETED_DIRECTORY_TABLE);
    this.deletedTable = ctx.table(DELETED_TABLE);
  }

  /**
   * Runs one step in one write batch; see the class comment.
   *
   * @param maxEntries the most entries (child rows plus queue rows) to remove, at least 1
   * @return the entries removed: 0 if and only if the queue was empty
   * @throws OmException INVALID_ARGUMENT if {@code maxEntries} is less than 1
   */
  static int run(OmContext ctx, int maxEntries) {
    if (maxEntries < 1) {
      throw OmException.invalid("maxEntries must be at least 1: " + maxEntries);
    }
    return ctx.write(txn -> new DirectoryPurge(ctx, txn, maxEntries).step());
  }

  /** The deletedDirectoryTable value of a directory queued for purge. */
  static KeyInfo queueRow(String volume, String bucket, String path, DirectoryInfo d, long now) {
    return KeyInfo.newBuilder()
        .setVolumeName(volume)
        .setBucketName(bucket)
        .setKeyName(path)
        .setFileName(d.getName())
        .setObjectId(d.getObjectId())
        .setParentId(d.getParentId())
        .setUpdateId(d.getUpdateId())
        .setCreationTime(d.getCreationTime())
        .setModificationTime(d.getModificationTime())
        .setOwner(d.getOwner())
        .setDeletionTime(now)
        .build();
  }

  private int step() {
    Table<String, byte[]> meta = ctx.table(META_TABLE);
    byte[] saved = meta.get(CURSOR_KEY);
    String cursor = saved == null ? null : new String(saved, StandardCharsets.UTF_8);
    String newCursor = cursor;
    boolean resetCursor = false;
    try (TableIterator<String, KeyValue<String, KeyInfo>> it =
             deletedDirTable.iterator(null, IteratorType.KEY_AND_VALUE)) {
      if (cursor != null) {
        KeyValue<String, KeyInfo> landed = it.seek(cursor);
        if (landed != null && landed.getKey().equals(cursor)) {
          it.next();
        }
      }
      Pass pass = pass(it);
      if (pass.last != null) {
        newCursor = pass.last;
      }
    }
    if (used < budget && cursor != null) {
      // The first pass reached the end of the table: wrap to the rows before the cursor.
      try (TableIterator<String, KeyValue<String, KeyInfo>> it =
               deletedDirTable.rangeIterator(null, cursor, IteratorType.KEY_AND_VALUE)) {
        Pass pass = pass(it);
        if (pass.last != null) {
          newCursor = pass.last;
        } else if (pass.stoppedInside) {
          // Nothing finished before the unfinished row: resume at the table start.
          resetCursor = true;
        }
      }
    }
    for (KeyValue<String, KeyInfo> q : queued) {
      deletedDirTable.putWithBatch(batch, q.getKey(), q.getValue());
    }
    if (resetCursor) {
      meta.deleteWithBatch(batch, CURSOR_KEY);
    } else if (newCursor != null && !newCursor.equals(cursor)) {
      meta.putWithBatch(batch, CURSOR_KEY, newCursor.getBytes(StandardCharsets.UTF_8));
    }
    return used;
  }

  /** What one pass over the queue did. */
  private record Pass(String last, boolean stoppedInside) {
  }

  /**
   * Purges queue rows from {@code it} while budget is left; removes the rows it finished with one
   * range delete (they are consecutive).
   */
  private Pass pass(TableIterator<String, KeyValue<String, KeyInfo>> it) {
    String first = null;
    String last = null;
    int finished = 0;
    boolean stoppedInside = false;
    while (used < budget && it.hasNext()) {
      KeyValue<String, KeyInfo> row = it.next();
      if (!purge(row.getKey(), row.getValue())) {
        stoppedInside = true;
        break;
      }
      if (first == null) {
        first = row.getKey();
      }
      last = row.getKey();
      finished++;
    }
    if (finished == 1) {
      deletedDirTable.deleteWithBatch(batch, first);
    } else if (finished > 1) {
      // [first, last] holds exactly the rows read: the smallest key after last is last + U+0000.
      deletedDirTable.deleteRangeWithBatch(batch, first, last + '\u0000');
    }
    return new Pass(last, stoppedInside);
  }

  /**
   * Removes what the budget allows below one queued directory.
   *
   * @return whether the directory is finished (its queue row is then counted as removed; the
   *     caller deletes it)
   */
  private boolean purge(String queueKey, KeyInfo dir) {
    long vid = OmKeys.fsoVolumeIdOf(queueKey);
    long bid = OmKeys.fsoBucketIdOf(queueKey);
    boolean live = liveBuckets.computeIfAbsent(bid, id -> {
      BucketInfo b = bucketTable.get(OmKeys.bucketKey(dir.getVolumeName(), dir.getBucketName()));
      return b != null && b.getObjectId() == id;
    });
    String children = OmKeys.childPrefix(vid, bid, dir.getObjectId());
    long now = txn.now();
    boolean done = drain(dirTable, IteratorType.KEY_AND_VALUE, children, (key, d) -> {
      queued.add(KeyValue.of(
          OmKeys.deletedDirectoryKey(vid, bid, dir.getObjectId(), d.getName(), d.getObjectId()),
          queueRow(dir.getVolumeName(), dir.getBucketName(),
              FsoPath.join(dir.getKeyName(), d.getName()), d, now)));
      count(live, bid, OmCounter.DIRECTORIES, -1);
      count(live, bid, OmCounter.DELETED_DIRECTORIES, 1);
    });
    done = done && drain(fileTable, IteratorType.KEY_AND_VALUE, children, (key, f) -> {
      String path = FsoPath.join(dir.getKeyName(), f.getFileName());
      deletedTable.putWithBatch(batch,
          OmKeys.deletedKey(dir.getVolumeName(), dir.getBucketName(), path, f.getObjectId()),
          f.toBuilder()
              .setVolumeName(dir.getVolumeName())
              .setBucketName(dir.getBucketName())
              .setKeyName(path)
              .setDeletionTime(now)
              .build());
      count(live, bid, OmCounter.FILES, -1);
      count(live, bid, OmCounter.FILE_BYTES, -f.getDataSize());
      count(live, bid, OmCounter.DELETED_KEYS, 1);
      count(live, bid, OmCounter.DELETED_KEY_BYTES, f.getDataSize());
    });
    done = done && drain(openFileTable, IteratorType.KEY_ONLY, children,
        (key, f) -> count(live, bid, OmCounter.OPEN_FILES, -1));
    if (!done || used >= budget) {
      return false;
    }
    used++;
    count(live, bid, OmCounter.DELETED_DIRECTORIES, -1);
    return true;
  }

  /**
   * Hands each row under {@code prefix} to {@code onRow} while budget is left, then removes the
   * rows read with one range delete: the whole prefix when none is left, else
   * {@code [prefix, firstRowNotRead)}.
   *
   * @return whether no row is left under {@code prefix}
   */
  private <V> boolean drain(Table<String, V> table, IteratorType type, String prefix,
      BiConsumer<String, V> onRow) {
    try (TableIterator<String, KeyValue<String, V>> it = table.iterator(prefix, type)) {
      int read = 0;
      while (used < budget && it.hasNext()) {
        KeyValue<String, V> kv = it.next();
        onRow.accept(kv.getKey(), kv.getValue());
        used++;
        read++;
      }
      if (!it.hasNext()) {
        if (read > 0) {
          table.deletePrefixWithBatch(batch, prefix);
        }
        return true;
      }
      if (read > 0) {
        table.deleteRangeWithBatch(batch, prefix, it.next().getKey());
      }
      return false;
    }
  }

  private void count(boolean liveBucket, long bucketId, OmCounter counter, long delta) {
    if (liveBucket) {
      txn.count(bucketId, counter, delta);
    } else {
      txn.count(counter, delta);
    }
  }
}
