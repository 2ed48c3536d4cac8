package io.sediment.db.tombstone;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.TombstonePolicy;
import io.sediment.db.stats.HotRange;
import io.sediment.db.stats.KeyRange;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Thresholds, merging, hand-off and sampling of {@link TombstoneTracker}; no RocksDB. */
class TombstoneTrackerTest {

  private final List<HotRange> requested = new ArrayList<>();
  /** What the fake requester answers: true means an end will be reported. */
  private boolean accept = true;

  /** The trackers' clock, in nanoseconds; tests move it by hand. */
  private long now = 1_000_000_000L;

  private TombstoneTracker tracker(TombstonePolicy policy) {
    return new TombstoneTracker("t", policy, (table, range) -> {
      assertEquals("t", table);
      requested.add(range);
      return accept;
    }, () -> now);
  }

  private void advance(Duration d) {
    now += d.toNanos();
  }

  private static TombstonePolicy policy(long min, int passes) {
    return TombstonePolicy.defaults().withMinTombstonesPerPass(min).withSlowPassesToCompact(passes);
  }

  @Test
  void passesBelowTheMinimumAreIgnored() {
    TombstoneTracker t = tracker(policy(100, 1));
    t.onSkipped(b("a"), b("b"), 99);
    assertEquals(0, t.slowPasses());
    assertTrue(t.hotRanges().isEmpty());
    assertTrue(requested.isEmpty());
  }

  @Test
  void overlappingAndTouchingPassesMergeIntoOneHotRange() {
    TombstoneTracker t = tracker(policy(10, 5));
    t.onSkipped(b("b"), b("d"), 10);
    t.onSkipped(b("c"), b("f"), 20);
    t.onSkipped(b("f"), b("h"), 30);
    t.onSkipped(b("x"), b("y"), 40);
    List<HotRange> hot = t.hotRanges();
    assertEquals(2, hot.size());
    assertArrayEquals(b("b"), hot.get(0).range().from());
    assertArrayEquals(b("h"), hot.get(0).range().to());
    assertEquals(3, hot.get(0).slowPasses());
    assertEquals(60, hot.get(0).tombstonesSkipped());
    assertEquals(100, t.tombstonesSkipped());
  }

  @Test
  void aRangeIsHandedOffOnceWhenItReachesTheSlowPassCount() {
    TombstoneTracker t = tracker(policy(10, 2));
    t.onSkipped(b("a"), b("c"), 10);
    assertTrue(requested.isEmpty());
    t.onSkipped(b("b"), b("d"), 15);
    assertEquals(1, requested.size());
    assertArrayEquals(b("a"), requested.get(0).range().from());
    assertArrayEquals(b("d"), requested.get(0).range().to());
    assertEquals(25, requested.get(0).tombstonesSkipped());
    assertTrue(t.hotRanges().isEmpty(), "a handed-off range is forgotten");
  }

  @Test
  void slowPassesInsideARangeInFlightStartNoSecondRequestUntilItsCompactionEnds() {
    TombstoneTracker t = tracker(policy(10, 2));
    t.onSkipped(b("a"), b("m"), 10);
    t.onSkipped(b("a"), b("m"), 10);
    assertEquals(1, requested.size());
    assertEquals(List.of(new KeyRange(b("a"), b("m"))), t.inFlight());
    // Scans that were already walking the band while it is being compacted.
    for (int i = 0; i < 5; i++) {
      t.onSkipped(b("c"), b("k"), 10);
    }
    assertEquals(1, requested.size(), "the band is compacted once");
    assertTrue(t.hotRanges().isEmpty());
    assertEquals(7, t.slowPasses(), "the passes are still counted");
    // A pass reaching outside the range in flight is a new observation.
    t.onSkipped(b("k"), b("z"), 10);
    assertEquals(1, t.hotRanges().size());

    t.onCompactionEnded(new KeyRange(b("a"), b("m")));
    assertTrue(t.inFlight().isEmpty());
    t.onSkipped(b("a"), b("m"), 10);
    assertEquals(2, requested.size(), "tombstones seen after the compaction count again");
  }

