package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.NativeTracker;
import io.sediment.db.testing.LeakCheck;
import io.sediment.db.testing.TestStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Model-based property test of the raw table: random sequences of puts, point deletes (of
 * existing and missing keys), range deletes, atomic batches, flushes and full compactions are
 * applied both to an {@link RDBTable} and to a {@code TreeMap<byte[], byte[]>} ordered by
 * {@link Arrays#compareUnsigned} (RocksDB's bytewise order), over a six-byte alphabet
 * ({@code 00 01 'a' 'b' FE FF}, keys of 0 to 4 bytes, the empty key and {@code 0xFF}-heavy keys
 * included) so that prefixes, collisions and prefix successors are common. At random checkpoints
 * and at the end, the table must agree with the model on:
 *
 * <ul>
 *   <li>point reads ({@code get}, {@code getIfExist}, {@code isExist});
 *   <li>full iteration, key-only iteration and prefix iteration (no prefix, the empty prefix,
 *       random prefixes and a prefix ending in {@code 0xFF}), the first call being
 *       {@code next()} or {@code hasNext()} (lazy positioning);
 *   <li>{@code seek(k)} on fresh and on reused full, prefix and range iterators: the landing
 *       entry is the model's ceiling of {@code k} within the bounds (a key below the lower bound
 *       lands on the first entry, past the upper bound gives {@code null}), {@code next()}
 *       returns it again and the rest of the iteration matches;
 *   <li>{@code seekToLast()} on full, prefix and range iterators, as the first call and after
 *       seeks: the model's last entry within the bounds;
 *   <li>{@code rangeIterator(from, to)} equals {@code subMap(from, to)} (open ends included), and a
 *       reversed range is rejected;
 *   <li>the zero-copy {@link RDBStoreCodecBufferIterator} with the same bounds yields, entry for
 *       entry (copied at once), what the {@code byte[]} iterator yields, seeks included;
 *   <li>{@code getRangeKVs} and {@code getSequentialRangeKVs} for random start keys (none,
 *       existing, missing, equal to the prefix, stored keys before and after the prefix, raw
 *       keys in or outside it), counts ({@code -1..5}, the
 *       count-one fast path included), prefixes (none, empty, random, taken from a stored key,
 *       {@code 0xFF}-ending) and filters (none, {@link KeyFilter#prefix},
 *       {@link KeyFilter#notPrefix}, both) equal an independent reference implementation of the
 *       Javadoc of {@link io.sediment.db.Table#getRangeKVs} and DESIGN §2, including the
 *       {@link IllegalArgumentException} cases;
 *   <li>{@code getEstimatedKeyCount()} is never negative and, right after a full-table
 *       {@code compactRange} (which leaves no tombstone and no overwritten version behind), equals
 *       the model's size exactly.
 * </ul>
 *
 * <p>One store is opened per property, on {@code /dev/shm} when there is one (flushes and
 * compactions fsync; on the shared disk that made them several times slower); every try starts
 * from an empty table and LSM tree (range delete over the whole key space, then a full
 * compaction), so that a try, and shrinking, does not depend on earlier tries. Every try must
 * leave no open iterator, native object or {@link CodecBuffer} behind, and after closing the
 * store the property checks that nothing it allocated is still registered: the Jupiter
 * {@code LeakCheckExtension} does not run on jqwik containers.
 */
class TableModelPropertyTest {

  private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', (byte) 0xFE, (byte) 0xFF};
  private static final int MAX_KEY_LENGTH = 4;
  /** Sorts after every key the test writes (at most {@value #MAX_KEY_LENGTH} bytes). */
  private static final byte[] ABOVE_ALL_KEYS = filled(8, (byte) 0xFF);
  private static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;
  private static final String IAE = "IllegalArgumentException";

  private Path dir;
  private DBStore store;
  private RDBTable table;
  private LeakCheck leakCheck;

  // ---- lifecycle --------------------------------------------------------------------------

  @BeforeProperty
  void openStore() throws IOException {
    leakCheck = LeakCheck.begin();
    Path shm = Path.of("/dev/shm");
    dir = Files.isDirectory(shm) && Files.isWritable(shm)
        ? Files.createTempDirectory(shm, "table-model-")
        : Files.createTempDirectory("table-model-");
    store = TestStores.open(dir);
    table = (RDBTable) store.getTable(TestStores.BYTES.name());
  }

  @AfterProperty
  void closeStoreAndCheckForLeaks() throws IOException {
    try {
      if (store != null) {
        store.close();
      }
    } finally {
      deleteRecursively(dir);
    }
    assertEquals("", leakCheck.report(), "resources left after the store closed");
  }

  private static void deleteRecursively(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    }
  }

  // ---- the property -----------------------------------------------------------------------

  @Property(tries = 1000)
  void tableAndItsIteratorsAgreeWithASortedMapModel(
      @ForAll("scenarios") List<Action> actions, @ForAll("probes") Probe finalProbe) {
    clearTable();
    // Counted per try (not against zero) so that a leak fails the try that leaked, and
    // shrinking, not every later try too.
    int iteratorsOpen = ((RDBStore) store).database().openIteratorCount();
    int nativeLive = NativeTracker.REGISTRY.liveCount();
    int buffersLive = CodecBuffer.LEAKS.liveCount();

    TreeMap<byte[], byte[]> model = new TreeMap<>(ORDER);
    for (Action action : actions) {
      apply(action, model);
    }
    verify(finalProbe, model);

    assertEquals(iteratorsOpen, ((RDBStore) store).database().openIteratorCount(),
        "iterators left open");
    assertEquals(nativeLive, NativeTracker.REGISTRY.liveCount(), "native objects left live");
    assertEquals(buffersLive, CodecBuffer.LEAKS.liveCount(), "codec buffers left unreleased");
  }

  /** Empties the table and its LSM tree so that every try starts from the same state. */
  private void clearTable() {
    table.deleteRange(new byte[0], ABOVE_ALL_KEYS);
    store.compactRange(table.getName(), null, null);
    assertTrue(table.isEmpty(), "table not empty after clearing");
    assertEquals(0, table.getEstimatedKeyCount(), "estimate after clearing and compacting");
  }

  // ---- applying actions -------------------------------------------------------------------

  private void apply(Action action, TreeMap<byte[], byte[]> model) {
    if (action instanceof Write w) {
      applyWrite(w, model, null);
    } else if (action instanceof Batch b) {
      try (BatchOperation batch = store.initBatchOperation()) {
        for (Write w : b.writes()) {
          applyWrite(w, model, batch);
        }
        assertEquals(b.writes().size(), batch.size(), "writes in the batch");
        batch.commit();
      }
    } else if (action instanceof Flush) {
      store.flush(table.getName());
    } else if (action instanceof Compact) {
      store.compactRange(table.getName(), null, null);
      // After a full compaction to the bottommost level with no snapshot and no open iterator,
      // no tombstone and no overwritten version is left: the estimate is exact.
      assertEquals(model.size(), table.getEstimatedKeyCount(),
          "estimated key count right after a full compaction");
    } else if (action instanceof Check c) {
      verify(c.probe(), model);
    } else {
      throw new AssertionError("unknown action " + action);
    }
  }

  /** Applies {@code w} to the model and to the table, directly or into {@code batch}. */
  private void applyWrite(Write w, TreeMap<byte[], byte[]> model, BatchOperation batch) {
    if (w instanceof Put p) {
      if (batch == null) {
        table.put(p.key(), p.value());
      } else {
        table.putWithBatch(batch, p.key(), p.value());
      }
      model.put(p.key().clone(), p.value().clone());
    } else if (w instanceof Delete d) {
      byte[] key = d.resolve(model);
      if (batch == null) {
        table.delete(key);
      } else {
        table.deleteWithBatch(batch, key);
      }
      model.remove(key);
    } else if (w instanceof DeleteRange r) {
      if (batch == null) {
        table.deleteRange(r.from(), r.to());
      } else {
        table.deleteRangeWithBatch(batch, r.from(), r.to());
      }
      model.subMap(r.from(), true, r.to(), false).clear();
    } else {
      throw new AssertionError("unknown write " + w);
    }
  }

  // ---- verification -----------------------------------------------------------------------

  private void verify(Probe probe, TreeMap<byte[], byte[]> model) {
    assertTrue(table.getEstimatedKeyCount() >= 0, "estimated key count is negative");
    verifyPointReads(probe, model);
    verifyFullIteration(model);

    List<byte[]> prefixes = new ArrayList<>();
    prefixes.add(null);
    prefixes.add(new byte[0]);
    prefixes.addAll(probe.prefixes());
    prefixes.add(probe.ffPrefix());
    for (byte[] prefix : prefixes) {
      verifyPrefix(prefix, probe.seekKeys(), model);
    }
    for (Range range : probe.ranges()) {
      verifyRange(range, probe.seekKeys(), model);
    }
    for (RangeQuery query : probe.queries()) {
      verifyRangeQuery(query, model);
    }
  }

  private void verifyPointReads(Probe probe, TreeMap<byte[], byte[]> model) {
    List<byte[]> keys = new ArrayList<>(probe.seekKeys());
    keys.addAll(probe.prefixes());
    if (!model.isEmpty()) {
      keys.add(model.firstKey());
      keys.add(model.lastKey());
    }
    for (byte[] k : keys) {
      String expected = render(model.get(k));
      assertEquals(expected, render(table.get(k)), "get " + show(k));
      assertEquals(expected, render(table.getIfExist(k)), "getIfExist " + show(k));
      assertEquals(model.containsKey(k), table.isExist(k), "isExist " + show(k));
    }
  }

  private void verifyFullIteration(TreeMap<byte[], byte[]> model) {
    List<String> expected = render(entries(model));
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
      assertEquals(expected, drain(it), "full iteration");
    }
    List<String> expectedKeys = new ArrayList<>();
    for (byte[] k : model.keySet()) {
      expectedKeys.add(render(k, null));
    }
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             table.iterator(null, IteratorType.KEY_ONLY)) {
      assertEquals(expectedKeys, drain(it), "key-only iteration");
    }
    assertEquals(model.isEmpty(), table.isEmpty(), "isEmpty");
  }

  /**
   * Checks the prefix iterator ({@code null} = whole table) and the codec-buffer iterator over
   * the same bounds against the model's entries with that prefix.
   */
  private void verifyPrefix(byte[] prefix, List<byte[]> seekKeys, TreeMap<byte[], byte[]> model) {
    byte[] lower = prefix == null || prefix.length == 0 ? null : prefix;
    byte[] upper = lower == null ? null : successor(lower);
    verifyBounded("prefix " + show(prefix), () -> table.iterator(prefix), lower, upper,
        withPrefix(model, prefix), seekKeys);
  }

  /** Checks {@code rangeIterator(from, to)} and the codec-buffer iterator over the same range. */
  private void verifyRange(Range range, List<byte[]> seekKeys, TreeMap<byte[], byte[]> model) {
    String where = "range " + range;
    verifyBounded(where,
        () -> table.rangeIterator(range.from(), range.to(), IteratorType.KEY_AND_VALUE),
        range.from(), range.to(), entries(subMap(model, range.from(), range.to())), seekKeys);

    if (range.from() != null && range.to() != null && ORDER.compare(range.from(), range.to()) < 0) {
      expectRejected(() -> table.rangeIterator(range.to(), range.from(), IteratorType.KEY_ONLY),
          where + ": reversed rangeIterator");
      expectRejected(() -> table.codecBufferIterator(range.to(), range.from(),
          IteratorType.KEY_ONLY), where + ": reversed codecBufferIterator");
    }
  }

  /**
   * Checks the iterators {@code open} creates, and the codec-buffer iterator over
   * {@code [lower, upper)} (their native bounds), against {@code expected}, the model's entries
   * within those bounds in order.
   */
  private void verifyBounded(String where,
      Supplier<TableIterator<byte[], KeyValue<byte[], byte[]>>> open, byte[] lower, byte[] upper,
      List<Map.Entry<byte[], byte[]>> expected, List<byte[]> seekKeys) {
    List<String> expectedRendered = render(expected);

    // First call next(): lazy positioning at the start of the bounds, then the whole iteration.
    List<String> viaBytes = new ArrayList<>();
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = open.get()) {
      if (expected.isEmpty()) {
        assertThrows(NoSuchElementException.class, it::next, where + ": next() when empty");
      } else {
        viaBytes.add(render(it.next()));
        viaBytes.addAll(drain(it));
      }
    }
    assertEquals(expectedRendered, viaBytes, where + ": iteration (first call next())");

    // First call seekToLast: the last entry within the bounds, then the end.
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = open.get()) {
      it.seekToLast();
      assertEquals(last(expectedRendered), drain(it), where + ": after seekToLast");
    }

    // First call seek(k): the landing entry, next() returns it again, then the whole rest; the
    // same iterator then re-seeks to every other key (reading two entries after each) and
    // finally seeks to the last entry.
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = open.get()) {
      byte[] first = seekKeys.get(0);
      List<String> tail = render(ceilingTail(expected, first));
      assertEquals(tail.isEmpty() ? "null" : tail.get(0), render(it.seek(first)),
          where + ": seek " + show(first));
      assertEquals(tail, drain(it), where + ": iteration after seek " + show(first));
      for (byte[] k : seekKeys.subList(1, seekKeys.size())) {
        tail = render(ceilingTail(expected, k));
        assertEquals(tail.isEmpty() ? "null" : tail.get(0), render(it.seek(k)),
            where + ": re-seek " + show(k));
        assertEquals(tail.subList(0, Math.min(2, tail.size())), take(it, 2),
            where + ": two entries after re-seek " + show(k));
      }
      it.seekToLast();
      assertEquals(last(expectedRendered), drain(it), where + ": seekToLast after seeks");
    }

    // The codec-buffer iterator over the same native bounds, entries copied at once: the same
    // iteration, then (on the same, exhausted iterator) the same seeks and seekToLast.
    try (RDBStoreCodecBufferIterator it =
             table.codecBufferIterator(lower, upper, IteratorType.KEY_AND_VALUE)) {
      List<String> viaCodec = drainCodec(it);
      assertEquals(viaBytes, viaCodec, where + ": codec-buffer vs byte[] iterator");
      for (byte[] k : seekKeys) {
        List<String> tail = render(ceilingTail(expected, k));
        String landed;
        try (CodecBuffer target = CodecBuffer.copyOf(k)) {
          landed = renderCodec(it.seek(target));
        }
        assertEquals(tail.isEmpty() ? "null" : tail.get(0), landed,
            where + ": codec-buffer seek " + show(k));
        assertEquals(tail.subList(0, Math.min(3, tail.size())), takeCodec(it, 3),
            where + ": codec-buffer entries after seek " + show(k));
      }
      it.seekToLast();
      assertEquals(last(expectedRendered), drainCodec(it), where + ": codec-buffer seekToLast");
    }
  }

  private void verifyRangeQuery(RangeQuery query, TreeMap<byte[], byte[]> model) {
    byte[] prefix = query.prefix().resolve(model);
    byte[] start = query.start().resolve(model, prefix);
    List<FilterSpec> filters = query.filter().resolve(model);
    KeyFilter[] keyFilters = new KeyFilter[filters.size()];
    for (int i = 0; i < keyFilters.length; i++) {
      FilterSpec f = filters.get(i);
      keyFilters[i] = f.keep() ? KeyFilter.prefix(f.prefix()) : KeyFilter.notPrefix(f.prefix());
    }
    for (boolean sequential : new boolean[] {false, true}) {
      String call = (sequential ? "getSequentialRangeKVs(" : "getRangeKVs(") + show(start) + ", "
          + query.count() + ", " + show(prefix) + ", " + filters + ")";
      String expected = referenceRangeKVs(model, start, query.count(), prefix, filters, sequential);
      String actual;
      try {
        List<KeyValue<byte[], byte[]>> got = sequential
            ? table.getSequentialRangeKVs(start, query.count(), prefix, keyFilters)
            : table.getRangeKVs(start, query.count(), prefix, keyFilters);
        actual = got.stream().map(TableModelPropertyTest::render).collect(Collectors.toList())
            .toString();
      } catch (IllegalArgumentException e) {
        actual = IAE;
      }
      assertEquals(expected, actual, call);
    }
  }

  /**
   * The documented semantics of {@code getRangeKVs}/{@code getSequentialRangeKVs}, written
   * directly over the model: the result rendered as a list, or {@value #IAE}.
   */
  static String referenceRangeKVs(TreeMap<byte[], byte[]> model, byte[] startKey, int count,
      byte[] prefix, List<FilterSpec> filters, boolean sequential) {
    if (count < 0) {
      return IAE;
    }
    byte[] p = prefix == null || prefix.length == 0 ? null : prefix;
    if (count == 0 || startKey != null && p != null && !startsWith(startKey, p)) {
      return List.of().toString();
    }
    List<Map.Entry<byte[], byte[]>> candidates = withPrefix(model, p);
    if (startKey != null) {
      boolean mustExist = p == null || startKey.length > p.length;
      if (mustExist && !model.containsKey(startKey)) {
        return List.of().toString();
      }
      candidates = ceilingTail(candidates, startKey);
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : candidates) {
      if (out.size() == count) {
        break;
      }
      boolean accepted = true;
      for (FilterSpec f : filters) {
        accepted &= f.keep() == startsWith(e.getKey(), f.prefix());
      }
      if (accepted) {
        out.add(render(e.getKey(), e.getValue()));
      } else if (sequential && !out.isEmpty()) {
        break;
      }
    }
    return out.toString();
  }

  // ---- model helpers (independent of the code under test) ---------------------------------

  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** The least key above every key starting with {@code p}; {@code null} if none. */
  static byte[] successor(byte[] p) {
    for (int i = p.length - 1; i >= 0; i--) {
      if (p[i] != (byte) 0xFF) {
        byte[] s = Arrays.copyOf(p, i + 1);
        s[i]++;
        return s;
      }
    }
    return null;
  }

  static List<Map.Entry<byte[], byte[]>> entries(Map<byte[], byte[]> map) {
    return new ArrayList<>(map.entrySet());
  }

  /** The model's entries whose key starts with {@code prefix} ({@code null}/empty: all). */
  static List<Map.Entry<byte[], byte[]>> withPrefix(TreeMap<byte[], byte[]> model, byte[] prefix) {
    if (prefix == null || prefix.length == 0) {
      return entries(model);
    }
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : model.tailMap(prefix, true).entrySet()) {
      if (!startsWith(e.getKey(), prefix)) {
        break;
      }
      out.add(e);
    }
    return out;
  }

  static NavigableMap<byte[], byte[]> subMap(TreeMap<byte[], byte[]> model, byte[] from,
      byte[] to) {
    NavigableMap<byte[], byte[]> m = model;
    if (from != null) {
      m = m.tailMap(from, true);
    }
    if (to != null) {
      m = m.headMap(to, false);
    }
    return m;
  }

  /** The entries of the sorted list {@code entries} at or after {@code key}. */
  static List<Map.Entry<byte[], byte[]>> ceilingTail(List<Map.Entry<byte[], byte[]>> entries,
      byte[] key) {
    int i = 0;
    while (i < entries.size() && ORDER.compare(entries.get(i).getKey(), key) < 0) {
      i++;
    }
    return entries.subList(i, entries.size());
  }

  // ---- iterator helpers -------------------------------------------------------------------

  private static List<String> drain(TableIterator<byte[], KeyValue<byte[], byte[]>> it) {
    List<String> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(render(it.next()));
    }
    return out;
  }

  private static List<String> take(TableIterator<byte[], KeyValue<byte[], byte[]>> it, int n) {
    List<String> out = new ArrayList<>();
    while (out.size() < n && it.hasNext()) {
      out.add(render(it.next()));
    }
    return out;
  }

  private static List<String> drainCodec(RDBStoreCodecBufferIterator it) {
    List<String> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(renderCodec(it.next()));
    }
    return out;
  }

  private static List<String> takeCodec(RDBStoreCodecBufferIterator it, int n) {
    List<String> out = new ArrayList<>();
    while (out.size() < n && it.hasNext()) {
      out.add(renderCodec(it.next()));
    }
    return out;
  }

  private static void expectRejected(Supplier<? extends AutoCloseable> open, String what) {
    AutoCloseable opened = null;
    try {
      opened = open.get();
      fail(what + ": expected IllegalArgumentException");
    } catch (IllegalArgumentException expected) {
      assertNull(opened);
    } finally {
      if (opened != null) {
        try {
          opened.close();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
    }
  }

  private static List<String> last(List<String> rendered) {
    return rendered.isEmpty() ? List.of() : List.of(rendered.get(rendered.size() - 1));
  }

  // ---- rendering --------------------------------------------------------------------------

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Hex in quotes ({@code "61ff"}; {@code ""} is the empty array), or {@code null}. */
  static String show(byte[] b) {
    if (b == null) {
      return "null";
    }
    char[] out = new char[2 * b.length + 2];
    out[0] = '"';
    for (int i = 0; i < b.length; i++) {
      out[1 + 2 * i] = HEX[(b[i] >> 4) & 0xF];
      out[2 + 2 * i] = HEX[b[i] & 0xF];
    }
    out[out.length - 1] = '"';
    return new String(out);
  }

  static String render(byte[] value) {
    return show(value);
  }

  static String render(byte[] key, byte[] value) {
    return show(key) + "=" + show(value);
  }

  static String render(KeyValue<byte[], byte[]> kv) {
    return kv == null ? "null" : render(kv.getKey(), kv.getValue());
  }

  static String renderCodec(KeyValue<CodecBuffer, CodecBuffer> kv) {
    if (kv == null) {
      return "null";
    }
    return render(kv.getKey().getArray(), kv.getValue() == null ? null : kv.getValue().getArray());
  }

  static List<String> render(List<Map.Entry<byte[], byte[]>> entries) {
    List<String> out = new ArrayList<>(entries.size());
    for (Map.Entry<byte[], byte[]> e : entries) {
      out.add(render(e.getKey(), e.getValue()));
    }
    return out;
  }

  static byte[] filled(int n, byte b) {
    byte[] out = new byte[n];
    Arrays.fill(out, b);
    return out;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** The key at {@code index} (modulo) among {@code keys}, or {@code null} if there is none. */
  static byte[] pick(List<byte[]> keys, int index) {
    return keys.isEmpty() ? null : keys.get(Math.floorMod(index, keys.size())).clone();
  }

  // ---- actions ----------------------------------------------------------------------------

  /** One step of a scenario. */
  interface Action {
  }

  /** A write that may be applied directly or inside a batch. */
  interface Write extends Action {
  }

  record Put(byte[] key, byte[] value) implements Write {
    @Override
    public String toString() {
      return "put(" + show(key) + ", " + show(value) + ")";
    }
  }

  /**
   * Deletes an existing key (the {@code index}-th of the model's keys, modulo) when
   * {@code existing} and the model is not empty, else {@code key}, which is usually missing.
   */
  record Delete(byte[] key, boolean existing, int index) implements Write {
    byte[] resolve(TreeMap<byte[], byte[]> model) {
      byte[] k = existing ? pick(new ArrayList<>(model.keySet()), index) : null;
      return k != null ? k : key;
    }

    @Override
    public String toString() {
      return existing ? "delete(existing #" + index + " else " + show(key) + ")"
          : "delete(" + show(key) + ")";
    }
  }

  record DeleteRange(byte[] from, byte[] to) implements Write {
    @Override
    public String toString() {
      return "deleteRange(" + show(from) + ", " + show(to) + ")";
    }
  }

  record Batch(List<Write> writes) implements Action {
    @Override
    public String toString() {
      return "batch" + writes;
    }
  }

  record Flush() implements Action {
    @Override
    public String toString() {
      return "flush";
    }
  }

  record Compact() implements Action {
    @Override
    public String toString() {
      return "compactRange(all)";
    }
  }

  record Check(Probe probe) implements Action {
    @Override
    public String toString() {
      return "check" + probe;
    }
  }

  // ---- probes -----------------------------------------------------------------------------

  /** What a verification asks: prefixes, seek targets, ranges and getRangeKVs calls. */
  record Probe(List<byte[]> prefixes, byte[] ffPrefix, List<byte[]> seekKeys, List<Range> ranges,
      List<RangeQuery> queries) {
    @Override
    public String toString() {
      return "{prefixes=" + shows(prefixes) + " + " + show(ffPrefix) + ", seeks=" + shows(seekKeys)
          + ", ranges=" + ranges + ", queries=" + queries + "}";
    }
  }

  static String shows(List<byte[]> keys) {
    return keys.stream().map(TableModelPropertyTest::show).collect(Collectors.toList()).toString();
  }

  /** {@code [from, to)}; a {@code null} end is open. */
  record Range(byte[] from, byte[] to) {
    @Override
    public String toString() {
      return "[" + show(from) + ", " + show(to) + ")";
    }
  }

  record RangeQuery(StartPick start, int count, PrefixPick prefix, FilterPick filter) {
    @Override
    public String toString() {
      return "rangeKVs(" + start + ", " + count + ", " + prefix + ", " + filter + ")";
    }
  }

  enum StartKind { NULL, EXISTING, MISSING, EQUAL_TO_PREFIX, STORED_BEFORE_PREFIX,
      STORED_AFTER_PREFIX, RAW }

  /** How the start key of a getRangeKVs call is chosen, relative to the model and the prefix. */
  record StartPick(StartKind kind, int index, byte[] raw) {
    byte[] resolve(TreeMap<byte[], byte[]> model, byte[] prefix) {
      boolean hasPrefix = prefix != null && prefix.length > 0;
      switch (kind) {
        case NULL:
          return null;
        case EXISTING: {
          List<byte[]> keys = new ArrayList<>();
          for (Map.Entry<byte[], byte[]> e : withPrefix(model, prefix)) {
            keys.add(e.getKey());
          }
          byte[] k = pick(keys, index);
          if (k == null) {
            k = pick(new ArrayList<>(model.keySet()), index);
          }
          return k != null ? k : raw;
        }
        case MISSING: {
          byte[] k = hasPrefix ? concat(prefix, raw) : raw.clone();
          while (model.containsKey(k)) {
            k = concat(k, new byte[] {0x00});
          }
          return k;
        }
        case EQUAL_TO_PREFIX:
          return prefix == null ? new byte[0] : prefix.clone();
        case STORED_BEFORE_PREFIX:
        case STORED_AFTER_PREFIX: {
          // A stored key outside the prefix on the chosen side (the raw key without a prefix or
          // such a key).
          List<byte[]> keys = new ArrayList<>();
          for (byte[] k : model.keySet()) {
            if (hasPrefix && !startsWith(k, prefix)
                && (ORDER.compare(k, prefix) < 0) == (kind == StartKind.STORED_BEFORE_PREFIX)) {
              keys.add(k);
            }
          }
          byte[] k = pick(keys, index);
          return k != null ? k : raw;
        }
        case RAW:
          return raw;
        default:
          throw new AssertionError(kind);
      }
    }

    @Override
    public String toString() {
      return kind == StartKind.NULL ? "start=null"
          : "start=" + kind + "#" + index + "/" + show(raw);
    }
  }

  enum PrefixKind { NULL, EMPTY, RANDOM, OF_STORED_KEY, FF_ENDING }

  record PrefixPick(PrefixKind kind, int index, byte[] raw) {
    byte[] resolve(TreeMap<byte[], byte[]> model) {
      switch (kind) {
        case NULL:
          return null;
        case EMPTY:
          return new byte[0];
        case RANDOM:
          return raw;
        case OF_STORED_KEY: {
          byte[] k = pick(new ArrayList<>(model.keySet()), index);
          if (k == null || k.length == 0) {
            return raw;
          }
          return Arrays.copyOf(k, 1 + Math.floorMod(index, k.length));
        }
        case FF_ENDING:
          return concat(raw, new byte[] {(byte) 0xFF});
        default:
          throw new AssertionError(kind);
      }
    }

    @Override
    public String toString() {
      return "prefix=" + kind + "#" + index + "/" + show(raw);
    }
  }

  enum FilterKind { NONE, PREFIX, NOT_PREFIX, BOTH }

  /** A filter of the reference: keeps keys that do ({@code keep}) or do not start with it. */
  record FilterSpec(boolean keep, byte[] prefix) {
    @Override
    public String toString() {
      return (keep ? "prefix(" : "notPrefix(") + show(prefix) + ")";
    }
  }

  /**
   * The filters of a getRangeKVs call. With {@code fromStoredKey}, the filter prefixes are leading
   * parts of a stored key (the {@code index}-th, modulo), the second one byte longer than the
   * first, so that matches and misses interleave within a range (what tells
   * {@code getSequentialRangeKVs} apart).
   */
  record FilterPick(FilterKind kind, boolean fromStoredKey, int index, byte[] a, byte[] b) {
    List<FilterSpec> resolve(TreeMap<byte[], byte[]> model) {
      byte[] first = a;
      byte[] second = b;
      if (fromStoredKey) {
        byte[] k = pick(new ArrayList<>(model.keySet()), index);
        if (k != null && k.length > 0) {
          first = Arrays.copyOf(k, 1 + Math.floorMod(index / 7, k.length));
          second = Arrays.copyOf(k, Math.min(k.length, first.length + 1));
        }
      }
      switch (kind) {
        case NONE:
          return List.of();
        case PREFIX:
          return List.of(new FilterSpec(true, first));
        case NOT_PREFIX:
          return List.of(new FilterSpec(false, first));
        case BOTH:
          return List.of(new FilterSpec(true, first), new FilterSpec(false, second));
        default:
          throw new AssertionError(kind);
      }
    }

    @Override
    public String toString() {
      return "filters=" + kind + (fromStoredKey ? "(stored #" + index + ")" : "") + "/" + show(a)
          + "/" + show(b);
    }
  }

  // ---- generators -------------------------------------------------------------------------

  /** Keys of {@code min..max} bytes over the alphabet; one in five ends in a run of 0xFF. */
  static Arbitrary<byte[]> keys(int min, int max) {
    Arbitrary<byte[]> plain = Arbitraries.of(boxed(ALPHABET)).list().ofMinSize(min).ofMaxSize(max)
        .map(TableModelPropertyTest::unbox);
    Arbitrary<byte[]> ffHeavy = Combinators.combine(
            Arbitraries.of(boxed(ALPHABET)).list().ofMaxSize(Math.max(0, max - 1)),
            Arbitraries.integers().between(1, Math.max(1, max)))
        .as((head, run) -> {
          byte[] k = concat(unbox(head), filled(run, (byte) 0xFF));
          return Arrays.copyOf(k, Math.max(min, Math.min(max, k.length)));
        });
    return Arbitraries.frequencyOf(Tuple.of(4, plain), Tuple.of(1, ffHeavy));
  }

  static Byte[] boxed(byte[] bytes) {
    Byte[] out = new Byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = bytes[i];
    }
    return out;
  }

  static byte[] unbox(List<Byte> bytes) {
    byte[] out = new byte[bytes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = bytes.get(i);
    }
    return out;
  }

  static Arbitrary<byte[]> values() {
    return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(3);
  }

  static Arbitrary<Write> puts() {
    return Combinators.combine(keys(0, MAX_KEY_LENGTH), values()).as(Put::new);
  }

  static Arbitrary<Write> deletes() {
    return Combinators.combine(keys(0, MAX_KEY_LENGTH), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, 100)).as(Delete::new);
  }

  /**
   * Mostly narrow ranges (a key to itself, to an extension of itself, or to the successor of its
   * prefix subtree), sometimes between two random keys, so that the table does not stay empty.
   */
  static Arbitrary<Write> deleteRanges() {
    Arbitrary<Write> wide = Combinators.combine(keys(0, MAX_KEY_LENGTH), keys(0, MAX_KEY_LENGTH))
        .as((x, y) -> ORDER.compare(x, y) <= 0 ? new DeleteRange(x, y) : new DeleteRange(y, x));
    Arbitrary<Write> narrow = Combinators.combine(
            keys(1, 3), keys(0, 2), Arbitraries.of(true, false))
        .as((from, suffix, subtree) -> {
          byte[] succ = successor(from);
          byte[] to = subtree && succ != null ? succ : concat(from, suffix);
          return new DeleteRange(from, to);
        });
    return Arbitraries.frequencyOf(Tuple.of(1, wide), Tuple.of(5, narrow));
  }

  static Arbitrary<Write> writes() {
    return Arbitraries.frequencyOf(Tuple.of(6, puts()), Tuple.of(3, deletes()),
        Tuple.of(1, deleteRanges()));
  }

  @Provide
  Arbitrary<List<Action>> scenarios() {
    Arbitrary<Action> batch = writes().list().ofMinSize(1).ofMaxSize(6).map(Batch::new);
    Arbitrary<Action> action = Arbitraries.frequencyOf(
        Tuple.of(55, puts().map(a -> a)),
        Tuple.of(10, deletes().map(a -> a)),
        Tuple.of(5, deleteRanges().map(a -> a)),
        Tuple.of(10, batch),
        Tuple.of(4, Arbitraries.just(new Flush())),
        Tuple.of(3, Arbitraries.just(new Compact())),
        Tuple.of(3, probes().map(Check::new)));
    return action.list().ofMinSize(5).ofMaxSize(60)
        .withSizeDistribution(RandomDistribution.uniform());
  }

  @Provide
  Arbitrary<Probe> probes() {
    Arbitrary<byte[]> ffPrefix = keys(0, 2).map(k -> concat(k, new byte[] {(byte) 0xFF}));
    Arbitrary<Range> range = Combinators.combine(
            keys(0, MAX_KEY_LENGTH).injectNull(0.15), keys(0, MAX_KEY_LENGTH).injectNull(0.15))
        .as((x, y) -> x != null && y != null && ORDER.compare(x, y) > 0
            ? new Range(y, x) : new Range(x, y));
    return Combinators.combine(
            keys(1, 3).list().ofMinSize(1).ofMaxSize(3),
            ffPrefix,
            keys(0, MAX_KEY_LENGTH + 1).list().ofMinSize(1).ofMaxSize(3),
            range.list().ofMinSize(1).ofMaxSize(3),
            rangeQueries().list().ofMinSize(2).ofMaxSize(6))
        .as(Probe::new);
  }

  static Arbitrary<RangeQuery> rangeQueries() {
    Arbitrary<StartPick> start = Combinators.combine(
            Arbitraries.of(StartKind.class), Arbitraries.integers().between(0, 100),
            keys(0, MAX_KEY_LENGTH))
        .as(StartPick::new);
    Arbitrary<Integer> count = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(-1)),
        Tuple.of(2, Arbitraries.just(0)),
        Tuple.of(5, Arbitraries.just(1)),
        Tuple.of(6, Arbitraries.integers().between(2, 5)));
    Arbitrary<PrefixPick> prefix = Combinators.combine(
            Arbitraries.of(PrefixKind.class), Arbitraries.integers().between(0, 100), keys(0, 2))
        .as(PrefixPick::new);
    Arbitrary<FilterPick> filter = Combinators.combine(
            Arbitraries.of(FilterKind.class), Arbitraries.of(true, false),
            Arbitraries.integers().between(0, 100), keys(0, 2), keys(0, 2))
        .as(FilterPick::new);
    return Combinators.combine(start, count, prefix, filter).as(RangeQuery::new);
  }
}
