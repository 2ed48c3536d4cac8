package io.sediment.om.core;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows one purge step examines: up to {@code limit} rows of a table after a resume cursor,
 * wrapping once to the head of the table, read without the store's write lock ({@link #read});
 * and, under the lock, which of them are still there unchanged and in which runs they can go
 * ({@link #confirm}).
 *
 * <p>A pass over the table is a sequence of runs: each run continues after the key the previous
 * one examined last (the cursor, persisted by the caller in the same batch as its deletes), so no
 * run walks again the rows, or the tombstones, that earlier runs of the pass left behind it. When
 * a run reaches the end of the table with room to spare it goes on from the head up to the cursor
 * (a second bounded iterator) and, if it gets there, the pass ends and the next run starts at the
 * head.
 *
 * <p>Each segment is the rows of one natively bounded iterator (one RocksDB view, so consecutive
 * as of that moment), read while writes go on. Before removing any, the caller's write (under the
 * lock, where nothing else writes until its batch commits) confirms them: it walks the table again
 * over exactly {@code [first, last]} of each segment, comparing stored bytes. A row gone since the
 * read is dropped (it is not counted); a row rewritten, or a row that appeared between two read
 * rows, is left alone and splits the run there. Each run {@code confirm} returns is then a set of
 * read rows, unchanged, with no other row between its first and last now: deleting it with one
 * range tombstone ({@link #delete}) removes exactly those rows. The walk reads each row's stored
 * bytes once and decodes nothing; decoding happened in {@link #read}, outside the lock.
 *
 * <p>Concurrent runs of one step must be excluded by the caller
 * ({@link UnlockedWork#serializedStep}); the confirmation makes the result exact whatever
 * foreground writes do between the read and the write.
 */
public final class CursorSweep<V> {

  /** A contiguous run shorter than this is deleted with point deletes. */
  public static final int RANGE_DELETE_MIN_ROWS = 16;

  /** One row as read: its key and value, and the bytes stored for them (to confirm it). */
  public record Row<V>(String key, V value, byte[] storedKey, byte[] storedValue) {
  }

  private final List<List<Row<V>>> segments;
  private final String nextCursor;

  private CursorSweep(List<List<Row<V>>> segments, String nextCursor) {
    this.segments = segments;
    this.nextCursor = nextCursor;
  }

  /**
   * Reads the rows of one run without the write lock: {@code (cursor, end)}, then, with room to
   * spare and a cursor, {@code [head, cursor)}.
   */
  public static <V> CursorSweep<V> read(DBStore store, TableDefinition<String, V> table,
      String cursor, int limit) {
    Table<byte[], byte[]> raw = store.getTable(table.name());
    List<List<Row<V>>> segments = new ArrayList<>(2);
    List<Row<V>> tail = readRange(raw, table, cursor, null, limit);
    segments.add(tail);
    if (tail.size() == limit) {
      return new CursorSweep<>(segments, lastKey(tail));
    }
    if (cursor == null) {
      return new CursorSweep<>(segments, null);
    }
    List<Row<V>> head = readRange(raw, table, null, cursor, limit - tail.size());
    segments.add(head);
    return new CursorSweep<>(segments,
        tail.size() + head.size() == limit && !head.isEmpty() ? lastKey(head) : null);
  }

  /**
   * One or two runs of consecutive rows, in the order read: {@code (cursor, end)}, then
   * {@code [head, cursor)}.
   */
  public List<List<Row<V>>> segments() {
    return segments;
  }

  /**
   * Where the next run starts after: the last key examined when the limit was reached,
   * {@code null} when the pass ended (the next run starts at the head).
   */
  public String nextCursor() {
    return nextCursor;
  }

  /** Rows examined. */
  public int size() {
    int n = 0;
    for (List<Row<V>> s : segments) {
      n += s.size();
    }
    return n;
  }

  /**
   * Call under the write lock: the rows read that are still in the table with the same stored
   * bytes, as runs (in key order, each within one segment) with no other row of the table between
   * a run's first and last row. One bounded iterator per segment over exactly the keys it spans.
   */
  public List<List<Row<V>>> confirm(DBStore store, TableDefinition<String, V> table) {
    return confirm(store, table, segments);
  }

  /**
   * As {@link #confirm(DBStore, TableDefinition)}, for {@code segments} read some other way: each
   * a list of rows in key order that were consecutive in the table when read.
   */
  public static <V> List<List<Row<V>>> confirm(DBStore store, TableDefinition<String, V> table,
      List<List<Row<V>>> segments) {
    Table<byte[], byte[]> raw = store.getTable(table.name());
    List<List<Row<V>>> runs = new ArrayList<>();
    for (List<Row<V>> segment : segments) {
      if (segment.isEmpty()) {
        continue;
      }
      byte[] from = segment.get(0).storedKey();
      byte[] to = successor(segment.get(segment.size() - 1).storedKey());
      List<Row<V>> run = new ArrayList<>();
      int i = 0;
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               raw.rangeIterator(from, to, IteratorType.KEY_AND_VALUE)) {
        while (it.hasNext()) {
          KeyValue<byte[], byte[]> now = it.next();
          // Rows read but gone since are skipped: a range over their place removes nothing.
          while (i < segment.size()
              && Arrays.compareUnsigned(segment.get(i).storedKey(), now.getKey()) < 0) {
            i++;
          }
          Row<V> read = i < segment.size() ? segment.get(i) : null;
          if (read != null && Arrays.equals(read.storedKey(), now.getKey())
              && Arrays.equals(read.storedValue(), now.getValue())) {
            run.add(read);
            i++;
            continue;
          }
          if (read != null && Arrays.equals(read.storedKey(), now.getKey())) {
            i++; // rewritten since it was read: not this step's to remove
          }
          if (!run.isEmpty()) {
            runs.add(run);
            run = new ArrayList<>();
          }
        }
      }
      if (!run.isEmpty()) {
        runs.add(run);
      }
    }
    return runs;
  }

  /** Up to {@code limit} rows after {@code after} (exclusive; null: the head) before {@code to}. */
  private static <V> List<Row<V>> readRange(Table<byte[], byte[]> raw,
      TableDefinition<String, V> table, String after, String to, int limit) {
    List<Row<V>> out = new ArrayList<>(Math.min(limit, 256));
    byte[] bound = to == null ? null : table.keyCodec().toPersistedFormat(to);
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             raw.rangeIterator(null, bound, IteratorType.KEY_AND_VALUE)) {
      if (after != null) {
        it.seekAfter(table.keyCodec().toPersistedFormat(after));
      }
      while (out.size() < limit && it.hasNext()) {
        KeyValue<byte[], byte[]> kv = it.next();
        out.add(new Row<>(table.keyCodec().fromPersistedFormat(kv.getKey()),
            table.valueCodec().fromPersistedFormat(kv.getValue()), kv.getKey(), kv.getValue()));
      }
    }
    return out;
  }

  /** The smallest key after {@code key}: {@code key} followed by a 0x00 byte. */
  private static byte[] successor(byte[] key) {
    return Arrays.copyOf(key, key.length + 1);
  }

  private static <V> String lastKey(List<Row<V>> rows) {
    return rows.get(rows.size() - 1).key();
  }

  /**
   * Adds to {@code batch} the deletion of {@code rows}, a run {@link #confirm} returned (or a part
   * of one, in key order): one range tombstone {@code [first, last + U+0000)} when there are at
   * least {@link #RANGE_DELETE_MIN_ROWS}, else one point delete each. Returns the range
   * tombstones written (0 or 1).
   */
  public static <V> int deleteRun(Table<String, V> table, BatchOperation batch,
      List<Row<V>> rows) {
    if (rows.size() >= RANGE_DELETE_MIN_ROWS) {
      table.deleteRangeWithBatch(batch, rows.get(0).key(), lastKey(rows) + '\0');
      return 1;
    }
    for (Row<V> row : rows) {
      table.deleteWithBatch(batch, row.key());
    }
    return 0;
  }

  /**
   * Adds to {@code batch} the deletion of {@code rows}, which must be consecutive rows of the
   * table in key order, read under the write lock: as {@link #deleteRun}. Returns the range
   * tombstones written (0 or 1).
   */
  public static <V> int delete(Table<String, V> table, BatchOperation batch,
      List<KeyValue<String, V>> rows) {
    if (rows.size() >= RANGE_DELETE_MIN_ROWS) {
      table.deleteRangeWithBatch(batch, rows.get(0).getKey(),
          rows.get(rows.size() - 1).getKey() + '\0');
      return 1;
    }
    for (KeyValue<String, V> row : rows) {
      table.deleteWithBatch(batch, row.getKey());
    }
    return 0;
  }
}