  /**
   * Two scans finish walking the same band at once: the range one of them hands off must be in
   * flight before the other looks, or the band is requested (and compacted) twice. Both threads
   * are lined up on the tracker's lock, released together, and the round is repeated.
   */
  @Test
  void twoConcurrentSlowPassesOverOneBandRequestItOnce() throws Exception {
    for (int round = 0; round < 500; round++) {
      java.util.concurrent.atomic.AtomicInteger requests =
          new java.util.concurrent.atomic.AtomicInteger();
      TombstoneTracker t = new TombstoneTracker("t", policy(10, 1), (table, range) -> {
        requests.incrementAndGet();
        return true;
      });
      List<Thread> scans = new ArrayList<>();
      synchronized (t) {
        for (int i = 0; i < 2; i++) {
          Thread scan = new Thread(() -> t.onSkipped(b("a"), b("m"), 10));
          scans.add(scan);
          scan.start();
        }
        for (Thread scan : scans) {
          while (scan.getState() != Thread.State.BLOCKED) {
            Thread.onSpinWait();
          }
        }
      }
      for (Thread scan : scans) {
        scan.join();
      }
      assertEquals(1, requests.get(), "round " + round + ": the band was requested twice");
      assertEquals(List.of(new KeyRange(b("a"), b("m"))), t.inFlight());
    }
  }

  @Test
  void aRangeTheRequesterDidNotScheduleIsWatchedAgainAtOnce() {
    accept = false;
    TombstoneTracker t = tracker(policy(10, 2));
    t.onSkipped(b("a"), b("m"), 10);
    t.onSkipped(b("a"), b("m"), 10);
    assertEquals(1, requested.size());
    assertTrue(t.inFlight().isEmpty());
    t.onSkipped(b("a"), b("m"), 10);
    t.onSkipped(b("a"), b("m"), 10);
    assertEquals(2, requested.size());
  }

  @Test
  void aRangeTheRequesterDidNotScheduleLeavesTheOtherRangesInFlight() {
    TombstoneTracker t = tracker(policy(10, 1));
    t.onSkipped(b("a"), b("c"), 10);
    accept = false;
    t.onSkipped(b("x"), b("z"), 10);
    assertEquals(2, requested.size());
    assertEquals(List.of(new KeyRange(b("a"), b("c"))), t.inFlight());
  }

  @Test
  void hotRangesAreListedByStartWhateverTheOrderTheyWereReportedIn() {
    TombstoneTracker t = tracker(policy(1, 100));
    assertEquals("t", t.table());
    t.onSkipped(b("x"), b("y"), 5);
    t.onSkipped(b("m"), b("n"), 5);
    t.onSkipped(null, b("b"), 5);
    t.onSkipped(b("d"), b("e"), 5);
    assertEquals(List.of(new KeyRange(null, b("b")), new KeyRange(b("d"), b("e")),
            new KeyRange(b("m"), b("n")), new KeyRange(b("x"), b("y"))),
        t.hotRanges().stream().map(HotRange::range).toList());
  }

  @Test
  void aRangeWhoseRequestFailedIsNotLeftInFlight() {
    TombstoneTracker t = new TombstoneTracker("t", policy(10, 1), (table, range) -> {
      throw new IllegalStateException("rejected");
    });
    assertThrows(IllegalStateException.class, () -> t.onSkipped(b("a"), b("m"), 10));
    assertTrue(t.inFlight().isEmpty());
  }

  @Test
  void anEndReleasesOnlyTheRangesItCovers() {
    TombstoneTracker t = tracker(policy(10, 1));
    t.onSkipped(b("a"), b("f"), 10);
    t.onSkipped(b("e"), b("m"), 10);
    assertEquals(2, requested.size(), "the second reaches past the first range in flight");
    t.onCompactionEnded(new KeyRange(b("a"), b("f")));
    assertEquals(List.of(new KeyRange(b("e"), b("m"))), t.inFlight());
  }

  @Test
  void openEndsMergeAsInfinity() {
    TombstoneTracker t = tracker(policy(1, 3));
    t.onSkipped(null, b("m"), 5);
    t.onSkipped(b("k"), null, 5);
    HotRange r = t.hotRanges().get(0);
    assertNull(r.range().from());
    assertNull(r.range().to());
  }

