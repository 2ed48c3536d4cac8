package io.sediment.om;

import static io.sediment.om.OmKeys.utf8;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.StringCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * One page of a name-ordered listing read from one table: the entries under {@code base + prefix}
 * after a cursor, optionally rolled up at a delimiter into common prefixes.
 *
 * <p>One natively bounded iterator over {@code base + prefix} (it never walks entries or
 * tombstones outside the listing), positioned once with {@code seek(cursor)} (an exact match of
 * the cursor is skipped; a prefix cursor skips everything under it), advanced one entry per item;
 * a common prefix is left with one seek to its successor instead of walking its keys. When the
 * page is full, one {@code hasNext()} decides {@link #truncated()} exactly. A cursor whose key was
 * deleted meanwhile resumes at the next live key. A page size of 0 reads nothing (no iterator is
 * opened) and is never truncated, as S3 answers max-keys=0.
 *
 * @param entries the page, in key (UTF-8 byte) order; names are keys without {@code base}
 * @param truncated whether at least one more entry follows the page
 */
record PageScan(List<PageScan.Entry> entries, boolean truncated) {

  /** One listed item: a key (with its encoded value) or a common prefix ({@code value} null). */
  record Entry(String name, byte[] value, boolean isPrefix) {
  }

  /** The page asked for with a page size of 0. */
  static final PageScan EMPTY = new PageScan(List.of(), false);

  Entry last() {
    return entries.get(entries.size() - 1);
  }

  <T> List<T> values(Function<byte[], T> decode) {
    List<T> out = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      out.add(decode.apply(e.value()));
    }
    return out;
  }

  /** A start-after name as a cursor; {@code null} or empty for none. */
  static ListTokens.Cursor cursorOf(String startAfter) {
    return startAfter == null || startAfter.isEmpty()
        ? null : new ListTokens.Cursor(startAfter, false);
  }

  /**
   * Reads one page.
   *
   * @param table a raw (byte[]) view of the table, e.g. from a {@code ReadView}
   * @param base the fixed part of every key (e.g. {@code /vol/bucket/}); stripped from names
   * @param prefix the listing prefix after {@code base} ({@code ""} for none)
   * @param delimiter roll up names whose remainder after {@code prefix} contains it; null for none
   * @param cursor resume after this name (exclusive); null to start at the beginning
   * @param max page size; 0 for the empty, untruncated page
   */
  static PageScan read(Table<byte[], byte[]> table, String base, String prefix, String delimiter,
      ListTokens.Cursor cursor, int max) {
    if (max == 0) {
      return EMPTY;
    }
    int baseLength = utf8(base).length;
    List<Entry> out = new ArrayList<>(Math.min(max, 64));
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             table.iterator(utf8(base + prefix), IteratorType.KEY_AND_VALUE)) {
      if (cursor != null) {
        byte[] at = utf8(base + cursor.lastKey());
        if (cursor.lastIsPrefix()) {
          at = Bytes.prefixSuccessor(at);
          if (at == null) {
            return new PageScan(out, false);
          }
          it.seek(at);
        } else {
          KeyValue<byte[], byte[]> landed = it.seek(at);
          if (landed != null && Arrays.equals(landed.getKey(), at)) {
            it.next();
          }
        }
      }
      while (out.size() < max && it.hasNext()) {
        KeyValue<byte[], byte[]> kv = it.next();
        byte[] k = kv.getKey();
        String name = StringCodec.get().fromPersistedFormat(
            Arrays.copyOfRange(k, baseLength, k.length));
        if (delimiter != null) {
          int at = name.indexOf(delimiter, prefix.length());
          if (at >= 0) {
            String common = name.substring(0, at + delimiter.length());
            out.add(new Entry(common, null, true));
            byte[] after = Bytes.prefixSuccessor(utf8(base + common));
            if (after == null) {
              return new PageScan(out, false);
            }
            it.seek(after);
            continue;
          }
        }
        out.add(new Entry(name, kv.getValue(), false));
      }
      return new PageScan(out, it.hasNext());
    }
  }
}
