package io.sediment.db.tombstone;

import java.time.Duration;
import java.util.Objects;

/**
 * When scans count as slow because of tombstones, and how eagerly the store compacts them away.
 *
 * @param enabled whether iterators are sampled and hot ranges compacted at all
 * @param sampleEvery one of every this many iterators counts what it skips (1 = all); counting
 *     costs a few JNI calls per positioning and advance, see docs/BENCHMARKS.md
 * @param minTombstonesPerPass a positioning or advance that skipped at least this many
 *     tombstones is a slow pass (Pebble treats 100 per block as dense, TiKV compacts at 10k)
 * @param slowPassesToCompact slow passes over one range before its compaction is requested
 * @param minCompactionInterval at least this long between two targeted compactions of a store
 * @param pinnedRetryAfter after a compaction left the tombstones in place (an open snapshot still
 *     needs them), the range is not compacted again for this long
 * @param maxHotRanges hot ranges remembered per table; the least skipped is forgotten first
 */
public record TombstonePolicy(
    boolean enabled,
    int sampleEvery,
    long minTombstonesPerPass,
    int slowPassesToCompact,
    Duration minCompactionInterval,
    Duration pinnedRetryAfter,
    int maxHotRanges) {

  public TombstonePolicy {
    Objects.requireNonNull(minCompactionInterval, "minCompactionInterval");
    Objects.requireNonNull(pinnedRetryAfter, "pinnedRetryAfter");
    if (sampleEvery < 1 || minTombstonesPerPass < 1 || slowPassesToCompact < 1 || maxHotRanges < 1) {
      throw new IllegalArgumentException("sampleEvery, minTombstonesPerPass, slowPassesToCompact and"
          + " maxHotRanges must be positive");
    }
    if (minCompactionInterval.isNegative() || pinnedRetryAfter.isNegative()) {
      throw new IllegalArgumentException("intervals must not be negative");
    }
  }

  /** Sample one iterator in 16; 1,000 tombstones make a slow pass; compact after 2 slow passes. */
  public static TombstonePolicy defaults() {
    return new TombstonePolicy(true, 16, 1_000, 2, Duration.ofSeconds(1), Duration.ofMinutes(5), 64);
  }

  /** No sampling, no compaction. */
  public static TombstonePolicy disabled() {
    return new TombstonePolicy(false, 1, Long.MAX_VALUE, Integer.MAX_VALUE, Duration.ZERO,
        Duration.ZERO, 1);
  }

  public TombstonePolicy withSampleEvery(int v) {
    return new TombstonePolicy(enabled, v, minTombstonesPerPass, slowPassesToCompact,
        minCompactionInterval, pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withMinTombstonesPerPass(long v) {
    return new TombstonePolicy(enabled, sampleEvery, v, slowPassesToCompact, minCompactionInterval,
        pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withSlowPassesToCompact(int v) {
    return new TombstonePolicy(enabled, sampleEvery, minTombstonesPerPass, v, minCompactionInterval,
        pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withMinCompactionInterval(Duration v) {
    return new TombstonePolicy(enabled, sampleEvery, minTombstonesPerPass, slowPassesToCompact, v,
        pinnedRetryAfter, maxHotRanges);
  }

  public TombstonePolicy withPinnedRetryAfter(Duration v) {
    return new TombstonePolicy(enabled, sampleEvery, minTombstonesPerPass, slowPassesToCompact,
        minCompactionInterval, v, maxHotRanges);
  }
}
