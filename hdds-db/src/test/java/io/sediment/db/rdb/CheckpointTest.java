package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.StoreException;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.TestStores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DBStore#createCheckpoint}: the checkpoint opens as a store of the same definition with
 * exactly the contents at checkpoint time (point and range deletes included, memtable data
 * included) and is independent of later writes to the original; an existing target is an
 * {@link IllegalArgumentException}; a RocksDB failure is a {@link StoreException}, never
 * a silent return. Also: a second store on a directory in use fails fast with a
 * {@link StoreException} that mentions the lock.
 */
class CheckpointTest {

  @TempDir Path dir;

  /** Every entry of every table, as text. */
  private static Map<String, String> scanAll(DBStore store) {
    Map<String, String> all = new LinkedHashMap<>();
    for (String name : store.listTables()) {
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = store.getTable(name).iterator()) {
        it.forEachRemaining(kv -> all.put(name + ":" + new String(kv.getKey(), StandardCharsets.UTF_8),
            new String(kv.getValue(), StandardCharsets.UTF_8)));
      }
    }
    return all;
  }

  /** Writes to both tables, some flushed and some only in the memtable, with deletes of each kind. */
  private static void populate(DBStore store) {
    Table<byte[], byte[]> raw = store.getTable("bytes");
    Table<String, String> strings = store.getTable(TestStores.STRINGS);
    for (int i = 0; i < 20; i++) {
      raw.put(b(String.format("r%02d", i)), b("v" + i));
      strings.put(String.format("s%02d", i), "w" + i);
    }
    store.flush();
    raw.delete(b("r03"));
    raw.deleteRange(b("r10"), b("r15"));
    strings.delete("s00");
    strings.deleteRange("s05", "s08");
    strings.put("s99", "memtable only");
    raw.put(b("r01"), b("overwritten"));
  }

  @Test
  void checkpointOpensWithTheSameContentsIncludingDeletes() {
    Path cp = dir.resolve("checkpoint");
    Map<String, String> atCheckpoint;
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      populate(store);
      atCheckpoint = scanAll(store);
      store.createCheckpoint(cp);
      assertTrue(Files.isDirectory(cp));
    }
    assertFalse(atCheckpoint.containsKey("bytes:r03"), "precondition");
    assertFalse(atCheckpoint.containsKey("bytes:r12"), "precondition");
    assertEquals("memtable only", atCheckpoint.get("strings:s99"), "precondition");
    try (DBStore copy = TestStores.open(cp)) {
      assertEquals(atCheckpoint, scanAll(copy));
      assertNull(copy.getTable("bytes").get(b("r12")), "range-deleted key stays deleted");
      assertNull(copy.getTable(TestStores.STRINGS).get("s00"), "point-deleted key stays deleted");
      assertEquals("overwritten",
          new String(copy.getTable("bytes").get(b("r01")), StandardCharsets.UTF_8));
      assertEquals("memtable only", copy.getTable(TestStores.STRINGS).get("s99"));
    }
  }

  @Test
  void laterWritesToTheOriginalAreNotInTheCheckpoint() {
    Path cp = dir.resolve("checkpoint");
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      populate(store);
      Map<String, String> atCheckpoint = scanAll(store);
      store.createCheckpoint(cp);

      Table<String, String> strings = store.getTable(TestStores.STRINGS);
      strings.put("s50", "after");
      strings.delete("s01");
      store.getTable("bytes").deleteRange(b("r"), b("s"));
      store.flush();
      store.compactRange("bytes", null, null);

      try (DBStore copy = TestStores.open(cp)) {
        assertEquals(atCheckpoint, scanAll(copy));
        copy.getTable(TestStores.STRINGS).put("s60", "only in the copy");
        assertNull(strings.get("s60"), "and the copy's writes are not in the original");
      }
      assertEquals("after", strings.get("s50"));
      assertTrue(store.getTable("bytes").isEmpty());
    }
  }

  @Test
  void checkpointIntoAnExistingDirectoryIsRejected() throws IOException {
    Path existing = Files.createDirectory(dir.resolve("existing"));
    Path file = Files.writeString(dir.resolve("file"), "x");
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      store.getTable(TestStores.STRINGS).put("k", "v");
      assertThrows(IllegalArgumentException.class, () -> store.createCheckpoint(existing));
      assertThrows(IllegalArgumentException.class, () -> store.createCheckpoint(file));
      assertEquals(List.of(), listing(existing), "the existing directory is left alone");
      assertEquals("x", Files.readString(file));
      assertThrows(IllegalArgumentException.class, () -> store.createCheckpoint(dir.resolve("db")),
          "not into the store's own directory either");
      assertEquals("v", store.getTable(TestStores.STRINGS).get("k"));
    }
  }

  private static List<Path> listing(Path d) throws IOException {
    try (var s = Files.list(d)) {
      return s.toList();
    }
  }

  @Test
  void aFailedCheckpointThrowsRocksDatabaseExceptionAndTheStoreStaysUsable() throws IOException {
    Path regularFile = Files.writeString(dir.resolve("plain-file"), "not a directory");
    Path underAFile = regularFile.resolve("checkpoint");
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      store.getTable(TestStores.STRINGS).put("k", "v");
      StoreException e =
          assertThrows(StoreException.class, () -> store.createCheckpoint(underAFile));
      assertTrue(e.getMessage().contains(underAFile.toString()), e.getMessage());
      assertEquals("not a directory", Files.readString(regularFile));

      store.getTable(TestStores.STRINGS).put("k2", "v2");
      Path good = dir.resolve("good");
      store.createCheckpoint(good);
      try (DBStore copy = TestStores.open(good)) {
        assertEquals("v2", copy.getTable(TestStores.STRINGS).get("k2"));
      }
    }
  }

  @Test
  void aSecondStoreOnADirectoryInUseFailsFastMentioningTheLock() {
    Path db = dir.resolve("db");
    try (DBStore store = TestStores.open(db)) {
      store.getTable(TestStores.STRINGS).put("k", "v");
      long start = System.nanoTime();
      StoreException e = assertThrows(StoreException.class,
          () -> TestStores.open(db).close());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis < 5_000, "took " + millis + " ms");
      assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("lock"), e.getMessage());
      assertEquals("v", store.getTable(TestStores.STRINGS).get("k"), "the first store is intact");
    }
    try (DBStore reopened = TestStores.open(db)) {
      assertEquals("v", reopened.getTable(TestStores.STRINGS).get("k"), "and reopens after close");
    }
  }
}
