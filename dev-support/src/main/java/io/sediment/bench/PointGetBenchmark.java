package io.sediment.bench;

import io.sediment.bench.raw.RawRocks;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.Table;
import io.sediment.db.TombstonePolicy;
import java.nio.file.Path;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Suite {@code pointget} (BookKeeper PR 4909): random point gets of existing keys from
 * two threads on BookKeeper's entry-location index ({@link PointGetData}: {@code keys} keys of two
 * big-endian longs, 8-byte values, bottom-level SSTs of {@code targetFileMiB}), in one shared LRU
 * block cache of {@code cacheMiB}, with index and filter blocks cached
 * ({@code cache_index_and_filter_blocks}), as BookKeeper and Ozone configure it:
 *
 * <ul>
 *   <li>{@link #fullFilter}: one full Bloom filter block and one binary-search index block per
 *       SST, the layout before PR 4909 ({@code DBProfile.partitionedIndexAndFilters(false)});
 *   <li>{@link #partitioned}: partitioned index and filters of {@code metadata_block_size} 4 KiB
 *       with the top level pinned and the partitions cached like data blocks, the issue's layout
 *       ({@code PartitionPinning.NONE});
 *   <li>{@link #partitionedPinned}: the same files with every partition pinned
 *       ({@code PartitionPinning.ALL});
 *   <li>{@link #sedimentDefault}: the same files opened with Sediment's default profile
 *       ({@code PartitionPinning.AUTO}: pinned when the index and filters on disk take at most an
 *       eighth of the cache, so at 50M keys, about 70 MiB of them, from a 1 GiB cache on); the
 *       decision is the trial's {@code autoPinned} metric.
 * </ul>
 * {@link #rawFullFilter} and {@link #rawPartitioned} make the same gets through plain rocksdbjni on
 * the same open stores ({@link RawRocks}): the ratio RocksDB itself shows between the layouts.
 * Both open the cache with the shard count {@link DBProfile#blockCacheShardBits()} chooses, which
 * for these sizes is RocksDB's own default: 64 shards, {@code cacheMiB / 64} each. A full filter
 * block larger than a shard is inserted over capacity and evicted when released, so every get
 * reads it again from the file; a partition is one 4 KiB block. Set-up prints the layout and the
 * shard size, and the trial's measurement iterations are summarised as {@code #metric} lines:
 * filter-block bytes read per get ({@code BLOCK_CACHE_FILTER_BYTES_INSERT}, what the cache took in
 * after reading filter blocks from files, over {@code NUMBER_KEYS_READ}), filter-block misses per
 * get, index bytes per get. Throughput is the sum over both threads. Run through
 * {@code dev-support/bin/bench pointget [--quick]}, which builds the data first.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(2)
public class PointGetBenchmark {

  static final String[] TICKERS = {
      "NUMBER_KEYS_READ", "BLOCK_CACHE_FILTER_BYTES_INSERT", "BLOCK_CACHE_FILTER_MISS",
      "BLOCK_CACHE_FILTER_HIT", "BLOCK_CACHE_FILTER_ADD", "BLOCK_CACHE_INDEX_BYTES_INSERT",
      "BLOCK_CACHE_INDEX_MISS", "BLOCK_CACHE_DATA_MISS", "BLOCK_CACHE_DATA_HIT",
      "BLOCK_CACHE_ADD_FAILURES", "BLOOM_FILTER_USEFUL"};

  /** One layout's store, opened once per trial on the data {@link PointGetData} built. */
  @State(Scope.Benchmark)
  public abstract static class Store {

    /** Keys in the store (the data directory is built once per value). */
    @Param({"20000000"})
    public long keys;

    /** Target size of the SST files, MiB. */
    @Param({"64"})
    public int targetFileMiB;

    /**
     * Index and filter partition size of the partitioned layouts ({@code metadata_block_size}),
     * KiB; each value is its own data directory. The full-filter layout ignores it.
     */
    @Param({"4"})
    public int metadataKiB;

    /** Block cache capacity, MiB. */
    @Param({"64", "256", "1024"})
    public int cacheMiB;

    DBStore store;
    Table<byte[], byte[]> table;
    RawRocks raw;
    private final long[] atIterationStart = new long[TICKERS.length];
    private final long[] measured = new long[TICKERS.length];
    private int measuredIterations;

    abstract boolean partitioned();

    /** How the store pins its index and filter partitions. */
    DBProfile.PartitionPinning pinning() {
      return DBProfile.PartitionPinning.NONE;
    }

    @Setup(Level.Trial)
    public void open(BenchmarkParams params) {
      Path dir = PointGetData.ensure(keys, partitioned(), targetFileMiB, metadataKiB);
      DBProfile profile = PointGetData.profile(partitioned(), targetFileMiB, metadataKiB,
              (long) cacheMiB << 20)
          .toBuilder().partitionPinning(pinning()).build();
      store = BenchStores.openAt(dir, "pointget", profile, TombstonePolicy.disabled());
      var decision = ((io.sediment.db.rdb.RDBStore) store).database().pinning();
      BenchStores.metric(params, "autoPinned", decision.pinned() ? 1 : 0);
      BenchStores.metric(params, "metadataEstimate", decision.estimatedMetadataBytes());
      table = store.getTable(BenchStores.TABLE);
      raw = RawRocks.of(store, BenchStores.TABLE);
      int bits = profile.blockCacheShardBits();
      BenchStores.metric(params, "shards", 1 << bits);
      BenchStores.metric(params, "shardBytes", profile.blockCacheBytes() >> bits);
      for (String line : PointGetData.describe(store)) {
        int eq = line.indexOf('=');
        BenchStores.metric(params, line.substring(0, eq), line.substring(eq + 1));
      }
      // Every sampled key must exist.
      SplittableRandom random = new SplittableRandom(1);
      byte[] key = new byte[16];
      for (int i = 0; i < 1000; i++) {
        long index = random.nextLong(keys);
        PointGetData.key(index, key);
        byte[] value = table.get(key);
        if (value == null || !Arrays.equals(value, PointGetData.value(index))) {
          throw new IllegalStateException("key #" + index + " missing or wrong in " + dir);
        }
      }
    }

    @Setup(Level.Iteration)
    public void markIteration() {
      for (int t = 0; t < TICKERS.length; t++) {
        atIterationStart[t] = store.getTickerCount(TICKERS[t]);
      }
    }

    /** Runs after both threads finished the iteration. */
    @TearDown(Level.Iteration)
    public void countIteration(IterationParams iteration) {
      if (iteration.getType() != IterationType.MEASUREMENT) {
        return;
      }
      for (int t = 0; t < TICKERS.length; t++) {
        measured[t] += store.getTickerCount(TICKERS[t]) - atIterationStart[t];
      }
      measuredIterations++;
    }

    @TearDown(Level.Trial)
    public void close(BenchmarkParams params) {
      try {
        long gets = measured[0];
        BenchStores.metric(params, "measuredGets", gets);
        if (gets > 0) {
          for (int t = 1; t < TICKERS.length; t++) {
            BenchStores.metric(params, TICKERS[t] + "/get", (double) measured[t] / gets);
          }
        }
        long adds = measured[Arrays.asList(TICKERS).indexOf("BLOCK_CACHE_FILTER_ADD")];
        if (adds > 0) {
          BenchStores.metric(params, "filterBytesPerAdd",
              measured[Arrays.asList(TICKERS).indexOf("BLOCK_CACHE_FILTER_BYTES_INSERT")] / adds);
        }
      } finally {
        store.close(); // the data stays for the next fork
      }
    }
  }

  public static class FullFilter extends Store {
    @Override
    boolean partitioned() {
      return false;
    }
  }

  public static class Partitioned extends Store {
    @Override
    boolean partitioned() {
      return true;
    }
  }

  /**
   * The partitioned layout opened with {@code PartitionPinning.ALL}: every index and filter
   * partition is pinned while its file is open, so a get looks up only its data block in the
   * cache; the partitions stay in memory whatever the cache's capacity.
   */
  public static class PartitionedPinned extends Store {
    @Override
    boolean partitioned() {
      return true;
    }

    @Override
    DBProfile.PartitionPinning pinning() {
      return DBProfile.PartitionPinning.ALL;
    }
  }

  /** The partitioned layout opened with Sediment's default, {@code PartitionPinning.AUTO}. */
  public static class SedimentDefault extends Store {
    @Override
    boolean partitioned() {
      return true;
    }

    @Override
    DBProfile.PartitionPinning pinning() {
      return DBProfile.PartitionPinning.AUTO;
    }
  }

  /** Each thread's own random sequence of existing keys, drawn uniformly. */
  @State(Scope.Thread)
  public static class Reader {
    private SplittableRandom random;

    @Setup(Level.Trial)
    public void seed(org.openjdk.jmh.infra.ThreadParams thread) {
      random = new SplittableRandom(1_000 + thread.getThreadIndex());
    }

    byte[] next(Store s) {
      byte[] key = new byte[16];
      PointGetData.key(random.nextLong(s.keys), key);
      return key;
    }
  }

  @Benchmark
  public byte[] fullFilter(FullFilter s, Reader r) {
    return s.table.get(r.next(s));
  }

  @Benchmark
  public byte[] partitioned(Partitioned s, Reader r) {
    return s.table.get(r.next(s));
  }

  @Benchmark
  public byte[] partitionedPinned(PartitionedPinned s, Reader r) {
    return s.table.get(r.next(s));
  }

  @Benchmark
  public byte[] sedimentDefault(SedimentDefault s, Reader r) {
    return s.table.get(r.next(s));
  }

  /** The floor of {@link #fullFilter}: a plain rocksdbjni get on the same open store. */
  @Benchmark
  public byte[] rawFullFilter(FullFilter s, Reader r) {
    return s.raw.get(r.next(s));
  }

  /** The floor of {@link #partitioned}: a plain rocksdbjni get on the same open store. */
  @Benchmark
  public byte[] rawPartitioned(Partitioned s, Reader r) {
    return s.raw.get(r.next(s));
  }
}
