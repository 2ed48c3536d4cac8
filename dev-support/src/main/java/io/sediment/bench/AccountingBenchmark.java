package io.sediment.bench;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.codec.ByteArrayCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Suite {@code accounting}: what tombstone accounting costs on the path with no tombstones. One
 * operation: a fresh iterator bounded to {@code page} keys from a random start, one seek and
 * {@code page} entries read, on a store of 200k keys whose iterators never count ({@link #off}),
 * all count ({@link #every}: every native move reads the thread's PerfContext and the clock), or
 * are sampled as the default policy says ({@link #sampled}: one in 16, and one a second). A page
 * of 100 is the trailing suite's page (a bounded iterator reading 100 entries); 10 is the
 * smaller page of earlier runs. Besides JMH's wall-clock time, each measurement iteration prints
 * the benchmark thread's CPU time per operation ({@code cpuNanosPerOp}), which waiting for a core
 * on a loaded machine does not inflate. Run through {@code dev-support/bin/bench accounting [--quick]},
 * which pairs the figures into ratios.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AccountingBenchmark {

  private static final TableDefinition<byte[], byte[]> T =
      TableDefinition.of("t", ByteArrayCodec.get(), ByteArrayCodec.get());
  private static final int KEYS = 200_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  static byte[] key(int i) {
    return String.format("key-%010d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** A store of {@value #KEYS} compacted keys; subclasses choose the tombstone policy. */
  @State(Scope.Benchmark)
  public abstract static class Store {

    /** Entries read per operation. */
    @Param({"10", "100"})
    public int page;

    Path dir;
    DBStore store;
    long operations;
    long cpuStart;
    Table<byte[], byte[]> table;

    abstract TombstonePolicy policy();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      dir = Files.createTempDirectory("sediment-accounting");
      store = DBStoreBuilder.newBuilder(DBDefinition.of("accounting", T)).setPath(dir)
          .setProfile(DBProfile.builder().blockCacheBytes(256L << 20).build())
          .setTombstonePolicy(policy()).build();
      table = store.getTable(T);
      try (var batch = store.initBatchOperation()) {
        for (int i = 0; i < KEYS; i++) {
          table.putWithBatch(batch, key(i), new byte[32]);
        }
        batch.commit();
      }
      store.flush();
      store.compactRange("t", null, null);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      BenchStores.deleteStore(store);
    }

    /**
     * Starts counting the benchmark thread's CPU time for this iteration: on a shared machine the
     * wall-clock time per operation includes waiting for a core, which other processes' load
     * moves far more than the code under test.
     */
    @Setup(Level.Iteration)
    public void startCpuClock() {
      operations = 0;
      cpuStart = THREADS.getCurrentThreadCpuTime();
    }

    /** Prints the iteration's CPU time per operation as the metric {@code cpuNanosPerOp}. */
    @TearDown(Level.Iteration)
    public void stopCpuClock(BenchmarkParams params, IterationParams iteration) {
      long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
      if (iteration.getType() == IterationType.MEASUREMENT && operations > 0) {
        BenchStores.metric(params, "cpuNanosPerOp", cpu / operations);
      }
    }

    void readAPage(Blackhole bh) {
      operations++;
      int start = ThreadLocalRandom.current().nextInt(KEYS - page);
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               table.rangeIterator(key(start), key(start + page), IteratorType.KEY_AND_VALUE)) {
        it.seek(key(start));
        for (int i = 0; i < page && it.hasNext(); i++) {
          bh.consume(it.next());
        }
      }
    }
  }

  /** No iterator counts. */
  public static class Off extends Store {
    @Override
    TombstonePolicy policy() {
      return TombstonePolicy.disabled();
    }
  }

  /** Every iterator counts. */
  public static class Every extends Store {
    @Override
    TombstonePolicy policy() {
      return TombstonePolicy.defaults().withSampleEvery(1);
    }
  }

  /** The default policy: one iterator in 16 counts, and at least one a second. */
  public static class Sampled extends Store {
    @Override
    TombstonePolicy policy() {
      return TombstonePolicy.defaults();
    }
  }

  @Benchmark
  public void off(Off s, Blackhole bh) {
    s.readAPage(bh);
  }

  @Benchmark
  public void every(Every s, Blackhole bh) {
    s.readAPage(bh);
  }

  @Benchmark
  public void sampled(Sampled s, Blackhole bh) {
    s.readAPage(bh);
  }
}
