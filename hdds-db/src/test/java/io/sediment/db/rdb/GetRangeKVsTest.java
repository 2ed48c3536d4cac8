package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static io.sediment.db.testing.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sediment.db.DBStore;
import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#getRangeKVs} and {@link Table#getSequentialRangeKVs} exactly as DESIGN §2 and the
 * Javadoc define them: argument checks, where the range starts (a {@code null} start key, an
 * inclusive start key that must exist unless it equals the prefix, a start key outside the prefix
 * starting nothing, an empty prefix meaning none),
 * filters and how {@code count} counts only kept entries, the sequential variant's stop rule, and
 * the count-one fast path, which is one point read and no iterator (proved with RocksDB's
 * {@code NUMBER_DB_SEEK} and {@code NUMBER_KEYS_READ} tickers) while every other request is exactly
 * one seek and no point read, with identical results either way.
 */
class GetRangeKVsTest {

  private static final String[] KEYS = {
      "a/1", "a/2", "a/3", "a/4", "a/5", "b/1", "b/2", "c/0y", "c/1x", "c/2x", "c/3y", "c/4x", "d"};

  @TempDir Path dir;
  private DBStore store;
  private Table<byte[], byte[]> table;

  @BeforeEach
  void populate() {
    store = TestStores.open(dir);
    table = store.getTable("bytes");
    Table<String, String> strings = store.getTable(TestStores.STRINGS);
    for (String k : KEYS) {
      table.put(b(k), b("v:" + k));
      strings.put(k, "v:" + k);
    }
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Keys of the result, checking that each value is the one written for its key. */
  private static List<String> keys(List<KeyValue<byte[], byte[]>> kvs) {
    List<String> out = new ArrayList<>();
    for (KeyValue<byte[], byte[]> kv : kvs) {
      String k = s(kv.getKey());
      assertEquals("v:" + k, s(kv.getValue()), "value of " + k);
      out.add(k);
    }
    return out;
  }

  private List<String> range(String start, int count, String prefix, KeyFilter... filters) {
    return keys(table.getRangeKVs(start == null ? null : b(start), count,
        prefix == null ? null : b(prefix), filters));
  }

  private List<String> sequential(String start, int count, String prefix, KeyFilter... filters) {
    return keys(table.getSequentialRangeKVs(start == null ? null : b(start), count,
        prefix == null ? null : b(prefix), filters));
  }

  private static KeyFilter endsWith(String suffix) {
    return key -> s(key).endsWith(suffix);
  }

  private static final KeyFilter ACCEPT_ALL = key -> true;

  // ---- arguments ------------------------------------------------------------------------------

  @Test
  void negativeCountIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> range(null, -1, null));
    assertThrows(IllegalArgumentException.class, () -> range("a/1", -1, "a/"));
    assertThrows(IllegalArgumentException.class, () -> sequential(null, -5, null));
  }

  @Test
  void zeroCountIsEmpty() {
    assertEquals(List.of(), range(null, 0, null));
    assertEquals(List.of(), range("a/1", 0, null));
    assertEquals(List.of(), range("a/1", 0, "a/", ACCEPT_ALL));
    assertEquals(List.of(), sequential("a/", 0, "a/"));
  }

  /**
   * Start keys outside the prefix {@code b/}, existing or not, shorter or longer than it, sorting
   * before or after its keys. {@code b} sorts just before the prefix and is shorter than it, so it
   * need not exist: a plain seek there would clamp to the prefix start and list {@code b/1}.
   */
  private static final String[] OUTSIDE_B = {
      "a/1", "a/5", "a/35", "a", "b", "", "0", "b.", "b0", "c/0y", "c", "d", "zz"};

  @Test
  void startKeyOutsideThePrefixGivesEmptyOnTheFastAndTheIteratorPath() {
    table.put(b("b"), b("v:b"));
    for (String start : OUTSIDE_B) {
      assertEquals(List.of(), range(start, 1, "b/"), start + ", count 1 (fast-path shape)");
      assertEquals(List.of(), range(start, 5, "b/"), start + ", count 5");
      assertEquals(List.of(), range(start, 1, "b/", ACCEPT_ALL), start + ", count 1, filtered");
      assertEquals(List.of(), range(start, Integer.MAX_VALUE, "b/"), start + ", every entry");
      assertEquals(List.of(), sequential(start, 1, "b/"), start + ", sequential count 1");
      assertEquals(List.of(), sequential(start, 5, "b/", ACCEPT_ALL), start + ", sequential");
    }
    assertEquals(List.of("b/1", "b/2"), range("b/", 5, "b/"), "the prefix itself still starts it");
    assertEquals(List.of("b", "b/1"), range("b", 2, null), "and b exists, as a key of the table");
  }

  @Test
  void startKeyOutsideThePrefixCostsNoSeekAndNoPointRead() {
    for (String start : OUTSIDE_B) {
      assertArrayEquals(new long[] {0, 0}, cost(() -> range(start, 1, "b/")), start + ", count 1");
      assertArrayEquals(new long[] {0, 0}, cost(() -> range(start, 5, "b/")), start + ", count 5");
    }
  }

  @Test
  void argumentErrorsStillThrowForAStartKeyOutsideThePrefix() {
    assertThrows(IllegalArgumentException.class, () -> range("a/1", -1, "b/"));
    assertThrows(IllegalArgumentException.class, () -> sequential("d", -1, "b/"));
    byte[] tooLong = new byte[((RDBTable) table).maxKeyBytes() + 1];
    assertThrows(IllegalArgumentException.class, () -> table.getRangeKVs(tooLong, 1, b("b/")));
  }

  @Test
  void startKeyOutsideThePrefixGivesEmptyThroughATypedTableAndAReadView() {
    Table<String, String> strings = store.getTable(TestStores.STRINGS);
    for (String start : OUTSIDE_B) {
      assertEquals(List.of(), strings.getRangeKVs(start, 1, "b/"), "typed " + start);
      assertEquals(List.of(), strings.getRangeKVs(start, 5, "b/"), "typed " + start);
      assertEquals(List.of(), strings.getSequentialRangeKVs(start, 5, "b/"), "typed " + start);
    }
    try (var view = store.openReadView()) {
      Table<byte[], byte[]> raw = view.getTable("bytes");
      Table<String, String> typed = view.getTable(TestStores.STRINGS);
      for (String start : OUTSIDE_B) {
        assertEquals(List.of(), raw.getRangeKVs(b(start), 1, b("b/")), "view " + start);
        assertEquals(List.of(), raw.getRangeKVs(b(start), 5, b("b/")), "view " + start);
        assertEquals(List.of(), raw.getSequentialRangeKVs(b(start), 5, b("b/")), "view " + start);
        assertEquals(List.of(), typed.getRangeKVs(start, 1, "b/"), "typed view " + start);
        assertEquals(List.of(), typed.getRangeKVs(start, 5, "b/"), "typed view " + start);
      }
      assertEquals(List.of(KeyValue.of("b/1", "v:b/1")), typed.getRangeKVs("b/1", 1, "b/"));
    }
  }

  // ---- where the range starts -----------------------------------------------------------------

  @Test
  void nullStartKeyStartsAtTheTableStart() {
    assertEquals(List.of("a/1", "a/2", "a/3"), range(null, 3, null));
    assertEquals(List.of("a/1"), range(null, 1, null));
  }

  @Test
  void nullStartKeyWithAPrefixStartsAtThePrefixAndStaysInIt() {
    assertEquals(List.of("b/1"), range(null, 1, "b/"));
    assertEquals(List.of("b/1", "b/2"), range(null, 10, "b/"));
    assertEquals(List.of("c/0y", "c/1x", "c/2x", "c/3y", "c/4x"), range(null, 10, "c/"));
  }

  @Test
  void startKeyIsInclusive() {
    assertEquals(List.of("a/3", "a/4"), range("a/3", 2, null));
    assertEquals(List.of("a/5", "b/1", "b/2"), range("a/5", 3, null), "crosses prefixes when none");
    assertEquals(List.of("a/3", "a/4", "a/5"), range("a/3", 10, "a/"), "stops at the prefix end");
    assertEquals(List.of("d"), range("d", 10, null));
  }

  @Test
  void missingStartKeyWithoutAPrefixGivesEmpty() {
    assertEquals(List.of(), range("a/35", 3, null));
    assertEquals(List.of(), range("a/35", 1, null));
    assertEquals(List.of(), range("a/35", 3, null, ACCEPT_ALL));
    assertEquals(List.of(), range("a/", 3, null), "without a prefix even 'a/' must exist");
    assertEquals(List.of(), range("0", 3, null), "before every key");
    assertEquals(List.of(), range("zz", 3, null), "after every key");
  }

  @Test
  void missingStartKeyLongerThanThePrefixGivesEmpty() {
    assertEquals(List.of(), range("a/35", 3, "a/"));
    assertEquals(List.of(), range("a/35", 1, "a/"));
    assertEquals(List.of(), range("a/35", 1, "a/", ACCEPT_ALL));
    assertEquals(List.of(), sequential("a/35", 3, "a/"));
    assertEquals(List.of(), range("a/9", 3, "a/"), "past the prefix's last key");
  }

  @Test
  void startKeyEqualToThePrefixIsTheRangeStartAndNeedNotExist() {
    assertEquals(List.of("a/1", "a/2"), range("a/", 2, "a/"));
    assertEquals(List.of("a/1"), range("a/", 1, "a/"));
    assertEquals(List.of("b/1", "b/2"), range("b/", 50, "b/"));
    assertEquals(List.of(), range("e/", 5, "e/"), "an empty prefix range");
  }

  @Test
  void startKeyEqualToAnExistingPrefixKeyIncludesIt() {
    table.put(b("d/"), b("v:d/"));
    table.put(b("d/x"), b("v:d/x"));
    assertEquals(List.of("d/", "d/x"), range("d/", 5, "d/"));
    assertEquals(List.of("d/"), range("d/", 1, "d/"));
  }

  @Test
  void emptyPrefixMeansNoPrefix() {
    String[][] starts = {{null}, {"a/3"}, {"a/35"}, {"d"}, {"b/1"}};
    for (String[] start : starts) {
      for (int count : new int[] {1, 2, 100}) {
        List<String> none = range(start[0], count, null);
        List<KeyValue<byte[], byte[]>> empty =
            table.getRangeKVs(start[0] == null ? null : b(start[0]), count, new byte[0]);
        assertEquals(none, keys(empty), "start " + start[0] + " count " + count);
      }
    }
    assertEquals(List.of("a/1", "a/2", "a/3"), keys(table.getRangeKVs(null, 3, new byte[0])));
  }

  @Test
  void countLargerThanAvailableReturnsEverything() {
    assertEquals(List.of(KEYS), range(null, 1_000, null));
    assertEquals(List.of("a/4", "a/5"), range("a/4", Integer.MAX_VALUE, "a/"));
  }

  @Test
  void prefixWithoutKeysIsEmpty() {
    assertEquals(List.of(), range(null, 5, "zz"));
    assertEquals(List.of(), range(null, 5, "a0"), "between two prefixes");
    assertEquals(List.of(), range(null, 1, "b/3"));
    assertEquals(List.of(), range("e/", 5, "e/"));
    assertEquals(List.of(), range(null, 5, "\u00ff"));
  }

  // ---- filters --------------------------------------------------------------------------------

  @Test
  void filtersKeepOnlyPassingKeysAndCountCountsKeptEntries() {
    assertEquals(List.of("b/1"), range(null, 1, null, KeyFilter.prefix(b("b/"))));
    assertEquals(List.of("b/1", "b/2"), range(null, 10, null, KeyFilter.prefix(b("b/"))));
    assertEquals(List.of("b/1", "b/2", "c/0y"),
        range(null, 3, null, KeyFilter.notPrefix(b("a/"))));
    assertEquals(List.of("a/2", "b/2"), range(null, 2, null, endsWith("2")));
    assertEquals(List.of("a/2", "b/2", "c/2x"), range(null, 10, null, key -> s(key).contains("2")));
    assertEquals(List.of("a/4", "a/5"), range("a/4", 10, "a/", key -> key.length == 3));
    assertEquals(List.of("c/1x", "c/2x", "c/4x"), range("c/", 10, "c/", endsWith("x")));
    assertEquals(List.of(), range(null, 10, "a/", KeyFilter.prefix(b("b/"))), "filters and prefix");
  }

  @Test
  void everyFilterMustAccept() {
    KeyFilter notB = KeyFilter.notPrefix(b("b/"));
    KeyFilter ends1 = endsWith("1");
    assertEquals(List.of("a/1"), range(null, 10, null, notB, ends1));
    assertEquals(List.of("a/1", "b/1"), range(null, 10, null, ends1));
  }

  @Test
  void filteredCountOneKeepsIteratingPastARejectedStartKey() {
    assertEquals(List.of("a/3"), range("a/1", 1, "a/", endsWith("3")));
    assertEquals(List.of("a/3"), range("a/1", 1, null, endsWith("3")));
    assertEquals(List.of("c/1x"), range("c/0y", 1, "c/", endsWith("x")));
    assertEquals(List.of(), range("a/4", 1, "a/", endsWith("3")), "no match after the start");
  }

  @Test
  void sequentialStopsAtTheFirstRejectedKeyAfterTheFirstMatch() {
    KeyFilter x = endsWith("x");
    assertEquals(List.of("c/1x", "c/2x", "c/4x"), range(null, 10, "c/", x));
    assertEquals(List.of("c/1x", "c/2x"), sequential(null, 10, "c/", x),
        "skips the leading c/0y, stops at c/3y");
    assertEquals(List.of("c/1x", "c/2x"), sequential("c/0y", 10, "c/", x));
    assertEquals(List.of("c/4x"), sequential("c/3y", 10, "c/", x));
    assertEquals(List.of("c/1x"), sequential("c/0y", 1, "c/", x), "count still applies");
    assertEquals(List.of("a/1", "a/2", "a/3", "a/4", "a/5"),
        sequential(null, 100, null, KeyFilter.prefix(b("a/"))));
    assertEquals(List.of("b/1", "b/2"), sequential(null, 100, null, KeyFilter.prefix(b("b/"))),
        "leading a/ keys skipped, stops at c/");
  }

  @Test
  void sequentialWithoutFiltersEqualsRange() {
    assertEquals(range(null, 100, null), sequential(null, 100, null));
    assertEquals(range("a/2", 4, null), sequential("a/2", 4, null));
    assertEquals(range("a/", 3, "a/"), sequential("a/", 3, "a/"));
    assertEquals(range("a/2", 1, "a/"), sequential("a/2", 1, "a/"));
  }

  // ---- the count-one fast path ------------------------------------------------------------------

  private long seeks() {
    return store.getTickerCount("NUMBER_DB_SEEK");
  }

  private long pointReads() {
    return store.getTickerCount("NUMBER_KEYS_READ");
  }

  /** Runs {@code call} and returns {seeks, point reads} it caused. */
  private long[] cost(Runnable call) {
    long seeks = seeks();
    long reads = pointReads();
    call.run();
    return new long[] {seeks() - seeks, pointReads() - reads};
  }

  @Test
  void tickersCountSeeksAndPointReads() {
    long[] get = cost(() -> table.get(b("a/1")));
    assertArrayEquals(new long[] {0, 1}, get, "a get is one point read and no seek");
    long[] scan = cost(() -> {
      try (var it = table.iterator()) {
        assertEquals("a/2", s(it.seek(b("a/2")).getKey()));
      }
    });
    assertArrayEquals(new long[] {1, 0}, scan, "an iterator seek is one seek and no point read");
  }

  @Test
  void countOneWithAStartKeyInsideThePrefixIsOnePointReadAndNoSeek() {
    long[] c = cost(() -> assertEquals(List.of("a/3"), range("a/3", 1, "a/")));
    assertArrayEquals(new long[] {0, 1}, c, "prefix a/, start a/3");
    c = cost(() -> assertEquals(List.of("a/3"), range("a/3", 1, null)));
    assertArrayEquals(new long[] {0, 1}, c, "no prefix");
    c = cost(() -> assertEquals(List.of("a/3"), keys(table.getRangeKVs(b("a/3"), 1, new byte[0]))));
    assertArrayEquals(new long[] {0, 1}, c, "empty prefix");
    c = cost(() -> assertEquals(List.of(), range("a/35", 1, "a/")));
    assertArrayEquals(new long[] {0, 1}, c, "missing start key");
    c = cost(() -> assertEquals(List.of("a/3"), sequential("a/3", 1, "a/")));
    assertArrayEquals(new long[] {0, 1}, c, "sequential form");
  }

  @Test
  void everyOtherRequestIsExactlyOneSeekAndNoPointRead() {
    List<Supplier<List<String>>> requests = List.of(
        () -> range("a/3", 2, "a/"),
        () -> range("a/3", 2, null),
        () -> range("a/3", 1, "a/", ACCEPT_ALL),
        () -> range("a/3", 1, null, ACCEPT_ALL),
        () -> range("a/", 1, "a/"),
        () -> range(null, 1, "a/"),
        () -> range(null, 1, null),
        () -> range("a/35", 2, "a/"),
        () -> range("a/1", 1, "a/", endsWith("3")),
        () -> range(null, 100, null),
        () -> sequential("c/0y", 10, "c/", endsWith("x")),
        () -> range(null, 5, "zz"));
    for (int i = 0; i < requests.size(); i++) {
      Supplier<List<String>> r = requests.get(i);
      assertArrayEquals(new long[] {1, 0}, cost(r::get), "request #" + i);
    }
  }

  @Test
  void fastPathResultEqualsTheRangePathResult() {
    String[][] cases = {{"a/1", "a/"}, {"a/5", "a/"}, {"a/3", null}, {"d", null}, {"a/35", "a/"},
        {"c/4x", "c/"}, {"zz", null}};
    for (String[] c : cases) {
      byte[] start = b(c[0]);
      byte[] prefix = c[1] == null ? null : b(c[1]);
      List<KeyValue<byte[], byte[]>> fast = table.getRangeKVs(start, 1, prefix);
      List<KeyValue<byte[], byte[]>> filtered = table.getRangeKVs(start, 1, prefix, ACCEPT_ALL);
      List<KeyValue<byte[], byte[]>> two = table.getRangeKVs(start, 2, prefix);
      assertEquals(filtered, fast, c[0] + " in " + c[1]);
      assertEquals(two.subList(0, Math.min(1, two.size())), fast, c[0] + " in " + c[1]);
    }
  }

  @Test
  void returnedKeysAreCopiesOfTheCallersArrays() {
    byte[] start = b("a/3");
    byte[] prefix = b("a/");
    List<KeyValue<byte[], byte[]>> fast = table.getRangeKVs(start, 1, prefix);
    List<KeyValue<byte[], byte[]>> ranged = table.getRangeKVs(start, 2, prefix);
    start[2] = '9';
    prefix[0] = 'z';
    assertEquals("a/3", s(fast.get(0).getKey()), "fast path");
    assertEquals("a/3", s(ranged.get(0).getKey()), "range path");
    fast.get(0).getKey()[0] = 'q';
    assertEquals(List.of("a/3"), range("a/3", 1, "a/"), "stored data untouched");
  }

  // ---- typed table ----------------------------------------------------------------------------

  @Test
  void typedTableRangeKVsUseStringKeys() {
    Table<String, String> strings = store.getTable(TestStores.STRINGS);
    assertEquals(List.of(KeyValue.of("a/3", "v:a/3"), KeyValue.of("a/4", "v:a/4")),
        strings.getRangeKVs("a/3", 2, "a/"));
    assertEquals(List.of(KeyValue.of("b/1", "v:b/1"), KeyValue.of("b/2", "v:b/2")),
        strings.getRangeKVs(null, 10, "b/"));
    assertEquals(List.of(KeyValue.of("b/1", "v:b/1"), KeyValue.of("b/2", "v:b/2")),
        strings.getRangeKVs("b/", 10, "b/"));
    assertEquals(List.of(), strings.getRangeKVs("a/35", 2, "a/"));
    assertEquals(List.of(), strings.getRangeKVs("a/35", 1, "a/"));
    assertEquals(List.of(KeyValue.of("a/1", "v:a/1")), strings.getRangeKVs(null, 1, ""));
    assertEquals(List.of(KeyValue.of("c/1x", "v:c/1x"), KeyValue.of("c/2x", "v:c/2x")),
        strings.getSequentialRangeKVs(null, 10, "c/", endsWith("x")));
    assertEquals(List.of(), strings.getRangeKVs("b/1", 2, "a/"), "start key outside the prefix");
    assertThrows(IllegalArgumentException.class, () -> strings.getRangeKVs(null, -1, null));

    long[] fast = cost(() -> assertEquals(List.of(KeyValue.of("a/3", "v:a/3")),
        strings.getRangeKVs("a/3", 1, "a/")));
    assertArrayEquals(new long[] {0, 1}, fast, "typed fast path");
    long[] ranged = cost(() -> strings.getRangeKVs("a/", 1, "a/"));
    assertArrayEquals(new long[] {1, 0}, ranged, "typed range path");
  }
}
