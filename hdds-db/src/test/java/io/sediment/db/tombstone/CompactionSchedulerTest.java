package io.sediment.db.tombstone;

import static io.sediment.db.tombstone.TombstoneBands.deleteBand;
import static io.sediment.db.tombstone.TombstoneBands.key;
import static io.sediment.db.tombstone.TombstoneBands.writeBand;
import static io.sediment.db.tombstone.TombstoneBands.writeKeys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.managed.ManagedSnapshot;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.CompactionStats;
import io.sediment.db.stats.HotRange;
import io.sediment.db.stats.KeyRange;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targeted compaction on real RocksDB: it removes a point-tombstone band, deduplicates overlapping
 * requests, rate-limits runs, and recognises tombstones pinned by a snapshot instead of looping.
 */
class CompactionSchedulerTest {

  @TempDir Path dir;

  private static final TombstonePolicy POLICY = TombstonePolicy.defaults()
      .withMinTombstonesPerPass(100).withMinCompactionInterval(Duration.ZERO)
      .withPinnedRetryAfter(Duration.ofMinutes(10));

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out");
      Thread.sleep(10);
    }
  }

  private static HotRange hot(int from, int to) {
    return new HotRange(new KeyRange(key(from), key(to)), 1, to - from, 0);
  }

  @Test
  void aTargetedCompactionRemovesThePointTombstoneBand() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      writeBand(store, "bytes", 20_000, 5_000, 15_000);
      RocksDatabase db = ((RDBStore) store).database();
      var cf = db.columnFamily("bytes");
      assertEquals(10_000, db.introspection().probeTombstones(cf, key(5_000), key(20_000)));
      try (CompactionScheduler s = new CompactionScheduler(db, POLICY)) {
        s.request("bytes", hot(5_000, 15_000));
        await(() -> s.stats().completed() == 1);
        CompactionEvent e = s.stats().recent().get(0);
        assertEquals(CompactionEvent.Outcome.COMPLETED, e.outcome());
        assertEquals(0, e.tombstonesAfter());
      }
      assertEquals(0, db.introspection().probeTombstones(cf, key(5_000), key(20_000)));
      assertEquals(10_000, store.getTable("bytes").getRangeKVs(null, 100_000, null).size());
    }
  }

  @Test
  void overlappingPendingRequestsMergeIntoOneCompaction() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      RocksDatabase db = ((RDBStore) store).database();
      TombstonePolicy slow = POLICY.withMinCompactionInterval(Duration.ofSeconds(1));
      List<CompactionEvent> ended = new CopyOnWriteArrayList<>();
      try (CompactionScheduler s = new CompactionScheduler(db, slow, ended::add)) {
        assertTrue(s.request("bytes", hot(0, 10)));      // runs at once, starts the interval
        await(() -> s.stats().completed() == 1);
        assertTrue(s.request("bytes", hot(100, 200)));   // waits for the interval
        assertTrue(s.request("bytes", hot(150, 300)));   // overlaps: merged
        assertTrue(s.request("bytes", hot(300, 400)));   // touches: merged
        assertTrue(s.request("strings", hot(100, 200))); // another table: separate
        assertEquals(List.of(new KeyRange(key(100), key(400))), s.pending("bytes"));
        await(() -> s.stats().completed() == 3);
        await(() -> ended.size() == 3);
        assertTrue(ended.stream().anyMatch(e -> e.table().equals("bytes")
                && e.range().equals(new KeyRange(key(100), key(400)))),
            "the listener hears one end covering the merged requests: " + ended);
        CompactionStats stats = s.stats();
        assertEquals(5, stats.requested());
        assertEquals(2, stats.merged());
        long gap = stats.recent().get(2).atMillis() - stats.recent().get(0).atMillis();
        assertTrue(gap >= 1_900, "runs are rate-limited, gap " + gap);
      }
    }
  }

  /**
   * An empty start key is the start of the table, as an open start is: a scan with an empty lower
   * bound and one with none walk the same band, so a pinned band cools down for both.
   */
  @Test
  void aBandPinnedUnderAnEmptyStartKeyCoolsDownForAnOpenStartToo() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      RocksDatabase db = ((RDBStore) store).database();
      writeKeys(store, "bytes", 5_000);
      try (ManagedSnapshot pin = db.newSnapshot()) {
        deleteBand(store, "bytes", 0, 4_000);
        try (CompactionScheduler s = new CompactionScheduler(db, POLICY)) {
          assertTrue(s.request("bytes", new HotRange(new KeyRange(new byte[0], key(4_000)), 1,
              4_000, 0)));
          await(() -> s.stats().recent().size() == 1);
          assertEquals(CompactionEvent.Outcome.PINNED, s.stats().recent().get(0).outcome());
          assertFalse(s.request("bytes", new HotRange(new KeyRange(null, key(4_000)), 1, 4_000, 0)),
              "the same band is cooling down: " + s.stats().recent());
          assertEquals(new KeyRange(null, key(4_000)), new KeyRange(new byte[0], key(4_000)));
        }
      }
    }
  }

  @Test
  void aRequestBridgingTwoPendingRequestsMergesAllThreeIntoOne() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      RocksDatabase db = ((RDBStore) store).database();
      TombstonePolicy slow = POLICY.withMinCompactionInterval(Duration.ofHours(1));
      try (CompactionScheduler s = new CompactionScheduler(db, slow)) {
        assertTrue(s.request("bytes", hot(0, 10)));      // runs at once, starts the interval
        await(() -> s.stats().recent().size() == 1);
        assertTrue(s.request("bytes", hot(100, 200)));
        assertTrue(s.request("bytes", hot(300, 400)));
        assertTrue(s.request("bytes", hot(150, 350)));   // overlaps both
        assertEquals(List.of(new KeyRange(key(100), key(400))), s.pending("bytes"),
            "one compaction, no key range compacted twice");
        CompactionStats stats = s.stats();
        assertEquals(1, stats.pending());
        assertEquals(4, stats.requested());
        assertEquals(2, stats.merged(), "requested = runs + merged");
      }
    }
  }

  /**
   * A request that arrives while another compaction runs must still wait the interval after that
   * run ends. The test holds the scheduler's lock to request the second range at a moment when the
   * first has left the queue but has not ended.
   */
  @Test
  void aRequestMadeWhileACompactionRunsWaitsTheIntervalAfterIt() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      writeBand(store, "bytes", 200_000, 0, 200_000); // a compaction long enough to catch running
      RocksDatabase db = ((RDBStore) store).database();
      TombstonePolicy slow = POLICY.withMinCompactionInterval(Duration.ofHours(1));
      try (CompactionScheduler s = new CompactionScheduler(db, slow)) {
        assertTrue(s.request("bytes", hot(0, 200_000)));
        boolean requestedWhileRunning = false;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!requestedWhileRunning) {
          assertTrue(System.nanoTime() < deadline, "the first compaction never started");
          synchronized (s) {
            if (s.pending("bytes").isEmpty()) {
              assertTrue(s.stats().recent().isEmpty(), "the first compaction ended before the"
                  + " second request could be made while it ran; make it longer");
              assertTrue(s.request("strings", hot(0, 10)));
              requestedWhileRunning = true;
            }
          }
        }
        await(() -> !s.stats().recent().isEmpty());
        Thread.sleep(500);
        CompactionStats stats = s.stats();
        assertEquals(1, stats.recent().size(), "ran within the interval: " + stats.recent());
        assertEquals(List.of(new KeyRange(key(0), key(10))), s.pending("strings"));
      }
    }
  }

  @Test
  void tombstonesPinnedByASnapshotAreReportedAndNotCompactedInALoop() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      RocksDatabase db = ((RDBStore) store).database();
      var cf = db.columnFamily("bytes");
      writeKeys(store, "bytes", 5_000);
      try (ManagedSnapshot pin = db.newSnapshot()) {
        deleteBand(store, "bytes", 1_000, 4_000);
        try (CompactionScheduler s = new CompactionScheduler(db, POLICY)) {
          s.request("bytes", hot(1_000, 4_000));
          await(() -> s.stats().pinned() == 1);
          CompactionEvent e = s.stats().recent().get(0);
          assertEquals(CompactionEvent.Outcome.PINNED, e.outcome());
          assertTrue(e.reason().contains("1 open snapshot"), e.reason());
          assertEquals(3_000, db.introspection().probeTombstones(cf, key(1_000), key(5_000)));

          assertFalse(s.request("bytes", hot(1_500, 2_000)), "skipped: no end will follow");
          CompactionStats after = s.stats();
          assertEquals(1, after.skipped());
          assertEquals(0, after.pending());
          assertEquals(CompactionEvent.Outcome.SKIPPED, after.recent().get(1).outcome());
          assertEquals(0, after.completed());
        }
        assertTrue(pin.sequenceNumber() > 0);
      }
      store.compactRange("bytes", key(1_000), key(4_000));
      assertEquals(0, db.introspection().probeTombstones(cf, key(1_000), key(5_000)), "released snapshot unpins");
    }
  }

  /**
   * A scan's {@code next()} reports the band it walked from the live key it last returned, so the
   * hot range starts with that live key: the check after the compaction must still see the
   * tombstones the snapshot pins behind it, or the band is "completed" and compacted again and
   * again.
   */
  @Test
  void tombstonesPinnedBehindTheLiveKeyARangeStartsWithAreReportedPinned() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      RocksDatabase db = ((RDBStore) store).database();
      writeKeys(store, "bytes", 5_000);
      try (ManagedSnapshot pin = db.newSnapshot()) {
        deleteBand(store, "bytes", 1_000, 4_000);
        try (CompactionScheduler s = new CompactionScheduler(db, POLICY)) {
          s.request("bytes", hot(999, 4_000)); // key 999 is live: the scan walked from it
          await(() -> s.stats().recent().size() == 1);
          CompactionEvent e = s.stats().recent().get(0);
          assertEquals(CompactionEvent.Outcome.PINNED, e.outcome(), e.toString());
          assertEquals(3_000, e.tombstonesAfter());
          assertFalse(s.request("bytes", hot(999, 4_000)), "cooling down, not compacted again");
        }
      }
    }
  }
  /** Keys 0..4999 with 1000..3999 deleted under a snapshot that pins the tombstones. */
  private static ManagedSnapshot pinnedBand(DBStore store) {
    RocksDatabase db = ((RDBStore) store).database();
    writeKeys(store, "bytes", 5_000);
    ManagedSnapshot pin = db.newSnapshot();
    deleteBand(store, "bytes", 1_000, 4_000);
    return pin;
  }

  @Test
  void exactlyTheSlowPassMinimumSurvivingIsPinned() throws Exception {
    TombstonePolicy policy = POLICY.withMinTombstonesPerPass(3_000);
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, policy);
        ManagedSnapshot pin = pinnedBand(store);
        CompactionScheduler s = new CompactionScheduler(((RDBStore) store).database(), policy)) {
      s.request("bytes", hot(999, 4_000));
      await(() -> s.stats().recent().size() == 1);
      CompactionEvent e = s.stats().recent().get(0);
      assertEquals(3_000, e.tombstonesAfter());
      assertEquals(CompactionEvent.Outcome.PINNED, e.outcome(), "3,000 survivors make a slow pass");
    }
  }

  /**
   * Skipped requests are counted and recorded as events; the history keeps the newest 100, oldest
   * first.
   */
  @Test
  void theHistoryKeepsTheNewestHundredEvents() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY);
        ManagedSnapshot pin = pinnedBand(store);
        CompactionScheduler s = new CompactionScheduler(((RDBStore) store).database(), POLICY)) {
      s.request("bytes", hot(1_000, 4_000));
      await(() -> s.stats().pinned() == 1);
      for (int i = 0; i < 120; i++) {
        assertFalse(s.request("bytes", hot(1_000 + i, 1_001 + i)));
      }
      CompactionStats stats = s.stats();
      assertEquals(121, stats.requested());
      assertEquals(120, stats.skipped());
      assertEquals(100, stats.recent().size());
      for (int n = 0; n < 100; n++) {
        CompactionEvent e = stats.recent().get(n);
        assertEquals(CompactionEvent.Outcome.SKIPPED, e.outcome());
        assertEquals(hot(1_020 + n, 1_021 + n).range(), e.range(), "event " + n);
        assertEquals(1, e.tombstonesBefore());
      }
    }
  }

  /** A cooldown holds for requests its range covers in its own table, and only until it ends. */
  @Test
  void aCooldownSkipsOnlyCoveredRequestsOfItsTableUntilItEnds() throws Exception {
    TombstonePolicy policy = POLICY.withPinnedRetryAfter(Duration.ofMillis(500));
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, policy);
        ManagedSnapshot pin = pinnedBand(store);
        CompactionScheduler s = new CompactionScheduler(((RDBStore) store).database(), policy)) {
      s.request("bytes", hot(1_000, 4_000));
      await(() -> s.stats().pinned() == 1);
      long pinnedAt = System.currentTimeMillis();
      assertFalse(s.request("bytes", hot(1_500, 2_000)), "covered: cooling down");
      assertTrue(s.request("strings", hot(1_500, 2_000)), "another table");
      assertTrue(s.request("bytes", hot(3_500, 4_500)), "not covered");
      await(() -> s.stats().recent().size() == 4);
      Thread.sleep(Math.max(0, pinnedAt + 700 - System.currentTimeMillis()));
      assertTrue(s.request("bytes", hot(1_500, 2_000)), "the cooldown is over");
      assertEquals(1, s.stats().skipped());
    }
  }

  @Test
  void afterCloseRequestsAreRefusedAndPendingOnesDropped() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      TombstonePolicy slow = POLICY.withMinCompactionInterval(Duration.ofHours(1));
      CompactionScheduler s = new CompactionScheduler(((RDBStore) store).database(), slow);
      assertTrue(s.request("bytes", hot(0, 10)));
      await(() -> s.stats().completed() == 1);
      assertTrue(s.request("bytes", hot(100, 200)));
      s.close();
      assertFalse(s.request("bytes", hot(300, 400)));
      CompactionStats stats = s.stats();
      assertEquals(2, stats.requested(), "a refused request is not counted");
      assertEquals(0, stats.pending());
      assertEquals(List.of(), s.pending("bytes"));
    }
  }

  /**
   * A compaction that throws ends as {@code FAILED} (told to the listener, counted) and a listener
   * that throws stops nothing: the next request still runs.
   */
  @Test
  void aFailedCompactionIsReportedAndTheSchedulerGoesOn() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      List<CompactionEvent> ended = new CopyOnWriteArrayList<>();
      long began = System.currentTimeMillis();
      try (CompactionScheduler s = new CompactionScheduler(((RDBStore) store).database(), POLICY,
          e -> {
            ended.add(e);
            throw new IllegalStateException("listener failure");
          })) {
        assertTrue(s.request("no-such-table", hot(0, 10)));
        await(() -> ended.size() == 1);
        CompactionEvent failed = ended.get(0);
        assertEquals(CompactionEvent.Outcome.FAILED, failed.outcome());
        assertTrue(failed.reason().contains("no-such-table"), failed.reason());
        assertEquals(-1, failed.tombstonesAfter());
        assertEquals(10, failed.tombstonesBefore());

        assertTrue(s.request("bytes", hot(0, 10)));
        await(() -> ended.size() == 2);
        CompactionStats stats = s.stats();
        assertEquals(1, stats.failed());
        assertEquals(1, stats.completed());
        long now = System.currentTimeMillis();
        for (CompactionEvent e : stats.recent()) {
          assertTrue(e.durationMillis() >= 0 && e.durationMillis() <= now - began, e.toString());
          assertTrue(e.atMillis() >= began && e.atMillis() <= now, e.toString());
        }
      }
    }
  }

  /**
   * A request merged into a pending one adds its skipped tombstones and takes that request's
   * place in the queue: the merged range runs before a later request of another table.
   */
  @Test
  void aMergedRequestKeepsThePlaceOfTheOneItMergedInto() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      TombstonePolicy spaced = POLICY.withMinCompactionInterval(Duration.ofMillis(300));
      try (CompactionScheduler s =
               new CompactionScheduler(((RDBStore) store).database(), spaced)) {
        assertTrue(s.request("bytes", hot(0, 10)));      // runs at once, starts the interval
        await(() -> s.stats().recent().size() == 1);
        assertTrue(s.request("bytes", hot(100, 200)));
        assertTrue(s.request("strings", hot(0, 10)));
        assertTrue(s.request("bytes", hot(150, 250)));   // merges into the first pending
        await(() -> s.stats().recent().size() == 3);
        List<CompactionEvent> recent = s.stats().recent();
        assertEquals("bytes", recent.get(1).table(), recent.toString());
        assertEquals(new KeyRange(key(100), key(250)), recent.get(1).range());
        assertEquals(200, recent.get(1).tombstonesBefore(), "100 + 100 skipped tombstones");
        assertEquals("strings", recent.get(2).table());
      }
    }
  }
  /**
   * The compaction thread is a daemon (it never keeps the JVM alive), and {@code close(timeout)}
   * interrupted while it waits for a running compaction keeps the caller's interrupt status.
   */
  @Test
  void theThreadIsADaemonAndCloseKeepsTheCallersInterrupt() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, POLICY)) {
      writeBand(store, "bytes", 50_000, 0, 50_000);
      RocksDatabase db = ((RDBStore) store).database();
      CompactionScheduler s = new CompactionScheduler(db, POLICY);
      assertTrue(s.request("bytes", hot(0, 50_000)));
      await(() -> s.pending("bytes").isEmpty());
      List<Thread> threads = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().equals("sediment-compaction-" + db.name())).toList();
      assertFalse(threads.isEmpty());
      threads.forEach(t -> assertTrue(t.isDaemon(), t.getName()));
      Thread.currentThread().interrupt();
      s.close(Duration.ofSeconds(20));
      assertTrue(Thread.interrupted(), "the interrupt status is kept");
    }
  }
}
