package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.SstFileProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves on real RocksDB that the default {@link DBProfile} really produces the SST layout it
 * promises (DESIGN §2): a two-level (partitioned) index and a partitioned Bloom filter once a
 * file spans several 4 KiB metadata partitions; that an OPTIONS ini file overriding the table
 * options really turns that off (binary-search index, full filter); and that under both layouts
 * every point read, absent-key read, ceiling seek and floor lookup (bounded iterator plus
 * {@code seekToLast}) agrees with a {@link TreeMap} model.
 */
class SstLayoutTest {

  private static final int KEYS = 200_000;
  private static final int VALUE_BYTES = 100;
  private static final int PROBES = 3_000;
  private static final TableDefinition<byte[], byte[]> LAYOUT =
      TableDefinition.of("layout", ByteArrayCodec.get(), ByteArrayCodec.get());
  private static final DBDefinition DEFINITION = DBDefinition.of("sst-layout", LAYOUT);

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  @TempDir
  Path dir;

  /** Present keys are {@code obj/<even n, 10 digits>/<9 hex>}: 24 bytes. */
  private static byte[] key(long n) {
    byte[] k = new byte[24];
    k[0] = 'o';
    k[1] = 'b';
    k[2] = 'j';
    k[3] = '/';
    long d = n;
    for (int i = 13; i >= 4; i--) {
      k[i] = (byte) ('0' + d % 10);
      d /= 10;
    }
    k[14] = '/';
    long h = (n * 0x9E3779B97F4A7C15L) >>> 28;
    for (int i = 23; i >= 15; i--) {
      k[i] = (byte) HEX[(int) (h & 15)];
      h >>>= 4;
    }
    return k;
  }

  private static byte[] value(long n) {
    byte[] v = new byte[VALUE_BYTES];
    new SplittableRandom(n).nextBytes(v);
    return v;
  }

  private static TreeMap<byte[], Long> load(DBStore store) {
    TreeMap<byte[], Long> model = new TreeMap<>(Arrays::compareUnsigned);
    Table<byte[], byte[]> table = store.getTable(LAYOUT.name());
    int perBatch = 20_000;
    for (int start = 0; start < KEYS; start += perBatch) {
      try (BatchOperation batch = store.initBatchOperation()) {
        for (int i = start; i < Math.min(KEYS, start + perBatch); i++) {
          long n = 2L * i;
          byte[] k = key(n);
          table.putWithBatch(batch, k, value(n));
          model.put(k, n);
        }
        batch.commit();
      }
    }
    store.flush();
    store.compactRange(LAYOUT.name(), null, null);
    return model;
  }

  private static List<SstFileProperties> sstFiles(DBStore store) {
    RDBStore rdb = (RDBStore) store;
    ColumnFamily cf = rdb.database().columnFamily(LAYOUT.name());
    List<SstFileProperties> files = rdb.database().introspection().sstFileProperties(cf);
    assertFalse(files.isEmpty(), "no SST file after flush and compaction");
    long entries = files.stream().mapToLong(SstFileProperties::entries).sum();
    assertEquals(KEYS, entries, "every key must be in the SST files: " + files);
    return files;
  }

  /** Point reads, absent keys, ceiling seeks and floor lookups, all against {@code model}. */
  private static void assertReadsMatch(DBStore store, TreeMap<byte[], Long> model) {
    Table<byte[], byte[]> table = store.getTable(LAYOUT.name());
    for (Map.Entry<byte[], Long> e : model.entrySet()) {
      byte[] got = table.get(e.getKey());
      if (!Arrays.equals(value(e.getValue()), got)) {
        throw new AssertionError("wrong value for " + new String(e.getKey(), StandardCharsets.US_ASCII));
      }
    }
    SplittableRandom rnd = new SplittableRandom(42);
    for (int i = 0; i < PROBES; i++) {
      byte[] absent = key(2L * rnd.nextInt(KEYS + 10) + 1);
      assertNull(table.get(absent), "odd keys were never written");
      assertNull(table.getIfExist(absent));
      assertFalse(table.isExist(absent));
    }

    byte[][] probes = new byte[PROBES + 4][];
    for (int i = 0; i < PROBES; i++) {
      long n = rnd.nextLong(-5, 2L * KEYS + 5);
      probes[i] = switch (rnd.nextInt(4)) {
        case 0 -> key(Math.max(0, n)); // exact key when n is even
        case 1 -> String.format("obj/%010d", Math.max(0, n)).getBytes(StandardCharsets.US_ASCII);
        case 2 -> String.format("obj/%010d/zzz", Math.max(0, n)).getBytes(StandardCharsets.US_ASCII);
        default -> Arrays.copyOf(key(Math.max(0, n)), 10 + rnd.nextInt(14));
      };
    }
    probes[PROBES] = "a".getBytes(StandardCharsets.US_ASCII);
    probes[PROBES + 1] = "obj/".getBytes(StandardCharsets.US_ASCII);
    probes[PROBES + 2] = "zzz".getBytes(StandardCharsets.US_ASCII);
    probes[PROBES + 3] = model.lastKey();

    try (TableIterator<byte[], KeyValue<byte[], byte[]>> all = table.iterator(null, IteratorType.KEY_ONLY)) {
      for (byte[] probe : probes) {
        byte[] expectedCeiling = model.ceilingKey(probe);
        KeyValue<byte[], byte[]> landed = all.seek(probe);
        if (expectedCeiling == null) {
          assertNull(landed, "ceiling of " + show(probe));
        } else {
          assertArrayEquals(expectedCeiling, landed.getKey(), "ceiling of " + show(probe));
        }
      }
    }
    for (byte[] probe : probes) {
      byte[] expectedFloor = model.floorKey(probe);
      assertArrayEquals(expectedFloor, floor(table, probe), "floor of " + show(probe));
    }
  }

