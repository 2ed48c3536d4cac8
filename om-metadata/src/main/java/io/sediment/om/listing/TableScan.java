package io.sediment.om.listing;

import io.sediment.db.codec.Bytes;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;

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
 * size of 0 opens nothing ({@link Pager}). A row's name is decoded only if the delimiter, the
 * {@link Rows} or the cursor asks for it. Not thread-safe.
 *
 * @param <R> the item type
 */
public final class TableScan<R> implements Scan<R> {

  /** How the rows of a {@link TableScan} become items. */
  public interface Rows<R> {

    /** The item of {@code row}, or {@code null} to list nothing for it. */
    R row(Entry row);

    /** The item of a common prefix (ending with the delimiter); only called with a delimiter. */
    default R commonPrefix(String name) {
      throw new UnsupportedOperationException("No common prefixes in this listing");
    }

    /**
     * Whether {@link #row}, or an item after it returned, may ask a row for its name (true by
     * default).
     * When not, and without a delimiter, the scan reads rows without their keys, and the only
     * row whose name is read is the one the page resumes after ({@link TableScan#resumeCursor()}).
     */
    default boolean keepsNames() {
      return true;
    }
  }

  /**
   * One row read (its value and its name, the key without the base), or a common prefix (no
   * value). The name is decoded from the key when first asked for, so a listing that returns
   * values only decodes none but the last row's, for its cursor. A row read without its key
   * ({@link Rows#keepsNames()} false) has a name only once the scan read it for its cursor.
   */
  public static final class Entry {
    /** The row's key; {@code null} for a common prefix and for a row read without its key. */
    private byte[] key;
    private final int nameOffset;
    private final byte[] value;
    private final boolean prefix;
    private String name;

    private Entry(byte[] key, int nameOffset, byte[] value, String name, boolean prefix) {
      this.key = key;
      this.nameOffset = nameOffset;
      this.value = value;
      this.name = name;
      this.prefix = prefix;
    }

    static Entry prefix(String name) {
      return new Entry(null, 0, null, name, true);
    }

    /**
     * The row's key without the base, or the common prefix.
     *
     * @throws io.sediment.db.codec.CodecException if the key is not well-formed UTF-8
     * @throws IllegalStateException for a row read without its key, other than the one the page
     *     resumes after
     */
    public String name() {
      if (name == null) {
        if (key == null) {
          throw new IllegalStateException("This row was read without its key");
        }
        name = StringCodec.get().decode(key, nameOffset, key.length - nameOffset);
      }
      return name;
    }

    /** The row's stored value; {@code null} for a common prefix. */
    public byte[] value() {
      return value;
    }

    public boolean isPrefix() {
      return prefix;
    }

    Cursor cursor() {
      return new Cursor(name(), isPrefix());
    }
  }

  /** Rows as {@link Entry}s, common prefixes included. */
  public static final Rows<Entry> ENTRIES = new EntryRows(true);

  /**
   * Rows as {@link Entry}s whose names are not asked for (without a delimiter they are read
   * without their keys), common prefixes included.
   */
  public static final Rows<Entry> VALUE_ENTRIES = new EntryRows(false);

  /** Rows as themselves; whether their names are asked for is the constant's. */
  private record EntryRows(boolean keepsNames) implements Rows<Entry> {
    @Override
    public Entry row(Entry row) {
      return row;
    }

    @Override
    public Entry commonPrefix(String name) {
      return Entry.prefix(name);
    }
  }

  private final TableIterator<byte[], KeyValue<byte[], byte[]>> it;
  private final String base;
  private final int baseLength;
  /** Where a key goes on past {@code base + prefix}: where a delimiter is looked for. */
  private final int afterPrefix;
  /** The delimiter's UTF-8 bytes; {@code null} for none. */
  private final byte[] delimiter;
  private final Rows<R> rows;
  /** Where the iterator must seek before the next row: past the last common prefix. */
  private byte[] skipTo;
  private boolean exhausted;
  private R peeked;
  private Entry peekedEntry;
  /** The entry of the item {@link #advance()} found last. */
  private Entry found;
  /** The entry of the item {@link #next()} returned last. */
  private Entry resume;

  private TableScan(Table<byte[], byte[]> table, String base, String prefix, String delimiter,
      Rows<R> rows) {
    this.base = base;
    this.baseLength = utf8(base).length;
    byte[] start = utf8(base + (prefix == null ? "" : prefix));
    this.afterPrefix = start.length;
    this.delimiter = delimiter == null || delimiter.isEmpty() ? null : utf8(delimiter);
    this.rows = rows;
    this.it = table.iterator(start, this.delimiter != null || rows.keepsNames()
        ? IteratorType.KEY_AND_VALUE : IteratorType.VALUE_ONLY);
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
      resume = peekedEntry;
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
      peekedEntry = found;
    }
    return peeked != null;
  }

  @Override
  public <T> T reading(Supplier<T> reads) {
    try (TableIterator.Hold held = it.hold()) {
      return reads.get();
    }
  }

  @Override
  public Cursor resumeCursor() {
    if (resume == null) {
      return null;
    }
    if (resume.key == null && !resume.isPrefix()) {
      // Read without its key: the iterator is still on it (see Scan#resumeCursor).
      resume.key = it.currentKey();
    }
    return resume.cursor();
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
      byte[] key = kv.getKey();
      if (delimiter != null) {
        // Found in the bytes: in well-formed UTF-8 a match cannot start inside a character.
        int at = Bytes.indexOf(key, delimiter, afterPrefix);
        if (at >= 0) {
          int end = at + delimiter.length;
          String common = StringCodec.get().decode(key, baseLength, end - baseLength);
          skipTo = Bytes.prefixSuccessor(Arrays.copyOf(key, end));
          exhausted = skipTo == null;
          found = Entry.prefix(common);
          return rows.commonPrefix(common);
        }
      }
      Entry row = new Entry(key, baseLength, kv.getValue(), null, false);
      R item = rows.row(row);
      if (item != null) {
        found = row;
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
