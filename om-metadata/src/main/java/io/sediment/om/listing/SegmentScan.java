package io.sediment.om.listing;

import static io.sediment.om.core.OmKeys.utf8;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.StringCodec;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.Scan;
import io.sediment.proto.om.KeyInfo;
import java.util.List;
import java.util.function.Predicate;

/**
 * One page of KeyInfo rows read from an ordered list of key ranges ("segments"), each a prefix of
 * one table, in segment order then key order: the read side of the insight listings.
 *
 * <p>Segments are read one at a time, each with one natively bounded iterator over its prefix
 * that is positioned once: strictly after the cursor for the segment holding it (a cursor deleted
 * meanwhile resumes at the next live key), at its start otherwise. Segments wholly before the
 * cursor are not opened. The {@link Pager} reads the page; after a full page, the next matching
 * row decides {@code truncated} exactly. Not thread-safe; reads one view.
 */
public final class SegmentScan implements Scan<SegmentScan.Row> {

  /**
   * A key range: every key of {@code table} starting with {@code prefix}.
   *
   * @param order the table's rank in the listing (segments are given in ascending
   *     {@code (order, prefix)} and never overlap)
   */
  public record Segment(int order, String table, String prefix) {
  }

  /** A resume point: after {@code key} of the table ranked {@code order} (exclusive). */
  public record Cursor(int order, String key) {
  }

  /** One row read. */
  public record Row(Segment segment, String key, KeyInfo info) {
  }

  /**
   * A page.
   *
   * @param rows in listing order
   * @param truncated whether another matching row follows the page
   */
  public record Page(List<Row> rows, boolean truncated) {
  }

  private final ReadView view;
  private final List<Segment> segments;
  private final Predicate<KeyInfo> filter;
  private int next;
  private Segment current;
  private TableIterator<byte[], KeyValue<byte[], byte[]>> it;
  private final Cursor cursor;
  private Row peeked;

  private SegmentScan(ReadView view, List<Segment> segments, Cursor cursor,
      Predicate<KeyInfo> filter) {
    this.view = view;
    this.segments = segments;
    this.cursor = cursor;
    this.filter = filter;
  }

  /**
   * Reads up to {@code limit} rows passing {@code filter} after {@code cursor} (null: from the
   * start).
   */
  public static Page read(ReadView view, List<Segment> segments, Cursor cursor, int limit,
      Predicate<KeyInfo> filter) {
    try (SegmentScan scan = new SegmentScan(view, segments, cursor, filter)) {
      io.sediment.om.listing.Page<Row> page = Pager.read(scan, limit);
      return new Page(page.items(), page.truncated());
    }
  }

  @Override
  public Row next() {
    if (peeked != null) {
      Row r = peeked;
      peeked = null;
      return r;
    }
    return nextRow();
  }

  @Override
  public boolean hasMore() {
    if (peeked == null) {
      peeked = nextRow();
    }
    return peeked != null;
  }

  /** Its cursors are {@link Cursor}s of its own (an order and a key): no token form. */
  @Override
  public io.sediment.om.listing.Cursor resumeCursor() {
    return null;
  }

  private Row nextRow() {
    while (true) {
      if (it == null && !openNext()) {
        return null;
      }
      while (it.hasNext()) {
        KeyValue<byte[], byte[]> kv = it.next();
        KeyInfo info = OmDBDefinition.KEY_TABLE.valueCodec().fromPersistedFormat(kv.getValue());
        if (filter == null || filter.test(info)) {
          return new Row(current, StringCodec.get().fromPersistedFormat(kv.getKey()), info);
        }
      }
      it.close();
      it = null;
    }
  }

  /** Opens the next segment not wholly before the cursor; false at the end. */
  private boolean openNext() {
    while (next < segments.size()) {
      Segment s = segments.get(next++);
      byte[] prefix = utf8(s.prefix());
      byte[] at = null;
      if (cursor != null) {
        if (s.order() < cursor.order()) {
          continue;
        }
        if (s.order() == cursor.order()) {
          byte[] key = utf8(cursor.key());
          byte[] end = Bytes.prefixSuccessor(prefix);
          if (end != null && Bytes.compare(end, key) <= 0) {
            continue;
          }
          if (Bytes.compare(key, prefix) >= 0) {
            at = key;
          }
        }
      }
      current = s;
      it = view.getTable(s.table()).iterator(prefix.length == 0 ? null : prefix,
          IteratorType.KEY_AND_VALUE);
      if (at != null) {
        it.seekAfter(at);
      }
      return true;
    }
    return false;
  }

  @Override
  public void close() {
    if (it != null) {
      it.close();
      it = null;
    }
  }
}
