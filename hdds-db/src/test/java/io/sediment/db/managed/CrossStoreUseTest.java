package io.sediment.db.managed;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.testing.TestStores;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A column family, write batch or snapshot is used only with the database it came from: one of another
 * store, open or already closed (its native handles freed), is an
 * {@link IllegalArgumentException} before any native call, and changes nothing.
 */
class CrossStoreUseTest {

  @TempDir Path dir;

  @Test
  void aColumnFamilyOrBatchOfAnotherStoreIsRefusedEvenAfterThatStoreClosed() {
    try (DBStore storeA = TestStores.open(dir.resolve("a"))) {
      RocksDatabase a = ((RDBStore) storeA).database();
      ColumnFamily own = a.columnFamily(TestStores.BYTES.name());
      DBStore storeB = TestStores.open(dir.resolve("b"));
      RocksDatabase b = ((RDBStore) storeB).database();
      ColumnFamily foreign = b.columnFamily(TestStores.BYTES.name());
      ManagedSnapshot foreignSnapshot = b.newSnapshot();
      ManagedWriteBatch foreignBatch = b.newBatch();
      foreignBatch.put(foreign, b("k"), b("from b"));

      for (boolean bClosed : new boolean[] {false, true}) {
        if (bClosed) {
          foreignBatch.close();
          storeB.close();
          foreignBatch = null;
        }
        List<Executable> uses = List.of(
            () -> a.get(foreign, b("k")),
            () -> a.get(foreign, ByteBuffer.allocateDirect(1).put((byte) 'k').flip(),
                ByteBuffer.allocateDirect(8)),
            () -> a.keyMayExist(foreign, b("k")),
            () -> a.put(foreign, b("k"), b("v")),
            () -> a.delete(foreign, b("k")),
            () -> a.deleteRange(foreign, b("a"), b("z")),
            () -> a.newIterator(foreign, null, null, false).close(),
            () -> a.compactRange(foreign, null, null),
            () -> a.introspection().getLongProperty(foreign, "rocksdb.estimate-num-keys"));
        for (Executable use : uses) {
          IllegalArgumentException e = assertThrows(IllegalArgumentException.class, use);
          assertTrue(e.getMessage().contains("belongs to store"), e.getMessage());
        }
        for (Executable read : List.<Executable>of(
            () -> a.get(own, b("k"), foreignSnapshot),
            () -> a.keyMayExist(own, b("k"), foreignSnapshot),
            () -> a.newIterator(own, null, null, false, foreignSnapshot).close(),
            () -> a.newIterator(own, b("a"), b("z"), false, foreignSnapshot).close())) {
          IllegalArgumentException e = assertThrows(IllegalArgumentException.class, read);
          assertTrue(e.getMessage().contains("snapshot of another store"), e.getMessage());
        }
        try (ManagedWriteBatch batch = a.newBatch()) {
          assertThrows(IllegalArgumentException.class, () -> batch.put(foreign, b("k"), b("v")));
          assertThrows(IllegalArgumentException.class, () -> batch.delete(foreign, b("k")));
          assertThrows(IllegalArgumentException.class,
              () -> batch.deleteRange(foreign, b("a"), b("z")));
        }
        if (!bClosed) {
          ManagedWriteBatch other = foreignBatch;
          assertThrows(IllegalArgumentException.class, () -> a.write(other));
        }
      }
      assertNull(a.get(own, b("k")), "nothing reached store a");
      assertTrue(a.openIteratorCount() == 0);
      a.put(own, b("k"), b("v"));
      assertArrayEquals(b("v"), a.get(own, b("k")));
    }
  }
}
