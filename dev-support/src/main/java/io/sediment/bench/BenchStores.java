package io.sediment.bench;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.codec.ByteArrayCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Shared set-up for the benchmarks: a one-table store of raw {@code byte[]} keys and values in a
 * fresh temporary directory, opened with the default profile and automatic compaction off (so
 * tombstones stay exactly where a benchmark put them), and the key and value encodings.
 */
final class BenchStores {

  /** The only table of a benchmark store. */
  static final String TABLE = "bench";

  static final TableDefinition<byte[], byte[]> DEFINITION =
      TableDefinition.of(TABLE, ByteArrayCodec.get(), ByteArrayCodec.get());

  /** Value size of every live entry, about an OM key's metadata without block lists. */
  static final int VALUE_BYTES = 100;

  /** Entries per write batch while loading. */
  private static final int BATCH = 10_000;

  private BenchStores() {
  }

  /** {@code key-%010d}: fixed width, so byte order is numeric order. */
  static byte[] key(long i) {
    return String.format("key-%010d", i).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Prints one figure a benchmark measured outside JMH's timing (in set-up or per iteration) as a
   * line of the fork's output, which {@code bench_report.py} reads from the JMH log:
   * {@code #metric <method> <param=value,...|-> <name>=<value>}.
   */
  static void metric(BenchmarkParams params, String name, Object value) {
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    TreeMap<String, String> sorted = new TreeMap<>();
    for (String k : params.getParamsKeys()) {
      sorted.put(k, params.getParam(k));
    }
    String ps = sorted.isEmpty() ? "-" : sorted.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    System.out.println("#metric " + method + " " + ps + " " + name + "=" + value);
  }

  /** The name of the benchmark method {@code params} describe. */
  static String method(BenchmarkParams params) {
    return params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
  }

  /** A store in a new directory under {@code java.io.tmpdir}; see {@link #deleteStore}. */
  static DBStore open(String name) {
    return open(name, TombstonePolicy.disabled());
  }

  /**
   * A store with automatic compaction off and the given tombstone policy; the plain
   * {@link #open(String)} disables the tracker so a band stays where the scenario put it.
   */
  static DBStore open(String name, TombstonePolicy policy) {
    return open(name, profile(), policy);
  }

  /** The profile of {@link #open(String)}: the defaults with automatic compaction off. */
  static DBProfile profile() {
    return DBProfile.builder().disableAutoCompactions(true).build();
  }

  /** A store in a new directory under {@code java.io.tmpdir} with the given profile and policy. */
  static DBStore open(String name, DBProfile profile, TombstonePolicy policy) {
    try {
      Path dir = Files.createTempDirectory("sediment-bench-" + name + "-");
      return openAt(dir, name, profile, policy);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The store in {@code dir} (created when missing), with the given profile and policy. */
  static DBStore openAt(Path dir, String name, DBProfile profile, TombstonePolicy policy) {
    return DBStoreBuilder.newBuilder(DBDefinition.of(name, DEFINITION))
        .setPath(dir)
        .setProfile(profile)
        .setTombstonePolicy(policy)
        .build();
  }

  /** Deletes {@code dir} and everything under it, if it exists. */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes {@code store} and deletes its directory. */
  static void deleteStore(DBStore store) {
    if (store == null) {
      return;
    }
    Path dir = store.getPath();
    store.close();
    deleteTree(dir);
  }

  /** {@value #VALUE_BYTES} pseudo-random bytes. */
  static byte[] value(SplittableRandom random) {
    byte[] value = new byte[VALUE_BYTES];
    for (int b = 0; b < VALUE_BYTES; b++) {
      value[b] = (byte) random.nextInt(256);
    }
    return value;
  }

  /** Puts keys {@code [from, to)} with pseudo-random values, in batches. */
  static void putRange(DBStore store, Table<byte[], byte[]> table, long from, long to) {
    SplittableRandom random = new SplittableRandom(from);
    long i = from;
    while (i < to) {
      try (BatchOperation batch = store.initBatchOperation()) {
        for (int n = 0; n < BATCH && i < to; n++, i++) {
          byte[] value = new byte[VALUE_BYTES];
          for (int b = 0; b < VALUE_BYTES; b++) {
            value[b] = (byte) random.nextInt(256);
          }
          table.putWithBatch(batch, key(i), value);
        }
        batch.commit();
      }
    }
  }

  /** Deletes keys {@code [from, to)} one point tombstone each, in batches. */
  static void deleteEach(DBStore store, Table<byte[], byte[]> table, long from, long to) {
    long i = from;
    while (i < to) {
      try (BatchOperation batch = store.initBatchOperation()) {
        for (int n = 0; n < BATCH && i < to; n++, i++) {
          table.deleteWithBatch(batch, key(i));
        }
        batch.commit();
      }
    }
  }
}
