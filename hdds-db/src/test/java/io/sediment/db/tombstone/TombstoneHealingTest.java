package io.sediment.db.tombstone;

import static io.sediment.db.tombstone.TombstoneBands.key;
import static io.sediment.db.tombstone.TombstoneBands.writeBand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.stats.TombstoneStats;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: scans that walk a band of point tombstones are noticed by the table's tracker, which
 * gets the band compacted in the background with no manual call; afterwards the same positioning
 * skips nothing, and the stats say what happened.
 */
class TombstoneHealingTest {

  @TempDir Path dir;

  @Test
  void slowScansGetTheirBandCompactedInTheBackground() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, everyScanSampled(2))) {
      writeBand(store, "bytes", 30_000, 10_000, 25_000);
      Table<byte[], byte[]> table = store.getTable("bytes");
      RocksDatabase db = ((RDBStore) store).database();

      TableTombstoneStats before = stats(store);
      assertEquals(15_000, before.sstDeletions());
      for (int pass = 0; pass < 2; pass++) {
        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
                 table.rangeIterator(key(9_990), null, IteratorType.KEY_ONLY)) {
          for (int i = 0; i < 10; i++) {
            it.next();
          }
          assertArrayEquals(key(25_000), it.next().getKey());
        }
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (store.tombstoneStats().compactions().completed() < 1) {
        assertTrue(System.nanoTime() < deadline, "no compaction within 10 s: " + store.tombstoneStats());
        Thread.sleep(20);
      }
      TombstoneStats after = store.tombstoneStats();
      TableTombstoneStats t = stats(store);
      assertEquals(2, t.slowPasses());
      assertTrue(t.sampledScans().scans() >= 2, t.sampledScans().toString());
      assertTrue(t.sampledScans().entriesReturned() >= 22, t.sampledScans().toString());
      assertTrue(t.sampledScans().tombstonesSkipped() >= 30_000, t.sampledScans().toString());
      assertTrue(t.sampledScans().nativeNanos() > 0);
      assertTrue(t.tombstonesSkipped() >= 30_000, "skipped " + t.tombstonesSkipped());
      assertEquals(0, t.sstDeletions(), "the band is gone from the SST files");
      assertTrue(t.hotRanges().isEmpty());
      CompactionEvent e = after.compactions().recent().stream()
          .filter(c -> c.trigger() == CompactionEvent.Trigger.TRACKER).findFirst().orElseThrow();
      assertEquals(CompactionEvent.Outcome.COMPLETED, e.outcome());
      assertArrayEquals(key(9_999), e.range().from());
      assertArrayEquals(key(25_000), e.range().to());
      assertEquals(0, db.introspection().probeTombstones(db.columnFamily("bytes"), key(10_000), null));

      // The end reached the tracker: the same band, deleted again, is compacted again.
      TombstoneTracker tracker = ((RDBStore) store).getTable("bytes").tombstoneTracker();
      while (!tracker.inFlight().isEmpty()) {
        assertTrue(System.nanoTime() < deadline, "end never reported: " + tracker.inFlight());
        Thread.sleep(20);
      }
      TombstoneBands.deleteBand(store, "bytes", 10_000, 25_000);
      for (int pass = 0; pass < 2; pass++) {
        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
                 table.rangeIterator(key(9_990), null, IteratorType.KEY_ONLY)) {
          for (int i = 0; i < 10; i++) {
            it.next();
          }
          assertArrayEquals(key(25_000), it.next().getKey());
        }
      }
      deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (store.tombstoneStats().compactions().completed() < 2) {
        assertTrue(System.nanoTime() < deadline, "no second compaction: " + store.tombstoneStats());
        Thread.sleep(20);
      }
    }
  }

  /**
   * A value-only scan, whose entries carry no key, still reports the band it walked from the
   * entry before it: the compaction covers exactly what a key-and-value scan's would.
   */
  @Test
  void aValueOnlyScanReportsItsBandFromTheEntryBeforeIt() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, everyScanSampled(1))) {
      writeBand(store, "bytes", 30_000, 10_000, 25_000);
      Table<byte[], byte[]> table = store.getTable("bytes");
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               table.rangeIterator(key(9_990), null, IteratorType.VALUE_ONLY)) {
        for (int i = 0; i < 10; i++) {
          assertNull(it.next().getKey());
        }
        it.next();
        assertArrayEquals(key(25_000), it.currentKey());
      }
      awaitCompactions(store, 1, Duration.ofSeconds(10));
      CompactionEvent e = store.tombstoneStats().compactions().recent().stream()
          .filter(c -> c.trigger() == CompactionEvent.Trigger.TRACKER).findFirst().orElseThrow();
      assertArrayEquals(key(9_999), e.range().from());
      assertArrayEquals(key(25_000), e.range().to());
    }
  }

  /** With the defaults, one seek through 15,000 tombstones (over 10,000) is enough. */
  @Test
  void aSingleScanThroughAWideBandGetsItCompacted() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, TombstonePolicy.defaults())) {
      writeBand(store, "bytes", 30_000, 10_000, 25_000);
      Table<byte[], byte[]> table = store.getTable("bytes");
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
        assertArrayEquals(key(25_000), it.seek(key(10_000)).getKey());
      }
      awaitCompactions(store, 1, Duration.ofSeconds(5));
      assertEquals(1, stats(store).slowPasses());
      assertEquals(0, stats(store).sstDeletions(), "the band is gone from the SST files");
    }
  }

  /**
   * A band scanned periodically on a table with no other traffic heals through the sampling
   * interval, not one iterator in 16: here the at-once rule is off and an unrelated read took the
   * first sample, so the scans are sampled only by time.
   */
  @Test
  void aBandScannedPeriodicallyHealsWithoutOtherTraffic() throws Exception {
    TombstonePolicy policy = TombstonePolicy.defaults().withSampleInterval(Duration.ofMillis(200))
        .withTombstonesToCompactAtOnce(Long.MAX_VALUE).withMinCompactionInterval(Duration.ZERO);
    assertEquals(16, policy.sampleEvery());
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, policy)) {
      writeBand(store, "bytes", 10_000, 2_000, 7_000);
      Table<byte[], byte[]> table = store.getTable("bytes");
      assertFalse(table.isEmpty(), "an unrelated read takes the first sample");
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      int scans = 0;
      while (store.tombstoneStats().compactions().completed() < 1) {
        assertTrue(System.nanoTime() < deadline, "not healed within 5 s, " + scans + " scans: "
            + store.tombstoneStats());
        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
          assertArrayEquals(key(7_000), it.seek(key(2_000)).getKey());
        }
        scans++;
        Thread.sleep(250);
      }
      assertTrue(scans <= 4, scans + " scans");
      assertEquals(0, stats(store).sstDeletions());
    }
  }

  private static void awaitCompactions(DBStore store, int completed, Duration within)
      throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (store.tombstoneStats().compactions().completed() < completed) {
      assertTrue(System.nanoTime() < deadline, "no compaction within " + within + ": "
          + store.tombstoneStats());
      Thread.sleep(20);
    }
  }

  @Test
  void aManualCompactionIsInTheHistoryWithItsTriggerAndTombstoneCounts() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, TombstonePolicy.defaults())) {
      writeBand(store, "bytes", 30_000, 10_000, 25_000);
      store.compactRange("bytes", null, null);
      List<CompactionEvent> recent = store.tombstoneStats().compactions().recent();
      CompactionEvent e = recent.get(recent.size() - 1);
      assertEquals(CompactionEvent.Trigger.MANUAL, e.trigger());
      assertEquals(CompactionEvent.Outcome.COMPLETED, e.outcome());
      assertEquals("bytes", e.table());
      assertEquals(15_000, e.tombstonesBefore(), "the band's point tombstones");
      assertEquals(0, e.tombstonesAfter());
      assertEquals(0, store.tombstoneStats().compactions().completed(),
          "the tracker's counters count its own requests only");
    }
  }

  @Test
  void unsampledStoresNeverScheduleCompactions() throws Exception {
    try (DBStore store = TestStores.open(dir, TestStores.DEFINITION, TombstonePolicy.disabled())) {
      writeBand(store, "bytes", 5_000, 1_000, 4_000);
      Table<byte[], byte[]> table = store.getTable("bytes");
      for (int pass = 0; pass < 5; pass++) {
        assertEquals(2_000, table.getRangeKVs(null, 10_000, null).size());
      }
      Thread.sleep(100);
      assertEquals(0, store.tombstoneStats().compactions().requested());
      assertEquals(3_000, stats(store).sstDeletions());
    }
  }

  /**
   * Every iterator sampled, a pass slow from 1,000 tombstones, a compaction after
   * {@code slowPasses} slow passes over a range, at once.
   */
  private static TombstonePolicy everyScanSampled(int slowPasses) {
    return TombstonePolicy.defaults().withSampleEvery(1).withMinTombstonesPerPass(1_000)
        .withSlowPassesToCompact(slowPasses).withMinCompactionInterval(Duration.ZERO);
  }

  private static TableTombstoneStats stats(DBStore store) {
    return store.tombstoneStats().tables().stream().filter(s -> s.table().equals("bytes"))
        .findFirst().orElseThrow();
  }
}