  @Test
  void theLeastSkippedRangeIsForgottenBeyondTheLimit() {
    TombstonePolicy p = new TombstonePolicy(true, 1, Duration.ZERO, 1, 100, Long.MAX_VALUE,
        Duration.ZERO, Duration.ZERO, 2);
    TombstoneTracker t = tracker(p);
    t.onSkipped(b("a"), b("b"), 50);
    t.onSkipped(b("c"), b("d"), 5);
    t.onSkipped(b("e"), b("f"), 70);
    List<HotRange> hot = t.hotRanges();
    assertEquals(2, hot.size());
    assertArrayEquals(b("a"), hot.get(0).range().from());
    assertArrayEquals(b("e"), hot.get(1).range().from());
  }

  @Test
  void oneIteratorInSampleEveryIsSampled() {
    TombstoneTracker t = tracker(TombstonePolicy.defaults().withSampleEvery(4));
    int sampled = 0;
    for (int i = 0; i < 40; i++) {
      if (t.sampleNextIterator()) {
        sampled++;
      }
    }
    assertEquals(10, sampled);
  }

  @Test
  void aTableCreatingOneIteratorASecondIsSampledEverySecond() {
    TombstoneTracker t = tracker(TombstonePolicy.defaults());
    assertEquals(16, t.policy().sampleEvery());
    assertEquals(Duration.ofSeconds(1), t.policy().sampleInterval());
    int sampled = 0;
    for (int i = 0; i < 20; i++) {
      if (t.sampleNextIterator()) {
        sampled++;
      }
      advance(Duration.ofSeconds(1));
    }
    assertEquals(20, sampled, "every iterator comes a second after the last sampled one");
  }

  @Test
  void theIntervalCountsFromTheLastSampleOfEitherKind() {
    TombstoneTracker t = tracker(TombstonePolicy.defaults().withSampleEvery(16)
        .withSampleInterval(Duration.ofMillis(1_000)));
    assertTrue(t.sampleNextIterator(), "the first iterator (one in 16)");
    advance(Duration.ofMillis(999));
    assertFalse(t.sampleNextIterator(), "999 ms after the last sample");
    advance(Duration.ofMillis(1));
    assertTrue(t.sampleNextIterator(), "1 s after the last sample");
    assertFalse(t.sampleNextIterator(), "the interval starts again");
    // Iterators 5 to 16 at the same instant: none is one in 16 or due by time.
    for (int i = 4; i < 16; i++) {
      assertFalse(t.sampleNextIterator(), "iterator " + (i + 1));
    }
    advance(Duration.ofMillis(600));
    assertTrue(t.sampleNextIterator(), "the 17th: one in 16");
    advance(Duration.ofMillis(600));
    assertFalse(t.sampleNextIterator(), "600 ms after the 17th, though 1.2 s after the time sample");
    advance(Duration.ofMillis(400));
    assertTrue(t.sampleNextIterator(), "1 s after the 17th");
  }

  @Test
  void aBusyTableIsSampledOneInSampleEveryPlusOncePerInterval() {
    TombstoneTracker t = tracker(TombstonePolicy.defaults().withSampleEvery(16));
    int sampled = 0;
    // 10 s at 1,000 iterators a second, 1 ms apart.
    for (int i = 0; i < 10_000; i++) {
      if (t.sampleNextIterator()) {
        sampled++;
      }
      advance(Duration.ofMillis(1));
    }
    // 625 by count, and about one a second by time when no count sample came in the last second:
    // never here, as one in 16 comes every 16 ms.
    assertEquals(625, sampled);
  }

