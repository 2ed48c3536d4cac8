package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;

import io.sediment.db.BatchOperation;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.WriteTxn;
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
 * It takes queued directories in deletedDirectoryTable key order and removes each one's whole
 * subtree, depth first, as far as the budget allows. The children of a directory are exactly the
 * ranges {@code /vid/bid/<dirId>/} of directoryTable, fileTable and openFileTable. For each
 * directory of the subtree, starting at the queued one:
 * <ul>
 *   <li>each file moves to deletedTable ({@link OmKeys#deletedKey} with its full path), where the
 *       key purge finds it, as for a deleted OBJECT_STORE key; each file still open in it is
 *       discarded; each of the two ranges then goes with ONE range delete ({@code deletePrefix}),
 *       not one point delete per row;
 *   <li>then its subdirectories are taken one at a time, in name order, and each is handled the
 *       same way before the next; a subdirectory is finished when nothing is left below it;
 *   <li>its finished subdirectories' rows go with one range delete of directoryTable when the
 *       directory itself is finished; the queued directory, once finished, loses its queue row.
 * </ul>
 * Rows are read before their range is deleted, so the namespace counters stay exact. Reading them
 * and deleting the range is provably equivalent: the step runs under the store's write lock, and
 * nothing can add a child under a deleted directory (every write resolves parents by path, and
 * the deleted directory is no longer on any path).
 *
 * <h2>Bounds</h2>
 * {@code maxEntries} bounds the work of one step (one write batch): every file or open file moved
 * or discarded counts one, every subdirectory finished counts one, and so does every queue row
 * removed. So a step removes a whole subtree of up to that many rows, whatever its depth. When the
 * budget runs out inside a subtree, the step removes what it finished: the files and open files
 * read so far with {@code deleteRange(rangeStart, firstRowNotRead)}, and in each directory on the
 * way down the finished subdirectories with {@code deleteRange(rangeStart, lastFinished + U+0000)};
 * the unfinished directories on that way keep their rows, and the queue row stays. The next step
 * goes down the same way again (the rows already removed are behind range tombstones, one reseek
 * each) and continues. Nothing is queued below the queued directory, so a step writes no path per
 * level, and going down costs one short-lived bounded iterator per level, not budget.
 *
 * <p>Memory: one small record per level of the current way down (an id, its child-range prefix,
 * the last finished subdirectory's key) and the current directory's path once; at most one native
 * iterator is open at a time.
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
public final class DirectoryPurge {

  /** The metaTable key of the resume cursor: the last finished deletedDirectoryTable key. */
  public static final String CURSOR_KEY = "service/directoryPurge/cursor";

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

  /** See {@link FsoNamespace#purgeDeletedDirectories} for the contract. */
  public static int run(OmContext ctx, int maxEntries) {
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
        it.seekAfter(cursor);
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
   * Removes what the budget allows of the subtree of one queued directory, depth first; see the
   * class comment.
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
    // The way down from the queued directory to the one being purged, and that one's path.
    List<Level> way = new ArrayList<>();
    StringBuilder path = new StringBuilder(dir.getKeyName());
    way.add(new Level(null, OmKeys.childPrefix(vid, bid, dir.getObjectId()), path.length()));
    while (true) {
      Level top = way.get(way.size() - 1);
      if (!top.rowsDone) {
        top.rowsDone = drainRows(top, path, dir, live, bid);
        if (!top.rowsDone) {
          break;
        }
      }
      if (used >= budget) {
        break;
      }
      KeyValue<String, DirectoryInfo> sub = top.moreSubdirectories ? nextSubdirectory(top) : null;
      if (sub != null) {
        path.append(OmKeys.SEPARATOR).append(sub.getValue().getName());
        way.add(new Level(sub.getKey(),
            OmKeys.childPrefix(vid, bid, sub.getValue().getObjectId()), path.length()));
        continue;
      }
      // Nothing is left below top: it is finished.
      if (top.lastFinished != null) {
        dirTable.deletePrefixWithBatch(batch, top.prefix);
      }
      way.remove(way.size() - 1);
      used++;
      if (way.isEmpty()) {
        count(live, bid, OmCounter.DELETED_DIRECTORIES, -1);
        return true;
      }
      count(live, bid, OmCounter.DIRECTORIES, -1);
      Level parent = way.get(way.size() - 1);
      parent.lastFinished = top.key;
      path.setLength(parent.pathEnd);
    }
    // Out of budget: remove the finished subdirectories on the way; the rest waits for the next
    // step, which comes down the same way.
    for (Level l : way) {
      if (l.lastFinished != null) {
        dirTable.deleteRangeWithBatch(batch, l.prefix, l.lastFinished + '\u0000');
      }
    }
    return false;
  }

  /** One directory on the way down; no native resources. */
  private static final class Level {
    /** Its directoryTable key; null for the queued directory (its row is already gone). */
    final String key;
    /** The prefix of its children in every table. */
    final String prefix;
    /** Length of the path being built while it is the deepest level. */
    final int pathEnd;
    /** Whether its files and open files are all removed. */
    boolean rowsDone;
    /** The key of its last finished subdirectory; null: none yet. */
    String lastFinished;
    /** Whether subdirectories may follow the one the purge went into. */
    boolean moreSubdirectories = true;

    Level(String key, String prefix, int pathEnd) {
      this.key = key;
      this.prefix = prefix;
      this.pathEnd = pathEnd;
    }
  }

  /**
   * Moves the files of the directory at {@code level} to deletedTable and discards its open files,
   * while budget is left.
   *
   * @return whether none is left
   */
  private boolean drainRows(Level level, StringBuilder path, KeyInfo dir, boolean live,
      long bid) {
    long now = txn.now();
    String[] dirPath = new String[1];
    boolean done = drain(fileTable, IteratorType.KEY_AND_VALUE, level.prefix, (key, f) -> {
      if (dirPath[0] == null) {
        dirPath[0] = path.substring(0, level.pathEnd);
      }
      String filePath = FsoPath.join(dirPath[0], f.getFileName());
      deletedTable.putWithBatch(batch,
          OmKeys.deletedKey(dir.getVolumeName(), dir.getBucketName(), filePath, f.getObjectId()),
          f.toBuilder()
              .setVolumeName(dir.getVolumeName())
              .setBucketName(dir.getBucketName())
              .setKeyName(filePath)
              .setDeletionTime(now)
              .build());
      count(live, bid, OmCounter.FILES, -1);
      count(live, bid, OmCounter.FILE_BYTES, -f.getDataSize());
      count(live, bid, OmCounter.DELETED_KEYS, 1);
      count(live, bid, OmCounter.DELETED_KEY_BYTES, f.getDataSize());
    });
    return done && drain(openFileTable, IteratorType.KEY_ONLY, level.prefix,
        (key, f) -> count(live, bid, OmCounter.OPEN_FILES, -1));
  }

  /**
   * The first subdirectory of {@code level} after its last finished one, or null; notes whether
   * another follows it, so coming back up from the last one needs no iterator. One bounded
   * iterator, closed here.
   */
  private KeyValue<String, DirectoryInfo> nextSubdirectory(Level level) {
    try (TableIterator<String, KeyValue<String, DirectoryInfo>> it =
             dirTable.iterator(level.prefix, IteratorType.KEY_AND_VALUE)) {
      if (level.lastFinished != null) {
        // The batch is not visible to reads: skip the finished one.
        it.seekAfter(level.lastFinished);
      }
      if (!it.hasNext()) {
        return null;
      }
      KeyValue<String, DirectoryInfo> sub = it.next();
      level.moreSubdirectories = it.hasNext();
      return sub;
    }
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
