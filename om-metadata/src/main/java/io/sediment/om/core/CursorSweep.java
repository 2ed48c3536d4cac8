package io.sediment.om.core;

import io.sediment.db.BatchOperation;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows one purge step examines: up to {@code limit} rows of a table after a resume cursor,
 * wrapping once to the head of the table, read under the store's write lock.
 *
 * <p>A pass over the table is a sequence of runs: each run continues after the key the previous
 * one examined last (the cursor, persisted by the caller in the same batch as its deletes), so no
 * run walks again the rows, or the tombstones, that earlier runs of the pass left behind it. When
 * a run reaches the end of the table with room to spare it goes on from the head up to the cursor
 * (a second bounded iterator) and, if it gets there, the pass ends and the next run starts at the
 * head.
 *
 * <p>Each segment is the rows of one natively bounded iterator, created and read while the caller
 * holds the write lock. Every write goes through that lock, so nothing can appear between two
 * consecutive rows of a segment before the caller's batch commits: deleting a run of consecutive
 * rows with one range tombstone ({@link #delete}) removes exactly those rows.
 *
 * @param segments one or two runs of consecutive rows, in the order read: {@code (cursor, end)},
 *     then {@code [head, cursor)}
 * @param nextCursor where the next run starts after: the last key examined when the limit was
 *     reached, {@code null} when the pass ended (the next run starts at the head)
 */
public record CursorSweep<V>(List<List<KeyValue<String, V>>> segments, String nextCursor) {

  /** A contiguous run shorter than this is deleted with point deletes. */
  public static final int RANGE_DELETE_MIN_ROWS = 16;

  /** Reads the rows of one run; call under the write lock. */
  public static <V> CursorSweep<V> read(Table<String, V> table, String cursor, int limit) {
    List<List<KeyValue<String, V>>> segments = new ArrayList<>(2);
    List<KeyValue<String, V>> tail = readRange(table, cursor, null, limit);
    segments.add(tail);
    if (tail.size() == limit) {
      return new CursorSweep<>(segments, lastKey(tail));
    }
    if (cursor == null) {
      return new CursorSweep<>(segments, null);
    }
    List<KeyValue<String, V>> head = readRange(table, null, cursor, limit - tail.size());
    segments.add(head);
    return new CursorSweep<>(segments,
        tail.size() + head.size() == limit && !head.isEmpty() ? lastKey(head) : null);
  }

  /** Rows examined. */
  public int size() {
    int n = 0;
    for (List<KeyValue<String, V>> s : segments) {
      n += s.size();
    }
    return n;
  }

  /** Up to {@code limit} rows after {@code after} (exclusive; null: the head) before {@code to}. */
  private static <V> List<KeyValue<String, V>> readRange(Table<String, V> table, String after,
      String to, int limit) {
    List<KeyValue<String, V>> out = new ArrayList<>(Math.min(limit, 256));
    try (TableIterator<String, KeyValue<String, V>> it =
             table.rangeIterator(null, to, IteratorType.KEY_AND_VALUE)) {
      if (after != null) {
        it.seekAfter(after);
      }
      while (out.size() < limit && it.hasNext()) {
        out.add(it.next());
      }
    }
    return out;
  }

  private static <V> String lastKey(List<KeyValue<String, V>> rows) {
    return rows.get(rows.size() - 1).getKey();
  }

  /**
   * Adds to {@code batch} the deletion of {@code rows}, which must be consecutive rows of one
   * segment in key order: one range tombstone {@code [first, last + U+0000)} when there are at
   * least {@link #RANGE_DELETE_MIN_ROWS}, else one point delete each. Returns the range tombstones
   * written (0 or 1).
   */
  public static <V> int delete(Table<String, V> table, BatchOperation batch,
      List<KeyValue<String, V>> rows) {
    if (rows.size() >= RANGE_DELETE_MIN_ROWS) {
      table.deleteRangeWithBatch(batch, rows.get(0).getKey(), lastKey(rows) + '\0');
      return 1;
    }
    for (KeyValue<String, V> row : rows) {
      table.deleteWithBatch(batch, row.getKey());
    }
    return 0;
  }
}
