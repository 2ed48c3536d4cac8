package io.sediment.db.testing;

import static io.sediment.db.IteratorType.KEY_AND_VALUE;
import static io.sediment.db.IteratorType.KEY_ONLY;
import static io.sediment.db.IteratorType.VALUE_ONLY;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.StoreClosedException;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.managed.AbandonedIterators;
import io.sediment.db.managed.NativeTracker;
import io.sediment.db.rdb.RDBStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.HexFormat;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link TableIterator} contract, written once and run on real RocksDB against each iterator
 * variant (a subclass per variant supplies the iterator factory and the conversion of its raw
 * entries to {@code byte[]}):
 *
 * <ul>
 *   <li>lazy positioning: a fresh iterator positions at the start of its table, prefix or range on
 *       the first {@code hasNext()}/{@code next()}/{@code removeFromDB()};
 *   <li>{@code seek(k)} returns the landing entry without consuming it, is clamped by the bounds,
 *       and returns {@code null} (never throws) past the end or the upper bound;
 *   <li>{@code seekAfter(k)} lands on the first key strictly after {@code k} within the bounds (a
 *       key extending {@code k} by {@code 0x00} is after it) without consuming it, is clamped by
 *       the bounds, returns {@code null} and exhausts the iterator when there is none, and is one
 *       positioning: one native seek and no native {@code next()}, also on a fresh iterator;
 *   <li>{@code seekToFirst}/{@code seekToLast} on the whole table, a prefix and a range, including
 *       empty ones and prefixes ending in {@code 0xFF};
 *   <li>prefix bounds, {@code NoSuchElementException} at the end, the view fixed at creation;
 *   <li>{@code removeFromDB} deletes the current entry: the first one on a fresh iterator, the one
 *       last returned by {@code next()} (also after a following {@code hasNext()}, true or
 *       false, as {@link java.util.Iterator#remove()} does) or the one a seek landed on; it throws
 *       {@code IllegalStateException} when there is none (empty table, prefix or range; a seek
 *       that found nothing) and does not change the iterator's own view;
 *   <li>{@link IteratorType}, {@link KeyValue} content equality, use after close of the iterator or
 *       the store;
 *   <li>lazy advance, proved with the {@code NUMBER_ITER_SKIP} statistics ticker: a bounded
 *       iterator does not walk tombstones past its bound, and reading exactly N entries does not
 *       walk tombstones after the N-th.
 * </ul>
 *
 * <p>Keys are built from strings in ISO-8859-1 so that {@code "\u00FF"} is the byte {@code 0xFF}.
 * Every test entry's value is {@code "v:" + key}.
 *
 * <p>A subclass supplies the iterators under test over the table {@code bytes} of a
 * {@link TestStores} store ({@link #newIterator}, {@link #newRangeIterator}) and the conversions
 * between their keys and values and {@code byte[]}; the suite writes the entries through the
 * store's raw table, so every implementation is checked against the same bytes. A read-only
 * variant (an iterator of a {@link io.sediment.db.ReadView} table) returns {@code false} from
 * {@link #removesFromDB()}: the {@code removeFromDB} cases are then skipped and the refusal is
 * checked instead. Every test must leave no open iterator or native object behind (the
 * leak check fails the class otherwise).
 *
 * @param <K> the key type of the iterator under test
 * @param <V> the value type of the iterator under test
 */
public abstract class TableIteratorContract<K, V> {

  private static final String SKIPS = "NUMBER_ITER_SKIP";
  private static final int TOMBSTONES = 20_000;

  @TempDir
  Path dir;

  private DBStore store;
  private Table<byte[], byte[]> table;

  // ---- what each variant supplies ----------------------------------------------------------

  /**
   * A new iterator under test over the keys of the table {@code bytes} of {@code store} that
   * start with {@code prefix}: the whole table when {@code prefix} is {@code null}. It must see
   * every write made before the call.
   */
  protected abstract TableIterator<K, KeyValue<K, V>> newIterator(DBStore store, byte[] prefix,
      IteratorType type);

  /**
   * A new iterator under test over {@code [from, to)} of the table {@code bytes} of
   * {@code store}; a {@code null} end is open.
   */
  protected abstract TableIterator<K, KeyValue<K, V>> newRangeIterator(DBStore store, byte[] from,
      byte[] to, IteratorType type);

  /** A copy of the bytes of {@code key}, which may be a view the iterator reuses. */
  protected abstract byte[] keyBytes(K key);

  /** A copy of the bytes of {@code value}, which may be a view the iterator reuses. */
  protected abstract byte[] valueBytes(V value);

  /** A seek target holding {@code bytes}; released with {@link #releaseKey} after use. */
  protected abstract K toKey(byte[] bytes);

  /** Releases what {@link #toKey} acquired; nothing by default. */
  protected void releaseKey(K key) {
  }

  /**
   * The tables of the stores the suite opens; its table {@code bytes} holds the entries (any
   * codecs: the suite writes raw bytes). {@link TestStores#DEFINITION} by default.
   */
  protected DBDefinition definition() {
    return TestStores.DEFINITION;
  }

  /** Whether {@code removeFromDB} deletes; {@code false} for iterators of read-only tables. */
  protected boolean removesFromDB() {
    return true;
  }

  // ---- fixture and helpers -----------------------------------------------------------------

  @BeforeEach
  void openStore() {
    store = TestStores.open(dir.resolve("db"), definition());
    table = store.getTable(TestStores.BYTES.name());
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String s(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.ISO_8859_1);
  }

  private void put(String... keys) {
    for (String k : keys) {
      table.put(b(k), b("v:" + k));
    }
  }

  /** Six keys in three prefixes: a1 a2 a3 b1 b2 c1. */
  private void standardKeys() {
    put("a1", "a2", "a3", "b1", "b2", "c1");
  }

  private TableIterator<K, KeyValue<K, V>> whole(IteratorType type) {
    return newIterator(store, null, type);
  }

  private TableIterator<K, KeyValue<K, V>> prefix(String prefix, IteratorType type) {
    return newIterator(store, b(prefix), type);
  }

  private TableIterator<K, KeyValue<K, V>> range(String from, String to,
      IteratorType type) {
    return newRangeIterator(store, from == null ? null : b(from), to == null ? null : b(to),
        type);
  }

  private final List<K> kept = new ArrayList<>();

  /** A seek target released at the end of the test by {@link #releaseKept()}. */
  private K toKeyAndKeep(String key) {
    K raw = toKey(b(key));
    kept.add(raw);
    return raw;
  }

  private void releaseKept() {
    kept.forEach(this::releaseKey);
    kept.clear();
  }

  /** The raw entry as an independent {@code byte[]} entry (null stays null). */
  private KeyValue<byte[], byte[]> copy(KeyValue<K, V> raw) {
    if (raw == null) {
      return null;
    }
    return KeyValue.of(keyBytes(raw.getKey()),
        raw.getValue() == null ? null : valueBytes(raw.getValue()));
  }

  private KeyValue<byte[], byte[]> next(TableIterator<K, KeyValue<K, V>> it) {
    return copy(it.next());
  }

  private KeyValue<byte[], byte[]> seek(TableIterator<K, KeyValue<K, V>> it, String key) {
    return seek(it, b(key));
  }

  private KeyValue<byte[], byte[]> seek(TableIterator<K, KeyValue<K, V>> it, byte[] key) {
    return positionAt(key, it::seek);
  }

  private KeyValue<byte[], byte[]> seekAfter(TableIterator<K, KeyValue<K, V>> it, String key) {
    return seekAfter(it, b(key));
  }

  private KeyValue<byte[], byte[]> seekAfter(TableIterator<K, KeyValue<K, V>> it, byte[] key) {
    return positionAt(key, it::seekAfter);
  }

  /** {@code positioning} called with a target holding {@code key}, released after the call. */
  private KeyValue<byte[], byte[]> positionAt(byte[] key,
      Function<K, KeyValue<K, V>> positioning) {
    K target = toKey(key);
    try {
      return copy(positioning.apply(target));
    } finally {
      releaseKey(target);
    }
  }

  /** The keys {@code forEachRemaining} visits, in order. */
  private List<String> remainingKeys(TableIterator<K, KeyValue<K, V>> it) {
    List<String> keys = new ArrayList<>();
    it.forEachRemaining(kv -> keys.add(s(keyBytes(kv.getKey()))));
    return keys;
  }

  private List<String> allKeys() {
    try (TableIterator<K, KeyValue<K, V>> it = whole(KEY_ONLY)) {
      return remainingKeys(it);
    }
  }

  private static void assertEntry(String key, KeyValue<byte[], byte[]> kv) {
    assertNotNull(kv, "expected an entry for " + key);
    assertEquals(key, s(kv.getKey()));
    assertEquals("v:" + key, s(kv.getValue()), "value of " + key);
  }

  private static void assertKey(String key, KeyValue<byte[], byte[]> kv) {
    assertKey(key, kv, "expected an entry for " + key);
  }

  private static void assertKey(String key, KeyValue<byte[], byte[]> kv, String message) {
    assertNotNull(kv, message);
    assertEquals(key, s(kv.getKey()), message);
  }

  private void assertExhausted(TableIterator<K, KeyValue<K, V>> it) {
    assertFalse(it.hasNext());
    assertThrows(NoSuchElementException.class, it::next);
    assertFalse(it.hasNext(), "hasNext() must stay false after a failed next()");
  }

  private long skipsWhile(Consumer<TableIterator<K, KeyValue<K, V>>> use,
      TableIterator<K, KeyValue<K, V>> it) {
    long before = store.getTickerCount(SKIPS);
    try (it) {
      use.accept(it);
    }
    // NUMBER_ITER_SKIP is published when the native iterator is destroyed, i.e. at close.
    return store.getTickerCount(SKIPS) - before;
  }

  /** Puts {@code count} keys {@code base + i}, flushes, deletes them all and flushes again. */
  private void pointTombstones(String base, int count) {
    try (BatchOperation batch = store.initBatchOperation()) {
      for (int i = 0; i < count; i++) {
        table.putWithBatch(batch, b(String.format("%s%05d", base, i)), b("dead"));
      }
      batch.commit();
    }
    store.flush();
    try (BatchOperation batch = store.initBatchOperation()) {
      for (int i = 0; i < count; i++) {
        table.deleteWithBatch(batch, b(String.format("%s%05d", base, i)));
      }
      batch.commit();
    }
    store.flush();
  }

  // ---- fresh iterator ----------------------------------------------------------------------

  @Test
  void hasNextOnFreshWholeTableIteratorPositionsAtTheFirstKey() {
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertTrue(it.hasNext());
      assertTrue(it.hasNext(), "a repeated hasNext() must not advance");
      assertEntry("a1", next(it));
      assertEntry("a2", next(it));
    }
  }

  @Test
  void hasNextOnFreshPrefixIteratorPositionsAtThePrefixStart() {
    standardKeys();
    try (var it = prefix("b", KEY_AND_VALUE)) {
      assertTrue(it.hasNext());
      assertEntry("b1", next(it));
      assertEntry("b2", next(it));
      assertExhausted(it);
    }
  }

  @Test
  void hasNextOnFreshRangeIteratorPositionsAtTheRangeStart() {
    standardKeys();
    try (var it = range("a2", "b2", KEY_AND_VALUE)) {
      assertTrue(it.hasNext());
      assertEntry("a2", next(it));
      assertEquals(List.of("a3", "b1"), remainingKeys(it));
    }
  }

  @Test
  void nextWithoutHasNextReturnsTheFirstEntry() {
    standardKeys();
    try (var w = whole(KEY_AND_VALUE); var p = prefix("b", KEY_AND_VALUE);
        var r = range("a15", "c", KEY_AND_VALUE)) {
      assertEntry("a1", next(w));
      assertEntry("b1", next(p));
      assertEntry("a2", next(r));
      assertEntry("a2", next(w));
      assertEntry("b2", next(p));
      assertEntry("a3", next(r));
    }
  }

  @Test
  void forEachRemainingVisitsEveryEntryInOrderExactlyOnce() {
    standardKeys();
    try (var w = whole(KEY_AND_VALUE); var p = prefix("a", KEY_AND_VALUE);
        var r = range("a3", "c1", KEY_AND_VALUE)) {
      List<KeyValue<byte[], byte[]>> entries = new ArrayList<>();
      w.forEachRemaining(kv -> entries.add(copy(kv)));
      assertEquals(6, entries.size());
      String[] expected = {"a1", "a2", "a3", "b1", "b2", "c1"};
      for (int i = 0; i < expected.length; i++) {
        assertEntry(expected[i], entries.get(i));
      }
      assertEquals(List.of("a1", "a2", "a3"), remainingKeys(p));
      assertEquals(List.of("a3", "b1", "b2"), remainingKeys(r));
      assertEquals(List.of(), remainingKeys(w), "a second forEachRemaining visits nothing");
    }
  }

  @Test
  void keysAndValuesOfEverySizeReadWholeAndEachApart() {
    // Sizes around what an iterator may hold in a scratch array, and far beyond it.
    int[] sizes = {0, 1, 255, 256, 1023, 1024, 1025, 4095, 4097, 70_000};
    NavigableMap<byte[], byte[]> oracle = new TreeMap<>(Arrays::compareUnsigned);
    for (int i = 0; i < sizes.length; i++) {
      byte[] key = new byte[Math.max(2, Math.min(sizes[i], 5_000))];
      Arrays.fill(key, (byte) ('a' + i));
      key[0] = (byte) ('a' + i);
      byte[] value = new byte[sizes[i]];
      for (int j = 0; j < value.length; j++) {
        value[j] = (byte) (i * 31 + j);
      }
      table.put(key, value);
      oracle.put(key, value);
    }
    try (var w = whole(KEY_AND_VALUE)) {
      List<KeyValue<byte[], byte[]>> entries = new ArrayList<>();
      w.forEachRemaining(kv -> entries.add(copy(kv)));
      assertEquals(oracle.size(), entries.size());
      int i = 0;
      for (Map.Entry<byte[], byte[]> e : oracle.entrySet()) {
        assertArrayEquals(e.getKey(), entries.get(i).getKey(), "key " + i);
        assertArrayEquals(e.getValue(), entries.get(i).getValue(), "value " + i);
        i++;
      }
    }
  }

  @Test
  void forEachRemainingAfterNextVisitsOnlyTheRest() {
    standardKeys();
    try (var it = whole(KEY_ONLY)) {
      assertKey("a1", next(it));
      assertTrue(it.hasNext());
      assertEquals(List.of("a2", "a3", "b1", "b2", "c1"), remainingKeys(it));
    }
  }

  @Test
  void freshIteratorOnAnEmptyTableHasNoNext() {
    try (var w = whole(KEY_AND_VALUE); var p = prefix("a", KEY_AND_VALUE);
        var r = range("a", "z", KEY_AND_VALUE)) {
      assertExhausted(w);
      assertExhausted(p);
      assertExhausted(r);
    }
  }

  // ---- seek --------------------------------------------------------------------------------

  @Test
  void seekToAnExistingKeyReturnsItWithoutConsumingIt() {
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertEntry("a2", seek(it, "a2"));
      assertTrue(it.hasNext());
      assertEntry("a2", next(it));
      assertEntry("a3", next(it));
    }
  }

  @Test
  void seekBetweenKeysLandsOnTheNextGreaterKey() {
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertEntry("a3", seek(it, "a25"));
      assertEntry("b1", seek(it, "a4"));
      assertEntry("a1", seek(it, ""));
      assertEntry("a1", next(it));
      assertEntry("a2", next(it));
    }
  }

  @Test
  void seekBelowThePrefixLandsOnTheFirstKeyOfThePrefix() {
    standardKeys();
    try (var it = prefix("b", KEY_AND_VALUE)) {
      assertEntry("b1", seek(it, "a"));
      assertEntry("b1", next(it));
      assertEntry("b1", seek(it, "a3"));
      assertEntry("b1", seek(it, ""));
    }
  }

  @Test
  void seekBelowTheRangeLowerBoundLandsOnTheFirstKeyInRange() {
    standardKeys();
    try (var it = range("a2", "b2", KEY_AND_VALUE)) {
      assertEntry("a2", seek(it, "a1"));
      assertEntry("a2", seek(it, ""));
      assertEntry("a2", next(it));
      assertEntry("a3", next(it));
    }
  }

  @Test
  void seekPastTheEndReturnsNullAndHasNextIsFalse() {
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertNull(seek(it, "d"));
      assertExhausted(it);
      assertNull(seek(it, "\u00FF\u00FF"), "a repeated seek past the end is still null");
      assertFalse(it.hasNext());
    }
  }

  @Test
  void seekAtOrAboveTheUpperBoundReturnsNullAndHasNextIsFalse() {
    standardKeys();
    try (var r = range("a2", "b2", KEY_AND_VALUE); var p = prefix("a", KEY_AND_VALUE)) {
      assertNull(seek(r, "b2"), "the upper bound is exclusive");
      assertExhausted(r);
      assertNull(seek(r, "c1"), "a key beyond the upper bound exists but is out of range");
      assertExhausted(r);
      assertNull(seek(p, "a4"), "the next key b1 is outside the prefix");
      assertExhausted(p);
      assertNull(seek(p, "b"));
      assertExhausted(p);
    }
  }

  @Test
  void seekThenContinuingIterationVisitsTheRestInOrder() {
    standardKeys();
    try (var it = whole(KEY_ONLY); var p = prefix("a", KEY_ONLY)) {
      assertKey("b1", seek(it, "b"));
      assertEquals(List.of("b1", "b2", "c1"), remainingKeys(it));
      assertKey("a2", seek(p, "a2"));
      assertEquals(List.of("a2", "a3"), remainingKeys(p));
    }
  }

  @Test
  void seekBackwardsAfterIteratingRepositions() {
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertEquals(6, remainingKeys(it).size());
      assertFalse(it.hasNext());
      assertEntry("a2", seek(it, "a2"));
      assertTrue(it.hasNext());
      assertEntry("a2", next(it));
      assertEntry("a3", next(it));
      assertEntry("a1", seek(it, "a1"));
      assertEntry("a1", next(it));
    }
  }

  @Test
  void repeatedSeeksEachReturnTheirLandingEntry() {
    standardKeys();
    try (var it = range("a", "c", KEY_AND_VALUE)) {
      assertEntry("b2", seek(it, "b2"));
      assertEntry("a1", seek(it, "a"));
      assertNull(seek(it, "c1"));
      assertEntry("b1", seek(it, "b1"));
      assertEntry("b1", seek(it, "b1"));
      assertEntry("b1", next(it));
      assertEntry("b2", next(it));
      assertExhausted(it);
    }
  }

  // ---- seekAfter ---------------------------------------------------------------------------

  /** Where a seekAfter check reads: the keys starting with {@code lower}, or {@code [lower, upper)}. */
  private record Bounds(byte[] lower, byte[] upper, boolean prefix) {
    static final Bounds WHOLE = new Bounds(null, null, false);

    static Bounds prefix(String prefix) {
      return new Bounds(b(prefix), null, true);
    }

    static Bounds range(String lower, String upper) {
      return new Bounds(lower == null ? null : b(lower), upper == null ? null : b(upper), false);
    }

    boolean contains(byte[] key) {
      if (prefix) {
        return startsWith(key, lower);
      }
      return (lower == null || Arrays.compareUnsigned(key, lower) >= 0)
          && (upper == null || Arrays.compareUnsigned(key, upper) < 0);
    }

    @Override
    public String toString() {
      return prefix ? "prefix " + hex(lower) : "range [" + hex(lower) + ", " + hex(upper) + ")";
    }
  }

  private TableIterator<K, KeyValue<K, V>> open(Bounds bounds) {
    return bounds.prefix() ? newIterator(store, bounds.lower(), KEY_AND_VALUE)
        : newRangeIterator(store, bounds.lower(), bounds.upper(), KEY_AND_VALUE);
  }

  /** Puts {@code keys} as {@link #put} does and returns them with their values in key order. */
  private NavigableMap<byte[], byte[]> putWithOracle(String... keys) {
    NavigableMap<byte[], byte[]> oracle = new TreeMap<>(Arrays::compareUnsigned);
    for (String k : keys) {
      put(k);
      oracle.put(b(k), b("v:" + k));
    }
    return oracle;
  }

  private void checkSeekAfter(NavigableMap<byte[], byte[]> oracle, Bounds bounds, String target) {
    checkSeekAfter(oracle, bounds, b(target));
  }

  /**
   * {@code seekAfter(target)} on a fresh iterator over {@code bounds} returns the oracle's first
   * entry strictly after {@code target} within the bounds ({@code null} when there is none), and
   * reading on returns that entry again, then the oracle's following keys within the bounds.
   */
  private void checkSeekAfter(NavigableMap<byte[], byte[]> oracle, Bounds bounds, byte[] target) {
    byte[] first = null;
    List<String> expected = new ArrayList<>();
    for (byte[] key : oracle.tailMap(target, false).keySet()) {
      if (bounds.contains(key)) {
        first = first == null ? key : first;
        expected.add(hex(key));
      }
    }
    String what = bounds + ", seekAfter " + hex(target);
    try (var it = open(bounds)) {
      KeyValue<byte[], byte[]> landed = seekAfter(it, target);
      if (first == null) {
        assertNull(landed, what);
      } else {
        assertOracleEntry(oracle, first, KEY_AND_VALUE, landed, what);
      }
      List<String> rest = new ArrayList<>();
      while (it.hasNext()) {
        rest.add(hex(next(it).getKey()));
      }
      assertEquals(expected, rest, what + " (then reading on: the landing entry is not consumed)");
    }
  }

  @Test
  void seekAfterLandsOnTheFirstKeyStrictlyAfterTheTargetAsTheOracleSays() {
    NavigableMap<byte[], byte[]> oracle = new TreeMap<>(Arrays::compareUnsigned);
    Random random = new Random(42);
    for (int i = 0; i < 120; i++) {
      byte[] key = randomKey(random, 4);
      if (key.length > 0) {
        byte[] value = ("v:" + hex(key)).getBytes(StandardCharsets.ISO_8859_1);
        table.put(key, value);
        oracle.put(key, value);
      }
    }
    for (int round = 0; round < 300; round++) {
      byte[] target = randomKey(random, 5);
      Bounds bounds;
      if (round % 3 == 0) {
        bounds = Bounds.WHOLE;
      } else if (round % 3 == 1) {
        byte[] prefix = randomKey(random, 2);
        bounds = new Bounds(prefix.length == 0 ? b("a") : prefix, null, true);
      } else {
        byte[] one = randomKey(random, 3);
        byte[] other = randomKey(random, 3);
        boolean ordered = Arrays.compareUnsigned(one, other) <= 0;
        bounds = new Bounds(ordered ? one : other, ordered ? other : one, false);
      }
      checkSeekAfter(oracle, bounds, target);
    }
  }

  @Test
  void seekAfterTakesAnExtensionByAZeroByteAsTheNextKey() {
    var oracle = putWithOracle("a", "a\u0000", "a\u0000\u0000", "ab");
    checkSeekAfter(oracle, Bounds.WHOLE, "a");
    checkSeekAfter(oracle, Bounds.WHOLE, "a\u0000");
    checkSeekAfter(oracle, Bounds.prefix("a"), "a");
  }

  @Test
  void seekAfterIsClampedByPrefixBounds() {
    var oracle = putWithOracle("a1", "a2", "b1", "b2", "b3", "c1");
    for (String target : List.of("a", "a2", "b", "b1", "b3", "b9", "c1")) {
      checkSeekAfter(oracle, Bounds.prefix("b"), target);
    }
  }

  @Test
  void seekAfterTheLastKeyReturnsNullAndExhaustsTheIterator() {
    var oracle = putWithOracle("k1", "k2");
    try (var it = open(Bounds.WHOLE)) {
      assertNull(seekAfter(it, "k2"));
      assertExhausted(it);
    }
    checkSeekAfter(oracle, Bounds.WHOLE, "z");
  }

  @Test
  void seekAfterAMissingKeyLandsOnTheNextLiveOne() {
    var oracle = putWithOracle("k1", "k3", "k5");
    checkSeekAfter(oracle, Bounds.WHOLE, "k2");
    checkSeekAfter(oracle, Bounds.WHOLE, "k0");
    checkSeekAfter(oracle, Bounds.WHOLE, "");
  }

  @Test
  void seekAfterAtOrPastTheUpperBoundFindsNothing() {
    var oracle = putWithOracle("k1", "k2", "k3", "k4");
    checkSeekAfter(oracle, Bounds.range("k1", "k3"), "k3");
    checkSeekAfter(oracle, Bounds.range("k1", "k3"), "k2");
    checkSeekAfter(oracle, Bounds.range("k1", "k3"), "k4");
    checkSeekAfter(oracle, Bounds.prefix("k"), "l");
    try (var it = open(Bounds.range("k1", "k3"))) {
      assertNull(seekAfter(it, "k2"));
      assertExhausted(it);
    }
  }

  @Test
  void seekAfterIsOnePositioningWithoutAStepOverTheTarget() {
    put("k1", "k2", "k3");
    long seeks = store.getTickerCount("NUMBER_DB_SEEK");
    long nexts = store.getTickerCount("NUMBER_DB_NEXT");
    try (var it = open(Bounds.WHOLE)) {
      assertEntry("k3", seekAfter(it, "k2"));
      assertEntry("k3", next(it));
    }
    try (var it = open(Bounds.prefix("k"))) {
      assertEntry("k2", seekAfter(it, "k1"));
    }
    // Counted when the native iterators are destroyed, i.e. at close.
    assertEquals(2, store.getTickerCount("NUMBER_DB_SEEK") - seeks,
        "one native seek per seekAfter, none to position at the start first");
    assertEquals(0, store.getTickerCount("NUMBER_DB_NEXT") - nexts,
        "no native next(): the target is never landed on and stepped over");
  }

  // ---- seekToFirst / seekToLast ------------------------------------------------------------

  @Test
  void seekToFirstAndSeekToLastOnTheWholeTable() {
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      it.seekToLast();
      assertEntry("c1", next(it));
      it.seekToFirst();
      assertEntry("a1", next(it));
      assertEntry("a2", next(it));
      it.seekToFirst();
      assertEntry("a1", next(it));
    }
  }

  @Test
  void seekToLastOnAPrefixLandsOnItsLastKeyWhenLaterKeysExist() {
    standardKeys();
    try (var it = prefix("a", KEY_AND_VALUE)) {
      it.seekToLast();
      assertTrue(it.hasNext());
      assertEntry("a3", next(it));
      assertExhausted(it);
      it.seekToFirst();
      assertEntry("a1", next(it));
    }
  }

  @Test
  void seekToLastOnAPrefixFollowedByOtherPrefixesLandsOnItsLastKey() {
    put("p1/x", "p2", "p2/a", "p2/b", "p2/c", "p20", "p2\u00FF", "p3/a", "p3/b", "q");
    try (var it = prefix("p2/", KEY_AND_VALUE)) {
      it.seekToLast();
      assertEntry("p2/c", next(it));
      assertExhausted(it);
      it.seekToFirst();
      assertEquals(List.of("p2/a", "p2/b", "p2/c"), remainingKeys(it));
    }
    try (var it = prefix("p2", KEY_ONLY)) {
      it.seekToLast();
      assertKey("p2\u00FF", next(it));
    }
  }

  @Test
  void seekToFirstAndSeekToLastOnARange() {
    standardKeys();
    try (var it = range("a2", "b2", KEY_AND_VALUE)) {
      it.seekToLast();
      assertEntry("b1", next(it));
      assertExhausted(it);
      it.seekToFirst();
      assertEntry("a2", next(it));
    }
    try (var it = range("a15", "b15", KEY_ONLY)) {
      it.seekToLast();
      assertKey("b1", next(it));
      it.seekToFirst();
      assertKey("a2", next(it));
    }
  }

  @Test
  void seekToFirstAndSeekToLastOnAnEmptyTableHaveNoNext() {
    try (var it = whole(KEY_AND_VALUE)) {
      it.seekToFirst();
      assertExhausted(it);
      it.seekToLast();
      assertExhausted(it);
    }
  }

  @Test
  void seekToFirstAndSeekToLastOnAnEmptyPrefixOrRangeHaveNoNext() {
    standardKeys();
    try (var p = prefix("b0", KEY_AND_VALUE); var r = range("a4", "b1", KEY_AND_VALUE)) {
      p.seekToFirst();
      assertExhausted(p);
      p.seekToLast();
      assertExhausted(p);
      r.seekToFirst();
      assertExhausted(r);
      r.seekToLast();
      assertExhausted(r);
    }
  }

  @Test
  void seekToLastThenNextReturnsTheLastEntryThenHasNextIsFalse() {
    standardKeys();
    try (var w = whole(KEY_AND_VALUE); var p = prefix("b", KEY_AND_VALUE);
        var r = range(null, "b", KEY_AND_VALUE)) {
      w.seekToLast();
      assertEntry("c1", next(w));
      assertExhausted(w);
      p.seekToLast();
      assertEntry("b2", next(p));
      assertExhausted(p);
      r.seekToLast();
      assertEntry("a3", next(r));
      assertExhausted(r);
    }
  }

  // ---- prefix bounds -----------------------------------------------------------------------

  @Test
  void prefixIteratorReturnsOnlyKeysSharingThePrefix() {
    put("a", "a/1", "a/2", "a0", "b/1", "b/2", "b/3", "b0", "c/1");
    try (var it = prefix("b/", KEY_ONLY)) {
      assertEquals(List.of("b/1", "b/2", "b/3"), remainingKeys(it));
    }
  }

  @Test
  void prefixThatIsAProperPrefixOfOtherKeysIncludesThemAndNothingShorter() {
    put("", "a", "ab", "abc", "abd", "ac", "b");
    try (var it = prefix("a", KEY_ONLY)) {
      assertEquals(List.of("a", "ab", "abc", "abd", "ac"), remainingKeys(it));
    }
    try (var it = prefix("ab", KEY_ONLY)) {
      assertEquals(List.of("ab", "abc", "abd"), remainingKeys(it));
      it.seekToLast();
      assertKey("abd", next(it));
      assertKey("ab", seek(it, "a"));
    }
  }

  @Test
  void prefixEndingInFFStopsAtItsSuccessor() {
    put("a", "a\u00FE", "a\u00FE\u00FF", "a\u00FF", "a\u00FF\u0000", "a\u00FF\u00FF",
        "a\u00FF\u00FF\u0001", "b", "b\u0000");
    try (var it = prefix("a\u00FF", KEY_ONLY)) {
      assertEquals(List.of("a\u00FF", "a\u00FF\u0000", "a\u00FF\u00FF", "a\u00FF\u00FF\u0001"),
          remainingKeys(it));
      it.seekToLast();
      assertKey("a\u00FF\u00FF\u0001", next(it));
      assertExhausted(it);
      assertKey("a\u00FF", seek(it, "a\u00FE\u00FF"));
      assertNull(seek(it, "b"));
    }
  }

  @Test
  void allFFPrefixHasNoUpperBound() {
    put("\u00FE", "\u00FE\u00FF", "\u00FF", "\u00FF\u0000", "\u00FF\u00FF",
        "\u00FF\u00FF\u00FF\u00FF\u0001");
    try (var it = prefix("\u00FF", KEY_ONLY)) {
      assertEquals(List.of("\u00FF", "\u00FF\u0000", "\u00FF\u00FF",
          "\u00FF\u00FF\u00FF\u00FF\u0001"), remainingKeys(it));
      it.seekToLast();
      assertKey("\u00FF\u00FF\u00FF\u00FF\u0001", next(it));
      assertKey("\u00FF", seek(it, "\u00FE\u00FF"));
    }
    try (var it = prefix("\u00FF\u00FF", KEY_ONLY)) {
      assertEquals(List.of("\u00FF\u00FF", "\u00FF\u00FF\u00FF\u00FF\u0001"), remainingKeys(it));
    }
  }

  @Test
  void emptyPrefixBehavesAsTheWholeTable() {
    put("", "\u0000", "a1", "b1", "\u00FF\u00FF");
    try (var p = prefix("", KEY_AND_VALUE)) {
      assertEquals(allKeys(), remainingKeys(p));
      assertEquals(5, allKeys().size());
      p.seekToLast();
      assertEntry("\u00FF\u00FF", next(p));
      p.seekToFirst();
      assertEntry("", next(p));
      assertEntry("b1", seek(p, "a2"));
    }
  }

  // ---- the end -----------------------------------------------------------------------------

  @Test
  void nextAtTheEndThrowsNoSuchElementAndHasNextStaysFalse() {
    standardKeys();
    try (var it = prefix("c", KEY_AND_VALUE)) {
      assertEntry("c1", next(it));
      assertThrows(NoSuchElementException.class, it::next);
      assertFalse(it.hasNext());
      assertFalse(it.hasNext());
      assertThrows(NoSuchElementException.class, it::next);
    }
    try (var it = whole(KEY_ONLY)) {
      assertThrows(NoSuchElementException.class, () -> {
        for (int i = 0; i < 7; i++) {
          it.next();
        }
      });
      assertFalse(it.hasNext());
    }
  }

  // ---- view fixed at creation --------------------------------------------------------------

  @Test
  void iteratorDoesNotSeePutsAfterItsCreation() {
    standardKeys();
    try (var fresh = whole(KEY_AND_VALUE); var started = whole(KEY_AND_VALUE)) {
      assertEntry("a1", next(started));
      put("a0", "a15", "b3", "d1");
      table.put(b("a2"), b("overwritten"));
      assertEquals(List.of("a1", "a2", "a3", "b1", "b2", "c1"), remainingKeys(fresh));
      assertEntry("a2", next(started));
      assertEquals(List.of("a3", "b1", "b2", "c1"), remainingKeys(started));
      assertNull(seek(started, "d"));
      assertEntry("a2", seek(started, "a11"));
    }
    assertEquals(10, allKeys().size(), "a new iterator sees the new keys");
  }

  @Test
  void iteratorDoesNotSeeDeletesAfterItsCreation() {
    standardKeys();
    try (var fresh = prefix("a", KEY_AND_VALUE); var started = whole(KEY_AND_VALUE)) {
      assertEntry("a1", next(started));
      table.delete(b("a2"));
      table.delete(b("c1"));
      table.deleteRange(b("a"), b("z"));
      assertEquals(List.of("a1", "a2", "a3"), remainingKeys(fresh));
      assertEntry("a2", next(started));
      started.seekToLast();
      assertEntry("c1", next(started));
    }
    assertEquals(List.of(), allKeys(), "a new iterator sees the deletes");
  }

  // ---- removeFromDB ------------------------------------------------------------------------

  @Test
  void removeFromDBOnAFreshIteratorDeletesTheFirstEntry() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = whole(KEY_ONLY)) {
      it.removeFromDB();
      assertKey("a1", next(it), "the iterator still sees what it deleted");
    }
    try (var it = prefix("b", KEY_ONLY)) {
      it.removeFromDB();
    }
    try (var it = range("a25", "c", KEY_ONLY)) {
      it.removeFromDB();
    }
    assertEquals(List.of("a2", "b2", "c1"), allKeys());
  }

  @Test
  void removeFromDBAfterNextDeletesThatEntry() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertEntry("a1", next(it));
      assertEntry("a2", next(it));
      it.removeFromDB();
      assertEntry("a3", next(it));
    }
    assertEquals(List.of("a1", "a3", "b1", "b2", "c1"), allKeys());
  }

  @Test
  void removeFromDBAfterNextAndHasNextDeletesTheEntryReturnedByNext() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var p = prefix("a", KEY_AND_VALUE); var w = whole(KEY_AND_VALUE)) {
      assertEntry("a1", next(p));
      assertTrue(p.hasNext());
      p.removeFromDB();
      assertEntry("a2", next(p));

      assertEntry("b2", seek(w, "b2"));
      assertEntry("b2", next(w));
      assertTrue(w.hasNext());
      assertTrue(w.hasNext());
      w.removeFromDB();
      assertEntry("c1", next(w));
    }
    assertEquals(List.of("a2", "a3", "b1", "c1"), allKeys());
  }

  @Test
  void removeFromDBAfterNextOfTheLastEntryAndHasNextDeletesThatLastEntry() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = prefix("b", KEY_ONLY)) {
      assertEquals(List.of("b1", "b2"), remainingKeys(it));
      assertFalse(it.hasNext());
      it.removeFromDB();
    }
    assertEquals(List.of("a1", "a2", "a3", "b1", "c1"), allKeys());
  }

  @Test
  void removeFromDBAfterSeekDeletesTheLandedEntry() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertEntry("a3", seek(it, "a25"));
      it.removeFromDB();
      assertKey("a3", next(it), "seek's entry is still next() in the iterator's view");
      assertEntry("b1", seek(it, "a4"));
      assertEntry("b1", next(it));
      it.removeFromDB();
    }
    try (var it = prefix("c", KEY_ONLY)) {
      assertKey("c1", seek(it, "b"));
      it.removeFromDB();
    }
    assertEquals(List.of("a1", "a2", "b2"), allKeys());
  }

  @Test
  void removeFromDBAfterSeekToLastDeletesTheLastEntry() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var w = whole(KEY_ONLY); var p = prefix("a", KEY_ONLY);
        var r = range("b", "c", KEY_ONLY)) {
      w.seekToLast();
      w.removeFromDB();
      p.seekToLast();
      p.removeFromDB();
      r.seekToLast();
      r.removeFromDB();
    }
    assertEquals(List.of("a1", "a2", "b1"), allKeys());
  }

  @Test
  void removeFromDBAfterSeekToFirstDeletesTheFirstEntry() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = range("a2", null, KEY_ONLY)) {
      assertKey("a2", next(it));
      assertKey("a3", next(it));
      it.seekToFirst();
      it.removeFromDB();
    }
    assertEquals(List.of("a1", "a3", "b1", "b2", "c1"), allKeys());
  }

  @Test
  void removeFromDBOnAnEmptyTableOrPrefixThrowsIllegalState() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    try (var it = whole(KEY_AND_VALUE)) {
      assertThrows(IllegalStateException.class, it::removeFromDB);
      assertFalse(it.hasNext());
    }
    standardKeys();
    try (var it = prefix("b0", KEY_AND_VALUE)) {
      assertThrows(IllegalStateException.class, it::removeFromDB);
      it.seekToFirst();
      assertThrows(IllegalStateException.class, it::removeFromDB);
      it.seekToLast();
      assertThrows(IllegalStateException.class, it::removeFromDB);
    }
    assertEquals(6, allKeys().size());
  }

  @Test
  void removeFromDBAfterASeekPastTheEndThrowsIllegalState() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = whole(KEY_AND_VALUE); var r = range("a", "b", KEY_AND_VALUE)) {
      assertEntry("a1", next(it));
      assertNull(seek(it, "d"));
      assertThrows(IllegalStateException.class, it::removeFromDB,
          "a seek that found nothing leaves no current entry, not the one next() returned");
      assertNull(seek(r, "b1"));
      assertThrows(IllegalStateException.class, r::removeFromDB);
    }
    assertEquals(6, allKeys().size());
  }

  @Test
  void removeFromDBIsVisibleToNewIteratorsAndGetButNotToTheIteratorItself() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = whole(KEY_AND_VALUE)) {
      assertEntry("a1", next(it));
      assertEntry("a2", next(it));
      it.removeFromDB();
      assertNull(table.get(b("a2")));
      try (var other = whole(KEY_ONLY)) {
        assertEquals(List.of("a1", "a3", "b1", "b2", "c1"), remainingKeys(other));
      }
      assertEquals(List.of("a3", "b1", "b2", "c1"), remainingKeys(it));
      it.seekToFirst();
      assertEquals(List.of("a1", "a2", "a3", "b1", "b2", "c1"), remainingKeys(it));
      assertEntry("a2", seek(it, "a2"));
    }
  }

  @Test
  void removeFromDBAfterEachNextEmptiesTheRange() {
    assumeTrue(removesFromDB(), "a read-only iterator");
    standardKeys();
    try (var it = range("a2", "b2", KEY_ONLY)) {
      int removed = 0;
      while (it.hasNext()) {
        it.next();
        it.removeFromDB();
        removed++;
      }
      assertEquals(3, removed);
    }
    assertEquals(List.of("a1", "b2", "c1"), allKeys());
  }

  @Test
  void removeFromDBOfAReadOnlyIteratorIsRefusedAndChangesNothing() {
    assumeTrue(!removesFromDB(), "an iterator that removes");
    standardKeys();
    try (var w = whole(KEY_AND_VALUE); var p = prefix("b", KEY_ONLY);
        var r = range("a2", "c", KEY_ONLY)) {
      assertEntry("a1", next(w));
      assertThrows(UnsupportedOperationException.class, w::removeFromDB);
      assertEntry("a2", next(w));
      assertKey("b2", seek(p, "b2"));
      assertThrows(UnsupportedOperationException.class, p::removeFromDB);
      r.seekToLast();
      assertThrows(UnsupportedOperationException.class, r::removeFromDB);
      assertKey("b2", next(r));
    }
    assertEquals(List.of("a1", "a2", "a3", "b1", "b2", "c1"), allKeys());
  }

  // ---- iterator type -----------------------------------------------------------------------

  @Test
  void keyOnlyIteratorReturnsNullValues() {
    standardKeys();
    try (var it = whole(KEY_ONLY)) {
      assertNull(it.next().getValue());
      assertNull(it.seek(toKeyAndKeep("b1")).getValue());
      assertNull(it.next().getValue());
      it.seekToLast();
      KeyValue<byte[], byte[]> last = next(it);
      assertKey("c1", last);
      assertNull(last.getValue());
      it.seekToFirst();
      it.forEachRemaining(kv -> assertNull(kv.getValue()));
    } finally {
      releaseKept();
    }
  }

  @Test
  void aValueOnlyIteratorReturnsTheValuesInOrderWithoutTheirKeys() {
    standardKeys();
    try (var it = prefix("a", VALUE_ONLY)) {
      List<String> values = new ArrayList<>();
      it.forEachRemaining(kv -> {
        assertNull(kv.getKey());
        values.add(s(valueBytes(kv.getValue())));
      });
      assertEquals(List.of("v:a1", "v:a2", "v:a3"), values);
    }
    try (var it = whole(VALUE_ONLY)) {
      KeyValue<K, V> landed = it.seek(toKeyAndKeep("b"));
      assertNull(landed.getKey());
      assertEquals("v:b1", s(valueBytes(landed.getValue())));
      assertEquals("v:b1", s(valueBytes(it.next().getValue())));
      assertEquals("v:b2", s(valueBytes(it.next().getValue())));
    } finally {
      releaseKept();
    }
  }

  @Test
  void currentKeyReadsTheEntryLastReturnedOrLandedOnUntilTheIteratorMovesOn() {
    standardKeys();
    for (IteratorType type : IteratorType.values()) {
      try (var it = whole(type)) {
        assertThrows(IllegalStateException.class, it::currentKey, "fresh");
        assertTrue(it.hasNext());
        assertThrows(IllegalStateException.class, it::currentKey, "on an entry not returned");
        it.next();
        assertEquals("a1", s(keyBytes(it.currentKey())), type.name());
        assertEquals("a1", s(keyBytes(it.currentKey())), "asked again");
        it.next();
        assertEquals("a2", s(keyBytes(it.currentKey())));
        assertTrue(it.hasNext());
        assertThrows(IllegalStateException.class, it::currentKey, "moved on by hasNext");
        assertNotNull(it.seek(toKeyAndKeep("b2")));
        assertEquals("b2", s(keyBytes(it.currentKey())), "a seek's landing");
        it.next();
        assertEquals("b2", s(keyBytes(it.currentKey())), "returned by next");
        assertNull(it.seek(toKeyAndKeep("d")));
        assertThrows(IllegalStateException.class, it::currentKey, "a seek that found nothing");
      } finally {
        releaseKept();
      }
    }
    var closed = whole(VALUE_ONLY);
    closed.next();
    closed.close();
    assertThrows(IllegalStateException.class, closed::currentKey);
  }

  @Test
  void aValueOnlyIteratorCannotRemoveEntries() {
    standardKeys();
    try (var it = whole(VALUE_ONLY)) {
      it.next();
      assertThrows(UnsupportedOperationException.class, it::removeFromDB);
    }
    assertEquals(6, allKeys().size(), "nothing was removed");
  }

  @Test
  void keyAndValueIteratorReturnsValues() {
    standardKeys();
    try (var it = prefix("a", KEY_AND_VALUE)) {
      assertEntry("a1", next(it));
      assertEntry("a3", seek(it, "a3"));
      assertEntry("a3", next(it));
      it.seekToLast();
      assertEntry("a3", next(it));
      it.seekToFirst();
      List<KeyValue<byte[], byte[]>> all = new ArrayList<>();
      it.forEachRemaining(kv -> all.add(copy(kv)));
      assertEquals(3, all.size());
      all.forEach(kv -> assertEquals("v:" + s(kv.getKey()), s(kv.getValue())));
    }
  }

  @Test
  void largeKeysAndValuesAreReadWhole() {
    byte[] bigKey = new byte[3000];
    Arrays.fill(bigKey, (byte) 'k');
    byte[] bigValue = new byte[100_000];
    for (int i = 0; i < bigValue.length; i++) {
      bigValue[i] = (byte) i;
    }
    table.put(b("a"), b("small"));
    table.put(bigKey, bigValue);
    table.put(b("z"), b("small"));
    try (var it = whole(KEY_AND_VALUE)) {
      assertEquals("a", s(next(it).getKey()));
      KeyValue<byte[], byte[]> big = next(it);
      assertArrayEquals(bigKey, big.getKey());
      assertArrayEquals(bigValue, big.getValue());
      KeyValue<byte[], byte[]> after = next(it);
      assertEquals("z", s(after.getKey()));
      assertEquals("small", s(after.getValue()));
      KeyValue<byte[], byte[]> sought = seek(it, "b");
      assertArrayEquals(bigKey, sought.getKey());
      assertArrayEquals(bigValue, sought.getValue());
    }
  }

  // ---- KeyValue equality -------------------------------------------------------------------

  @Test
  void entriesReadSeparatelyAreEqualByContent() {
    standardKeys();
    try (var one = whole(KEY_AND_VALUE); var two = prefix("a", KEY_AND_VALUE)) {
      KeyValue<K, V> rawOne = one.next();
      KeyValue<K, V> rawTwo = two.next();
      assertEquals(rawOne, rawTwo, "raw entries from two iterators are equal by content");
      assertEquals(rawOne.hashCode(), rawTwo.hashCode());

      KeyValue<byte[], byte[]> first = copy(rawOne);
      KeyValue<byte[], byte[]> second = copy(rawTwo);
      assertNotSame(first.getKey(), second.getKey());
      assertEquals(first, second);
      assertEquals(first.hashCode(), second.hashCode());
      assertEquals(KeyValue.of(b("a1"), b("v:a1")), first);

      KeyValue<byte[], byte[]> sought = seek(one, "a1");
      assertEquals(first, sought);
      assertNotEquals(first, next(two));
    }
    KeyValue<byte[], byte[]> keyOnly;
    try (var it = whole(KEY_ONLY)) {
      keyOnly = next(it);
    }
    assertEquals(KeyValue.of(b("a1"), null), keyOnly);
    assertNotEquals(KeyValue.of(b("a1"), b("v:a1")), keyOnly);
  }

  // ---- close -------------------------------------------------------------------------------

  @Test
  void closeIsIdempotent() {
    standardKeys();
    var fresh = whole(KEY_AND_VALUE);
    fresh.close();
    fresh.close();
    var used = prefix("a", KEY_AND_VALUE);
    assertEntry("a1", next(used));
    used.close();
    used.close();
    assertThrows(IllegalStateException.class, used::hasNext);
    assertEquals(0, ((RDBStore) store).database().openIteratorCount());
  }

  private void assertEveryMethodThrowsIllegalState(TableIterator<K, KeyValue<K, V>> it) {
    assertEveryMethodThrows(IllegalStateException.class, it);
  }

  private void assertEveryMethodThrows(Class<? extends RuntimeException> expected,
      TableIterator<K, KeyValue<K, V>> it) {
    List<Executable> calls = List.of(it::hasNext, it::next, it::seekToFirst, it::seekToLast,
        () -> seek(it, "a1"), it::removeFromDB, () -> it.forEachRemaining(kv -> { }),
        () -> it.hold().close());
    for (Executable call : calls) {
      assertThrows(expected, call);
    }
  }

  @Test
  void anUnboundedIteratorOwnsOnlyItsNativeIteratorAndABoundedOneAlsoItsOptionsAndBounds() {
    standardKeys();
    int before = NativeTracker.REGISTRY.liveCount();
    try (var unbounded = whole(KEY_AND_VALUE)) {
      assertEquals(before + 1, NativeTracker.REGISTRY.liveCount(),
          "an unbounded iterator shares the store's read options");
      assertKey("a1", next(unbounded));
      try (var bounded = range("a", "b", KEY_AND_VALUE)) {
        assertEquals(before + 5, NativeTracker.REGISTRY.liveCount(),
            "a bounded iterator adds its iterator, read options and two bound slices");
        assertKey("a1", next(bounded));
      }
      assertEquals(before + 1, NativeTracker.REGISTRY.liveCount());
    }
    assertEquals(before, NativeTracker.REGISTRY.liveCount());
  }

  @Test
  void everyMethodAfterCloseThrowsIllegalState() {
    standardKeys();
    var fresh = whole(KEY_AND_VALUE);
    fresh.close();
    assertEveryMethodThrowsIllegalState(fresh);
    var used = range("a", "b", KEY_ONLY);
    assertKey("a1", next(used));
    assertTrue(used.hasNext());
    used.close();
    assertEveryMethodThrowsIllegalState(used);
    used.close();
    assertEquals(6, allKeys().size(), "nothing was removed through a closed iterator");
  }

  @Test
  void afterStoreCloseIteratorMethodsThrowIllegalStateAndCloseIsSafe() {
    long mark = AbandonedIterators.mark();
    DBStore other = DBStoreBuilder.newBuilder(definition())
        .setPath(dir.resolve("other")).setProfile(TestStores.smallProfile())
        .setCloseTimeout(Duration.ofMillis(50)).build();
    Table<byte[], byte[]> otherTable = other.getTable(TestStores.BYTES.name());
    otherTable.put(b("a1"), b("v:a1"));
    otherTable.put(b("a2"), b("v:a2"));
    var fresh = newIterator(other, null, KEY_AND_VALUE);
    var used = newIterator(other, b("a"), KEY_AND_VALUE);
    var sought = newIterator(other, null, KEY_AND_VALUE);
    try {
      assertEntry("a1", next(used));
      assertTrue(used.hasNext());
      assertNotNull(seek(sought, "a2"), "the seek landed on an entry it has read already");
      try (var empty = newIterator(other, b("b"), KEY_AND_VALUE)) {
        // Failing inside a bracket of native calls must leave no operation in flight, or the
        // close below would wait out its 50 ms and refuse to free the store.
        assertThrows(NoSuchElementException.class, empty::next);
        assertNull(seek(empty, "b1"));
      }
      other.close();
      assertEquals(3, AbandonedIterators.acknowledgeSince(mark),
          "the store closed the three iterators left open");
      assertEveryMethodThrows(StoreClosedException.class, fresh);
      assertEveryMethodThrows(StoreClosedException.class, used);
      assertEveryMethodThrows(StoreClosedException.class, sought);
      assertThrows(StoreClosedException.class,
          () -> newIterator(other, null, KEY_ONLY).close());
    } finally {
      fresh.close();
      used.close();
      used.close();
      sought.close();
      other.close();
    }
  }

  // ---- holds -------------------------------------------------------------------------------

  @Test
  void readsInsideAHoldAnswerAsOutsideAndAHoldEndsOnce() {
    standardKeys();
    try (var it = prefix("a", KEY_AND_VALUE)) {
      TableIterator.Hold outer = it.hold();
      try (TableIterator.Hold inner = it.hold()) {
        assertEntry("a1", next(it));
        assertEntry("a2", seek(it, "a2"));
        inner.close();
        inner.close();
        assertEntry("a2", next(it));
      }
      outer.close();
      outer.close();
      assertEquals(List.of("a3"), remainingKeys(it));
    }
    // Every hold ended: the store's close (a short timeout) finds nothing in flight.
    DBStore other = openOther(Duration.ofMillis(50));
    var it = newIterator(other, null, KEY_AND_VALUE);
    try (TableIterator.Hold held = it.hold()) {
      assertEntry("a1", next(it));
    }
    it.close();
    other.close();
  }

  @Test
  void theStoresCloseWaitsForAnOpenHoldWhoseReadsStillAnswer() throws Exception {
    long mark = AbandonedIterators.mark();
    DBStore other = openOther(Duration.ofSeconds(30));
    Table<byte[], byte[]> otherTable = other.getTable(TestStores.BYTES.name());
    var it = newIterator(other, null, KEY_AND_VALUE);
    Thread closer;
    java.util.concurrent.atomic.AtomicReference<Throwable> closeFailed =
        new java.util.concurrent.atomic.AtomicReference<>();
    try (TableIterator.Hold held = it.hold()) {
      assertEntry("a1", next(it));
      closer = new Thread(() -> {
        try {
          other.close();
        } catch (Throwable t) {
          closeFailed.set(t);
        }
      });
      closer.start();
      // The close has begun once the store refuses new operations.
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (true) {
        try {
          otherTable.get(b("a1"));
        } catch (StoreClosedException e) {
          break;
        }
        assertTrue(System.nanoTime() < deadline, "the store's close never began");
        Thread.sleep(1);
      }
      Thread.sleep(50);
      assertTrue(closer.isAlive(), "the close waits while the hold is open");
      assertEntry("a2", next(it));
      assertFalse(it.hasNext());
    }
    closer.join(10_000);
    assertFalse(closer.isAlive(), "the close ends once the hold does");
    assertNull(closeFailed.get(), "the close freed the store: nothing was in flight");
    assertEquals(1, AbandonedIterators.acknowledgeSince(mark),
        "the store closed the iterator left open");
    assertThrows(StoreClosedException.class, it::hasNext);
    assertThrows(StoreClosedException.class, it::hold);
    it.close();
  }

  @Test
  void anIteratorClosedInsideItsHoldRefusesEveryCallAndTheHoldStillEnds() {
    DBStore other = openOther(Duration.ofMillis(50));
    var it = newIterator(other, null, KEY_AND_VALUE);
    TableIterator.Hold held = it.hold();
    assertEntry("a1", next(it));
    it.close();
    assertEveryMethodThrowsIllegalState(it);
    held.close();
    other.close();
  }

  /** A second store with keys a1 and a2, closing with {@code closeTimeout}. */
  private DBStore openOther(Duration closeTimeout) {
    DBStore other = DBStoreBuilder.newBuilder(definition())
        .setPath(dir.resolve("other")).setProfile(TestStores.smallProfile())
        .setCloseTimeout(closeTimeout).build();
    Table<byte[], byte[]> otherTable = other.getTable(TestStores.BYTES.name());
    otherTable.put(b("a1"), b("v:a1"));
    otherTable.put(b("a2"), b("v:a2"));
    return other;
  }

  // ---- against a TreeMap oracle ------------------------------------------------------------

  /** Bytes that make prefixes, collisions and prefix successors (0xFF) common. */
  private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', (byte) 0xFE, (byte) 0xFF};

  private static byte[] randomKey(Random random, int maxLength) {
    byte[] key = new byte[random.nextInt(maxLength + 1)];
    for (int i = 0; i < key.length; i++) {
      key[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return key;
  }

  private static String hex(byte[] bytes) {
    return bytes == null ? "null" : HexFormat.of().formatHex(bytes);
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /**
   * Random puts, point and range deletes (batched or not) and flushes are applied to the table
   * and to a {@code TreeMap} in unsigned byte order; after each round, iterators over the whole
   * table, random prefixes and random ranges are driven by random {@code hasNext}, {@code next},
   * {@code seek}, {@code seekToFirst} and {@code seekToLast} calls, and every answer must be the
   * oracle's: {@code next()} the entry after the current one within the bounds, {@code seek(k)}
   * the ceiling of {@code k} within the bounds (or {@code null}), the seeks' entries returned
   * again by the following {@code next()}.
   */
  @Test
  void randomWritesAndPositioningAgreeWithATreeMapOracle() {
    NavigableMap<byte[], byte[]> oracle = new TreeMap<>(Arrays::compareUnsigned);
    Random random = new Random(20_261_203L);
    for (int round = 0; round < 12; round++) {
      randomWrites(random, oracle);
      for (int check = 0; check < 12; check++) {
        checkAgainstOracle(random, oracle, "round " + round + " check " + check);
      }
    }
  }

  private void randomWrites(Random random, NavigableMap<byte[], byte[]> oracle) {
    try (BatchOperation batch = store.initBatchOperation()) {
      boolean batched = random.nextBoolean();
      for (int i = 0; i < 25; i++) {
        byte[] key = randomKey(random, 4);
        int op = random.nextInt(10);
        if (op < 6) {
          byte[] value = ("v:" + hex(key) + ":" + random.nextInt(100))
              .getBytes(StandardCharsets.ISO_8859_1);
          if (batched) {
            table.putWithBatch(batch, key, value);
          } else {
            table.put(key, value);
          }
          oracle.put(key, value);
        } else if (op < 9) {
          if (batched) {
            table.deleteWithBatch(batch, key);
          } else {
            table.delete(key);
          }
          oracle.remove(key);
        } else {
          byte[] other = randomKey(random, 3);
          byte[] from = Arrays.compareUnsigned(key, other) <= 0 ? key : other;
          byte[] to = from == key ? other : key;
          if (batched) {
            table.deleteRangeWithBatch(batch, from, to);
          } else {
            table.deleteRange(from, to);
          }
          oracle.subMap(from, true, to, false).clear();
        }
      }
      batch.commit();
    }
    if (random.nextInt(3) == 0) {
      store.flush();
    }
  }

  private void checkAgainstOracle(Random random, NavigableMap<byte[], byte[]> oracle,
      String where) {
    IteratorType type = random.nextBoolean() ? KEY_AND_VALUE : KEY_ONLY;
    NavigableMap<byte[], byte[]> expected;
    TableIterator<K, KeyValue<K, V>> it;
    String bounds;
    int kind = random.nextInt(3);
    if (kind == 0) {
      expected = oracle;
      it = newIterator(store, null, type);
      bounds = "whole table";
    } else if (kind == 1) {
      byte[] prefix = randomKey(random, 2);
      expected = new TreeMap<>(oracle.comparator());
      for (var e : oracle.entrySet()) {
        if (startsWith(e.getKey(), prefix)) {
          expected.put(e.getKey(), e.getValue());
        }
      }
      it = newIterator(store, prefix, type);
      bounds = "prefix " + hex(prefix);
    } else {
      byte[] from = random.nextInt(4) == 0 ? null : randomKey(random, 3);
      byte[] to = random.nextInt(4) == 0 ? null : randomKey(random, 3);
      if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0) {
        byte[] swap = from;
        from = to;
        to = swap;
      }
      expected = from == null && to == null ? oracle
          : from == null ? oracle.headMap(to, false)
          : to == null ? oracle.tailMap(from, true)
          : oracle.subMap(from, true, to, false);
      it = newRangeIterator(store, from, to, type);
      bounds = "range [" + hex(from) + ", " + hex(to) + ")";
    }
    String context = where + ", " + bounds + ", " + type;
    try (it) {
      byte[] current = expected.isEmpty() ? null : expected.firstKey();
      for (int step = 0; step < 10; step++) {
        int action = random.nextInt(6);
        if (action == 0) {
          assertEquals(current != null, it.hasNext(), context + ": hasNext");
        } else if (action == 1) {
          if (current == null) {
            assertThrows(NoSuchElementException.class, it::next, context + ": next at the end");
          } else {
            assertOracleEntry(expected, current, type, next(it), context + ": next");
            current = expected.higherKey(current);
          }
        } else if (action == 2) {
          byte[] target = randomKey(random, 4);
          current = expected.ceilingKey(target);
          KeyValue<byte[], byte[]> landed = seek(it, target);
          if (current == null) {
            assertNull(landed, context + ": seek " + hex(target));
          } else {
            assertOracleEntry(expected, current, type, landed, context + ": seek " + hex(target));
          }
        } else if (action == 3) {
          it.seekToFirst();
          current = expected.isEmpty() ? null : expected.firstKey();
        } else if (action == 4) {
          it.seekToLast();
          current = expected.isEmpty() ? null : expected.lastKey();
        } else {
          List<String> rest = new ArrayList<>();
          it.forEachRemaining(kv -> rest.add(hex(keyBytes(kv.getKey()))));
          List<String> want = new ArrayList<>();
          if (current != null) {
            expected.tailMap(current, true).keySet().forEach(k -> want.add(hex(k)));
          }
          assertEquals(want, rest, context + ": forEachRemaining");
          current = null;
        }
      }
    }
  }

  private static void assertOracleEntry(NavigableMap<byte[], byte[]> expected, byte[] key,
      IteratorType type, KeyValue<byte[], byte[]> actual, String context) {
    assertNotNull(actual, context + ": expected " + hex(key));
    assertEquals(hex(key), hex(actual.getKey()), context);
    if (type == KEY_ONLY) {
      assertNull(actual.getValue(), context + ": a key-only entry has no value");
    } else {
      assertEquals(hex(expected.get(key)), hex(actual.getValue()), context + ": value");
    }
  }

  // ---- lazy advance, observed through RocksDB statistics -----------------------------------

  /** Puts {@code base + "00"} to {@code base + "09"}. */
  private void putTen(String base) {
    for (int i = 0; i < 10; i++) {
      put(String.format("%s%02d", base, i));
    }
  }

  /** Reads the ten entries {@link #putTen} wrote under {@code base}, in order. */
  private void readTen(TableIterator<K, KeyValue<K, V>> it, String base) {
    for (int i = 0; i < 10; i++) {
      assertEntry(String.format("%s%02d", base, i), next(it));
    }
  }

  /**
   * {@code lazy} on a fresh iterator from {@code lazyIterator} skips fewer than 10 entries, while
   * {@code control}, the walk taken over the tombstones (unbounded, or one step further), skips at
   * least {@link #TOMBSTONES}: the control proves the tombstones are there to be skipped.
   */
  private void assertWalksNoTombstones(String what,
      Supplier<TableIterator<K, KeyValue<K, V>>> lazyIterator,
      Consumer<TableIterator<K, KeyValue<K, V>>> lazy,
      Supplier<TableIterator<K, KeyValue<K, V>>> controlIterator,
      Consumer<TableIterator<K, KeyValue<K, V>>> control) {
    long skipped = skipsWhile(lazy, lazyIterator.get());
    long controlSkipped = skipsWhile(control, controlIterator.get());
    assertTrue(controlSkipped >= TOMBSTONES,
        "control: the walk over the tombstones skipped only " + controlSkipped);
    assertTrue(skipped < 10, what + " skipped " + skipped + " entries");
  }

  @Test
  void iteratingAPrefixToItsEndDoesNotWalkTombstonesPastThePrefix() {
    putTen("p/");
    pointTombstones("q/", TOMBSTONES);
    put("z");

    assertWalksNoTombstones("the prefix iterator read to its end", () -> prefix("p/", KEY_AND_VALUE),
        it -> {
          List<String> seen = remainingKeys(it);
          assertFalse(it.hasNext());
          assertEquals(10, seen.size());
          assertEquals("p/09", seen.get(9));
        },
        () -> whole(KEY_AND_VALUE), it -> {
          readTen(it, "p/");
          assertTrue(it.hasNext());
          assertEntry("z", next(it));
        });
  }

  @Test
  void seekToLastOnAPrefixDoesNotWalkTombstonesPastThePrefix() {
    putTen("p/");
    pointTombstones("q/", TOMBSTONES);

    assertWalksNoTombstones("seekToLast on the prefix", () -> prefix("p/", KEY_AND_VALUE),
        it -> {
          it.seekToLast();
          assertEntry("p/09", next(it));
          assertFalse(it.hasNext());
        },
        () -> whole(KEY_AND_VALUE), it -> {
          it.seekToLast();
          assertEntry("p/09", next(it));
        });
  }

  @Test
  void readingExactlyNEntriesDoesNotSkipTombstonesAfterTheNth() {
    putTen("r/");
    pointTombstones("r/t/", TOMBSTONES);
    put("r/z");

    assertWalksNoTombstones("reading exactly 10 entries", () -> range("r/", "r0", KEY_AND_VALUE),
        it -> readTen(it, "r/"),
        () -> range("r/", "r0", KEY_AND_VALUE), it -> {
          readTen(it, "r/");
          assertTrue(it.hasNext());
          assertEntry("r/z", next(it));
        });
  }

  @Test
  void seekReadingOneEntryDoesNotSkipTombstonesAfterIt() {
    put("r/a");
    pointTombstones("r/t/", TOMBSTONES);
    put("r/z");

    assertWalksNoTombstones("seek + next of one entry", () -> range("r/", "r0", KEY_AND_VALUE),
        it -> {
          assertEntry("r/a", seek(it, "r/a"));
          assertEntry("r/a", next(it));
          if (removesFromDB()) {
            it.removeFromDB();
          }
        },
        () -> range("r/", "r0", KEY_AND_VALUE), it -> {
          assertEntry("r/z", seek(it, "r/b"));
        });
    if (removesFromDB()) {
      assertNull(table.get(b("r/a")));
    }
  }
}
