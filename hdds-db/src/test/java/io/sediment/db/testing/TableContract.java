package io.sediment.db.testing;

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
import io.sediment.db.ReadView;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link Table} contract on a real store, written once for every implementation: point reads and writes (empty keys and values included),
 * {@code deleteRange} over {@code [from, to)}, emptiness and key estimates; batches that span two
 * tables and apply all-or-nothing on commit and are single use; and the store's one configured
 * {@code WriteOptions} ({@code sync}, {@code disableWAL}) applied by every write path, observed
 * through RocksDB statistics tickers.
 */
public abstract class TableContract<K, V> {

  @TempDir Path dir;

  // ---- what each variant supplies -------------------------------------------------------------

  /**
   * The writable table under test on {@code store}, a {@link TestStores} store: the table
   * {@code bytes} or {@code strings}. Keys and values must be able to hold any text of the tests
   * (UTF-8, the empty string included).
   */
  protected abstract Table<K, V> table(DBStore store);

  /** The key holding {@code text}. */
  protected abstract K key(String text);

  /** The text of {@code key}. */
  protected abstract String keyText(K key);

  /** The value holding {@code text}. */
  protected abstract V value(String text);

  /** The text of {@code value}. */
  protected abstract String valueText(V value);

  /**
   * Runs one read of the table under test: on {@link #table} by default. A variant whose table is
   * read-only (a {@link ReadView} table) reads a view of the same table opened for this read and
   * closed after it, so each read sees every write before it.
   */
  protected <R> R read(DBStore store, Function<Table<K, V>, R> read) {
    return read.apply(table(store));
  }

  /** The table under test on {@code store}, seen as text; reads go through {@link #read}. */
  protected final Ops<K, V> subject(DBStore store) {
    return new Ops<>(table(store), this::key, this::keyText, this::value, this::valueText,
        new Reads<K, V>() {
          @Override
          public <R> R apply(Function<Table<K, V>, R> read) {
            return read(store, read);
          }
        });
  }

  /** The other table of a {@link TestStores} store, for batches that span two tables. */
  protected final Ops<?, ?> companion(DBStore store) {
    return table(store).getName().equals(TestStores.BYTES.name()) ? typed(store) : raw(store);
  }

  /** How a table's reads run: on the table itself or on a view of it. */
  public interface Reads<K, V> {
    <R> R apply(Function<Table<K, V>, R> read);
  }

  // ---- a String view of both kinds of table --------------------------------------------------

  /** A table seen through String keys and values, so one test body runs on every kind. */
  public static final class Ops<K, V> {
    final Table<K, V> table;
    final Function<String, K> key;
    final Function<K, String> keyText;
    final Function<String, V> value;
    final Function<V, String> valueText;
    final Reads<K, V> reads;

    Ops(Table<K, V> table, Function<String, K> key, Function<K, String> keyText,
        Function<String, V> value, Function<V, String> valueText, Reads<K, V> reads) {
      this.table = table;
      this.key = key;
      this.keyText = keyText;
      this.value = value;
      this.valueText = valueText;
      this.reads = reads;
    }

    /** Reads {@code table} itself. */
    static <K, V> Ops<K, V> direct(Table<K, V> table, Function<String, K> key,
        Function<K, String> keyText, Function<String, V> value, Function<V, String> valueText) {
      return new Ops<>(table, key, keyText, value, valueText, new Reads<K, V>() {
        @Override
        public <R> R apply(Function<Table<K, V>, R> read) {
          return read.apply(table);
        }
      });
    }

    void put(String k, String v) {
      table.put(key.apply(k), value.apply(v));
    }

    String get(String k) {
      V v = reads.apply(t -> t.get(key.apply(k)));
      return v == null ? null : valueText.apply(v);
    }

    /** {@link Table#getAll} of the keys, each value as text or {@code null}. */
    List<String> getAll(List<String> ks) {
      List<K> keys = new ArrayList<>();
      ks.forEach(k -> keys.add(key.apply(k)));
      List<V> values = reads.apply(t -> t.getAll(keys));
      List<String> out = new ArrayList<>();
      values.forEach(v -> out.add(v == null ? null : valueText.apply(v)));
      return out;
    }

    String getIfExist(String k) {
      V v = reads.apply(t -> t.getIfExist(key.apply(k)));
      return v == null ? null : valueText.apply(v);
    }

    boolean isExist(String k) {
      return reads.apply(t -> t.isExist(key.apply(k)));
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

    boolean isEmpty() {
      return reads.apply(Table::isEmpty);
    }

    long estimatedKeyCount() {
      return reads.apply(Table::getEstimatedKeyCount);
    }

    /** Every entry in key order, as key -> value. */
    Map<String, String> scan() {
      return reads.apply(t -> {
        Map<String, String> out = new LinkedHashMap<>();
        try (TableIterator<K, KeyValue<K, V>> it = t.iterator()) {
          while (it.hasNext()) {
            KeyValue<K, V> kv = it.next();
            out.put(keyText.apply(kv.getKey()), valueText.apply(kv.getValue()));
          }
        }
        return out;
      });
    }
  }

  private static Ops<byte[], byte[]> raw(DBStore store) {
    return Ops.direct(store.getTable("bytes"), TestBytes::b, TestBytes::s,
        TestBytes::b, TestBytes::s);
  }

