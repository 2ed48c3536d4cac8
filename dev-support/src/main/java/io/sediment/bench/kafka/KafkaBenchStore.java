package io.sediment.bench.kafka;

import io.sediment.db.DBProfile;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.apache.kafka.streams.state.Stores;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.IndexType;
import org.rocksdb.LRUCache;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;

/**
 * The benchmark peer: Kafka Streams' own persistent key-value store (the {@code RocksDBStore} that
 * {@code Stores.persistentKeyValueStore(name).get()} returns, no metering, caching or changelog
 * layers) run standalone, initialised with the state store context of the test-utils'
 * {@code MockProcessorContext} in a fresh state directory under {@code java.io.tmpdir}.
 *
 * <p>Its RocksDB options are brought to Sediment's through the public
 * {@code rocksdb.config.setter} hook ({@link ProfileSetter}), so that both sides of a comparison
 * store the same bytes in the same kind of SST files: the table options of the given
 * {@link DBProfile} (block and metadata block size, format version, partitioned index and
 * filters, Bloom 10 bits per key, index and filter blocks cached with high priority and the top
 * level pinned, one LRU cache of the profile's capacity and shard bits), its compression (LZ4,
 * ZSTD at the bottom), write buffer, target file size, level compaction and automatic
 * compactions off; and {@code optimize_filters_for_hits} off (Kafka turns it on, Sediment does
 * not). Kafka's own DB options stay (WAL off, atomic flush, its background threads). The setter
 * also installs a RocksDB {@code Statistics} object (Kafka creates none at the default metrics
 * recording level) so the peer's tickers, for instance {@code NUMBER_ITER_SKIP}, can be read like
 * Sediment's.
 */
public final class KafkaBenchStore implements AutoCloseable {

  /** What the setter installed for one store, by store name. */
  private static final Map<String, Installed> INSTALLED = new ConcurrentHashMap<>();

  private final String name;
  private final Path stateDir;
  private final DBProfile profile;
  private KeyValueStore<Bytes, byte[]> store;
  private Installed installed;

  private KafkaBenchStore(String name, Path stateDir, DBProfile profile) {
    this.name = name;
    this.stateDir = stateDir;
    this.profile = profile;
  }

