package io.sediment.db.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.LongCodec;
import io.sediment.db.codec.StringCodec;
import io.sediment.db.stats.TableTombstoneStats;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** hdds-db embedded alone: the README's "Use Sediment as a library" example, run as a test. */
class EmbeddedHddsDbExample {

  // The schema: each table is a RocksDB column family with a key codec and a value codec.
  static final TableDefinition<String, Long> SIZES =
      TableDefinition.of("sizes", StringCodec.get(), LongCodec.get());
  static final TableDefinition<String, String> OWNERS =
      TableDefinition.of("owners", StringCodec.get(), StringCodec.get());
  static final DBDefinition SCHEMA = DBDefinition.of("example", SIZES, OWNERS);

  @Test
  void embedHddsDb(@TempDir Path dir) {
    try (DBStore store = DBStoreBuilder.newBuilder(SCHEMA).setPath(dir).build()) {
      Table<String, Long> sizes = store.getTable(SIZES);
      Table<String, String> owners = store.getTable(OWNERS);
      for (int i = 0; i < 10; i++) {
        sizes.put("/photos/" + i, 100L * i);
      }
      sizes.put("/videos/0", 5000L);
      owners.put("/photos", "alice");
      assertEquals("alice", owners.get("/photos"));

      // A prefix iterator is natively bounded to its prefix; close it (try-with-resources).
      long photoBytes = 0;
      try (TableIterator<String, KeyValue<String, Long>> it = sizes.iterator("/photos/")) {
        while (it.hasNext()) {
          photoBytes += it.next().getValue();
        }
      }
      assertEquals(4500L, photoBytes);

      // A page: up to 3 entries of the prefix, from a start key (inclusive).
      List<KeyValue<String, Long>> page = sizes.getRangeKVs("/photos/5", 3, "/photos/");
      assertEquals(List.of("/photos/5", "/photos/6", "/photos/7"),
          page.stream().map(KeyValue::getKey).toList());

      // One range tombstone deletes every key in [from, to).
      sizes.deleteRange("/photos/0", "/photos/5");
      assertNull(sizes.get("/photos/4"));
      assertEquals(5, sizes.countRows("/photos/"));

      // The store's tombstone figures, per table: in the memtable, then in SST files.
      assertEquals(1, tombstones(store, "sizes").memtableRangeDeletes());
      store.flush("sizes");
      TableTombstoneStats flushed = tombstones(store, "sizes");
      assertEquals(0, flushed.memtableRangeDeletes());
      assertEquals(1, flushed.sstRangeDeletions());
      assertEquals(0, tombstones(store, "owners").sstDeletions());
    }
  }

  static TableTombstoneStats tombstones(DBStore store, String table) {
    return store.tombstoneStats().tables().stream()
        .filter(t -> t.table().equals(table)).findFirst().orElseThrow();
  }
}