  /**
   * The case sampling must catch: a band scanned once a second and nothing else on the table. Each scan's
   * iterator is sampled or not; a sampled one reports its pass over the band. Passes below the
   * at-once threshold need two slow passes.
   */
  @Test
  void aBandScannedOnceASecondIsDueWithinTwoSecondsOfTheFirstScan() {
    TombstonePolicy policy = TombstonePolicy.defaults();
    TombstoneTracker t = tracker(policy);
    // Unrelated reads took the first sample just before the scans began.
    t.sampleNextIterator();
    t.sampleNextIterator();
    advance(Duration.ofMillis(100));
    int scans = 0;
    while (requested.isEmpty()) {
      assertTrue(scans < 100, "never due");
      scans++;
      if (t.sampleNextIterator()) {
        t.onSkipped(b("a"), b("m"), 5_000);
      }
      advance(Duration.ofSeconds(1));
    }
    assertEquals(3, scans, "the first scan came 100 ms after the unrelated sample; the next two"
        + " are sampled by time, and the third is due 2 s after the first");
    assertEquals(2, requested.get(0).slowPasses());
  }

  @Test
  void aSingleScanOfAWideBandIsDueAtOnce() {
    TombstoneTracker t = tracker(policy(1_000, 2));
    assertEquals(10_000, t.policy().tombstonesToCompactAtOnce());
    t.onSkipped(b("a"), b("c"), 9_999);
    assertTrue(requested.isEmpty(), "one pass below the at-once threshold waits for a second");
    t.onSkipped(b("x"), b("z"), 10_000);
    assertEquals(1, requested.size());
    assertArrayEquals(b("x"), requested.get(0).range().from());
    assertEquals(1, requested.get(0).slowPasses());
    assertEquals(1, t.hotRanges().size(), "the first range is still watched");
  }

  @Test
  void anAtOncePassTakesTheHotRangesItTouchesAlong() {
    TombstoneTracker t = tracker(policy(1_000, 5).withTombstonesToCompactAtOnce(50_000));
    t.onSkipped(b("a"), b("c"), 1_000);
    t.onSkipped(b("b"), b("f"), 60_000);
    assertEquals(1, requested.size());
    assertArrayEquals(b("a"), requested.get(0).range().from());
    assertArrayEquals(b("f"), requested.get(0).range().to());
    assertEquals(61_000, requested.get(0).tombstonesSkipped());
    assertTrue(t.hotRanges().isEmpty());
  }

  @Test
  void anIntervalTooLongForNanosecondsNeverSamplesByTime() {
    TombstoneTracker t = tracker(TombstonePolicy.defaults().withSampleEvery(1_000)
        .withSampleInterval(Duration.ofDays(1_000_000)));
    assertEquals(Long.MAX_VALUE, t.policy().sampleIntervalNanos());
    assertTrue(t.sampleNextIterator());
    advance(Duration.ofDays(365 * 100));
    assertFalse(t.sampleNextIterator());
  }

  @Test
  void aDisabledPolicyNeitherSamplesNorRecords() {
    TombstoneTracker t = tracker(TombstonePolicy.disabled());
    assertFalse(t.sampleNextIterator());
    t.onSkipped(b("a"), b("b"), Long.MAX_VALUE);
    assertEquals(0, t.slowPasses());
  }

  @Test
  void oneIsAValidCountEverywhere() {
    TombstoneTracker t = tracker(new TombstonePolicy(true, 1, Duration.ZERO, 1, 1, 1,
        Duration.ZERO, Duration.ZERO, 1).withSlowPassesToCompact(100));
    t.onSkipped(b("a"), b("b"), 1);
    assertEquals(1, requested.size(), "one tombstone is a slow pass that is due at once");
  }

  @Test
  void invalidPoliciesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> TombstonePolicy.defaults().withSampleEvery(0));
    assertThrows(IllegalArgumentException.class,
        () -> TombstonePolicy.defaults().withMinTombstonesPerPass(0));
    assertThrows(IllegalArgumentException.class,
        () -> TombstonePolicy.defaults().withMinCompactionInterval(Duration.ofSeconds(-1)));
    assertThrows(IllegalArgumentException.class,
        () -> TombstonePolicy.defaults().withSampleInterval(Duration.ofMillis(-1)));
    assertThrows(IllegalArgumentException.class,
        () -> TombstonePolicy.defaults().withTombstonesToCompactAtOnce(0));
    assertThrows(NullPointerException.class,
        () -> TombstonePolicy.defaults().withSampleInterval(null));
  }
}
