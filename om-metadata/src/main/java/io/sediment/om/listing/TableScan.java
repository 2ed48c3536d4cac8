package io.sediment.om.listing;

import io.sediment.db.codec.Bytes;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@link Scan} of the common listing: the rows of one table under {@code base + prefix}, in
 * key (UTF-8 byte) order, named by their key without {@code base}, optionally rolled up at a
 * delimiter into common prefixes.
 *
 * <p>One natively bounded iterator over {@code base + prefix} (it never walks entries or
 * tombstones outside the listing), positioned once: {@link TableIterator#seekAfter} the cursor,
 * or for a prefix cursor one seek to the successor of the prefix. Rows are read one per item (a
 * row the {@link Rows} skip is read past); a common prefix is left with one seek to its
 * successor, made only when the row after it is asked for, instead of walking its keys. A page
 * size of 0 opens nothing ({@link Pager}). Not thread-safe.
 *
 * @param <R> the item type
 */
public final class TableScan<R> implements Scan<R> {

  /** How the rows of a {@link TableScan} become items. */
  public interface Rows<R> {

    /**
     * The item of the row named {@code name} (its key without the base) with {@code value}, or
     * {@code null} to list nothing for it.
     */
    R row(String name, byte[] value);

    /** The item of a common prefix (ending with the delimiter); only called with a delimiter. */
    default R commonPrefix(String name) {
      throw new UnsupportedOperationException("No common prefixes in this listing");
    }
  }

  /** One listed row or common prefix ({@code value} null), for listings that want both. */
  public record Entry(String name, byte[] value, boolean isPrefix) {
  }

  /** Rows as {@link Entry}s, common prefixes included. */
  public static final Rows<Entry> ENTRIES = new Rows<>() {
    @Override
    public Entry row(String name, byte[] value) {
      return new Entry(name, value, false);
    }

    @Override
    public Entry commonPrefix(String name) {
      return new Entry(name, null, true);
    }
  };

  private final TableIterator<byte[], KeyValue<byte[], byte[]>> it;
  private final String base;
  private final int baseLength;
  private final String prefix;
  private final String delimiter;
  private final Rows<R> rows;
  /** Where the iterator must seek before the next row: past the last common prefix. */
  private byte[] skipTo;
  private boolean exhausted;
  private R peeked;
  private Cursor peekedCursor;
  /** The cursor of the item {@link #advance()} found last. */
  private Cursor found;
  private Cursor resume;

  private TableScan(Table<byte[], byte[]> table, String base, String prefix, String delimiter,
      Rows<R> rows) {
    this.base = base;
    this.baseLength = utf8(base).length;
    this.prefix = prefix == null ? "" : prefix;
    this.delimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
    this.rows = rows;
    this.it = table.iterator(utf8(base + this.prefix), IteratorType.KEY_AND_VALUE);
  }

  /**
   * The source of the rows of {@code table} under {@code base + prefix}.
   *
   * @param table a raw view of the table, e.g. from a {@code ReadView}
   * @param base the fixed part of every key, stripped from names (e.g. {@code /vol/bucket/})
   * @param prefix the listing prefix after {@code base}; {@code null} or empty for none
   * @param delimiter roll up names whose remainder after {@code prefix} contains it; {@code null}
   *     or empty for none
   */
  public static <R> PageSource<R> source(Table<byte[], byte[]> table, String base, String prefix,
      String delimiter, Rows<R> rows) {
    return after -> {
      TableScan<R> scan = new TableScan<>(table, base, prefix, delimiter, rows);
      try {
        scan.position(after);
      } catch (RuntimeException | Error e) {
        scan.close();
        throw e;
      }
      return scan;
    };
  }

  private void position(Cursor after) {
    if (after == null) {
      return;
    }
    byte[] at = utf8(base + after.lastKey());
    if (!after.lastIsPrefix()) {
      it.seekAfter(at);
      return;
    }
    byte[] past = Bytes.prefixSuccessor(at);
    if (past == null) {
      exhausted = true;
    } else {
      it.seek(past);
    }
  }

  @Override
  public R next() {
    R item;
    if (peeked != null) {
      item = peeked;
      resume = peekedCursor;
      peeked = null;
    } else {
      item = advance();
      resume = found;
    }
    return item;
  }

  @Override
  public boolean hasMore() {
    if (peeked == null) {
      peeked = advance();
      peekedCursor = found;
    }
    return peeked != null;
  }

  @Override
  public Cursor resumeCursor() {
    return resume;
  }

  /** Reads rows until one lists an item; {@code null} at the end. */
  private R advance() {
    while (!exhausted) {
      if (skipTo != null) {
        it.seek(skipTo);
        skipTo = null;
      }
      if (!it.hasNext()) {
        return null;
      }
      KeyValue<byte[], byte[]> kv = it.next();
      byte[] k = kv.getKey();
      String name = StringCodec.get().fromPersistedFormat(
          Arrays.copyOfRange(k, baseLength, k.length));
      if (delimiter != null) {
        int at = name.indexOf(delimiter, prefix.length());
        if (at >= 0) {
          String common = name.substring(0, at + delimiter.length());
          skipTo = Bytes.prefixSuccessor(utf8(base + common));
          exhausted = skipTo == null;
          found = new Cursor(common, true);
          return rows.commonPrefix(common);
        }
      }
      R item = rows.row(name, kv.getValue());
      if (item != null) {
        found = new Cursor(name, false);
        return item;
      }
    }
    return null;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    it.close();
  }
}
