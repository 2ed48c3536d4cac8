package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store without a WAL ({@link DBProfile#disableWal()}) persists writes only by flushing, so it
 * never flushes one table alone: a batch across tables would survive a crash in part. Flushing
 * one table of such a store flushes them all; a store with a WAL flushes just the one.
 */
class WithoutWalTest {

  @TempDir
  Path dir;

  private static DBStore open(Path path, boolean disableWal) {
    return DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(path)
        .setProfile(TestStores.smallProfile().toBuilder().disableWal(disableWal).build())
        .setCloseTimeout(Duration.ofSeconds(5)).setTombstonePolicy(TombstonePolicy.disabled())
        .build();
  }

  private static int sstFiles(DBStore store, String table) {
    return store.tombstoneStats().tables().stream().filter(t -> t.table().equals(table))
        .mapToInt(TableTombstoneStats::sstFiles).sum();
  }

  /** Writes a row to each table, flushes the strings table, and counts the bytes table's files. */
  private int bytesFilesAfterFlushingStrings(String name, boolean disableWal) {
    try (DBStore store = open(dir.resolve(name), disableWal)) {
      store.getTable(TestStores.STRINGS).put("k", "v");
      store.getTable(TestStores.BYTES).put(new byte[] {1}, new byte[] {2});
      store.flush(TestStores.STRINGS.name());
      assertEquals(1, sstFiles(store, TestStores.STRINGS.name()));
      return sstFiles(store, TestStores.BYTES.name());
    }
  }

  @Test
  void flushingOneTableOfAStoreWithoutAWalFlushesEveryTable() {
    assertEquals(1, bytesFilesAfterFlushingStrings("nowal", true), "the other table went too");
  }

  @Test
  void flushingOneTableOfAStoreWithAWalFlushesThatTableOnly() {
    assertEquals(0, bytesFilesAfterFlushingStrings("wal", false));
  }
}
