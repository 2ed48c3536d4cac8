package io.sediment.db.tombstone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.codec.Bytes;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deletePrefix} equals deleting every key under the prefix (checked against a TreeMap), and
 * writes exactly one range tombstone.
 */
class DeletePrefixTest {

  @TempDir Path dir;

  private static final byte[] ALPHABET = {0x00, 'a', 'b', (byte) 0xFE, (byte) 0xFF};

  private static byte[] randomKey(Random r) {
    byte[] k = new byte[1 + r.nextInt(4)];
    for (int i = 0; i < k.length; i++) {
      k[i] = ALPHABET[r.nextInt(ALPHABET.length)];
    }
    return k;
  }

  @Test
  void deletePrefixMatchesTheModelForRandomPrefixes() {
    Random r = new Random(42);
    try (DBStore store = TestStores.open(dir)) {
      Table<byte[], byte[]> t = store.getTable("bytes");
      for (int round = 0; round < 200; round++) {
        TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes::compare);
        t.deletePrefix(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
        for (KeyValue<byte[], byte[]> kv : t.getRangeKVs(null, 10_000, null)) {
          t.delete(kv.getKey());
        }
        for (int i = 0; i < 40; i++) {
          byte[] k = randomKey(r);
          t.put(k, k);
          model.put(k, k);
        }
        byte[] prefix = randomKey(r);
        if (round % 3 == 0) {
          t.deletePrefix(prefix);
        } else {
          try (BatchOperation b = store.initBatchOperation()) {
            t.deletePrefixWithBatch(b, prefix);
            b.commit();
          }
        }
        model.keySet().removeIf(k -> Bytes.startsWith(k, prefix));
        List<byte[]> actual = new ArrayList<>();
        t.getRangeKVs(null, 10_000, null).forEach(kv -> actual.add(kv.getKey()));
        assertEquals(model.keySet().stream().map(Bytes::toDisplayString).toList(),
            actual.stream().map(Bytes::toDisplayString).toList(),
            "prefix " + Bytes.toDisplayString(prefix));
      }
    }
  }

  @Test
  void deletePrefixWritesOneRangeTombstone() {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      for (int i = 0; i < 1_000; i++) {
        t.put("/vol/bucket/dir/" + i, "v");
      }
      t.put("/vol/bucket/dir0", "sibling");
      t.deletePrefix("/vol/bucket/dir/");
      store.flush("strings");
      TableTombstoneStats s = store.tombstoneStats().tables().stream()
          .filter(x -> x.table().equals("strings")).findFirst().orElseThrow();
      assertEquals(1, s.sstRangeDeletions());
      assertEquals(1, s.sstDeletions());
      assertNull(t.get("/vol/bucket/dir/7"));
      assertEquals("sibling", t.get("/vol/bucket/dir0"));
    }
  }

  private static TableTombstoneStats stats(DBStore store, String table) {
    return store.tombstoneStats().tables().stream()
        .filter(x -> x.table().equals(table)).findFirst().orElseThrow();
  }

  @Test
  void rangeDeletionsAreCountedInTheMemtableUntilTheFlushWritesThem() {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      t.put("a", "v");
      t.deleteRange("b", "c");
      assertEquals(1, stats(store, "strings").memtableRangeDeletes());
      try (BatchOperation batch = store.initBatchOperation()) {
        t.deleteRangeWithBatch(batch, "d", "e");
        t.deletePrefixWithBatch(batch, "f/");
        t.deleteWithBatch(batch, "a");
        store.commitBatchOperation(batch);
      }
      TableTombstoneStats before = stats(store, "strings");
      assertEquals(3, before.memtableRangeDeletes());
      assertEquals(1, before.memtableDeletes(), "RocksDB's memtable property counts point deletes only");
      assertEquals(0, stats(store, "bytes").memtableRangeDeletes());
      store.flush("strings");
      TableTombstoneStats after = stats(store, "strings");
      assertEquals(0, after.memtableRangeDeletes());
      assertEquals(3, after.sstRangeDeletions());
    }
  }

  @Test
  void aPrefixWithoutSuccessorAlsoDeletesKeysPutEarlierInTheSameBatch() {
    byte[] ff = {(byte) 0xFF};
    try (DBStore store = TestStores.open(dir)) {
      Table<byte[], byte[]> t = store.getTable("bytes");
      t.put(new byte[] {(byte) 0xFF, 0x01}, ff);
      t.put(new byte[] {'a'}, ff);
      try (BatchOperation b = store.initBatchOperation()) {
        t.putWithBatch(b, new byte[] {(byte) 0xFF, 0x02}, ff);
        t.deletePrefixWithBatch(b, ff);
        b.commit();
      }
      assertNull(t.get(new byte[] {(byte) 0xFF, 0x01}));
      assertNull(t.get(new byte[] {(byte) 0xFF, 0x02}), "put before the prefix delete in the batch");
      assertEquals(1, t.getRangeKVs(null, 10, null).size());

      // The empty prefix (the whole table) on a table with no stored keys yet.
      try (BatchOperation b = store.initBatchOperation()) {
        t.deletePrefixWithBatch(b, new byte[0]);
        b.commit();
      }
      try (BatchOperation b = store.initBatchOperation()) {
        t.putWithBatch(b, new byte[] {'z'}, ff);
        t.deletePrefixWithBatch(b, new byte[0]);
        b.commit();
      }
      assertTrue(t.isEmpty(), "put before the whole-table delete in the batch");
    }
  }

  @Test
  void aNullPrefixIsRejected() {
    try (DBStore store = TestStores.open(dir)) {
      assertThrows(NullPointerException.class, () -> store.getTable("bytes").deletePrefix(null));
    }
  }
}
