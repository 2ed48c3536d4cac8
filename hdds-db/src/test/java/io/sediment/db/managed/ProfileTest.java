package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.testing.TestStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default profile reaches RocksDB: the OPTIONS file RocksDB writes holds the DESIGN §2 table
 * options for every table, and all tables share one block cache of the profile's capacity.
 */
class ProfileTest {

  @TempDir Path dir;

  private static String optionsFile(Path db) throws IOException {
    try (Stream<Path> files = Files.list(db)) {
      Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
          .max(Path::compareTo).orElseThrow();
      return Files.readString(latest);
    }
  }

  @Test
  void everyTableGetsTheDesignProfile() throws IOException {
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir).build()) {
      String options = optionsFile(dir);
      for (String table : List.of("default", "bytes", "strings")) {
        String section = options.substring(options.indexOf("[TableOptions/BlockBasedTable \"" + table + "\"]"));
        section = section.substring(0, section.indexOf("\n[", 1) < 0 ? section.length() : section.indexOf("\n[", 1));
        for (String line : List.of("index_type=kTwoLevelIndexSearch", "partition_filters=true",
            "metadata_block_size=4096", "pin_top_level_index_and_filter=true",
            "cache_index_and_filter_blocks=true", "cache_index_and_filter_blocks_with_high_priority=true",
            "filter_policy=bloomfilter:10", "format_version=6", "block_size=16384",
            "partition_pinning=kFallback")) {
          assertTrue(section.contains(line), table + " lacks " + line);
        }
      }
      assertTrue(options.contains("compression=kLZ4Compression"));
      assertTrue(options.contains("bottommost_compression=kZSTD"));
      assertTrue(options.contains("level_compaction_dynamic_level_bytes=true"));
      assertTrue(options.contains("compaction_style=kCompactionStyleLevel"));
      assertTrue(options.contains("memtable_max_range_deletions=1000"));
      for (String table : List.of("default", "bytes", "strings")) {
        String section = options.substring(options.indexOf("[CFOptions \"" + table + "\"]"));
        assertTrue(section.substring(0, section.indexOf("[TableOptions"))
            .contains("memtable_op_scan_flush_trigger=10000"), table);
      }
    }
  }

  /** 40,000 keys flushed and compacted, then the store reopened: its pinned cache usage. */
  private long pinnedUsageAfterReopen(Path db, boolean pinPartitions) {
    DBProfile profile = DBProfile.builder().blockCacheBytes(64L << 20)
        .pinIndexAndFilterPartitions(pinPartitions).build();
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db)
        .setProfile(profile).build()) {
      for (int i = 0; i < 40_000; i++) {
        store.getTable("bytes").put(String.format("key-%08d", i).getBytes(), new byte[100]);
      }
      store.flush();
      store.compactRange("bytes", null, null);
    }
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db)
        .setProfile(profile).build()) {
      RocksDatabase rocks = ((RDBStore) store).database();
      String options;
      try {
        options = optionsFile(db);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      assertTrue(options.contains("partition_pinning=" + (pinPartitions ? "kAll" : "kFallback")));
      return rocks.getLongProperty(rocks.columnFamily("bytes"), "rocksdb.block-cache-pinned-usage");
    }
  }

  @Test
  void pinnedPartitionsStayInTheSharedCacheFromTheMomentAFileIsOpened() {
    long unpinned = pinnedUsageAfterReopen(dir.resolve("unpinned"), false);
    long pinned = pinnedUsageAfterReopen(dir.resolve("pinned"), true);
    // 40,000 keys at 10 bits per key: about 50 KB of filter partitions, all pinned at open.
    assertTrue(pinned >= unpinned + 40_000, "pinned " + pinned + ", unpinned " + unpinned);
  }

  @Test
  void allTablesShareOneBlockCacheOfTheProfilesCapacity() {
    DBProfile profile = DBProfile.builder().blockCacheBytes(48L << 20).build();
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(profile).build()) {
      RocksDatabase db = ((RDBStore) store).database();
      long bytesCapacity = db.getLongProperty(db.columnFamily("bytes"), "rocksdb.block-cache-capacity");
      long stringsCapacity = db.getLongProperty(db.columnFamily("strings"), "rocksdb.block-cache-capacity");
      assertEquals(48L << 20, bytesCapacity);
      assertEquals(bytesCapacity, stringsCapacity);
      store.getTable("bytes").put(new byte[] {1}, new byte[4000]);
      store.flush();
      store.getTable("bytes").get(new byte[] {1});
      long usageSeenFromBytes = db.getLongProperty(db.columnFamily("bytes"), "rocksdb.block-cache-usage");
      long usageSeenFromStrings = db.getLongProperty(db.columnFamily("strings"), "rocksdb.block-cache-usage");
      assertTrue(usageSeenFromBytes > 4000);
      assertEquals(usageSeenFromBytes, usageSeenFromStrings, "one cache, seen from either table");
    }
  }

  @Test
  void profileSettersRejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().blockCacheBytes(0));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().formatVersion(4));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().highPriPoolRatio(1.5));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().deletionCompaction(10, 20, 0.5));
  }

  @Test
  void aMissingOptionsFileFailsTheOpenWithItsPath() {
    Path missing = dir.resolve("nope.ini");
    DBProfile profile = DBProfile.builder().optionsFile(missing).build();
    RocksDatabaseException e = assertThrows(RocksDatabaseException.class,
        () -> DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir.resolve("db"))
            .setProfile(profile).build());
    assertTrue(e.getMessage().contains("nope.ini"), e.getMessage());
  }
}
