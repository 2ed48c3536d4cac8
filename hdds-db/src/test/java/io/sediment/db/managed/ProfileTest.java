package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBProfile.PartitionPinning;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.PinningDecision;
import io.sediment.db.StoreException;
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
            // A new store has no files to judge by: AUTO does not pin.
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

  /** Writes 40,000 keys of 100 bytes into table "bytes" of a new store at {@code db}, flushed and compacted. */
  private static void write40kKeys(Path db) {
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db)
        .setProfile(DBProfile.builder().partitionPinning(PartitionPinning.NONE).build()).build()) {
      for (int i = 0; i < 40_000; i++) {
        store.getTable("bytes").put(String.format("key-%08d", i).getBytes(), new byte[100]);
      }
      store.flush();
      store.compactRange("bytes", null, null);
    }
  }

  /** What reopening {@code db} with {@code profile} decided, and the pinned usage of its cache. */
  private record Reopened(PinningDecision decision, long pinnedUsage, String options) {
  }

  private static Reopened reopen(Path db, DBProfile profile) {
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db)
        .setProfile(profile).build()) {
      RocksDatabase rocks = ((RDBStore) store).database();
      return new Reopened(rocks.pinning(),
          rocks.introspection().getLongProperty(rocks.columnFamily("bytes"), "rocksdb.block-cache-pinned-usage"),
          optionsFile(db));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static DBProfile pinning(PartitionPinning pinning) {
    return DBProfile.builder().blockCacheBytes(64L << 20).partitionPinning(pinning).build();
  }

  @Test
  void pinnedPartitionsStayInTheSharedCacheFromTheMomentAFileIsOpened() {
    write40kKeys(dir);
    Reopened unpinned = reopen(dir, pinning(PartitionPinning.NONE));
    Reopened pinned = reopen(dir, pinning(PartitionPinning.ALL));
    assertTrue(unpinned.options().contains("partition_pinning=kFallback"));
    assertTrue(pinned.options().contains("partition_pinning=kAll"));
    assertEquals(new PinningDecision(PartitionPinning.ALL, true, -1, -1), pinned.decision());
    // 40,000 keys at 10 bits per key: about 50 KB of filter partitions, all pinned at open.
    assertTrue(pinned.pinnedUsage() >= unpinned.pinnedUsage() + 40_000,
        "pinned " + pinned.pinnedUsage() + ", unpinned " + unpinned.pinnedUsage());
  }

  @Test
  void autoPinsWhenTheIndexAndFiltersOnDiskFitItsShareOfTheCache() {
    write40kKeys(dir);
    Reopened unpinned = reopen(dir, pinning(PartitionPinning.NONE));
    Reopened auto = reopen(dir, pinning(PartitionPinning.AUTO));
    assertTrue(auto.decision().pinned(), auto.decision().toString());
    assertEquals((64L << 20) / 8, auto.decision().budgetBytes());
    assertTrue(auto.options().contains("partition_pinning=kAll"));
    assertTrue(auto.pinnedUsage() >= unpinned.pinnedUsage() + 40_000,
        "auto " + auto.pinnedUsage() + ", unpinned " + unpinned.pinnedUsage());
  }

  @Test
  void autoLeavesPartitionsUnpinnedWhenTheyExceedItsShareOfTheCache() {
    write40kKeys(dir);
    Reopened unpinned = reopen(dir, pinning(PartitionPinning.NONE));
    // About 55 KB of index and filters against a budget of 64 MiB / 10,000 = 6.7 KB.
    Reopened auto = reopen(dir, pinning(PartitionPinning.AUTO).toBuilder()
        .autoPinCacheFraction(1e-4).build());
    assertEquals(false, auto.decision().pinned(), auto.decision().toString());
    assertTrue(auto.decision().estimatedMetadataBytes() > auto.decision().budgetBytes());
    assertTrue(auto.options().contains("partition_pinning=kFallback"));
    assertTrue(auto.pinnedUsage() < unpinned.pinnedUsage() + 10_000,
        "auto " + auto.pinnedUsage() + ", unpinned " + unpinned.pinnedUsage());
  }

  @Test
  void autoEstimatesExactlyTheIndexAndFilterBytesOfFewFiles() {
    write40kKeys(dir);
    long exact;
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir).build()) {
      RocksDatabase rocks = ((RDBStore) store).database();
      exact = 0;
      for (String table : List.of("default", "bytes", "strings")) {
        for (SstFileProperties f : rocks.introspection().sstFileProperties(rocks.columnFamily(table))) {
          exact += f.indexSize() + f.filterSize();
        }
      }
      assertEquals(exact, rocks.pinning().estimatedMetadataBytes());
    }
    assertTrue(exact > 50_000, "40,000 keys at 10 bits per key: " + exact);
  }

  @Test
  void autoDoesNotPinANewStoreSinceNothingTellsHowLargeItWillGrow() {
    Reopened fresh = reopen(dir, pinning(PartitionPinning.AUTO));
    assertEquals(new PinningDecision(PartitionPinning.AUTO, false, 0, (64L << 20) / 8), fresh.decision());
    assertTrue(fresh.options().contains("partition_pinning=kFallback"));
  }

  @Test
  void aSecondaryDecidesFromThePrimarysFiles() {
    write40kKeys(dir.resolve("primary"));
    try (DBStore secondary = DBStoreBuilder.newBuilder(TestStores.DEFINITION)
        .setPath(dir.resolve("primary")).setSecondary(dir.resolve("secondary"))
        .setProfile(pinning(PartitionPinning.AUTO)).build()) {
      PinningDecision decision = secondary.partitionPinning();
      assertTrue(decision.pinned() && decision.estimatedMetadataBytes() > 40_000, decision.toString());
    }
  }

  @Test
  void autoWithAnOptionsFileEstimatesNothingAndDoesNotPin() throws IOException {
    write40kKeys(dir);
    Path ini = dir.resolveSibling(dir.getFileName() + ".ini");
    Files.writeString(ini, optionsFile(dir));
    Reopened withIni = reopen(dir, pinning(PartitionPinning.AUTO).toBuilder().optionsFile(ini).build());
    assertEquals(new PinningDecision(PartitionPinning.AUTO, false, -1, -1), withIni.decision());
  }

  @Test
  void aStoreWhosePinnedPartitionsOutgrowHalfTheCacheIsFlaggedAfterItsNextFlush() {
    write40kKeys(dir);
    // About 55 KB of index and filters, within a 64 KiB cache's whole budget, pinned at open.
    DBProfile small = DBProfile.builder().blockCacheBytes(64 << 10).autoPinCacheFraction(1).build();
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(small).build()) {
      RocksDatabase rocks = ((RDBStore) store).database();
      assertTrue(rocks.pinning().pinned(), rocks.pinning().toString());
      assertEquals(false, rocks.introspection().pinnedUsageWarned(), "checked only after a flush or compaction");
      store.getTable("bytes").put("more".getBytes(), new byte[10]);
      store.flush();
      assertTrue(rocks.introspection().pinnedUsageWarned());
    }
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(pinning(PartitionPinning.AUTO)).build()) {
      RocksDatabase rocks = ((RDBStore) store).database();
      assertTrue(rocks.pinning().pinned());
      store.getTable("bytes").put("more".getBytes(), new byte[10]);
      store.flush();
      assertEquals(false, rocks.introspection().pinnedUsageWarned(), "55 KB pinned in a 64 MiB cache");
    }
  }

  @Test
  void autoOnAFullFilterLayoutDecidesNothing() {
    DBProfile profile = pinning(PartitionPinning.AUTO).toBuilder()
        .partitionedIndexAndFilters(false).build();
    assertEquals(new PinningDecision(PartitionPinning.AUTO, false, -1, -1), reopen(dir, profile).decision());
  }

  @Test
  void allTablesShareOneBlockCacheOfTheProfilesCapacity() {
    DBProfile profile = DBProfile.builder().blockCacheBytes(48L << 20).build();
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(profile).build()) {
      RocksDatabase db = ((RDBStore) store).database();
      long bytesCapacity = db.introspection().getLongProperty(db.columnFamily("bytes"), "rocksdb.block-cache-capacity");
      long stringsCapacity = db.introspection().getLongProperty(db.columnFamily("strings"), "rocksdb.block-cache-capacity");
      assertEquals(48L << 20, bytesCapacity);
      assertEquals(bytesCapacity, stringsCapacity);
      store.getTable("bytes").put(new byte[] {1}, new byte[4000]);
      store.flush();
      store.getTable("bytes").get(new byte[] {1});
      long usageSeenFromBytes = db.introspection().getLongProperty(db.columnFamily("bytes"), "rocksdb.block-cache-usage");
      long usageSeenFromStrings = db.introspection().getLongProperty(db.columnFamily("strings"), "rocksdb.block-cache-usage");
      assertTrue(usageSeenFromBytes > 4000);
      assertEquals(usageSeenFromBytes, usageSeenFromStrings, "one cache, seen from either table");
    }
  }

  @Test
  void profileSettersRejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().blockCacheBytes(0));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().formatVersion(4));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().autoPinCacheFraction(0));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().autoPinCacheFraction(1.5));
    assertThrows(NullPointerException.class, () -> DBProfile.builder().partitionPinning(null));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().highPriPoolRatio(1.5));
    assertThrows(IllegalArgumentException.class, () -> DBProfile.builder().deletionCompaction(10, 20, 0.5));
  }

  @Test
  void aMissingOptionsFileFailsTheOpenWithItsPath() {
    Path missing = dir.resolve("nope.ini");
    DBProfile profile = DBProfile.builder().optionsFile(missing).build();
    StoreException e = assertThrows(StoreException.class,
        () -> DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir.resolve("db"))
            .setProfile(profile).build());
    assertTrue(e.getMessage().contains("nope.ini"), e.getMessage());
  }
}
