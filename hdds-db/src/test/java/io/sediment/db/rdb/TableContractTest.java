package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.TestBytes;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link Table} contract on a real store, for the raw {@code byte[]} table and for a typed
 * {@code String} table alike: point reads and writes (empty keys and values included),
 * {@code deleteRange} over {@code [from, to)}, emptiness and key estimates; batches that span two
 * tables and apply all-or-nothing on commit and are single use; and the store's one configured
 * {@code WriteOptions} ({@code sync}, {@code disableWAL}) applied by every write path, observed
 * through RocksDB statistics tickers.
 */
class TableContractTest {

  @TempDir Path dir;

  // ---- a String view of both kinds of table --------------------------------------------------

  /** A table seen through String keys and values, so one test body runs on both kinds. */
  static final class Ops<K, V> {
    final Table<K, V> table;
    final Function<String, K> key;
    final Function<K, String> keyText;
    final Function<String, V> value;
    final Function<V, String> valueText;

    Ops(Table<K, V> table, Function<String, K> key, Function<K, String> keyText,
        Function<String, V> value, Function<V, String> valueText) {
      this.table = table;
      this.key = key;
      this.keyText = keyText;
      this.value = value;
      this.valueText = valueText;
    }

    void put(String k, String v) {
      table.put(key.apply(k), value.apply(v));
    }

    String get(String k) {
      V v = table.get(key.apply(k));
      return v == null ? null : valueText.apply(v);
    }

    String getIfExist(String k) {
      V v = table.getIfExist(key.apply(k));
      return v == null ? null : valueText.apply(v);
    }

    boolean isExist(String k) {
      return table.isExist(key.apply(k));
    }

    void delete(String k) {
      table.delete(key.apply(k));
    }

    void deleteRange(String from, String to) {
      table.deleteRange(key.apply(from), key.apply(to));
    }

    void putWithBatch(BatchOperation b, String k, String v) {
      table.putWithBatch(b, key.apply(k), value.apply(v));
    }

    void deleteWithBatch(BatchOperation b, String k) {
      table.deleteWithBatch(b, key.apply(k));
    }

    void deleteRangeWithBatch(BatchOperation b, String from, String to) {
      table.deleteRangeWithBatch(b, key.apply(from), key.apply(to));
    }

    /** Every entry in key order, as key -> value. */
    Map<String, String> scan() {
      Map<String, String> out = new LinkedHashMap<>();
      try (TableIterator<K, KeyValue<K, V>> it = table.iterator()) {
        while (it.hasNext()) {
          KeyValue<K, V> kv = it.next();
          out.put(keyText.apply(kv.getKey()), valueText.apply(kv.getValue()));
        }
      }
      return out;
    }
  }

  static Ops<byte[], byte[]> raw(DBStore store) {
    return new Ops<>(store.getTable("bytes"), TestBytes::b, TestBytes::s,
        TestBytes::b, TestBytes::s);
  }

  static Ops<String, String> typed(DBStore store) {
    return new Ops<>(store.getTable(TestStores.STRINGS), s -> s, s -> s, s -> s, s -> s);
  }

  static Stream<Named<Function<DBStore, Ops<?, ?>>>> kinds() {
    return Stream.of(
        Named.of("raw byte[] table", TableContractTest::raw),
        Named.of("typed String table", TableContractTest::typed));
  }

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  // ---- point operations -----------------------------------------------------------------------