  /**
   * Opens an empty store called {@code name} (unique among the open ones) with {@code profile}'s
   * options.
   */
  public static KafkaBenchStore open(String name, DBProfile profile) {
    Path dir;
    try {
      dir = Files.createTempDirectory("kafka-bench-" + name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    KafkaBenchStore kafka = new KafkaBenchStore(name, dir, profile);
    try {
      kafka.init();
      return kafka;
    } catch (RuntimeException e) {
      deleteTree(dir);
      throw e;
    }
  }

  /** Opens Kafka's store on the state directory: a new store object, context and setter run. */
  private void init() {
    installed = new Installed(profile);
    if (INSTALLED.putIfAbsent(name, installed) != null) {
      throw new IllegalStateException("A Kafka benchmark store called " + name + " is open");
    }
    KeyValueStore<Bytes, byte[]> opened = null;
    try {
      Properties config = new Properties();
      config.put(StreamsConfig.APPLICATION_ID_CONFIG, "sediment-bench");
      config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1"); // never contacted
      config.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, ProfileSetter.class);
      MockProcessorContext<Object, Object> context =
          new MockProcessorContext<>(config, new TaskId(0, 0), stateDir.toFile());
      opened = Stores.persistentKeyValueStore(name).get();
      opened.init(context.getStateStoreContext(), opened);
      if (installed.statistics == null) {
        throw new IllegalStateException("Kafka did not call the config setter for " + name);
      }
      store = opened;
    } catch (RuntimeException e) {
      if (opened != null) {
        opened.close();
      }
      INSTALLED.remove(name);
      throw e;
    }
  }

  /**
   * Gets the memtable into an SST file. Kafka Streams 4.4.0's {@code RocksDBStore} has no public
   * operation that does: {@code StateStore.flush()} is an empty default method it no longer
   * overrides, and {@code commit(offsets)} writes offsets and the position but does not flush.
   * RocksDB flushes the memtables when the database closes (its WAL is off), so this closes the
   * store and opens it again on the same state directory, as a restarted Streams task would.
   * Tickers restart from zero.
   */
  public void flushByReopening() {
    store.close();
    INSTALLED.remove(name);
    init();
  }

  /**
   * Number of SST files of the store's data column family ({@code default}; Kafka 4.4.0 keeps
   * its offsets and position in a second one, which gets a one-entry file at every close), read
   * through a read-only handle on the open database.
   */
  public long dataSstFiles() {
    Path db = stateDir.resolve("rocksdb").resolve(name);
    List<ColumnFamilyDescriptor> families = new ArrayList<>();
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (Options listing = new Options(); ColumnFamilyOptions familyOptions = new ColumnFamilyOptions()) {
      for (byte[] family : RocksDB.listColumnFamilies(listing, db.toString())) {
        families.add(new ColumnFamilyDescriptor(family, familyOptions));
      }
      try (DBOptions options = new DBOptions();
           RocksDB readOnly = RocksDB.openReadOnly(options, db.toString(), families, handles)) {
        long n = 0;
        for (LiveFileMetaData f : readOnly.getLiveFilesMetaData()) {
          if (Arrays.equals(f.columnFamilyName(), RocksDB.DEFAULT_COLUMN_FAMILY)) {
            n++;
          }
        }
        return n;
      } finally {
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException("Cannot list the SST files of " + db, e);
    }
  }

  /** The store: Kafka's {@code RocksDBStore} (a new object after {@link #flushByReopening}). */
  public KeyValueStore<Bytes, byte[]> store() {
    return store;
  }

  /** Kafka's store class, for the record. */
  public String storeClass() {
    return store.getClass().getName();
  }

  /** A RocksDB statistics ticker of this store by {@code TickerType} name. */
  public long getTickerCount(String ticker) {
    return installed.statistics.getTickerCount(TickerType.valueOf(ticker));
  }

  /** Closes the store (Kafka then calls the setter's close) and deletes its state directory. */
  @Override
  public void close() {
    try {
      store.close();
    } finally {
      INSTALLED.remove(name);
      deleteTree(stateDir);
    }
  }

  private static void deleteTree(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The profile a store is to get, and the native objects the setter created for it. */
  private static final class Installed {
    final DBProfile profile;
    Statistics statistics;
    LRUCache cache;

    Installed(DBProfile profile) {
      this.profile = profile;
    }
  }

  /**
   * Kafka's {@code RocksDBConfigSetter}: applies the profile registered for the store. Kafka
   * instantiates it by class with its no-argument constructor and calls {@link #close} when the
   * store closes, before it frees its own options; the statistics and cache created here are
   * freed there.
   */
  public static final class ProfileSetter implements RocksDBConfigSetter {

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
      Installed installed = INSTALLED.get(storeName);
      if (installed == null) {
        throw new IllegalStateException("No profile registered for Kafka store " + storeName);
      }
      DBProfile p = installed.profile;
      // Kafka's table config, changed in place: Kafka keeps a reference to it for its metrics.
      BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
      installed.cache = new LRUCache(p.blockCacheBytes(), p.blockCacheShardBits(), false,
          p.highPriPoolRatio());
      table.setBlockCache(installed.cache)
          .setBlockSize(p.blockSize())
          .setFormatVersion(p.formatVersion())
          .setCacheIndexAndFilterBlocks(p.cacheIndexAndFilterBlocks())
          .setCacheIndexAndFilterBlocksWithHighPriority(true)
          .setPinTopLevelIndexAndFilter(p.pinTopLevelIndexAndFilter())
          .setMetadataBlockSize(p.metadataBlockSize());
      if (p.partitionedIndexAndFilters()) {
        table.setIndexType(IndexType.kTwoLevelIndexSearch).setPartitionFilters(true);
      } else {
        table.setIndexType(IndexType.kBinarySearch).setPartitionFilters(false);
      }
      // Kafka's filter policy is RocksJava's BloomFilter(), 10 bits per key: Sediment's too.
      if (p.bloomBitsPerKey() != 10) {
        throw new IllegalArgumentException("Kafka's Bloom filter has 10 bits per key, the profile "
            + p.bloomBitsPerKey());
      }
      options.setTableFormatConfig(table);
      options.setOptimizeFiltersForHits(false);
      options.setCompactionStyle(CompactionStyle.LEVEL);
      options.setLevelCompactionDynamicLevelBytes(true);
      options.setCompressionType(compression(p.compression()));
      options.setBottommostCompressionType(compression(p.bottommostCompression()));
      options.setWriteBufferSize(p.writeBufferBytes());
      options.setTargetFileSizeBase(p.targetFileSizeBase());
      options.setDisableAutoCompactions(p.disableAutoCompactions());
      installed.statistics = new Statistics();
      installed.statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
      options.setStatistics(installed.statistics);
    }

    @Override
    public void close(String storeName, Options options) {
      Installed installed = INSTALLED.get(storeName);
      if (installed != null) {
        if (installed.statistics != null) {
          installed.statistics.close();
        }
        if (installed.cache != null) {
          installed.cache.close();
        }
      }
    }

    private static CompressionType compression(DBProfile.Compression c) {
      return switch (c) {
        case NONE -> CompressionType.NO_COMPRESSION;
        case LZ4 -> CompressionType.LZ4_COMPRESSION;
        case ZSTD -> CompressionType.ZSTD_COMPRESSION;
      };
    }
  }
}
