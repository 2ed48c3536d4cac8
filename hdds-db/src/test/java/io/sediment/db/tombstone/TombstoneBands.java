package io.sediment.db.tombstone;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.Table;
import java.nio.charset.StandardCharsets;

/** Builds tables with a band of consecutive point tombstones for the tombstone tests. */
final class TombstoneBands {

  private TombstoneBands() {
  }

  static byte[] key(int i) {
    return String.format("k%07d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** Writes keys [0, total), then point-deletes [bandStart, bandEnd), flushing after each step. */
  static void writeBand(DBStore store, String table, int total, int bandStart, int bandEnd) {
    writeKeys(store, table, total);
    deleteBand(store, table, bandStart, bandEnd);
  }

  /** Writes keys [0, total) and compacts them to the bottom level. */
  static void writeKeys(DBStore store, String table, int total) {
    Table<byte[], byte[]> t = store.getTable(table);
    try (BatchOperation batch = store.initBatchOperation()) {
      for (int i = 0; i < total; i++) {
        t.putWithBatch(batch, key(i), new byte[16]);
      }
      batch.commit();
    }
    store.flush(table);
    store.compactRange(table, null, null);
  }

  /** Point-deletes [bandStart, bandEnd) and flushes the tombstones to an SST file. */
  static void deleteBand(DBStore store, String table, int bandStart, int bandEnd) {
    Table<byte[], byte[]> t = store.getTable(table);
    try (BatchOperation batch = store.initBatchOperation()) {
      for (int i = bandStart; i < bandEnd; i++) {
        t.deleteWithBatch(batch, key(i));
      }
      batch.commit();
    }
    store.flush(table);
  }
}
