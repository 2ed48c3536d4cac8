package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.FileCheck;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.StoreClosedException;
import io.sediment.db.StoreException;
import io.sediment.db.Table;
import io.sediment.db.TableBulkLoad;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.codec.StringCodec;
import io.sediment.db.testing.LeakCheck;
import io.sediment.db.testing.TestStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DBStore#bulkLoad}: rows written to SST files and ingested in one call are read like any
 * others (point reads, full and bounded iterators, seeks, pages, a reopen); keys out of order,
 * repeated, null or too long are refused with a clear error and leave the load usable; a failed
 * ingest of several files leaves the table exactly as it was; ingested rows replace rows and
 * tombstones under the same keys but not what an older view sees; closing without ingesting
 * changes nothing and leaves no file behind; no native handle outlives the load.
 */
class TableBulkLoadTest {

  /** One byte: each file is finished the first time its size is looked at, so rows make files. */
  private static final long SMALL_FILES = 1;

  @TempDir Path dir;

  private static String key(int i) {
    return String.format(Locale.ROOT, "k%06d", i);
  }

  private static TreeMap<String, String> scan(Table<String, String> table) {
    TreeMap<String, String> all = new TreeMap<>();
    try (TableIterator<String, KeyValue<String, String>> it = table.iterator()) {
      it.forEachRemaining(kv -> all.put(kv.getKey(), kv.getValue()));
    }
    return all;
  }

  private List<Path> workDirectories(DBStore store) throws IOException {
    try (Stream<Path> s = Files.list(store.getPath())) {
      return s.filter(p -> p.getFileName().toString().startsWith("bulk-load-")).toList();
    }
  }

