package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.StoreClosedException;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.codec.Codec;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link ReadView} sees every table as of one moment, through every read path, refuses writes,
 * and holds a RocksDB snapshot only while open.
 */
class ReadViewTest {

  @TempDir Path dir;

  @Test
  void everyReadPathOfEveryTableSeesTheMomentTheViewOpened() {
    try (DBStore store = TestStores.open(dir)) {
      Table<byte[], byte[]> bytes = store.getTable("bytes");
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      bytes.put(b("a"), b("1"));
      bytes.put(b("b"), b("2"));
      strings.put("x", "old");
      try (ReadView view = store.openReadView()) {
        try (BatchOperation batch = store.initBatchOperation()) {
          bytes.deleteWithBatch(batch, b("a"));
          bytes.putWithBatch(batch, b("c"), b("3"));
          strings.putWithBatch(batch, "x", "new");
          strings.putWithBatch(batch, "y", "added");
          batch.commit();
        }
        Table<byte[], byte[]> vb = view.getTable("bytes");
        Table<String, String> vs = view.getTable(TestStores.STRINGS);
        assertArrayEquals(b("1"), vb.get(b("a")));
        assertArrayEquals(b("1"), vb.getIfExist(b("a")));
        assertTrue(vb.isExist(b("a")));
        assertNull(vb.get(b("c")));
        assertEquals("old", vs.get("x"));
        assertNull(vs.get("y"));
        assertEquals(java.util.Arrays.asList("old", null), vs.getAll(List.of("x", "y")));
        List<byte[]> many = vb.getAll(List.of(b("a"), b("c")));
        assertArrayEquals(b("1"), many.get(0));
        assertNull(many.get(1));
        assertEquals(List.of("a", "b"), keys(vb));
        try (TableIterator<String, KeyValue<String, String>> it = vs.iterator()) {
          assertEquals(KeyValue.of("x", "old"), it.next());
          assertTrue(!it.hasNext());
        }
        assertEquals(1, vb.getRangeKVs(b("a"), 1, null).size(), "fast path reads the snapshot");
        assertEquals(2, vb.getRangeKVs(null, 10, null).size());
        try (CodecBuffer k = CodecBuffer.copyOf(b("a")); CodecBuffer v = CodecBuffer.allocateDirect(8)) {
          assertTrue(((RDBTable) vb).get(k, v));
          assertArrayEquals(b("1"), v.getArray());
        }
        try (RDBStoreCodecBufferIterator it =
                 ((RDBTable) vb).codecBufferIterator(null, null, IteratorType.KEY_ONLY)) {
          it.seekToLast();
          assertArrayEquals(b("b"), it.next().getKey().getArray(), "last key as of the view");
        }
        assertTrue(view.sequenceNumber() > 0);
        // the store itself sees the new state
        assertNull(bytes.get(b("a")));
        assertEquals(List.of("b", "c"), keys(bytes));
      }
    }
  }

  @Test
  void writesThroughAViewAreRefusedAndChangeNothing() {
    try (DBStore store = TestStores.open(dir)) {
      store.getTable("bytes").put(b("k"), b("v"));
      try (ReadView view = store.openReadView()) {
        Table<byte[], byte[]> vb = view.getTable("bytes");
        Table<String, String> vs = view.getTable(TestStores.STRINGS);
        assertThrows(UnsupportedOperationException.class, () -> vb.put(b("k"), b("w")));
        assertThrows(UnsupportedOperationException.class, () -> vb.delete(b("k")));
        assertThrows(UnsupportedOperationException.class, () -> vb.deleteRange(b("a"), b("z")));
        assertThrows(UnsupportedOperationException.class, () -> vb.deletePrefix(b("k")));
        assertThrows(UnsupportedOperationException.class, () -> vs.put("s", "t"));
        try (BatchOperation batch = store.initBatchOperation()) {
          assertThrows(UnsupportedOperationException.class, () -> vb.putWithBatch(batch, b("x"), b("y")));
          assertThrows(UnsupportedOperationException.class, () -> vs.deleteWithBatch(batch, "s"));
          assertEquals(0, batch.size());
        }
        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = vb.iterator()) {
          it.next();
          assertThrows(UnsupportedOperationException.class, it::removeFromDB);
        }
      }
      assertArrayEquals(b("v"), store.getTable("bytes").get(b("k")));
    }
  }

  @Test
  void aTableReadThroughAnotherValueCodecDecodesTheViewsValuesWithItAndWritesNothing() {
    // A projection: each stored string read as its length; like any, it cannot encode.
    Codec<Integer> length = new Codec<>() {
      @Override
      public Class<Integer> getTypeClass() {
        return Integer.class;
      }

      @Override
      public byte[] toPersistedFormat(Integer object) {
        throw new UnsupportedOperationException("a projection is read, never written");
      }

      @Override
      public Integer fromPersistedFormat(byte[] bytes) {
        return bytes.length;
      }
    };
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      strings.put("a", "xyz");
      strings.put("b", "hello");
      try (ReadView view = store.openReadView()) {
        strings.put("a", "changed after the view opened");
        Table<String, Integer> lengths = view.getTable(TestStores.STRINGS, length);
        assertEquals(3, lengths.get("a"));
        assertNull(lengths.get("c"));
        List<String> seen = new ArrayList<>();
        try (TableIterator<String, KeyValue<String, Integer>> it = lengths.iterator()) {
          it.forEachRemaining(kv -> seen.add(kv.getKey() + "=" + kv.getValue()));
        }
        assertEquals(List.of("a=3", "b=5"), seen);
        assertThrows(UnsupportedOperationException.class, () -> lengths.put("a", 1));
        assertThrows(IllegalArgumentException.class, () -> view.getTable(
            TableDefinition.of(TestStores.STRINGS.name(), ByteArrayCodec.get(), length), length));
      }
      assertEquals("changed after the view opened", strings.get("a"));
    }
  }

  @Test
  void aViewHoldsASnapshotOnlyWhileOpenAndTheStoreReleasesForgottenOnes() {
    try (DBStore store = TestStores.open(dir)) {
      RocksDatabase db = ((RDBStore) store).database();
      ReadView view = store.openReadView();
      assertEquals(1, db.introspection().openSnapshots());
      view.close();
      view.close();
      assertEquals(0, db.introspection().openSnapshots());
      assertThrows(IllegalStateException.class, () -> view.getTable("bytes").get(b("a")));
      store.openReadView(); // left open: the store releases it on close
    }
  }

  @Test
  void aViewsWritesAfterTheStoreClosedThrowStoreClosedNotUnsupported() {
    DBStore store = TestStores.open(dir);
    store.getTable("bytes").put(b("k"), b("v"));
    Table<byte[], byte[]> vb;
    Table<String, String> vs;
    try (ReadView view = store.openReadView()) {
      vb = view.getTable("bytes");
      vs = view.getTable(TestStores.STRINGS);
    }
    store.close();
    assertThrows(StoreClosedException.class, () -> vb.put(b("k"), b("w")));
    assertThrows(StoreClosedException.class, () -> vb.delete(b("k")));
    assertThrows(StoreClosedException.class, () -> vs.deleteRange("a", "z"));
    assertThrows(StoreClosedException.class, () -> vb.get(b("k")));
    assertThrows(StoreClosedException.class, () -> vb.getAll(List.of(b("k"))));
  }

  private static List<String> keys(Table<byte[], byte[]> t) {
    List<String> out = new ArrayList<>();
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = t.iterator()) {
      it.forEachRemaining(kv -> out.add(new String(kv.getKey(), StandardCharsets.UTF_8)));
    }
    return out;
  }
}
