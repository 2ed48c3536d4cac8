package io.sediment.om.fso;

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
import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.UnlockedPhase;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
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
 * and deleting the range is provably equivalent: nothing can add a child under a deleted
 * directory (every write resolves parents by path, and the deleted directory is no longer on any
 * path), and nothing but this step removes one, except the open-file cleanup, which may expire an
 * open file below it.
 *
 * <h2>Read, then apply under the write lock</h2>
 * The step walks the queue and the subtrees without the write lock ({@link #scan}: the long part,
 * one short-lived iterator at a time), recording what its batch will hold: the files to move
 * (their deletedTable rows already encoded, with the step's time as deletion time), the ranges to
 * delete, the counter changes per bucket and the queue rows it finished or went into. Then one
 * write ({@link #apply}) re-checks and writes it: the cursor must be unchanged; every queue row the
 * step went into must still be queued with the same bytes (else it writes nothing and returns 0:
 * only another purge could have removed it, and runs of the step are serialized); the finished
 * queue rows are confirmed as {@link io.sediment.om.core.CursorSweep} does (a directory queued
 * meanwhile between two of them splits their range delete); open files in the ranges to delete
 * are counted again (the open-file cleanup may have expired some); whether each bucket still
 * exists with the same id is decided there. So the subtree rows it removes are exactly the rows it
 * read, and the counters are exact, whatever foreground writes do meanwhile.
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
  /** The step's name, for {@link OmContext#serializedStep} and the phase observer. */
  public static final String STEP = "directoryPurge";

  private final OmContext ctx;
  private final int budget;
  private final long now;
  private int used;

  private final Table<String, DirectoryInfo> dirTable;
  private final Table<String, KeyInfo> fileTable;
  private final Table<String, KeyInfo> openFileTable;
  private final Table<String, KeyInfo> deletedDirTable;
  private final Table<byte[], byte[]> rawQueue;

  // ---- the plan the scan records and the write applies ----
  private String cursor;
  private String newCursor;
  private boolean resetCursor;
  /** Per pass: the queue rows it finished, consecutive when read. */
  private final List<List<CursorSweep.Row<KeyInfo>>> finishedRuns = new ArrayList<>();
  /** The queue row the step went into without finishing it, or null. */
  private CursorSweep.Row<KeyInfo> unfinished;
  /** deletedTable rows to put, encoded: key, value, key, value, ... */
  private final List<byte[]> moves = new ArrayList<>();
  /** Ranges of fileTable and directoryTable to delete: {table, from, to (null: the prefix)}. */
  private final List<RangeDelete> ranges = new ArrayList<>();
  /** openFileTable ranges to delete, their rows counted again under the lock. */
  private final List<OpenFiles> openFiles = new ArrayList<>();
  /** Counter changes per bucket id, decided against the bucket or store-wide under the lock. */
  private final Map<Long, BucketDeltas> deltas = new HashMap<>();

  private record RangeDelete(Table<String, ?> table, String from, String to) {
  }

  private record OpenFiles(long bucketId, String from, String to, int read) {
  }

  /** The counter changes of one bucket's rows, and its names to check it still exists. */
  private static final class BucketDeltas {
    final String volume;
    final String bucket;
    final Map<OmCounter, Long> changes = new EnumMap<>(OmCounter.class);

    BucketDeltas(String volume, String bucket) {
      this.volume = volume;
      this.bucket = bucket;
    }
  }

  private DirectoryPurge(OmContext ctx, int budget, long now) {
    this.ctx = ctx;
    this.budget = budget;
    this.now = now;
    this.dirTable = ctx.table(DIRECTORY_TABLE);
    this.fileTable = ctx.table(FILE_TABLE);
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
    this.deletedDirTable = ctx.table(DELETED_DIRECTORY_TABLE);
    this.rawQueue = ctx.store().getTable(DELETED_DIRECTORY_TABLE.name());
  }

  /** See {@link FsoNamespace#purgeDeletedDirectories} for the contract. */
  public static int run(OmContext ctx, int maxEntries) {
    if (maxEntries < 1) {
      throw OmException.invalid("maxEntries must be at least 1: " + maxEntries);
    }
    return ctx.serializedStep(STEP, () -> {
      ctx.reached(UnlockedPhase.PURGE_SCAN_BEGINS, STEP);
      DirectoryPurge step = new DirectoryPurge(ctx, maxEntries, ctx.nowMillis());
      step.scan();
      ctx.reached(UnlockedPhase.PURGE_SCAN_DONE, STEP);
      return ctx.write(step::apply);
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
    cursor = saved == null ? null : new String(saved, StandardCharsets.UTF_8);
    newCursor = cursor;
    byte[] rawCursor = cursor == null ? null : DELETED_DIRECTORY_TABLE.keyCodec()
        .toPersistedFormat(cursor);
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             rawQueue.rangeIterator(null, null, IteratorType.KEY_AND_VALUE)) {
      if (rawCursor != null) {
        it.seekAfter(rawCursor);
      }
      Pass pass = pass(it);
      if (pass.last != null) {
        newCursor = pass.last;
      }
    }
    if (used < budget && cursor != null) {
      // The first pass reached the end of the table: wrap to the rows before the cursor.
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               rawQueue.rangeIterator(null, rawCursor, IteratorType.KEY_AND_VALUE)) {
        Pass pass = pass(it);
        if (pass.last != null) {
          newCursor = pass.last;
        } else if (pass.stoppedInside) {
          // Nothing finished before the unfinished row: resume at the table start.
          resetCursor = true;
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
        unfinished = row;
        stoppedInside = true;
        break;
      }
      finished.add(row);
    }
    if (!finished.isEmpty()) {
      finishedRuns.add(finished);
    }
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
    BucketDeltas counts = deltas.computeIfAbsent(bid,
        id -> new BucketDeltas(dir.getVolumeName(), dir.getBucketName()));
    // The way down from the queued directory to the one being purged, and that one's path.
    List<Level> way = new ArrayList<>();
    StringBuilder path = new StringBuilder(dir.getKeyName());
    way.add(new Level(null, OmKeys.childPrefix(vid, bid, dir.getObjectId()), path.length()));
    while (true) {
      Level top = way.get(way.size() - 1);
      if (!top.rowsDone) {
        top.rowsDone = drainRows(top, path, dir, counts, bid);
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
        ranges.add(new RangeDelete(dirTable, top.prefix, null));
      }
      way.remove(way.size() - 1);
      used++;
      if (way.isEmpty()) {
        count(counts, OmCounter.DELETED_DIRECTORIES, -1);
        return true;
      }
      count(counts, OmCounter.DIRECTORIES, -1);
      Level parent = way.get(way.size() - 1);
      parent.lastFinished = top.key;
      path.setLength(parent.pathEnd);
    }
    // Out of budget: remove the finished subdirectories on the way; the rest waits for the next
    // step, which comes down the same way.
    for (Level l : way) {
      if (l.lastFinished != null) {
        ranges.add(new RangeDelete(dirTable, l.prefix, l.lastFinished + '\u0000'));
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
  private boolean drainRows(Level level, StringBuilder path, KeyInfo dir, BucketDeltas counts,
      long bid) {
    String[] dirPath = new String[1];
    boolean done = drain(fileTable, IteratorType.KEY_AND_VALUE, level.prefix, (key, f) -> {
      if (dirPath[0] == null) {
        dirPath[0] = path.substring(0, level.pathEnd);
      }
      String filePath = FsoPath.join(dirPath[0], f.getFileName());
      moves.add(DELETED_TABLE.keyCodec().toPersistedFormat(
          OmKeys.deletedKey(dir.getVolumeName(), dir.getBucketName(), filePath, f.getObjectId())));
      moves.add(DELETED_TABLE.valueCodec().toPersistedFormat(f.toBuilder()
          .setVolumeName(dir.getVolumeName())
          .setBucketName(dir.getBucketName())
          .setKeyName(filePath)
          .setDeletionTime(now)
          .build()));
      count(counts, OmCounter.FILES, -1);
      count(counts, OmCounter.FILE_BYTES, -f.getDataSize());
      count(counts, OmCounter.DELETED_KEYS, 1);
      count(counts, OmCounter.DELETED_KEY_BYTES, f.getDataSize());
    }, null);
    return done && drain(openFileTable, IteratorType.KEY_ONLY, level.prefix, (key, f) -> { },
        bid);
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
   * {@code [prefix, firstRowNotRead)}. With an {@code openFilesOf} bucket id the range is of open
   * files, counted again under the lock.
   *
   * @return whether no row is left under {@code prefix}
   */
  private <V> boolean drain(Table<String, V> table, IteratorType type, String prefix,
      BiConsumer<String, V> onRow, Long openFilesOf) {
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
          openFiles.add(new OpenFiles(openFilesOf, prefix, to, read));
        } else {
          ranges.add(new RangeDelete(table, prefix, to));
        }
      }
      return done;
    }
  }

  private static void count(BucketDeltas counts, OmCounter counter, long delta) {
    counts.changes.merge(counter, delta, Long::sum);
  }

  // ---- the write ----

  /**
   * Under the write lock: re-checks the plan (see the class comment) and adds it to the
   * transaction's batch.
   *
   * @return the rows removed; 0 (nothing written) if a queue row the scan went into is gone
   */
  private int apply(WriteTxn txn) {
    Table<String, byte[]> meta = ctx.table(META_TABLE);
    byte[] saved = meta.get(CURSOR_KEY);
    if (!java.util.Objects.equals(cursor,
        saved == null ? null : new String(saved, StandardCharsets.UTF_8))) {
      return 0;
    }
    List<List<CursorSweep.Row<KeyInfo>>> queueRuns =
        CursorSweep.confirm(ctx.store(), DELETED_DIRECTORY_TABLE, finishedRuns);
    if (rows(queueRuns) != rows(finishedRuns)
        || unfinished != null && !Arrays.equals(unfinished.storedValue(),
            rawQueue.get(unfinished.storedKey()))) {
      return 0;
    }
    BatchOperation batch = txn.batch();
    Table<byte[], byte[]> rawDeleted = ctx.store().getTable(DELETED_TABLE.name());
    for (int i = 0; i < moves.size(); i += 2) {
      rawDeleted.putWithBatch(batch, moves.get(i), moves.get(i + 1));
    }
    for (RangeDelete r : ranges) {
      deleteRange(batch, r.table(), r.from(), r.to());
    }
    int removed = used;
    for (OpenFiles o : openFiles) {
      // The open-file cleanup may have expired some since the scan; nothing can add one.
      int present = countRows(o.from(), o.to());
      count(deltas.get(o.bucketId()), OmCounter.OPEN_FILES, -present);
      removed -= o.read() - present;
      deleteRange(batch, openFileTable, o.from(), o.to());
    }
    for (List<CursorSweep.Row<KeyInfo>> run : queueRuns) {
      if (run.size() == 1) {
        deletedDirTable.deleteWithBatch(batch, run.get(0).key());
      } else {
        // Confirmed: no other row lies in [first, last], so last + U+0000 ends exactly the run.
        deletedDirTable.deleteRangeWithBatch(batch, run.get(0).key(),
            run.get(run.size() - 1).key() + '\u0000');
      }
    }
    deltas.forEach((bid, d) -> {
      BucketInfo b = ctx.bucketIfExists(d.volume, d.bucket);
      boolean live = b != null && b.getObjectId() == bid;
      d.changes.forEach((counter, delta) -> {
        if (live) {
          txn.count(bid, counter, delta);
        } else {
          txn.count(counter, delta);
        }
      });
    });
    if (resetCursor) {
      meta.deleteWithBatch(batch, CURSOR_KEY);
    } else if (newCursor != null && !newCursor.equals(cursor)) {
      meta.putWithBatch(batch, CURSOR_KEY, newCursor.getBytes(StandardCharsets.UTF_8));
    }
    return removed;
  }

  private static <T> void deleteRange(BatchOperation batch, Table<String, T> table, String from,
      String to) {
    if (to == null) {
      table.deletePrefixWithBatch(batch, from);
    } else {
      table.deleteRangeWithBatch(batch, from, to);
    }
  }

  /** The openFileTable rows in {@code [from, to)} ({@code to} null: under the prefix {@code from}). */
  private int countRows(String from, String to) {
    int n = 0;
    try (TableIterator<String, KeyValue<String, KeyInfo>> it = to == null
        ? openFileTable.iterator(from, IteratorType.KEY_ONLY)
        : openFileTable.rangeIterator(from, to, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  private static int rows(List<? extends List<?>> runs) {
    int n = 0;
    for (List<?> r : runs) {
      n += r.size();
    }
    return n;
  }
}
