package io.sediment.bench;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.managed.DBProfile;
import io.sediment.db.tombstone.TombstonePolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * What tombstone accounting costs on the path with no tombstones: a fresh bounded iterator, one
 * seek and a page of 10 entries, on a store whose iterators never count ({@code off}), all count
 * ({@code every}: PerfContext switched on around each native move), or one in 16 counts (the
 * default, {@code sampled16}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AccountingBenchmark {

  private static final TableDefinition<byte[], byte[]> T =
      TableDefinition.of("t", ByteArrayCodec.get(), ByteArrayCodec.get());
  private static final int KEYS = 200_000;

  @Param({"off", "every", "sampled16"})
  public String accounting;

  private Path dir;
  private DBStore store;
  private Table<byte[], byte[]> table;

  static byte[] key(int i) {
    return String.format("key-%010d", i).getBytes(StandardCharsets.UTF_8);
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    TombstonePolicy policy = switch (accounting) {
      case "off" -> TombstonePolicy.disabled();
      case "every" -> TombstonePolicy.defaults().withSampleEvery(1);
      case "sampled16" -> TombstonePolicy.defaults().withSampleEvery(16);
      default -> throw new IllegalArgumentException(accounting);
    };
    dir = Files.createTempDirectory("sediment-accounting");
    store = DBStoreBuilder.newBuilder(DBDefinition.of("accounting", T)).setPath(dir)
        .setProfile(DBProfile.builder().blockCacheBytes(256L << 20).build())
        .setTombstonePolicy(policy).build();
    table = store.getTable(T);
    var batch = store.initBatchOperation();
    for (int i = 0; i < KEYS; i++) {
      table.putWithBatch(batch, key(i), new byte[32]);
    }
    batch.commit();
    batch.close();
    store.flush();
    store.compactRange("t", null, null);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public void seekAndReadAPageOfTen(Blackhole bh) {
    int start = ThreadLocalRandom.current().nextInt(KEYS - 20);
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             table.rangeIterator(key(start), key(start + 20), IteratorType.KEY_AND_VALUE)) {
      it.seek(key(start));
      for (int i = 0; i < 10 && it.hasNext(); i++) {
        bh.consume(it.next());
      }
    }
  }
}
