package io.sediment.bench;

import io.sediment.bench.kafka.KafkaBenchStore;
import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
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

/**
 * Suite {@code trailing}: a page of {@value #LIVE} entries under a prefix followed by a
 * run of {@code tombstones} deleted keys, read by Sediment's bounded prefix iterator and by Kafka
 * Streams 4.4.0's {@code RocksDBStore} ({@link KafkaBenchStore}: same rocksdbjni, same table
 * options, Sediment's profile pushed into Kafka through its config setter).
 *
 * <p>Both sides hold byte-identical keys, written the same way: {@value #LIVE} live keys
 * {@code bucket-0001/key-%05d} (the prefix {@code P = bucket-0001/}), one live key
 * {@code bucket-0003/key-00000} after everything, and a band of {@code tombstones} keys, all put
 * with 100-byte values and flushed to one L0 SST, then the band point-deleted and flushed to a
 * second L0 SST, automatic compaction off on both sides (so both sides hold the same two SSTs and
 * every band key costs two internal entries: its tombstone and the put it shadows; set-up prints
 * the SST count of each side). Sediment flushes with {@code DBStore.flush()}; Kafka Streams
 * 4.4.0's store has no public flush ({@code StateStore.flush()} is an empty default and
 * {@code commit} does not flush), so its memtable reaches an SST by closing and reopening the
 * store on the same state directory ({@link KafkaBenchStore#flushByReopening}). Scenarios:
 *
 * <ul>
 *   <li>trailing: the band is {@code bucket-0002/del-%010d}, just past the prefix. Sediment's
 *       prefix iterator carries the native upper bound {@code successor(P)} and never reaches the
 *       band; Kafka's {@code prefixScan(P)} and {@code range(P, successor(P))} seek without bounds,
 *       check the end in Java and advance eagerly, so reading the last entry walks the band;
 *   <li>interior: the band is {@code bucket-0001/del-%010d}, inside the prefix before its live
 *       entries, where both sides must walk it;
 *   <li>no tombstones: the band never existed (Sediment's baseline, and Kafka's).
 * </ul>
 * An operation opens an iterator, reads all {@value #LIVE} entries and closes it. Set-up checks
 * the 100 keys and reports (as {@code #metric} lines) the internal entries one operation skipped,
 * from RocksDB's {@code NUMBER_ITER_SKIP} ticker, which an iterator publishes when it closes; the
 * tombstone tracker is off ({@link BenchStores#open(String)}). Run through
 * {@code dev-support/bin/bench trailing [--quick]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TrailingBenchmark {

  /** Live entries under the prefix: one page. */
  static final int LIVE = 100;

  /** Entries per write batch while loading. */
  private static final int BATCH = 10_000;

  static final byte[] PREFIX = ascii("bucket-0001/");

  private static final ByteArraySerializer SERIALIZER = new ByteArraySerializer();

  /** Where the band of deleted keys sits. */
  enum Band {
    TRAILING("bucket-0002/del-"),
    INTERIOR("bucket-0001/del-"),
    NONE(null);

    final String prefix;

    Band(String prefix) {
      this.prefix = prefix;
    }
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] liveKey(int i) {
    return ascii(String.format("bucket-0001/key-%05d", i));
  }

  /** Writes the scenario's contents into one side's store. */
  interface Writer {
    void put(List<byte[]> keys, List<byte[]> values);

    void delete(List<byte[]> keys);

    void flush();
  }

  /**
   * The scenario, the same on both sides: live keys, the key after everything and the band put
   * in batches of {@value #BATCH} and flushed; then the band deleted in batches and flushed.
   */
  static void populate(Band band, int tombstones, Writer writer) {
    SplittableRandom random = new SplittableRandom(7);
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < LIVE; i++) {
      keys.add(liveKey(i));
    }
    keys.add(ascii("bucket-0003/key-00000"));
    List<byte[]> bandKeys = new ArrayList<>();
    if (band != Band.NONE) {
      for (int i = 0; i < tombstones; i++) {
        bandKeys.add(ascii(String.format("%s%010d", band.prefix, i)));
      }
    }
    keys.addAll(bandKeys);
    for (int from = 0; from < keys.size(); from += BATCH) {
      List<byte[]> chunk = keys.subList(from, Math.min(keys.size(), from + BATCH));
      List<byte[]> values = new ArrayList<>(chunk.size());
      for (int i = 0; i < chunk.size(); i++) {
        values.add(BenchStores.value(random));
      }
      writer.put(chunk, values);
    }
    writer.flush();
    if (!bandKeys.isEmpty()) {
      for (int from = 0; from < bandKeys.size(); from += BATCH) {
        writer.delete(bandKeys.subList(from, Math.min(bandKeys.size(), from + BATCH)));
      }
      writer.flush();
    }
  }

  /** The {@value #LIVE} keys every operation must return, in order. */
  static void checkPage(List<byte[]> keys, String side) {
    if (keys.size() != LIVE) {
      throw new IllegalStateException(side + ": read " + keys.size() + " entries, not " + LIVE);
    }
    for (int i = 0; i < LIVE; i++) {
      if (!Arrays.equals(keys.get(i), liveKey(i))) {
        throw new IllegalStateException(side + ": entry " + i + " is "
            + new String(keys.get(i), StandardCharsets.US_ASCII));
      }
    }
  }

  /** Hands {@code entry} to JMH; set-up runs the operations without a Blackhole. */
  private static void consume(Blackhole bh, Object entry) {
    if (bh != null) {
      bh.consume(entry);
    }
  }

  // ---- Sediment ----------------------------------------------------------------------------

  /** A Sediment store of one scenario, built once per trial. */
  @State(Scope.Benchmark)
  public abstract static class SedimentSide {

    /** Deleted keys in the band. */
    @Param({"200000"})
    public int tombstones;

    DBStore store;
    Table<byte[], byte[]> table;

    abstract Band band();

    @Setup(Level.Trial)
    public void build(BenchmarkParams params) {
      store = BenchStores.open("trailing-sediment");
      table = store.getTable(BenchStores.TABLE);
      populate(band(), tombstones, new Writer() {
        @Override
        public void put(List<byte[]> keys, List<byte[]> values) {
          try (BatchOperation batch = store.initBatchOperation()) {
            for (int i = 0; i < keys.size(); i++) {
              table.putWithBatch(batch, keys.get(i), values.get(i));
            }
            batch.commit();
          }
        }

        @Override
        public void delete(List<byte[]> keys) {
          try (BatchOperation batch = store.initBatchOperation()) {
            for (byte[] key : keys) {
              table.deleteWithBatch(batch, key);
            }
            batch.commit();
          }
        }

        @Override
        public void flush() {
          store.flush();
        }
      });
      List<byte[]> keys = new ArrayList<>();
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator(PREFIX)) {
        while (it.hasNext()) {
          keys.add(it.next().getKey());
        }
      }
      checkPage(keys, "Sediment " + band());
      var stats = store.tombstoneStats().tables().get(0);
      if (stats.memtableDeletes() != 0) {
        throw new IllegalStateException("Sediment: deletes left in the memtable: " + stats);
      }
      BenchStores.metric(params, "sstFiles", stats.sstFiles());
      long before = store.getTickerCount("NUMBER_ITER_SKIP");
      scan(this, null);
      BenchStores.metric(params, "skipped", store.getTickerCount("NUMBER_ITER_SKIP") - before);
    }

    @TearDown(Level.Trial)
    public void close() {
      BenchStores.deleteStore(store);
    }
  }

  public static class SedimentTrailing extends SedimentSide {
    @Override
    Band band() {
      return Band.TRAILING;
    }
  }

  public static class SedimentInterior extends SedimentSide {
    @Override
    Band band() {
      return Band.INTERIOR;
    }
  }

  public static class SedimentNoTombstones extends SedimentSide {
    @Override
    Band band() {
      return Band.NONE;
    }
  }

  /** Sediment: the bounded, lazily positioned prefix iterator. */
  static int scan(SedimentSide s, Blackhole bh) {
    int n = 0;
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = s.table.iterator(PREFIX)) {
      while (it.hasNext()) {
        consume(bh, it.next());
        n++;
      }
    }
    return n;
  }

  // ---- Kafka Streams -----------------------------------------------------------------------

  /** A Kafka Streams store of one scenario, built once per trial. */
  @State(Scope.Benchmark)
  public abstract static class KafkaSide {

    /** Deleted keys in the band. */
    @Param({"200000"})
    public int tombstones;

    KafkaBenchStore kafka;
    KeyValueStore<Bytes, byte[]> store;
    Bytes from;
    Bytes to;

    abstract Band band();

    @Setup(Level.Trial)
    public void build(BenchmarkParams params) {
      kafka = KafkaBenchStore.open("trailing-kafka", BenchStores.profile());
      store = kafka.store();
      from = Bytes.wrap(PREFIX);
      to = Bytes.increment(from);
      populate(band(), tombstones, new Writer() {
        @Override
        public void put(List<byte[]> keys, List<byte[]> values) {
          List<org.apache.kafka.streams.KeyValue<Bytes, byte[]>> entries =
              new ArrayList<>(keys.size());
          for (int i = 0; i < keys.size(); i++) {
            entries.add(org.apache.kafka.streams.KeyValue.pair(Bytes.wrap(keys.get(i)),
                values.get(i)));
          }
          store.putAll(entries);
        }

        @Override
        public void delete(List<byte[]> keys) {
          // A null value in putAll is a point delete in the same write batch.
          List<org.apache.kafka.streams.KeyValue<Bytes, byte[]>> entries =
              new ArrayList<>(keys.size());
          for (byte[] key : keys) {
            entries.add(org.apache.kafka.streams.KeyValue.pair(Bytes.wrap(key), null));
          }
          store.putAll(entries);
        }

        @Override
        public void flush() {
          // Kafka 4.4.0's store has no public memtable flush: it flushes when it closes.
          kafka.flushByReopening();
          store = kafka.store();
        }
      });
      BenchStores.metric(params, "sstFiles", kafka.dataSstFiles());
      boolean range = BenchStores.method(params).startsWith("kafkaRange");
      for (boolean r : new boolean[] {false, true}) {
        List<byte[]> keys = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = r
            ? store.range(from, to) : store.prefixScan(PREFIX, SERIALIZER)) {
          while (it.hasNext()) {
            keys.add(it.next().key.get());
          }
        }
        checkPage(keys, "Kafka " + (r ? "range " : "prefixScan ") + band());
      }
      long before = kafka.getTickerCount("NUMBER_ITER_SKIP");
      if (range) {
        range(this, null);
      } else {
        prefixScan(this, null);
      }
      BenchStores.metric(params, "skipped", kafka.getTickerCount("NUMBER_ITER_SKIP") - before);
      BenchStores.metric(params, "store", kafka.storeClass());
    }

    @TearDown(Level.Trial)
    public void close() {
      if (kafka != null) {
        kafka.close();
      }
    }
  }

  public static class KafkaTrailing extends KafkaSide {
    @Override
    Band band() {
      return Band.TRAILING;
    }
  }

  public static class KafkaInterior extends KafkaSide {
    @Override
    Band band() {
      return Band.INTERIOR;
    }
  }

  public static class KafkaNoTombstones extends KafkaSide {
    @Override
    Band band() {
      return Band.NONE;
    }
  }

  /** Kafka: {@code prefixScan(P)}, an unbounded seek with the end checked in Java. */
  static int prefixScan(KafkaSide s, Blackhole bh) {
    int n = 0;
    try (KeyValueIterator<Bytes, byte[]> it = s.store.prefixScan(PREFIX, SERIALIZER)) {
      while (it.hasNext()) {
        consume(bh, it.next());
        n++;
      }
    }
    return n;
  }

  /**
   * Kafka: {@code range(P, successor(P))}. Kafka's {@code to} is inclusive; no key equals
   * {@code successor(P)}, so it returns the same {@value #LIVE} entries.
   */
  static int range(KafkaSide s, Blackhole bh) {
    int n = 0;
    try (KeyValueIterator<Bytes, byte[]> it = s.store.range(s.from, s.to)) {
      while (it.hasNext()) {
        consume(bh, it.next());
        n++;
      }
    }
    return n;
  }

  // ---- trailing band -----------------------------------------------------------------------

  @Benchmark
  public int sedimentTrailing(SedimentTrailing s, Blackhole bh) {
    return scan(s, bh);
  }

  @Benchmark
  public int kafkaPrefixScanTrailing(KafkaTrailing s, Blackhole bh) {
    return prefixScan(s, bh);
  }

  @Benchmark
  public int kafkaRangeTrailing(KafkaTrailing s, Blackhole bh) {
    return range(s, bh);
  }

  @Benchmark
  public int sedimentNoTombstones(SedimentNoTombstones s, Blackhole bh) {
    return scan(s, bh);
  }

  @Benchmark
  public int kafkaPrefixScanNoTombstones(KafkaNoTombstones s, Blackhole bh) {
    return prefixScan(s, bh);
  }

  // ---- band inside the prefix: both walk it ------------------------------------------------

  @Benchmark
  public int sedimentInterior(SedimentInterior s, Blackhole bh) {
    return scan(s, bh);
  }

  @Benchmark
  public int kafkaPrefixScanInterior(KafkaInterior s, Blackhole bh) {
    return prefixScan(s, bh);
  }

  @Benchmark
  public int kafkaRangeInterior(KafkaInterior s, Blackhole bh) {
    return range(s, bh);
  }
}