  @Test
  void ingestedRowsAreReadByGetsIteratorsBoundsAndPages() throws IOException {
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      Table<String, String> table = store.getTable(TestStores.STRINGS);
      table.put("a-before", "written");
      table.put("z-after", "written");
      TreeMap<String, String> expected = new TreeMap<>(scan(table));
      try (TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS, SMALL_FILES)) {
        for (int i = 0; i < 5_000; i++) {
          load.add(key(i), "value-" + i);
          expected.put(key(i), "value-" + i);
        }
        assertEquals(5_000, load.rowCount());
        load.finish();
        assertTrue(load.files().size() > 1, "several files: " + load.files());
        long sizes = 0;
        for (Path f : load.files()) {
          sizes += Files.size(f);
        }
        assertEquals(sizes, load.fileBytes());
        load.ingest();
        assertFalse(Files.exists(load.files().get(0)), "moved into the store, not copied");
      }
      assertEquals(expected, scan(table));
      assertEquals("value-1234", table.get(key(1234)));
      assertTrue(table.isExist(key(4999)));
      assertNull(table.get("k005000"));
      assertEquals(1_000, table.countRows("k001"), "a prefix iterator sees exactly its rows");
      try (TableIterator<String, KeyValue<String, String>> it =
               table.rangeIterator(key(10), key(13), IteratorType.KEY_AND_VALUE)) {
        List<String> keys = new ArrayList<>();
        it.forEachRemaining(kv -> keys.add(kv.getKey()));
        assertEquals(List.of(key(10), key(11), key(12)), keys, "bounds hold inside the files");
      }
      try (TableIterator<String, KeyValue<String, String>> it = table.iterator("k003")) {
        assertEquals(key(3210), it.seek("k003209x").getKey(), "a seek lands between keys");
        it.seekToLast();
        assertEquals(key(3999), it.next().getKey(), "the upper bound holds");
      }
      List<? extends KeyValue<String, String>> page = table.getRangeKVs(key(4998), 10, "k");
      assertEquals(List.of(key(4998), key(4999)), page.stream().map(KeyValue::getKey).toList());
      for (FileCheck check : store.verifyFiles()) {
        assertTrue(check.ok(), "every file, the ingested ones included, verifies: " + check);
      }
      assertEquals(List.of(), workDirectories(store), "the work directory is gone");
    }
    try (DBStore reopened = TestStores.open(dir.resolve("db"))) {
      assertEquals("value-4321", reopened.getTable(TestStores.STRINGS).get(key(4321)),
          "ingested rows are durable without the write-ahead log");
      assertEquals(5_002, reopened.getTable(TestStores.STRINGS).countRows(null));
    }
  }

  @Test
  void keysOutOfOrderRepeatedNullOrTooLongAreRefusedAndTheLoadGoesOn() {
    DBStore small = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir.resolve("db"))
        .setProfile(TestStores.smallProfile()).setMaxKeyBytes(8)
        .setCloseTimeout(Duration.ofSeconds(5)).setTombstonePolicy(TombstonePolicy.disabled())
        .build();
    try (DBStore store = small;
        TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS)) {
      load.add("b", "1");
      IllegalArgumentException before =
          assertThrows(IllegalArgumentException.class, () -> load.add("a", "2"));
      assertTrue(before.getMessage().contains("strictly increasing")
          && before.getMessage().contains("sorts before the previous key"), before.getMessage());
      assertTrue(before.getMessage().contains("strings"), "names the table: " + before.getMessage());
      IllegalArgumentException repeated =
          assertThrows(IllegalArgumentException.class, () -> load.add("b", "3"));
      assertTrue(repeated.getMessage().contains("repeats the previous key"), repeated.getMessage());
      assertThrows(IllegalArgumentException.class, () -> load.add("c-too-long", "4"));
      assertThrows(NullPointerException.class, () -> load.add(null, "5"));
      assertThrows(NullPointerException.class, () -> load.add("c", null));
      load.add("c", "6");
      assertEquals(2, load.rowCount());
      load.ingest();
      assertEquals(Map.of("b", "1", "c", "6"), scan(store.getTable(TestStores.STRINGS)));
      assertThrows(IllegalStateException.class, () -> load.add("d", "7"));
      assertThrows(IllegalStateException.class, load::ingest);
    }
  }

  @Test
  void aFailedIngestOfSeveralFilesLeavesTheTableAsItWas() throws IOException {
    LeakCheck leaks = LeakCheck.begin();
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      Table<String, String> table = store.getTable(TestStores.STRINGS);
      table.put(key(5), "old");
      table.put("zz", "kept");
      store.flush();
      table.put(key(7), "in the memtable");
      Map<String, String> before = scan(table);
      try (TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS, SMALL_FILES)) {
        for (int i = 0; i < 3_000; i++) {
          load.add(key(i), "new-" + i);
        }
        load.finish();
        List<Path> files = load.files();
        assertTrue(files.size() >= 2, "several files: " + files);
        Files.delete(files.get(files.size() - 1));
        assertThrows(StoreException.class, load::ingest);
        assertEquals(before, scan(table), "not one row of the files that were there went in");
        assertEquals("old", table.get(key(5)));
        assertThrows(IllegalStateException.class, load::ingest, "a failed load stays failed");
        assertThrows(IllegalStateException.class, () -> load.add("zzz", "x"));
      }
      assertEquals(List.of(), workDirectories(store));
      table.put(key(6), "writes go on");
      assertEquals("writes go on", table.get(key(6)));
    }
    assertEquals("", leaks.report());
  }

  @Test
  void ingestedRowsReplaceRowsAndTombstonesButNotWhatAnOlderViewSees() {
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      Table<String, String> table = store.getTable(TestStores.STRINGS);
      for (int i = 0; i < 10; i++) {
        table.put(key(i), "old-" + i);
      }
      store.flush();
      table.delete(key(2));
      table.deleteRange(key(5), key(8));
      try (ReadView older = store.openReadView();
          TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS)) {
        for (int i : new int[] {1, 2, 6}) {
          load.add(key(i), "new-" + i);
        }
        load.ingest();
        assertEquals("new-1", table.get(key(1)), "replaces a row");
        assertEquals("new-2", table.get(key(2)), "comes back over a point tombstone");
        assertEquals("new-6", table.get(key(6)), "comes back over a range tombstone");
        assertNull(table.get(key(5)), "the rest of the range stays deleted");
        Table<String, String> then = older.getTable(TestStores.STRINGS);
        assertEquals("old-1", then.get(key(1)));
        assertNull(then.get(key(2)));
        assertNull(then.get(key(6)));
      }
      assertEquals(8, table.countRows(null));
    }
  }

  @Test
  void closingWithoutIngestingChangesNothingAndLeavesNoFile() throws IOException {
    try (DBStore store = TestStores.open(dir.resolve("db"))) {
      Table<String, String> table = store.getTable(TestStores.STRINGS);
      table.put("x", "y");
      TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS, SMALL_FILES);
      for (int i = 0; i < 2_000; i++) {
        load.add(key(i), "v");
      }
      assertEquals(1, workDirectories(store).size());
      load.close();
      load.close();
      assertEquals(List.of(), workDirectories(store));
      assertEquals(Map.of("x", "y"), scan(table));
      assertThrows(IllegalStateException.class, () -> load.add("z", "v"));
    }
  }

  @Test
  void anEmptyLoadIngestsNothing() {
    try (DBStore store = TestStores.open(dir.resolve("db"));
        TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS)) {
      load.ingest();
      assertEquals(List.of(), load.files());
      assertTrue(store.getTable(TestStores.STRINGS).isEmpty());
    }
  }

  @Test
  void aClosedStoreRefusesTheIngestAndOnlyItsOwnTablesLoad() {
    DBStore store = TestStores.open(dir.resolve("db"));
    TableBulkLoad<String, String> load = store.bulkLoad(TestStores.STRINGS);
    try {
      load.add("a", "b");
      assertThrows(IllegalArgumentException.class, () -> store.bulkLoad(
          TableDefinition.of("strings", StringCodec.get(), StringCodec.get()).asDeleteHeavy()));
      assertThrows(IllegalArgumentException.class,
          () -> store.bulkLoad(TestStores.STRINGS, 0));
      store.close();
      assertThrows(StoreClosedException.class, load::ingest);
    } finally {
      load.close();
      store.close();
    }
    try (DBStore reopened = TestStores.open(dir.resolve("db"))) {
      assertFalse(reopened.getTable(TestStores.STRINGS).isExist("a"));
    }
  }
}
