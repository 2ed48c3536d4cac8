package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_TABLE;
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
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one directory purge step ({@link DirectoryPurge}) found while it walked without the write
 * lock, and its application in the step's write: the deletedTable rows of the moved files
 * (encoded), the ranges to delete, the open files to count again, the counter changes per bucket,
 * the queue rows finished or gone into, and the cursor. {@link #apply} re-checks it as the
 * {@link DirectoryPurge} class comment says. Confined to the step's thread.
 */
final class DirectoryPurgePlan {

  private final OmContext ctx;
  private final Table<String, KeyInfo> openFileTable;
  private final Table<String, KeyInfo> deletedDirTable;
  private final Table<byte[], byte[]> rawQueue;

  /** The cursor the walk started after, and the one to save. */
  private final String cursor;
  private String newCursor;
  private boolean resetCursor;
  /** Per pass: the queue rows it finished, consecutive when read. */
  private final List<List<CursorSweep.Row<KeyInfo>>> finishedRuns = new ArrayList<>();
  /** The queue row the step went into without finishing it, or null. */
  private CursorSweep.Row<KeyInfo> unfinished;
  /** deletedTable rows to put, encoded: key, value, key, value, ... */
  private final List<byte[]> moves = new ArrayList<>();
  /** Ranges of fileTable and directoryTable to delete. */
  private final List<RangeDelete> ranges = new ArrayList<>();
  /** openFileTable ranges to delete, their rows counted again under the lock. */
  private final List<OpenFiles> openFiles = new ArrayList<>();
  /** Counter changes per bucket id, decided against the bucket or store-wide under the lock. */
  private final Map<Long, BucketDeltas> deltas = new HashMap<>();

  /** {@code to} null: the prefix {@code from}. */
  private record RangeDelete(Table<String, ?> table, String from, String to) {
  }

  private record OpenFiles(long bucketId, String volume, String bucket, String from, String to,
      int read) {
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

  DirectoryPurgePlan(OmContext ctx, String cursor) {
    this.ctx = ctx;
    this.cursor = cursor;
    this.newCursor = cursor;
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
    this.deletedDirTable = ctx.table(DELETED_DIRECTORY_TABLE);
    this.rawQueue = ctx.store().getTable(DELETED_DIRECTORY_TABLE.name());
  }

  // ---- recording, during the walk ----

  /** The next step resumes after {@code key}. */
  void resumeAfter(String key) {
    newCursor = key;
  }

  /** The next step starts at the head of the queue. */
  void resumeAtHead() {
    resetCursor = true;
  }

  /** A pass finished these queue rows (consecutive when read). */
  void finished(List<CursorSweep.Row<KeyInfo>> rows) {
    if (!rows.isEmpty()) {
      finishedRuns.add(rows);
    }
  }

  /** The step went into this queue row without finishing it. */
  void unfinished(CursorSweep.Row<KeyInfo> row) {
    unfinished = row;
  }

  /** A file moves to deletedTable as this row (encoded). */
  void move(byte[] key, byte[] value) {
    moves.add(key);
    moves.add(value);
  }

  /** {@code [from, to)} of {@code table} goes ({@code to} null: the whole prefix {@code from}). */
  void deleteRange(Table<String, ?> table, String from, String to) {
    ranges.add(new RangeDelete(table, from, to));
  }

  /**
   * Open files {@code [from, to)} ({@code to} null: the prefix) of bucket {@code bucketId} named
   * volume/bucket go; {@code read} were seen.
   */
  void discardOpenFiles(long bucketId, String volume, String bucket, String from, String to,
      int read) {
    openFiles.add(new OpenFiles(bucketId, volume, bucket, from, to, read));
  }

  /** Adds {@code delta} to {@code counter} of bucket {@code bucketId} named volume/bucket. */
  void count(long bucketId, String volume, String bucket, OmCounter counter, long delta) {
    deltas.computeIfAbsent(bucketId, id -> new BucketDeltas(volume, bucket)).changes
        .merge(counter, delta, Long::sum);
  }

  // ---- the write ----

  /**
   * Under the write lock: re-checks the plan and adds it to the transaction's batch.
   *
   * @param walked the rows the walk counted against its budget
   * @return the rows removed; 0 (nothing written) if the cursor moved or a queue row the walk
   *     went into is gone or changed
   */
  int apply(WriteTxn txn, int walked) {
    Table<String, byte[]> meta = ctx.table(META_TABLE);
    byte[] saved = meta.get(DirectoryPurge.CURSOR_KEY);
    if (!Objects.equals(cursor, saved == null ? null : new String(saved, StandardCharsets.UTF_8))) {
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
      delete(batch, r.table(), r.from(), r.to());
    }
    int removed = walked;
    for (OpenFiles o : openFiles) {
      // The open-file cleanup may have expired some since the walk; nothing can add one.
      int present = countOpenFiles(o.from(), o.to());
      count(o.bucketId(), o.volume(), o.bucket(), OmCounter.OPEN_FILES, -present);
      removed -= o.read() - present;
      delete(batch, openFileTable, o.from(), o.to());
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
      meta.deleteWithBatch(batch, DirectoryPurge.CURSOR_KEY);
    } else if (newCursor != null && !newCursor.equals(cursor)) {
      meta.putWithBatch(batch, DirectoryPurge.CURSOR_KEY,
          newCursor.getBytes(StandardCharsets.UTF_8));
    }
    return removed;
  }

  private static <T> void delete(BatchOperation batch, Table<String, T> table, String from,
      String to) {
    if (to == null) {
      table.deletePrefixWithBatch(batch, from);
    } else {
      table.deleteRangeWithBatch(batch, from, to);
    }
  }

  /** The openFileTable rows in {@code [from, to)} ({@code to} null: under the prefix). */
  private int countOpenFiles(String from, String to) {
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