  private static Ops<String, String> typed(DBStore store) {
    return Ops.direct(store.getTable(TestStores.STRINGS), s -> s, s -> s, s -> s, s -> s);
  }

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  // ---- point operations -----------------------------------------------------------------------

  @Test
  void putGetOverwriteAndDelete() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void getIfExistAndIsExistAgreeWithGet() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void getAllAnswersEveryKeyInOrderAsGetDoes() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
      t.put("a", "1");
      t.put("c", "3");
      t.put("gone", "x");
      store.flush();
      t.put("b", "2");
      t.put("c", "3b");
      t.delete("gone");
      t.put("", "empty key");
      // Keys from an SST, the memtable over an SST, a tombstone, absent, repeated, and the empty key.
      List<String> keys = List.of("c", "a", "gone", "nope", "b", "a", "");
      List<String> expected = new ArrayList<>();
      keys.forEach(k -> expected.add(t.get(k)));
      assertEquals(java.util.Arrays.asList("3b", "1", null, null, "2", "1", "empty key"),
          expected);
      assertEquals(expected, t.getAll(keys));
      assertEquals(List.of(), t.getAll(List.of()));
    }
  }

  @Test
  void emptyValueIsPresentAndNotNull() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void emptyKeyIsAnOrdinaryKeySortingFirst() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void valuesOfAnySizeRoundTripAcrossBufferBoundaries() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void deleteRangeRemovesFromInclusiveToExclusive() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void deleteRangeWithEqualBoundsDeletesNothing() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
      t.put("a", "1");
      t.put("b", "2");
      t.deleteRange("b", "b");
      t.deleteRange("a", "a");
      assertEquals(map("a", "1", "b", "2"), t.scan());
    }
  }

  @Test
  void deleteRangeWithFromAfterToIsRejectedAndChangesNothing() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
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

  @Test
  void isEmptyFollowsLiveEntries() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
      assertTrue(t.isEmpty());
      t.put("k", "v");
      assertFalse(t.isEmpty());
      t.delete("k");
      assertTrue(t.isEmpty(), "a tombstone is not an entry");
      t.put("x1", "v");
      t.put("x2", "v");
      store.flush();
      assertFalse(t.isEmpty());
      t.deleteRange("x", "y");
      assertTrue(t.isEmpty(), "after a range delete");
    }
  }

  @Test
  void estimatedKeyCountIsPositiveAndAtMostTheKeysInserted() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> t = subject(store);
      int n = 500;
      for (int i = 0; i < n; i++) {
        t.put(String.format("key-%05d", i), "value-" + i);
      }
      long inMemtable = t.estimatedKeyCount();
      assertTrue(inMemtable > 0 && inMemtable <= n, "estimate " + inMemtable);
      store.flush();
      long inSst = t.estimatedKeyCount();
      assertTrue(inSst > 0 && inSst <= n, "estimate after flush " + inSst);
    }
  }

  // ---- batches --------------------------------------------------------------------------------

  @Test
  void batchAcrossTwoTablesIsInvisibleUntilCommitThenFullyApplied() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> r = subject(store);
      Ops<?, ?> s = companion(store);
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
      Ops<?, ?> s = subject(store);
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
      Ops<?, ?> r = subject(store);
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
      List<Ops<?, ?>> tables = List.of(subject(store), companion(store));
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
      for (Ops<?, ?> t : List.of(subject(store), companion(store))) {
        assertThrows(IllegalArgumentException.class, () -> t.putWithBatch(foreign, "k", "v"));
        assertThrows(IllegalArgumentException.class, () -> t.deleteWithBatch(foreign, "k"));
        assertThrows(IllegalArgumentException.class,
            () -> t.deleteRangeWithBatch(foreign, "a", "z"));
      }
      assertEquals(0, foreign.size());
      foreign.commit();
      for (DBStore s : List.of(store, other)) {
        assertEquals(Map.of(), subject(s).scan());
        assertEquals(Map.of(), companion(s).scan());
      }
    }
  }

  @Test
  void closingAnUncommittedBatchDiscardsIt() {
    try (DBStore store = TestStores.open(dir)) {
      Ops<?, ?> r = subject(store);
      Ops<?, ?> s = companion(store);
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
  private record WritePath(String name, Consumer<DBStore> prepare, Consumer<DBStore> write,
      Consumer<DBStore> check) {
    @Override
    public String toString() {
      return name;
    }
  }

  private List<WritePath> writePaths() {
    return List.of(
        new WritePath("put", s -> { }, s -> subject(s).put("p", "v"),
            s -> assertEquals("v", subject(s).get("p"))),
        new WritePath("delete", s -> subject(s).put("d", "v"), s -> subject(s).delete("d"),
            s -> assertNull(subject(s).get("d"))),
        new WritePath("deleteRange", s -> subject(s).put("r1", "v"),
            s -> subject(s).deleteRange("r", "s"), s -> assertNull(subject(s).get("r1"))),
        new WritePath("batch commit", s -> { }, s -> {
          try (BatchOperation b = s.initBatchOperation()) {
            subject(s).putWithBatch(b, "b", "v");
            companion(s).putWithBatch(b, "b", "w");
            b.commit();
          }
        }, s -> {
          assertEquals("v", subject(s).get("b"));
          assertEquals("w", companion(s).get("b"));
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
