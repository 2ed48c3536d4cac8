package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.UnlockedPhase;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
 * and deleting the range is provably equivalent: nothing can add a child under a deleted
 * directory (every write resolves parents by path, and the deleted directory is no longer on any
 * path), and nothing but this step removes one, except the open-file cleanup, which may expire an
 * open file below it.
 *
 * <h2>Read, then apply under the write lock</h2>
 * The step walks the queue and the subtrees without the write lock ({@link #scan}: the long part,
 * one short-lived iterator at a time), recording what its batch will hold in a
 * {@link DirectoryPurgePlan}: the files to move (their deletedTable rows already encoded, with the
 * step's time as deletion time), the ranges to delete, the counter changes per bucket and the
 * queue rows it finished or went into. Then one write ({@link DirectoryPurgePlan#apply})
 * re-checks and writes it: the cursor must be unchanged; every queue row the step went into must
 * still be queued with the same bytes (else it writes nothing and returns 0: only another purge
 * could have removed it, and runs of the step are serialized); the finished queue rows are
 * confirmed as {@link io.sediment.om.core.CursorSweep} does (a directory queued meanwhile between
 * two of them splits their range delete); open files in the ranges to delete are counted again
 * (the open-file cleanup may have expired some); whether each bucket still exists with the same
 * id is decided there. So the subtree rows it removes are exactly the rows it read, and the
 * counters are exact, whatever foreground writes do meanwhile.
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
  /** The step's name, for its step lock and the phase observer. */
  public static final String STEP = "directoryPurge";

  private final OmContext ctx;
  private final int budget;
  private final long now;
  private int used;

  private final Table<String, DirectoryInfo> dirTable;
  private final Table<String, KeyInfo> fileTable;
  private final Table<String, KeyInfo> openFileTable;
  private final Table<byte[], byte[]> rawQueue;
  /** What the walk found, applied by the step's write. */
  private DirectoryPurgePlan plan;

  private DirectoryPurge(OmContext ctx, int budget, long now) {
    this.ctx = ctx;
    this.budget = budget;
    this.now = now;
    this.dirTable = ctx.table(DIRECTORY_TABLE);
    this.fileTable = ctx.table(FILE_TABLE);
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
    this.rawQueue = ctx.store().getTable(DELETED_DIRECTORY_TABLE.name());
  }

  /** See {@link FsoNamespace#purgeDeletedDirectories} for the contract. */
  public static int run(OmContext ctx, int maxEntries) {
    if (maxEntries < 1) {
      throw OmException.invalid("maxEntries must be at least 1: " + maxEntries);
    }
    return ctx.unlocked().serializedStep(STEP, () -> {
      ctx.unlocked().reached(UnlockedPhase.PURGE_SCAN_BEGINS, STEP);
      DirectoryPurge step = new DirectoryPurge(ctx, maxEntries, ctx.unlocked().nowMillis());
      step.scan();
      ctx.unlocked().reached(UnlockedPhase.PURGE_SCAN_DONE, STEP);
      return ctx.write(txn -> step.plan.apply(txn, step.used));
    });
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

  // ---- the scan, without the write lock ----

  /** Walks the queue and the subtrees, recording the plan; writes nothing. */
  private void scan() {
    byte[] saved = ctx.table(META_TABLE).get(CURSOR_KEY);
    String cursor = saved == null ? null : new String(saved, StandardCharsets.UTF_8);
    plan = new DirectoryPurgePlan(ctx, cursor);
    byte[] rawCursor = cursor == null ? null : DELETED_DIRECTORY_TABLE.keyCodec()
        .toPersistedFormat(cursor);
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             rawQueue.rangeIterator(null, null, IteratorType.KEY_AND_VALUE)) {
      if (rawCursor != null) {
        it.seekAfter(rawCursor);
      }
      Pass pass = pass(it);
      if (pass.last != null) {
        plan.resumeAfter(pass.last);
      }
    }
    if (used < budget && cursor != null) {
      // The first pass reached the end of the table: wrap to the rows before the cursor.
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               rawQueue.rangeIterator(null, rawCursor, IteratorType.KEY_AND_VALUE)) {
        Pass pass = pass(it);
        if (pass.last != null) {
          plan.resumeAfter(pass.last);
        } else if (pass.stoppedInside) {
          // Nothing finished before the unfinished row: resume at the table start.
          plan.resumeAtHead();
        }
      }
    }
  }

  /** What one pass over the queue did. */
  private record Pass(String last, boolean stoppedInside) {
  }

  /** Purges queue rows from {@code it} while budget is left, recording those it finished. */
  private Pass pass(TableIterator<byte[], KeyValue<byte[], byte[]>> it) {
    List<CursorSweep.Row<KeyInfo>> finished = new ArrayList<>();
    boolean stoppedInside = false;
    while (used < budget && it.hasNext()) {
      KeyValue<byte[], byte[]> kv = it.next();
      CursorSweep.Row<KeyInfo> row = new CursorSweep.Row<>(
          DELETED_DIRECTORY_TABLE.keyCodec().fromPersistedFormat(kv.getKey()),
          DELETED_DIRECTORY_TABLE.valueCodec().fromPersistedFormat(kv.getValue()),
          kv.getKey(), kv.getValue());
      if (!purge(row.key(), row.value())) {
        plan.unfinished(row);
        stoppedInside = true;
        break;
      }
      finished.add(row);
    }
    plan.finished(finished);
    return new Pass(finished.isEmpty() ? null : finished.get(finished.size() - 1).key(),
        stoppedInside);
  }

  /**
   * Records the removal of what the budget allows of the subtree of one queued directory, depth
   * first; see the class comment.
   *
   * @return whether the directory is finished (its queue row is then counted as removed)
   */
  private boolean purge(String queueKey, KeyInfo dir) {
    long vid = OmKeys.fsoVolumeIdOf(queueKey);
    long bid = OmKeys.fsoBucketIdOf(queueKey);
    // The way down from the queued directory to the one being purged, and that one's path.
    List<Level> way = new ArrayList<>();
    StringBuilder path = new StringBuilder(dir.getKeyName());
    way.add(new Level(null, OmKeys.childPrefix(vid, bid, dir.getObjectId()), path.length()));
    while (true) {
      Level top = way.get(way.size() - 1);
      if (!top.rowsDone) {
        top.rowsDone = drainRows(top, path, dir, bid);
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
        plan.deleteRange(dirTable, top.prefix, null);
      }
      way.remove(way.size() - 1);
      used++;
      if (way.isEmpty()) {
        count(dir, bid, OmCounter.DELETED_DIRECTORIES, -1);
        return true;
      }
      count(dir, bid, OmCounter.DIRECTORIES, -1);
      Level parent = way.get(way.size() - 1);
      parent.lastFinished = top.key;
      path.setLength(parent.pathEnd);
    }
    // Out of budget: remove the finished subdirectories on the way; the rest waits for the next
    // step, which comes down the same way.
    for (Level l : way) {
      if (l.lastFinished != null) {
        plan.deleteRange(dirTable, l.prefix, l.lastFinished + '\u0000');
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
   * Records the move of the files of the directory at {@code level} to deletedTable and the
   * discarding of its open files, while budget is left.
   *
   * @return whether none is left
   */
  private boolean drainRows(Level level, StringBuilder path, KeyInfo dir, long bid) {
    String[] dirPath = new String[1];
    boolean done = drain(fileTable, IteratorType.KEY_AND_VALUE, level.prefix, (key, f) -> {
      if (dirPath[0] == null) {
        dirPath[0] = path.substring(0, level.pathEnd);
      }
      String filePath = FsoPath.join(dirPath[0], f.getFileName());
      plan.move(DELETED_TABLE.keyCodec().toPersistedFormat(
          OmKeys.deletedKey(dir.getVolumeName(), dir.getBucketName(), filePath, f.getObjectId())),
          DELETED_TABLE.valueCodec().toPersistedFormat(f.toBuilder()
              .setVolumeName(dir.getVolumeName())
              .setBucketName(dir.getBucketName())
              .setKeyName(filePath)
              .setDeletionTime(now)
              .build()));
      count(dir, bid, OmCounter.FILES, -1);
      count(dir, bid, OmCounter.FILE_BYTES, -f.getDataSize());
      count(dir, bid, OmCounter.DELETED_KEYS, 1);
      count(dir, bid, OmCounter.DELETED_KEY_BYTES, f.getDataSize());
    }, null, bid);
    return done && drain(openFileTable, IteratorType.KEY_ONLY, level.prefix, (key, f) -> { },
        dir, bid);
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
        // The finished ones are still there until the write: skip them.
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
   * Hands each row under {@code prefix} to {@code onRow} while budget is left, then records the
   * deletion of the rows read: the whole prefix when none is left, else
   * {@code [prefix, firstRowNotRead)}. With {@code openFilesOf} (the queued directory) the range
   * is of open files of its bucket {@code bid}, counted again under the lock.
   *
   * @return whether no row is left under {@code prefix}
   */
  private <V> boolean drain(Table<String, V> table, IteratorType type, String prefix,
      BiConsumer<String, V> onRow, KeyInfo openFilesOf, long bid) {
    try (TableIterator<String, KeyValue<String, V>> it = table.iterator(prefix, type)) {
      int read = 0;
      while (used < budget && it.hasNext()) {
        KeyValue<String, V> kv = it.next();
        onRow.accept(kv.getKey(), kv.getValue());
        used++;
        read++;
      }
      boolean done = !it.hasNext();
      if (read > 0) {
        String to = done ? null : it.next().getKey();
        if (openFilesOf != null) {
          plan.discardOpenFiles(bid, openFilesOf.getVolumeName(), openFilesOf.getBucketName(),
              prefix, to, read);
        } else {
          plan.deleteRange(table, prefix, to);
        }
      }
      return done;
    }
  }

  private void count(KeyInfo queued, long bid, OmCounter counter, long delta) {
    plan.count(bid, queued.getVolumeName(), queued.getBucketName(), counter, delta);
  }
}
