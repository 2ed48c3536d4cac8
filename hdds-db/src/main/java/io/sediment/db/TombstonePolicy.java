package io.sediment.db;

import java.time.Duration;
import java.util.Objects;

/**
 * When scans count as slow because of tombstones, and how eagerly the store compacts them away.
 *
 * <p>Sampling guarantee: a table samples one iterator in {@code sampleEvery}, and also the first
 * iterator created when its last sampled one was created {@code sampleInterval} or longer ago. So
 * a table that creates iterators is sampled at least about once per {@code sampleInterval}
 * whatever its iterator rate, and a slow scan repeated on a table with no other traffic is
 * sampled every time it comes at least {@code sampleInterval} after the last one. Among other
 * traffic a scan is sampled as one iterator in {@code sampleEvery} is, so a slow scan that is
 * not repeated may go unseen.
 *
 * @param enabled whether iterators are sampled and hot ranges compacted at all
 * @param sampleEvery one of every this many iterators counts what it skips (1 = all); counting
 *     costs a few JNI calls per positioning and advance, see docs/BENCHMARKS.md
 * @param sampleInterval the first iterator created this long or longer after the table's last
 *     sampled iterator is sampled too, whatever {@code sampleEvery} says ({@code ZERO}: every
 *     iterator not created concurrently with another sampled one)
 * @param minTombstonesPerPass a positioning or advance that skipped at least this many
 *     tombstones is a slow pass (Pebble treats 100 per block as dense, TiKV compacts at 10k)
 * @param slowPassesToCompact slow passes over one range before its compaction is requested
 * @param tombstonesToCompactAtOnce a single positioning or advance that skipped at least this
 *     many tombstones makes its range due at once, without waiting for
 *     {@code slowPassesToCompact} ({@code Long.MAX_VALUE}: never)
 * @param minCompactionInterval at least this long between two targeted compactions of a store
 * @param pinnedRetryAfter after a compaction left the tombstones in place (an open snapshot still
 *     needs them), the range is not compacted again for this long
 * @param maxHotRanges hot ranges remembered per table; the least skipped is forgotten first
 */
public record TombstonePolicy(
    boolean enabled,
    int sampleEvery,
    Duration sampleInterval,
    long minTombstonesPerPass,
    int slowPassesToCompact,
    long tombstonesToCompactAtOnce,
    Duration minCompactionInterval,
    Duration pinnedRetryAfter,
    int maxHotRanges) {

  /** Default {@link #sampleInterval()}: a table with slow scans is sampled about once a second. */
  public static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(1);

  /** Default {@link #tombstonesToCompactAtOnce()}: ten times the default slow-pass minimum. */
  public static final long DEFAULT_TOMBSTONES_TO_COMPACT_AT_ONCE = 10_000;

  public TombstonePolicy {
    Objects.requireNonNull(sampleInterval, "sampleInterval");
    Objects.requireNonNull(minCompactionInterval, "minCompactionInterval");
    Objects.requireNonNull(pinnedRetryAfter, "pinnedRetryAfter");
    if (sampleEvery < 1 || minTombstonesPerPass < 1 || slowPassesToCompact < 1
        || tombstonesToCompactAtOnce < 1 || maxHotRanges < 1) {
      throw new IllegalArgumentException("sampleEvery, minTombstonesPerPass, slowPassesToCompact,"
          + " tombstonesToCompactAtOnce and maxHotRanges must be positive");
    }
    if (sampleInterval.isNegative() || minCompactionInterval.isNegative()
        || pinnedRetryAfter.isNegative()) {
      throw new IllegalArgumentException("intervals must not be negative");
    }
  }

  /**
   * Sample one iterator in 16 and at least one a second; 1,000 tombstones make a slow pass;
   * compact after 2 slow passes, or after one that skipped 10,000; at most one targeted compaction
   * a second.
   */
  public static TombstonePolicy defaults() {
    return new TombstonePolicy(true, 16, DEFAULT_SAMPLE_INTERVAL, 1_000, 2,
        DEFAULT_TOMBSTONES_TO_COMPACT_AT_ONCE, Duration.ofSeconds(1), Duration.ofMinutes(5), 64);
  }

  /** No sampling, no compaction. */
  public static TombstonePolicy disabled() {
    return new TombstonePolicy(false, 1, Duration.ZERO, Long.MAX_VALUE, Integer.MAX_VALUE,
        Long.MAX_VALUE, Duration.ZERO, Duration.ZERO, 1);
  }

  /** {@link #sampleInterval()} as nanoseconds, {@code Long.MAX_VALUE} when it does not fit. */
  public long sampleIntervalNanos() {
    try {
      return sampleInterval.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  public TombstonePolicy withSampleEvery(int v) {
    return new TombstonePolicy(enabled, v, sampleInterval, minTombstonesPerPass,
        slowPassesToCompact, tombstonesToCompactAtOnce, minCompactionInterval, pinnedRetryAfter,
        maxHotRanges);
  }

  public TombstonePolicy withSampleInterval(Duration v) {
    return new TombstonePolicy(enabled, sampleEvery, v, minTombstonesPerPass,
        slowPassesToCompact, tombstonesToCompactAtOnce, minCompactionInterval, pinnedRetryAfter,
        maxHotRanges);
  }

  public TombstonePolicy withMinTombstonesPerPass(long v) {
    return new TombstonePolicy(enabled, sampleEvery, sampleInterval, v, slowPassesToCompact,
        tombstonesToCompactAtOnce, minCompactionInterval, pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withSlowPassesToCompact(int v) {
    return new TombstonePolicy(enabled, sampleEvery, sampleInterval, minTombstonesPerPass, v,
        tombstonesToCompactAtOnce, minCompactionInterval, pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withTombstonesToCompactAtOnce(long v) {
    return new TombstonePolicy(enabled, sampleEvery, sampleInterval, minTombstonesPerPass,
        slowPassesToCompact, v, minCompactionInterval, pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withMinCompactionInterval(Duration v) {
    return new TombstonePolicy(enabled, sampleEvery, sampleInterval, minTombstonesPerPass,
        slowPassesToCompact, tombstonesToCompactAtOnce, v, pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withPinnedRetryAfter(Duration v) {
    return new TombstonePolicy(enabled, sampleEvery, sampleInterval, minTombstonesPerPass,
        slowPassesToCompact, tombstonesToCompactAtOnce, minCompactionInterval, v, maxHotRanges);
  }
}
