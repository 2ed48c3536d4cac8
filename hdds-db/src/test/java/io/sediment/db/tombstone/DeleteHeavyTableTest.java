package io.sediment.db.tombstone;

import static io.sediment.db.tombstone.TombstoneBands.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.managed.SstFileProperties;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables declared delete-heavy, and only those, get RocksDB's CompactOnDeletionCollector, which
 * compacts a flushed band of point tombstones away by itself.
 */
class DeleteHeavyTableTest {

  private static final TableDefinition<byte[], byte[]> QUEUE =
      TableDefinition.of("queue", ByteArrayCodec.get(), ByteArrayCodec.get()).asDeleteHeavy();
  private static final TableDefinition<byte[], byte[]> PLAIN =
      TableDefinition.of("plain", ByteArrayCodec.get(), ByteArrayCodec.get());
  private static final DBDefinition DEFINITION = DBDefinition.of("dh", QUEUE, PLAIN);

  @TempDir Path dir;

  private DBStore open() {
    return DBStoreBuilder.newBuilder(DEFINITION).setPath(dir)
        .setProfile(TestStores.smallProfile().toBuilder().deletionCompaction(1024, 512, 0.5).build())
        .setTombstonePolicy(TombstonePolicy.disabled()).build();
  }

  private static void fill(DBStore store, String table, int n) {
    Table<byte[], byte[]> t = store.getTable(table);
    try (BatchOperation b = store.initBatchOperation()) {
      for (int i = 0; i < n; i++) {
        t.putWithBatch(b, key(i), new byte[8]);
      }
      b.commit();
    }
    store.flush(table);
  }

  private static List<SstFileProperties> files(DBStore store, String table) {
    RocksDatabase db = ((RDBStore) store).database();
    return db.introspection().sstFileProperties(db.columnFamily(table));
  }

  @Test
  void theCollectorRunsOnExactlyTheDeclaredTables() {
    try (DBStore store = open()) {
      fill(store, "queue", 100);
      fill(store, "plain", 100);
      for (SstFileProperties f : files(store, "queue")) {
        assertTrue(f.propertyCollectors().contains("CompactOnDeletionCollector"), f.toString());
      }
      for (SstFileProperties f : files(store, "plain")) {
        assertFalse(f.propertyCollectors().contains("CompactOnDeletionCollector"), f.toString());
      }
      assertFalse(files(store, "queue").isEmpty());
      assertFalse(files(store, "plain").isEmpty());
    }
  }

  @Test
  void aFlushedBandOfPointDeletesIsCompactedAwayWithoutAnyCall() throws Exception {
    try (DBStore store = open()) {
      for (String table : List.of("queue", "plain")) {
        fill(store, table, 20_000);
        store.compactRange(table, null, null);
        Table<byte[], byte[]> t = store.getTable(table);
        try (BatchOperation b = store.initBatchOperation()) {
          for (int i = 0; i < 15_000; i++) {
            t.deleteWithBatch(b, key(i));
          }
          b.commit();
        }
        store.flush(table);
      }
      RocksDatabase db = ((RDBStore) store).database();
      long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (db.introspection().probeTombstones(db.columnFamily("queue"), null, null) > 0) {
        assertTrue(System.nanoTime() < deadline, "queue band not compacted: " + files(store, "queue"));
        Thread.sleep(50);
      }
      assertEquals(0, files(store, "queue").stream().mapToLong(SstFileProperties::deletions).sum());
      assertEquals(15_000, db.introspection().probeTombstones(db.columnFamily("plain"), null, null),
          "a plain table keeps its tombstones until size triggers compact them");
      assertEquals(5_000, store.getTable("queue").getRangeKVs(null, 100_000, null).size());
    }
  }
}
