package io.sediment.bench;

import io.sediment.bench.raw.RawRocks;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Suite {@code getrange} (DESIGN §5): a count-one {@code getRangeKVs(key, 1, null)} on
 * an existing key, answered three ways on the raw {@code byte[]} table of a warm store of
 * {@code keys} entries (compacted to one level, every block cached):
 *
 * <ul>
 *   <li>{@link #fastPath}: {@code Table.getRangeKVs}, whose count-one guard makes it one point
 *       read with no iterator;
 *   <li>{@link #iteratorPath}: the same request through Sediment's own iterator, as
 *       {@code getRangeKVs} answers it without the fast path: new iterator, one seek, check that
 *       it landed on the key, read it, close;
 *   <li>{@link #ozonePath}: Ozone's path before HDDS-16350: a {@code get} to test that the start
 *       key exists, then the iterator seek and read.
 * </ul>
 * The {@code raw*} benchmarks make the same calls through plain rocksdbjni on the same open store
 * (same options, cache and files, {@link RawRocks}): the floor of each path, and the ratios RocksDB
 * itself allows on this machine.
 * Keys are drawn from a precomputed random sequence of existing keys. DESIGN §5 targets: the
 * fast path at least ×1.3 faster than {@link #iteratorPath} (≈×1.5 expected) and ≈×2.5 faster
 * than {@link #ozonePath}. Run through {@code dev-support/bin/bench getrange [--quick]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GetRangeBenchmark {

  /** Size of the random key sequence the benchmarks cycle through (a power of two). */
  static final int SAMPLES = 1 << 16;

  /** The store, built once per trial. */
  @State(Scope.Benchmark)
  public static class Store {

    /** Number of live keys in the table. */
    /**
     * The table profile: Sediment's default ({@code default}: partitioned index and filters, the
     * partitions pinned by {@code PartitionPinning.AUTO}, which pins them here: the store is
     * reopened on its files once they are written, and their index and filters take a few MB of
     * the 256 MiB cache; the trial's {@code partitionsPinned} metric says what it decided), DESIGN §2's partitioned index and filters with only the top level pinned
     * ({@code partitioned}, {@code PartitionPinning.NONE}), the same with every partition pinned
     * ({@code pinned}, {@code PartitionPinning.ALL}), or one full filter per SST ({@code full}).
     */
    @Param({"default"})
    public String filters;

    @Param({"1000000"})
    public int keys;

    DBStore store;
    Table<byte[], byte[]> table;
    RawRocks raw;
    byte[][] samples;

    @Setup(Level.Trial)
    public void build(org.openjdk.jmh.infra.BenchmarkParams params) {
      DBProfile.PartitionPinning pinning = switch (filters) {
        case "default", "full" -> DBProfile.PartitionPinning.AUTO;
        case "partitioned" -> DBProfile.PartitionPinning.NONE;
        case "pinned" -> DBProfile.PartitionPinning.ALL;
        default -> throw new IllegalArgumentException(
            "filters: default, partitioned, pinned or full, not " + filters);
      };
      DBProfile profile = BenchStores.profile().toBuilder()
          .partitionedIndexAndFilters(!"full".equals(filters))
          .partitionPinning(pinning).build();
      store = BenchStores.open("getrange", profile,
          io.sediment.db.TombstonePolicy.disabled());
      table = store.getTable(BenchStores.TABLE);
      BenchStores.putRange(store, table, 0, keys);
      store.flush();
      store.compactRange(BenchStores.TABLE, null, null);
      // Reopened on its files, as a store opens on its data: AUTO decides from them.
      java.nio.file.Path dir = store.getPath();
      store.close();
      store = BenchStores.openAt(dir, "getrange", profile,
          io.sediment.db.TombstonePolicy.disabled());
      table = store.getTable(BenchStores.TABLE);
      raw = RawRocks.of(store, BenchStores.TABLE);
      BenchStores.metric(params, "partitionsPinned", store.partitionPinning().pinned() ? 1 : 0);
      // Warm: one full scan fills the block cache with every data block.
      int seen = 0;
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
        while (it.hasNext()) {
          it.next();
          seen++;
        }
      }
      if (seen != keys) {
        throw new IllegalStateException("Expected " + keys + " keys, scanned " + seen);
      }
      SplittableRandom random = new SplittableRandom(42);
      samples = new byte[SAMPLES][];
      for (int i = 0; i < SAMPLES; i++) {
        samples[i] = BenchStores.key(random.nextInt(keys));
      }
      // The three paths must agree before they are timed.
      for (int i = 0; i < 100; i++) {
        byte[] key = samples[i];
        List<KeyValue<byte[], byte[]>> fast = table.getRangeKVs(key, 1, null);
        if (fast.size() != 1 || !fast.equals(viaIterator(table, key))
            || !fast.equals(viaOzone(table, key))) {
          throw new IllegalStateException("The three paths disagree on sample " + i);
        }
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      BenchStores.deleteStore(store);
    }
  }

  /** Each thread's position in the sample sequence. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    byte[] key(Store s) {
      return s.samples[next++ & (SAMPLES - 1)];
    }
  }

  /** {@code getRangeKVs}' iterator path: one seek, the landing key must be the start key. */
  static List<KeyValue<byte[], byte[]>> viaIterator(Table<byte[], byte[]> table, byte[] key) {
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
        table.iterator(null, IteratorType.KEY_AND_VALUE)) {
      KeyValue<byte[], byte[]> landed = it.seek(key);
      if (landed == null || !Arrays.equals(landed.getKey(), key)) {
        return List.of();
      }
      List<KeyValue<byte[], byte[]>> out = new ArrayList<>(1);
      out.add(it.next());
      return out;
    }
  }

  /** Ozone's path: a get to test existence, then the iterator. */
  static List<KeyValue<byte[], byte[]>> viaOzone(Table<byte[], byte[]> table, byte[] key) {
    if (table.get(key) == null) {
      return List.of();
    }
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
        table.iterator(null, IteratorType.KEY_AND_VALUE)) {
      it.seek(key);
      List<KeyValue<byte[], byte[]>> out = new ArrayList<>(1);
      if (it.hasNext()) {
        out.add(it.next());
      }
      return out;
    }
  }

  @Benchmark
  public void fastPath(Store s, Cursor c, Blackhole bh) {
    bh.consume(s.table.getRangeKVs(c.key(s), 1, null));
  }

  @Benchmark
  public void iteratorPath(Store s, Cursor c, Blackhole bh) {
    bh.consume(viaIterator(s.table, c.key(s)));
  }

  @Benchmark
  public void ozonePath(Store s, Cursor c, Blackhole bh) {
    bh.consume(viaOzone(s.table, c.key(s)));
  }

  // ---- the floor: plain rocksdbjni on the same store -----------------------------------------

  /** A bare {@code RocksDB#get}: what {@link #fastPath} costs without Sediment's layer. */
  @Benchmark
  public byte[] rawGet(Store s, Cursor c) {
    return s.raw.get(c.key(s));
  }

  /** A bare iterator, one seek, key and value, close: {@link #iteratorPath} without the layer. */
  @Benchmark
  public byte[][] rawIteratorPath(Store s, Cursor c) {
    return s.raw.seekAndRead(c.key(s));
  }

  /** A bare get, then a bare iterator seek: {@link #ozonePath} without the layer. */
  @Benchmark
  public byte[][] rawOzonePath(Store s, Cursor c) {
    byte[] key = c.key(s);
    return s.raw.get(key) == null ? null : s.raw.seekAndRead(key);
  }
}