  @ParameterizedTest
  @MethodSource("kinds")
  void putGetOverwriteAndDelete(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      assertNull(t.get("k"));
      t.put("k", "v1");
      assertEquals("v1", t.get("k"));
      t.put("k", "v2");
      assertEquals("v2", t.get("k"), "put overwrites");
      t.put("other", "o");
      t.delete("k");
      assertNull(t.get("k"));
      assertEquals("o", t.get("other"), "delete touches only its key");
      t.delete("never-written");
      assertEquals(map("other", "o"), t.scan());
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void getIfExistAndIsExistAgreeWithGet(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      assertFalse(t.isExist("k"));
      assertNull(t.getIfExist("k"));
      t.put("k", "v");
      assertTrue(t.isExist("k"));
      assertEquals("v", t.getIfExist("k"));
      store.flush();
      assertTrue(t.isExist("k"), "found in an SST too");
      assertEquals("v", t.getIfExist("k"));
      assertFalse(t.isExist("k0"), "absent neighbour after flush");
      assertNull(t.getIfExist("kz"));
      t.delete("k");
      assertFalse(t.isExist("k"));
      assertNull(t.getIfExist("k"));
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void emptyValueIsPresentAndNotNull(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      t.put("k", "");
      assertEquals("", t.get("k"));
      assertEquals("", t.getIfExist("k"));
      assertTrue(t.isExist("k"));
      assertEquals(map("k", ""), t.scan());
      store.flush();
      assertEquals("", t.get("k"), "after flush");
      assertTrue(t.isExist("k"));
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void emptyKeyIsAnOrdinaryKeySortingFirst(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      t.put("a", "1");
      t.put("", "empty");
      assertEquals("empty", t.get(""));
      assertTrue(t.isExist(""));
      assertEquals("empty", t.getIfExist(""));
      assertEquals(List.of("", "a"), new ArrayList<>(t.scan().keySet()));
      t.deleteRange("", "a");
      assertNull(t.get(""));
      assertEquals(map("a", "1"), t.scan());
      t.put("", "again");
      t.delete("");
      assertFalse(t.isExist(""));
      assertEquals(map("a", "1"), t.scan());
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void valuesOfAnySizeRoundTripAcrossBufferBoundaries(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      int[] sizes = {1, 255, 256, 257, 4_095, 4_097, 70_000, 2_000_000, 300};
      for (int size : sizes) {
        String v = "v".repeat(size - 1) + (char) ('a' + size % 26);
        t.put("k" + size, v);
        assertEquals(v, t.get("k" + size), "size " + size);
        assertEquals(v, t.getIfExist("k" + size), "size " + size);
      }
      String small = "tiny";
      t.put("k300", small);
      assertEquals(small, t.get("k300"), "a small value after large ones");
      assertEquals(sizes.length, t.scan().size());
    }
  }

  // ---- deleteRange ------------------------------------------------------------------------------

  @ParameterizedTest
  @MethodSource("kinds")
  void deleteRangeRemovesFromInclusiveToExclusive(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      for (String k : new String[] {"a", "b", "b1", "c", "d", "e"}) {
        t.put(k, "v" + k);
      }
      t.deleteRange("b", "d");
      assertEquals(map("a", "va", "d", "vd", "e", "ve"), t.scan());
      assertNull(t.get("b"));
      assertNull(t.get("c"));
      assertEquals("vd", t.get("d"), "the end is exclusive");
      t.deleteRange("a0", "zz");
      assertEquals(map("a", "va"), t.scan(), "bounds need not exist");
      t.put("c", "new");
      assertEquals("new", t.get("c"), "a later put is visible over the range tombstone");
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void deleteRangeWithEqualBoundsDeletesNothing(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      t.put("a", "1");
      t.put("b", "2");
      t.deleteRange("b", "b");
      t.deleteRange("a", "a");
      assertEquals(map("a", "1", "b", "2"), t.scan());
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void deleteRangeWithFromAfterToIsRejectedAndChangesNothing(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      t.put("a", "1");
      t.put("b", "2");
      t.put("c", "3");
      assertThrows(IllegalArgumentException.class, () -> t.deleteRange("c", "a"));
      assertThrows(IllegalArgumentException.class, () -> t.deleteRange("b", ""));
      assertEquals(map("a", "1", "b", "2", "c", "3"), t.scan());
      try (BatchOperation batch = store.initBatchOperation()) {
        assertThrows(IllegalArgumentException.class, () -> t.deleteRangeWithBatch(batch, "c", "a"));
        assertEquals(0, batch.size());
        batch.commit();
      }
      assertEquals(map("a", "1", "b", "2", "c", "3"), t.scan());
    }
  }

  // ---- isEmpty and estimates ------------------------------------------------------------------

  @ParameterizedTest
  @MethodSource("kinds")
  void isEmptyFollowsLiveEntries(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      assertTrue(t.table.isEmpty());
      t.put("k", "v");
      assertFalse(t.table.isEmpty());
      t.delete("k");
      assertTrue(t.table.isEmpty(), "a tombstone is not an entry");
      t.put("x1", "v");
      t.put("x2", "v");
      store.flush();
      assertFalse(t.table.isEmpty());
      t.deleteRange("x", "y");
      assertTrue(t.table.isEmpty(), "after a range delete");
    }
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void estimatedKeyCountIsPositiveAndAtMostTheKeysInserted(Function<DBStore, Ops<?, ?>> kind) {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = kind.apply(store);
      int n = 500;
      for (int i = 0; i < n; i++) {
        t.put(String.format("key-%05d", i), "value-" + i);
      }
      long inMemtable = t.table.getEstimatedKeyCount();
      assertTrue(inMemtable > 0 && inMemtable <= n, "estimate " + inMemtable);
      store.flush();
      long inSst = t.table.getEstimatedKeyCount();
      assertTrue(inSst > 0 && inSst <= n, "estimate after flush " + inSst);
    }
  }

  // ---- batches --------------------------------------------------------------------------------

  @Test
  void batchAcrossTwoTablesIsInvisibleUntilCommitThenFullyApplied() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<byte[], byte[]> r = raw(store);
      Ops<String, String> s = typed(store);
      for (String k : new String[] {"a", "b", "c", "d", "e"}) {
        r.put(k, "r" + k);
        s.put(k, "s" + k);
      }
      Map<String, String> rawBefore = r.scan();
      Map<String, String> typedBefore = s.scan();
      try (BatchOperation batch = store.initBatchOperation()) {
        r.putWithBatch(batch, "a", "r-new");
        r.putWithBatch(batch, "z", "rz");
        r.deleteWithBatch(batch, "b");
        r.deleteRangeWithBatch(batch, "c", "e");
        s.putWithBatch(batch, "e", "s-new");
        s.deleteWithBatch(batch, "a");
        s.deleteRangeWithBatch(batch, "b", "d");
        assertEquals(7, batch.size());

        assertEquals(rawBefore, r.scan(), "nothing visible before commit");
        assertEquals(typedBefore, s.scan(), "nothing visible before commit");
        assertEquals("ra", r.get("a"));
        assertNull(r.get("z"));

        store.commitBatchOperation(batch);
      }
      assertEquals(map("a", "r-new", "e", "re", "z", "rz"), r.scan());
      assertEquals(map("d", "sd", "e", "s-new"), s.scan());
    }
  }

  @Test
  void batchOperationsApplyInTheOrderAdded() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<String, String> s = typed(store);
      try (BatchOperation batch = store.initBatchOperation()) {
        s.putWithBatch(batch, "k", "1");
        s.deleteWithBatch(batch, "k");
        s.putWithBatch(batch, "k", "2");
        s.putWithBatch(batch, "m", "x");
        s.deleteRangeWithBatch(batch, "l", "n");
        s.putWithBatch(batch, "m", "y");
        batch.commit();
      }
      assertEquals(map("k", "2", "m", "y"), s.scan());
    }
  }

  @Test
  void committingTwiceThrowsIllegalStateAndAppliesOnce() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<byte[], byte[]> r = raw(store);
      try (BatchOperation batch = store.initBatchOperation()) {
        r.putWithBatch(batch, "k", "v");
        batch.commit();
        r.delete("k");
        assertThrows(IllegalStateException.class, batch::commit);
        assertThrows(IllegalStateException.class, () -> store.commitBatchOperation(batch));
      }
      assertNull(r.get("k"), "the second commit did not re-apply the put");
    }
  }

  @Test
  void addingToACommittedOrClosedBatchThrowsIllegalState() {
    try (DBStore store = TestStores.open(dir)) {
      List<Ops<?, ?>> tables = List.of(raw(store), typed(store));
      BatchOperation committed = store.initBatchOperation();
      committed.commit();
      BatchOperation closed = store.initBatchOperation();
      closed.close();
      try {
        for (BatchOperation b : List.of(committed, closed)) {
          for (Ops<?, ?> t : tables) {
            assertThrows(IllegalStateException.class, () -> t.putWithBatch(b, "k", "v"));
            assertThrows(IllegalStateException.class, () -> t.deleteWithBatch(b, "k"));
            assertThrows(IllegalStateException.class, () -> t.deleteRangeWithBatch(b, "a", "z"));
          }
        }
        assertThrows(IllegalStateException.class, closed::commit);
        for (Ops<?, ?> t : tables) {
          assertEquals(Map.of(), t.scan());
        }
      } finally {
        committed.close();
        closed.close();
      }
    }
  }

  @Test
  void aBatchOfAnotherStoreIsRejected() {
    try (DBStore store = TestStores.open(dir.resolve("one"));
        DBStore other = TestStores.open(dir.resolve("two"));
        BatchOperation foreign = other.initBatchOperation()) {
      for (Ops<?, ?> t : List.of(raw(store), typed(store))) {
        assertThrows(IllegalArgumentException.class, () -> t.putWithBatch(foreign, "k", "v"));
        assertThrows(IllegalArgumentException.class, () -> t.deleteWithBatch(foreign, "k"));
        assertThrows(IllegalArgumentException.class,
            () -> t.deleteRangeWithBatch(foreign, "a", "z"));
      }
      assertEquals(0, foreign.size());
      foreign.commit();
      for (DBStore s : List.of(store, other)) {
        assertEquals(Map.of(), raw(s).scan());
        assertEquals(Map.of(), typed(s).scan());
      }
    }
  }

  @Test
  void closingAnUncommittedBatchDiscardsIt() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<byte[], byte[]> r = raw(store);
      Ops<String, String> s = typed(store);
      r.put("keep", "1");
      s.put("keep", "2");
      BatchOperation batch = store.initBatchOperation();
      r.putWithBatch(batch, "new", "x");
      r.deleteWithBatch(batch, "keep");
      s.deleteRangeWithBatch(batch, "a", "z");
      batch.close();
      batch.close(); // idempotent
      assertEquals(0, batch.size());
      assertEquals(map("keep", "1"), r.scan());
      assertEquals(map("keep", "2"), s.scan());
      try (BatchOperation next = store.initBatchOperation()) {
        r.putWithBatch(next, "later", "y");
        next.commit();
      }
      assertEquals(map("keep", "1", "later", "y"), r.scan(), "only the committed batch applied");
    }
  }

  // ---- WriteOptions on every write path -------------------------------------------------------

  /** One way of writing; {@code prepare} runs before the measured write, {@code check} after. */
  record WritePath(String name, Consumer<DBStore> prepare, Consumer<DBStore> write,
      Consumer<DBStore> check) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<WritePath> writePaths() {
    return List.of(
        new WritePath("put byte[]", s -> { }, s -> raw(s).put("p", "v"),
            s -> assertEquals("v", raw(s).get("p"))),
        new WritePath("put typed", s -> { }, s -> typed(s).put("p", "v"),
            s -> assertEquals("v", typed(s).get("p"))),
        new WritePath("delete byte[]", s -> raw(s).put("d", "v"), s -> raw(s).delete("d"),
            s -> assertNull(raw(s).get("d"))),
        new WritePath("delete typed", s -> typed(s).put("d", "v"), s -> typed(s).delete("d"),
            s -> assertNull(typed(s).get("d"))),
        new WritePath("deleteRange byte[]", s -> raw(s).put("r1", "v"),
            s -> raw(s).deleteRange("r", "s"), s -> assertNull(raw(s).get("r1"))),
        new WritePath("deleteRange typed", s -> typed(s).put("r1", "v"),
            s -> typed(s).deleteRange("r", "s"), s -> assertNull(typed(s).get("r1"))),
        new WritePath("batch commit", s -> { }, s -> {
          try (BatchOperation b = s.initBatchOperation()) {
            raw(s).putWithBatch(b, "b", "v");
            typed(s).putWithBatch(b, "b", "w");
            b.commit();
          }
        }, s -> {
          assertEquals("v", raw(s).get("b"));
          assertEquals("w", typed(s).get("b"));
        }));
  }

  private DBStore open(Path path, DBProfile profile) {
    return DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(path).setProfile(profile)
        .setCloseTimeout(Duration.ofSeconds(5)).build();
  }

  /** The change of {@code ticker} over each write path, on a fresh store of {@code profile}. */
  private Map<String, Long> tickerDeltas(String label, DBProfile profile, String ticker) {
    Map<String, Long> deltas = new LinkedHashMap<>();
    // The paths use disjoint keys, so they can share one store.
    try (DBStore store = open(dir.resolve(label), profile)) {
      for (WritePath p : writePaths()) {
        p.prepare().accept(store);
        long before = store.getTickerCount(ticker);
        p.write().accept(store);
        long after = store.getTickerCount(ticker);
        p.check().accept(store);
        deltas.put(p.name(), after - before);
      }
    }
    return deltas;
  }

  @Test
  void syncWritesSyncTheWalOnEveryWritePath() {
    DBProfile sync = TestStores.smallProfile().toBuilder().syncWrites(true).build();
    Map<String, Long> synced = tickerDeltas("sync", sync, "WAL_FILE_SYNCED");
    synced.forEach((path, delta) ->
        assertTrue(delta >= 1, path + " did not sync the WAL: WAL_FILE_SYNCED +" + delta));

    Map<String, Long> unsynced =
        tickerDeltas("nosync", TestStores.smallProfile(), "WAL_FILE_SYNCED");
    unsynced.forEach((path, delta) ->
        assertEquals(0L, delta, path + " synced the WAL although syncWrites is off"));
  }

  @Test
  void disabledWalIsNotWrittenByAnyWritePath() {
    DBProfile noWal = TestStores.smallProfile().toBuilder().disableWal(true).build();
    Map<String, Long> withoutWal = tickerDeltas("nowal", noWal, "WAL_FILE_BYTES");
    withoutWal.forEach((path, delta) ->
        assertEquals(0L, delta, path + " wrote " + delta + " WAL bytes although the WAL is off"));

    Map<String, Long> withWal = tickerDeltas("wal", TestStores.smallProfile(), "WAL_FILE_BYTES");
    withWal.forEach((path, delta) ->
        assertTrue(delta > 0, path + " wrote no WAL bytes although the WAL is on"));
  }
}
