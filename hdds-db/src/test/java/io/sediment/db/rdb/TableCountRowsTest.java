package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#countRows} and {@link Table#hasLiveKey} against a {@link TreeMap} oracle, after
 * point and range deletes, on the raw table, the typed table and a read view's table: exactly the
 * live keys under the prefix count, deleted ones never do, and a view sees its moment.
 */
class TableCountRowsTest {

  private static final List<String> PREFIXES =
      List.of("", "a", "a/", "a/b", "b", "b/c/", "c", "zz", "a/b/c/d");

  @Test
  void countsAndPresenceMatchTheLiveKeysUnderEveryPrefix(@TempDir Path dir) {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      Table<byte[], byte[]> raw = store.getTable(TestStores.STRINGS.name());
      TreeMap<String, String> oracle = new TreeMap<>();
      Random r = new Random(16);
      String[] parts = {"a", "b", "c", "a/", "b/c/"};
      for (int i = 0; i < 400; i++) {
        String k = parts[r.nextInt(parts.length)] + parts[r.nextInt(parts.length)] + i % 37;
        strings.put(k, "v" + i);
        oracle.put(k, "v" + i);
      }
      for (String k : List.copyOf(oracle.keySet())) {
        if (r.nextInt(3) == 0) {
          strings.delete(k);
          oracle.remove(k);
        }
      }
      strings.deleteRange("b/c/", "b/c/z");
      oracle.subMap("b/c/", "b/c/z").clear();
      store.flush();
      assertMatches(strings, raw, oracle);

      try (ReadView view = store.openReadView()) {
        TreeMap<String, String> atView = new TreeMap<>(oracle);
        strings.deletePrefix("a");
        oracle.subMap("a", "b").clear();
        assertMatches(strings, raw, oracle);
        assertMatches(view.getTable(TestStores.STRINGS), view.getTable(TestStores.STRINGS.name()),
            atView);
      }
    }
  }

  @Test
  void anEmptyTableHasNoLiveKeyAndCountsZero(@TempDir Path dir) {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      strings.put("k", "v");
      strings.delete("k");
      assertEquals(0, strings.countRows(null));
      assertEquals(false, strings.hasLiveKey(null));
      assertEquals(false, strings.hasLiveKey("k"));
    }
  }

  private static void assertMatches(Table<String, String> typed, Table<byte[], byte[]> raw,
      TreeMap<String, String> oracle) {
    Function<String, byte[]> bytes = s -> s.getBytes(StandardCharsets.UTF_8);
    for (String p : PREFIXES) {
      long expected = oracle.keySet().stream().filter(k -> k.startsWith(p)).count();
      assertEquals(expected, typed.countRows(p), "typed count under '" + p + "'");
      assertEquals(expected > 0, typed.hasLiveKey(p), "typed presence under '" + p + "'");
      assertEquals(expected, raw.countRows(bytes.apply(p)), "raw count under '" + p + "'");
      assertEquals(expected > 0, raw.hasLiveKey(bytes.apply(p)), "raw presence under '" + p + "'");
    }
    assertEquals(oracle.size(), typed.countRows(null));
    assertEquals(!oracle.isEmpty(), raw.hasLiveKey(null));
  }
}
