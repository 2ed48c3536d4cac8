package io.sediment.bench;

import io.sediment.bench.raw.RawRocks;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

/**
 * Suite {@code positioning} (the HDDS-16250 comparison): what one iterator positioning
 * costs next to a band of {@code n} consecutive deleted keys.
 *
 * <p>Every store is warm, has automatic compaction off and holds, in one table, keys
 * {@code key-%010d}: the band {@code [0, n)} written, flushed, then deleted with point
 * tombstones and flushed again (so the tombstones sit in their own L0 SST above the L0 data they
 * shadow, and a seek through the band skips 2n internal entries), followed by {@value #LIVE}
 * live keys {@code [n, n + LIVE)}. No live key precedes the band, so a {@code seekToFirst}
 * always crosses it. Set-up checks the layout with RocksDB's {@code NUMBER_ITER_SKIP} ticker.
 *
 * <ul>
 *   <li>(a) continuation beyond the band, target {@code key(n + LIVE/2)}: {@link #beyondEager}
 *       emulates Ozone before HDDS-16250 (the iterator constructor's {@code seekToFirst()}, then
 *       the caller's {@code seek}); {@link #beyondLazy} is Sediment's single seek.
 *   <li>(b) target {@code key(0)}, the band start, so the seek crosses the band too:
 *       {@link #crossEager} vs {@link #crossLazy} (at best ×2); then the remedies for the same
 *       seek: a lower bound past the band ({@link #crossWatermarkBound}), a prefix bound that
 *       contains the band ({@link #crossBandInsideBound}, which does not help), the band deleted
 *       by one range tombstone ({@link #crossRangeDelete}), the band compacted away
 *       ({@link #crossCompacted}), and a table that never had the band
 *       ({@link #crossNoTombstones}).
 *   <li>Healing with the default tombstone policy and no other traffic: a band scanned once a
 *       second ({@link #crossPeriodicScanHealed}) and a band scanned once
 *       ({@link #crossSingleScanHealed}); set-up prints the time from the first scan to the band
 *       compacted, the benchmark times the seek afterwards.
 * </ul>
 * Each invocation creates the iterator, positions it, reads one entry and closes it. Run through
 * {@code dev-support/bin/bench positioning [--quick]}, which pairs the figures into ratios.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PositioningBenchmark {

  /** Live keys after the band. */
  static final int LIVE = 10_000;

  /** A prefix every key of the table starts with, so a prefix iterator bounds the whole band. */
  static final byte[] ALL_KEYS_PREFIX = "key-".getBytes(StandardCharsets.UTF_8);

  /**
   * A store built once per trial (per benchmark and {@code n}); subclasses decide how the band
   * was deleted.
   */
  @State(Scope.Benchmark)
  public abstract static class Band {

    /** Number of deleted keys in the band. */
    @Param({"10000", "100000", "500000"})
    public int n;

    DBStore store;
    Table<byte[], byte[]> table;
    /** Plain rocksdbjni calls on the same store: the floor of a positioning. */
    RawRocks raw;
    /** {@code key(0)}: the band start. */
    byte[] bandStart;
    /** {@code key(n)}: the first live key, where a watermark would point. */
    byte[] firstLive;
    /** {@code key(n + LIVE/2)}: a live key well past the band. */
    byte[] beyondTarget;
    /** The trial's benchmark and parameters, for {@link BenchStores#metric}. */
    BenchmarkParams params;

    /** Writes the table's contents, leaving any band it needs flushed to SST files. */
    abstract void populate();

    /** Whether a seek to the band start still steps over the band's entries one by one. */
    abstract boolean seekWalksTheBand();

    /** The tracker policy of the store; off unless a scenario is about the tracker. */
    io.sediment.db.TombstonePolicy policy() {
      return io.sediment.db.TombstonePolicy.disabled();
    }

    @Setup(Level.Trial)
    public void build(BenchmarkParams params) {
      this.params = params;
      store = BenchStores.open(getClass().getSimpleName(), policy());
      table = store.getTable(BenchStores.TABLE);
      raw = RawRocks.of(store, BenchStores.TABLE);
      bandStart = BenchStores.key(0);
      firstLive = BenchStores.key(n);
      beyondTarget = BenchStores.key(n + LIVE / 2L);
      populate();
      // Warm the block cache and check the layout: from the band start the first entry is the
      // first live key, and exactly LIVE entries follow.
      int live = 0;
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
        KeyValue<byte[], byte[]> landed = it.seek(bandStart);
        if (landed == null || !Arrays.equals(landed.getKey(), firstLive)) {
          throw new IllegalStateException("Seek to the band start did not land on key(" + n + ")");
        }
        while (it.hasNext()) {
          it.next();
          live++;
        }
      }
      if (live != LIVE) {
        throw new IllegalStateException("Expected " + LIVE + " live keys, found " + live);
      }
      // The band is where the scenario says: RocksDB counts the internal entries a seek skipped
      // (published when the iterator closes). A point band costs n tombstones (plus the n puts
      // they shadow); a range tombstone, a compacted band or no band costs none.
      long before = store.getTickerCount("NUMBER_ITER_SKIP");
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
        it.seek(bandStart);
      }
      long skipped = store.getTickerCount("NUMBER_ITER_SKIP") - before;
      if (seekWalksTheBand() ? skipped < n : skipped > n / 100) {
        throw new IllegalStateException(getClass().getSimpleName() + ": a seek to the band start"
            + " skipped " + skipped + " entries with n = " + n);
      }
    }

    @TearDown(Level.Trial)
    public void close() {
      BenchStores.deleteStore(store);
    }

    void writeBandThenLive() {
      BenchStores.putRange(store, table, 0, n + (long) LIVE);
      store.flush();
    }
  }

  /** The band deleted with {@code n} point tombstones, flushed to an SST. */
  public static class PointBand extends Band {
    @Override
    void populate() {
      writeBandThenLive();
      BenchStores.deleteEach(store, table, 0, n);
      store.flush();
    }

    @Override
    boolean seekWalksTheBand() {
      return true;
    }
  }

  /** The band deleted with one range tombstone, flushed to an SST. */
  public static class RangeBand extends Band {
    @Override
    void populate() {
      writeBandThenLive();
      table.deleteRange(BenchStores.key(0), BenchStores.key(n));
      store.flush();
    }

    @Override
    boolean seekWalksTheBand() {
      return false;
    }
  }

  /** The point band, then {@code compactRange} over the whole table. */
  public static class CompactedBand extends PointBand {
    @Override
    void populate() {
      super.populate();
      store.compactRange(BenchStores.TABLE, null, null);
    }

    @Override
    boolean seekWalksTheBand() {
      return false;
    }
  }

  /**
   * The point band on a store whose tombstone tracker is on (every iterator counted, compaction
   * after 2 slow passes, or after one over 10,000 tombstones): setup runs lazy seeks across the band until the tracker's background
   * compaction has removed it, with no manual call, and fails if that takes over 10 s from the
   * first slow pass. The layout check then sees a band that no longer costs anything.
   */
  public static class TrackerHealedBand extends Band {
    long healedAfterMillis;

    @Override
    io.sediment.db.TombstonePolicy policy() {
      return io.sediment.db.TombstonePolicy.defaults().withSampleEvery(1)
          .withMinCompactionInterval(java.time.Duration.ZERO);
    }

    @Override
    void populate() {
      writeBandThenLive();
      BenchStores.deleteEach(store, table, 0, n);
      store.flush();
      long start = System.nanoTime();
      while (store.tombstoneStats().compactions().completed() == 0) {
        if (System.nanoTime() - start > 10_000_000_000L) {
          throw new IllegalStateException("the tracker did not compact the band within 10 s: "
              + store.tombstoneStats());
        }
        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
          it.seek(BenchStores.key(0));
        }
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
      healedAfterMillis = (System.nanoTime() - start) / 1_000_000;
      System.out.println("# tracker compacted the band " + healedAfterMillis
          + " ms after the first slow pass: " + store.tombstoneStats().compactions().recent());
    }

    @Override
    boolean seekWalksTheBand() {
      return false;
    }
  }

  /**
   * The point band on a store with the default tombstone policy, healed with no other traffic
   * ({@link #populate} prints how): subclasses scan it as the scenario says, and the time from the
   * start of the first scan to the end of the band's compaction is printed as the metric
   * {@code healedMillis} (with {@code scans}, {@code compactions} and {@code healed}; a band not
   * compacted within {@value #GIVE_UP_MILLIS} ms reports {@code healed=false}).
   */
  public abstract static class DefaultPolicyHealedBand extends Band {
    static final long GIVE_UP_MILLIS = 30_000;

    @Override
    io.sediment.db.TombstonePolicy policy() {
      return io.sediment.db.TombstonePolicy.defaults();
    }

    /**
     * Scans the band as the scenario says until {@code compacted()} or the give-up time.
     *
     * @return the number of scans made
     */
    abstract int scanUntilHealed(long firstScanMillis);

    /** How long the table stays quiet between the unrelated read and the first scan. */
    long quietMillisBeforeFirstScan() {
      return 0;
    }

    boolean compacted() {
      return store.tombstoneStats().compactions().completed() > 0;
    }

    /** One scan: a lazy seek to the band start (it walks the band), read one entry, close. */
    void scan() {
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
        if (it.seek(bandStart) == null) {
          throw new IllegalStateException("the seek from the band start found nothing");
        }
      }
    }

    static void sleep(long millis) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    void populate() {
      writeBandThenLive();
      BenchStores.deleteEach(store, table, 0, n);
      store.flush();
      // Unrelated traffic takes the table's first sample: a read of live keys past the band.
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               table.rangeIterator(firstLive, null, IteratorType.KEY_AND_VALUE)) {
        it.next();
      }
      sleep(quietMillisBeforeFirstScan());
      long start = System.currentTimeMillis();
      int scans = scanUntilHealed(start);
      var compactions = store.tombstoneStats().compactions();
      boolean healed = compactions.completed() > 0;
      long healedMillis = healed ? compactions.recent().stream()
          .filter(e -> e.outcome() == io.sediment.db.stats.CompactionEvent.Outcome.COMPLETED)
          .mapToLong(io.sediment.db.stats.CompactionEvent::atMillis).min().getAsLong() - start
          : System.currentTimeMillis() - start;
      BenchStores.metric(params, "healedMillis", healedMillis);
      BenchStores.metric(params, "scans", scans);
      BenchStores.metric(params, "compactions", compactions.completed());
      BenchStores.metric(params, "healed", healed);
      System.out.println("# " + getClass().getSimpleName() + ": " + scans + " scan(s), band "
          + (healed ? "compacted " : "not compacted after ") + healedMillis
          + " ms after the first scan began: " + compactions.recent());
    }

    @Override
    boolean seekWalksTheBand() {
      // A band that did not heal fails the layout check, and with it the benchmark.
      return false;
    }
  }

  /**
   * A band scanned once a second with no other traffic, after an unrelated read took the
   * table's first sample (so the first scan falls within the sampling interval and is not
   * sampled); the scans go on once a second until the band is compacted.
   */
  public static class PeriodicScanHealedBand extends DefaultPolicyHealedBand {
    @Override
    int scanUntilHealed(long firstScanMillis) {
      int scans = 0;
      while (!compacted() && System.currentTimeMillis() - firstScanMillis < GIVE_UP_MILLIS) {
        long next = firstScanMillis + 1_000L * scans;
        while (!compacted() && System.currentTimeMillis() < next) {
          sleep(5);
        }
        if (!compacted()) {
          scan();
          scans++;
        }
      }
      return scans;
    }
  }

  /**
   * A single scan through the band on a table quiet for over a second (after an unrelated
   * read), then no traffic at all until the band is compacted.
   */
  public static class SingleScanHealedBand extends DefaultPolicyHealedBand {
    @Override
    long quietMillisBeforeFirstScan() {
      return 1_100;
    }

    @Override
    int scanUntilHealed(long firstScanMillis) {
      scan();
      while (!compacted() && System.currentTimeMillis() - firstScanMillis < GIVE_UP_MILLIS) {
        sleep(5);
      }
      return 1;
    }
  }

  /** Only the live keys: the band never existed. */
  public static class NoTombstones extends Band {
    @Override
    void populate() {
      BenchStores.putRange(store, table, n, n + (long) LIVE);
      store.flush();
    }

    @Override
    boolean seekWalksTheBand() {
      return false;
    }
  }

  private static TableIterator<byte[], KeyValue<byte[], byte[]>> unbounded(Band s) {
    return s.table.iterator(null, IteratorType.KEY_AND_VALUE);
  }

  /** Ozone before HDDS-16250: the constructor positions at the first entry, then the seek. */
  private static void eager(Band s, byte[] target, Blackhole bh) {
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = unbounded(s)) {
      it.seekToFirst();
      it.seek(target);
      bh.consume(it.next());
    }
  }

  /** Sediment: the seek is the only positioning. */
  private static void lazy(TableIterator<byte[], KeyValue<byte[], byte[]>> iterator, byte[] target,
      Blackhole bh) {
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = iterator) {
      it.seek(target);
      bh.consume(it.next());
    }
  }

  // ---- (a) continuation beyond the band ------------------------------------------------------

  @Benchmark
  public void beyondEager(PointBand s, Blackhole bh) {
    eager(s, s.beyondTarget, bh);
  }

  @Benchmark
  public void beyondLazy(PointBand s, Blackhole bh) {
    lazy(unbounded(s), s.beyondTarget, bh);
  }

  /** The same seek through plain rocksdbjni (new iterator, seek, read, close): the floor. */
  @Benchmark
  public byte[][] beyondRaw(PointBand s) {
    return s.raw.seekAndRead(s.beyondTarget);
  }

  // ---- (b) both positionings cross the band --------------------------------------------------

  @Benchmark
  public void crossEager(PointBand s, Blackhole bh) {
    eager(s, s.bandStart, bh);
  }

  @Benchmark
  public void crossLazy(PointBand s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  /** Lower bound at the first live key (a remembered watermark): the seek is clamped past it. */
  @Benchmark
  public void crossWatermarkBound(PointBand s, Blackhole bh) {
    lazy(s.table.rangeIterator(s.firstLive, null, IteratorType.KEY_AND_VALUE), s.bandStart, bh);
  }

  /** The watermark seek through plain rocksdbjni (own read options and lower-bound slice). */
  @Benchmark
  public byte[][] crossWatermarkBoundRaw(PointBand s) {
    return s.raw.seekAndRead(s.bandStart, s.firstLive);
  }

  /** A prefix iterator whose bounds contain the band: bounds alone do not help. */
  @Benchmark
  public void crossBandInsideBound(PointBand s, Blackhole bh) {
    lazy(s.table.iterator(ALL_KEYS_PREFIX, IteratorType.KEY_AND_VALUE), s.bandStart, bh);
  }

  @Benchmark
  public void crossRangeDelete(RangeBand s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  @Benchmark
  public void crossCompacted(CompactedBand s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  /** The point band after the tracker noticed the slow seeks and had it compacted. */
  @Benchmark
  public void crossTrackerHealed(TrackerHealedBand s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  /** The point band after the default policy healed a band scanned once a second. */
  @Benchmark
  public void crossPeriodicScanHealed(PeriodicScanHealedBand s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  /** The point band after the default policy healed a band scanned once. */
  @Benchmark
  public void crossSingleScanHealed(SingleScanHealedBand s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  @Benchmark
  public void crossNoTombstones(NoTombstones s, Blackhole bh) {
    lazy(unbounded(s), s.bandStart, bh);
  }

  /** The no-tombstone seek through plain rocksdbjni: the floor of every positioning here. */
  @Benchmark
  public byte[][] crossNoTombstonesRaw(NoTombstones s) {
    return s.raw.seekAndRead(s.bandStart);
  }
}
