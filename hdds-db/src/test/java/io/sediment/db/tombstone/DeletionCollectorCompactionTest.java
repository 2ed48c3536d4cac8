package io.sediment.db.tombstone;

import static io.sediment.db.tombstone.TombstoneBands.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.codec.Bytes;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.testing.Eventually;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compactions RocksDB runs by itself because a delete-heavy table's deletion collector marked
 * a file are in the store's compaction history with trigger DELETION_COLLECTOR, the input files'
 * key range and the deletions going in and coming out; other compactions (flushes to the bottom,
 * manual ones, those of a plain table's tombstones) are not recorded as such.
 */
class DeletionCollectorCompactionTest {

  private static final TableDefinition<byte[], byte[]> QUEUE =
      TableDefinition.of("queue", ByteArrayCodec.get(), ByteArrayCodec.get()).asDeleteHeavy();
  private static final TableDefinition<byte[], byte[]> PLAIN =
      TableDefinition.of("plain", ByteArrayCodec.get(), ByteArrayCodec.get());
  private static final DBDefinition DEFINITION = DBDefinition.of("dc", QUEUE, PLAIN);
  private static final int KEYS = 20_000;
  private static final int BAND_START = 2_000;
  private static final int BAND_END = 17_000;

  @TempDir Path dir;

  private DBStore open() {
    return DBStoreBuilder.newBuilder(DEFINITION).setPath(dir)
        .setProfile(TestStores.smallProfile().toBuilder().deletionCompaction(1024, 512, 0.5).build())
        .setTombstonePolicy(TombstonePolicy.disabled()).build();
  }

  /** Puts keys [0, KEYS) at the bottom level, then deletes the band in one flushed SST file. */
  private static void band(DBStore store, String table) {
    TombstoneBands.writeKeys(store, table, KEYS);
    Table<byte[], byte[]> t = store.getTable(table);
    try (BatchOperation b = store.initBatchOperation()) {
      for (int i = BAND_START; i < BAND_END; i++) {
        t.deleteWithBatch(b, key(i));
      }
      b.commit();
    }
    store.flush(table);
  }

  private static List<CompactionEvent> byCollector(DBStore store) {
    return store.tombstoneStats().compactions().recent().stream()
        .filter(e -> e.trigger() == CompactionEvent.Trigger.DELETION_COLLECTOR).toList();
  }

  @Test
  void aCompactionOfAMarkedFileIsRecordedWithItsRangeAndTombstonesInAndOut() throws Exception {
    try (DBStore store = open()) {
      band(store, "queue");
      Eventually.waitFor(() -> !byCollector(store).isEmpty(), 15_000,
          "a DELETION_COLLECTOR compaction in " + store.tombstoneStats().compactions().recent());
      CompactionEvent e = byCollector(store).get(0);
      assertEquals("queue", e.table());
      assertEquals(CompactionEvent.Outcome.COMPLETED, e.outcome(), e.reason());
      assertEquals(BAND_END - BAND_START, e.tombstonesBefore(),
          "the flushed file's deletions go in: " + e);
      assertEquals(0, e.tombstonesAfter(), "compacted to the bottom, none comes out: " + e);
      assertTrue(Bytes.compare(e.range().from(), key(BAND_START)) <= 0, e.range().toString());
      assertTrue(Bytes.compare(e.range().to(), key(BAND_END - 1)) > 0, e.range().toString());
      assertTrue(e.reason().contains("deletion collector"), e.reason());
      assertTrue(e.atMillis() > 0 && e.durationMillis() >= 0, e.toString());
    }
  }

  @Test
  void aMarkedFileOverNothingIsOnlyMovedDownAndSaidToKeepItsTombstones() throws Exception {
    try (DBStore store = open()) {
      Table<byte[], byte[]> t = store.getTable("queue");
      try (BatchOperation b = store.initBatchOperation()) {
        for (int i = 0; i < 5_000; i++) {
          t.putWithBatch(b, key(i), new byte[8]);
        }
        b.commit();
      }
      try (BatchOperation b = store.initBatchOperation()) {
        for (int i = 0; i < 5_000; i++) {
          t.deleteWithBatch(b, key(i));
        }
        b.commit();
      }
      // The flush keeps the tombstones alone; no file lies below them.
      store.flush("queue");
      Eventually.waitFor(() -> !byCollector(store).isEmpty(), 15_000, "the marked file moved");
      CompactionEvent e = byCollector(store).get(0);
      assertEquals(CompactionEvent.Outcome.COMPLETED, e.outcome());
      assertEquals(5_000, e.tombstonesBefore());
      assertEquals(5_000, e.tombstonesAfter(), e.reason());
      assertTrue(e.reason().contains("without rewriting"), e.reason());
    }
  }

  @Test
  void onlyMarkedCompactionsAreRecordedAndManualOnesKeepTheirTrigger() throws Exception {
    try (DBStore store = open()) {
      band(store, "plain");
      store.compactRange("plain", null, null);
      List<CompactionEvent> recent = store.tombstoneStats().compactions().recent();
      assertEquals(List.of(), byCollector(store), "a plain table has no collector");
      // writeKeys' compaction and the one above: both manual, nothing else.
      assertEquals(2, recent.size(), recent.toString());
      assertTrue(recent.stream().allMatch(e -> e.trigger() == CompactionEvent.Trigger.MANUAL),
          recent.toString());
      assertEquals(BAND_END - BAND_START, recent.get(1).tombstonesBefore());
      assertEquals(0, recent.get(1).tombstonesAfter());
    }
  }

  @Test
  void aCompactionWhileTheStoreOpensIsDeliveredOnceTheHistoryExists() throws Exception {
    try (DBStore store = DBStoreBuilder.newBuilder(DEFINITION).setPath(dir)
        .setProfile(TestStores.smallProfile().toBuilder().disableAutoCompactions(true)
            .deletionCompaction(1024, 512, 0.5).build())
        .setTombstonePolicy(TombstonePolicy.disabled()).build()) {
      band(store, "queue");
      assertEquals(List.of(), byCollector(store), "auto compactions are off");
    }
    // Reopened with auto compactions on, RocksDB picks the marked file up at once, possibly
    // before the store has built its compaction history.
    try (DBStore store = open()) {
      Eventually.waitFor(() -> !byCollector(store).isEmpty(), 15_000,
          "the marked file compacted after reopening");
      assertEquals(BAND_END - BAND_START, byCollector(store).get(0).tombstonesBefore());
    }
  }
}