  /** The greatest key {@code <= probe}: an iterator bounded above by {@code probe + \0}, at its last entry. */
  private static byte[] floor(Table<byte[], byte[]> table, byte[] probe) {
    byte[] upper = Arrays.copyOf(probe, probe.length + 1);
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
        table.rangeIterator(null, upper, IteratorType.KEY_ONLY)) {
      it.seekToLast();
      return it.hasNext() ? it.next().getKey() : null;
    }
  }

  private static String show(byte[] b) {
    return new String(b, StandardCharsets.US_ASCII);
  }

  @Test
  void defaultProfileWritesTwoLevelIndexAndPartitionedFilterAndReadsStayCorrect() {
    DBProfile profile = DBProfile.defaults().toBuilder().blockCacheBytes(8L << 20).build();
    assertTrue(profile.partitionedIndexAndFilters());
    try (DBStore store = DBStoreBuilder.newBuilder(DEFINITION).setPath(dir.resolve("db"))
        .setProfile(profile).build()) {
      TreeMap<byte[], Long> model = load(store);
      List<SstFileProperties> files = sstFiles(store);
      for (SstFileProperties f : files) {
        assertTrue(f.indexPartitions() > 1, "two-level index with several partitions: " + f);
        assertTrue(f.topLevelIndexSize() > 0, "two-level index has a top level: " + f);
        assertEquals(2, f.indexType(), "kTwoLevelIndexSearch recorded in the file: " + f);
        assertTrue(f.partitionedFilter(), "partitioned filter: " + f);
        assertFalse(f.filterPolicy().isEmpty(), "a filter policy: " + f);
        assertTrue(f.filterSize() > 0, "filter bytes written: " + f);
      }
      assertReadsMatch(store, model);
    }
  }

  @Test
  void optionsFileTurnsPartitioningOffAndReadsStayCorrect() throws Exception {
    Path ini = dir.resolve("OPTIONS-flat.ini");
    Files.writeString(ini, flatLayoutIni(DEFINITION));
    DBProfile profile = DBProfile.defaults().toBuilder().blockCacheBytes(8L << 20)
        .optionsFile(ini).build();
    try (DBStore store = DBStoreBuilder.newBuilder(DEFINITION).setPath(dir.resolve("db"))
        .setProfile(profile).build()) {
      TreeMap<byte[], Long> model = load(store);
      List<SstFileProperties> files = sstFiles(store);
      for (SstFileProperties f : files) {
        assertTrue(f.indexPartitions() <= 1, "binary-search index is not partitioned: " + f);
        assertEquals(0, f.topLevelIndexSize(), "no top-level index: " + f);
        assertFalse(f.partitionedFilter(), "full (unpartitioned) filter: " + f);
        assertFalse(f.filterPolicy().isEmpty(), "the Bloom filter from the ini file: " + f);
        assertTrue(f.filterSize() > 0, "filter bytes written: " + f);
      }
      assertReadsMatch(store, model);
      // Checked last so that the layout and the reads above are proven even while this fails:
      // SstFileProperties documents indexType as the type RocksDB recorded, and kBinarySearch is 0.
      for (SstFileProperties f : files) {
        assertEquals(0, f.indexType(), "kBinarySearch (0) recorded in the file: " + f);
      }
    }
  }

  /**
   * A RocksDB OPTIONS file: {@code [Version]}, {@code [DBOptions]}, then for {@code default} and
   * every table a {@code [CFOptions]} and {@code [TableOptions/BlockBasedTable]} section with a
   * binary-search index and an unpartitioned Bloom filter.
   */
  private static String flatLayoutIni(DBDefinition definition) {
    StringBuilder sb = new StringBuilder();
    sb.append("[Version]\n")
        .append("  rocksdb_version=10.10.1\n")
        .append("  options_file_version=1.1\n\n")
        .append("[DBOptions]\n")
        .append("  create_if_missing=true\n")
        .append("  create_missing_column_families=true\n")
        .append("  max_background_jobs=2\n\n");
    List<String> families = new java.util.ArrayList<>();
    families.add("default");
    for (TableDefinition<?, ?> t : definition.tables()) {
      families.add(t.name());
    }
    for (String f : families) {
      sb.append("[CFOptions \"").append(f).append("\"]\n")
          .append("  write_buffer_size=67108864\n")
          .append("  compression=kLZ4Compression\n")
          .append("  level_compaction_dynamic_level_bytes=true\n\n")
          .append("[TableOptions/BlockBasedTable \"").append(f).append("\"]\n")
          .append("  block_size=16384\n")
          .append("  format_version=6\n")
          .append("  index_type=kBinarySearch\n")
          .append("  partition_filters=false\n")
          .append("  filter_policy=bloomfilter:10:false\n\n");
    }
    return sb.toString();
  }
}
