package io.sediment.db.tombstone;

import io.sediment.db.TombstonePolicy;
import io.sediment.db.stats.HotRange;
import io.sediment.db.stats.KeyRange;
import io.sediment.db.stats.SampledScans;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Remembers where scans of one table keep skipping tombstones and asks for a compaction of those
 * ranges. Iterators report each positioning or advance that skipped at least
 * {@link TombstonePolicy#minTombstonesPerPass()} tombstones with the keys it walked between;
 * overlapping or touching reports merge into one hot range, and when a range has
 * {@link TombstonePolicy#slowPassesToCompact()} slow passes it is handed to the compaction
 * requester. A range the requester accepted is in flight until {@link #onCompactionEnded}: slow
 * passes inside it meanwhile (scans that were already walking the band) are counted but start no
 * new hot range, so one band is compacted once. At most {@link TombstonePolicy#maxHotRanges()}
 * ranges are kept, the least skipped dropped first. A single pass that skipped at least
 * {@link TombstonePolicy#tombstonesToCompactAtOnce()} makes its (merged) range due at once.
 *
 * <p>Sampling ({@link #sampleNextIterator}): one iterator in
 * {@link TombstonePolicy#sampleEvery()}, and the first one created
 * {@link TombstonePolicy#sampleInterval()} or more after the last sampled one, so a table is
 * sampled at least about once per interval whatever its iterator rate (see
 * {@link TombstonePolicy}). Thread-safe; sampling costs a clock read and two atomic reads per
 * iterator, reporting a lock only for slow passes.
 */
public final class TombstoneTracker {

  private final String table;
  private final TombstonePolicy policy;
  private final CompactionRequester compactionRequester;
  private final LongSupplier nanoClock;
  private final long sampleIntervalNanos;
  private final AtomicLong iterators = new AtomicLong();
  /** {@link #nanoClock} reading at the creation of the last sampled iterator. */
  private final AtomicLong lastSampleNanos;
  private final AtomicLong slowPasses = new AtomicLong();
  private final AtomicLong tombstonesSkipped = new AtomicLong();
  private final AtomicLong sampledScans = new AtomicLong();
  private final AtomicLong sampledEntries = new AtomicLong();
  private final AtomicLong sampledTombstones = new AtomicLong();
  private final AtomicLong sampledNanos = new AtomicLong();
  private final List<HotRange> ranges = new ArrayList<>();
  private final List<KeyRange> inFlight = new ArrayList<>();

  /** Where a tracker sends a range that is due for compaction. */
  @FunctionalInterface
  public interface CompactionRequester {
    /**
     * Asks for a compaction of {@code hot} in {@code table}; called without the tracker's lock.
     *
     * @return true when the tracker will be told the end through {@link #onCompactionEnded};
     *     false when nothing was scheduled
     */
    boolean request(String table, HotRange hot);
  }

  /** @param compactionRequester receives each range that is due for compaction */
  public TombstoneTracker(String table, TombstonePolicy policy,
      CompactionRequester compactionRequester) {
    this(table, policy, compactionRequester, System::nanoTime);
  }

  /** As the public constructor, timing the sampling interval with {@code nanoClock}. */
  TombstoneTracker(String table, TombstonePolicy policy, CompactionRequester compactionRequester,
      LongSupplier nanoClock) {
    this.table = table;
    this.policy = policy;
    this.compactionRequester = compactionRequester;
    this.nanoClock = nanoClock;
    this.sampleIntervalNanos = policy.sampleIntervalNanos();
    this.lastSampleNanos = new AtomicLong(nanoClock.getAsLong());
  }

  public String table() {
    return table;
  }

  public TombstonePolicy policy() {
    return policy;
  }

  /**
   * Whether the iterator being created should count what it skips: one in {@code sampleEvery}
   * (the first of all included), and the first created {@code sampleInterval} or more after the
   * last sampled one (of two created at once, only one).
   */
  public boolean sampleNextIterator() {
    if (!policy.enabled()) {
      return false;
    }
    long now = nanoClock.getAsLong();
    if (iterators.getAndIncrement() % policy.sampleEvery() == 0) {
      lastSampleNanos.set(now);
      return true;
    }
    long last = lastSampleNanos.get();
    return now - last >= sampleIntervalNanos && lastSampleNanos.compareAndSet(last, now);
  }

  /**
   * Reports that one positioning or advance skipped {@code tombstones} tombstones while walking
   * {@code [from, to)} ({@code null} ends are open). Passes below the policy's minimum are ignored.
   */
  public void onSkipped(byte[] from, byte[] to, long tombstones) {
    if (!policy.enabled() || tombstones < policy.minTombstonesPerPass()) {
      return;
    }
    slowPasses.incrementAndGet();
    tombstonesSkipped.addAndGet(tombstones);
    HotRange due = null;
    synchronized (this) {
      KeyRange walked = new KeyRange(from, to);
      for (KeyRange r : inFlight) {
        if (r.covers(walked)) {
          return;
        }
      }
      HotRange merged = new HotRange(walked, 1, tombstones, System.currentTimeMillis());
      for (int i = ranges.size() - 1; i >= 0; i--) {
        HotRange r = ranges.get(i);
        if (r.range().overlapsOrTouches(merged.range())) {
          merged = new HotRange(r.range().union(merged.range()), r.slowPasses() + merged.slowPasses(),
              r.tombstonesSkipped() + merged.tombstonesSkipped(), merged.lastSeenMillis());
          ranges.remove(i);
        }
      }
      if (merged.slowPasses() >= policy.slowPassesToCompact()
          || tombstones >= policy.tombstonesToCompactAtOnce()) {
        // In flight at once, under the lock that took it from the watched ranges: a pass over
        // it on another thread must not start a second hot range before the request (and an
        // end reported at once must still find it).
        due = merged;
        inFlight.add(due.range());
      } else {
        ranges.add(merged);
        if (ranges.size() > policy.maxHotRanges()) {
          ranges.remove(ranges.stream().min(Comparator.comparingLong(HotRange::tombstonesSkipped)).get());
        }
      }
    }
    if (due != null) {
      KeyRange handedOff = due.range();
      boolean accepted = false;
      try {
        accepted = compactionRequester.request(table, due);
      } finally {
        if (!accepted) {
          synchronized (this) {
            inFlight.removeIf(r -> r == handedOff);
          }
        }
      }
    }
  }

  /**
   * Tells the tracker that the compaction of {@code range} ended (whatever its outcome): the
   * ranges in flight that it covers (every request merged into it) are watched again.
   */
  public synchronized void onCompactionEnded(KeyRange range) {
    inFlight.removeIf(range::covers);
  }

  /** Ranges handed off for compaction whose end has not been reported yet. */
  public synchronized List<KeyRange> inFlight() {
    return List.copyOf(inFlight);
  }

  /**
   * Reports a sampled iterator's totals when it closes: entries it returned, tombstones its
   * positionings and advances skipped, and the time they took.
   */
  public void onScanClosed(long entries, long tombstones, long nanos) {
    sampledScans.incrementAndGet();
    sampledEntries.addAndGet(entries);
    sampledTombstones.addAndGet(tombstones);
    sampledNanos.addAndGet(nanos);
  }

  /** Totals of the sampled iterators closed since the store opened. */
  public SampledScans sampledScans() {
    return new SampledScans(sampledScans.get(), sampledEntries.get(), sampledTombstones.get(),
        sampledNanos.get());
  }

  /** Ranges being watched (not yet due for compaction), ordered by start key. */
  public synchronized List<HotRange> hotRanges() {
    List<HotRange> out = new ArrayList<>(ranges);
    out.sort((a, b) -> KeyRange.BY_START.compare(a.range(), b.range()));
    return out;
  }

  /** Slow passes reported since the store opened. */
  public long slowPasses() {
    return slowPasses.get();
  }

  /** Tombstones skipped by slow passes since the store opened. */
  public long tombstonesSkipped() {
    return tombstonesSkipped.get();
  }
}
