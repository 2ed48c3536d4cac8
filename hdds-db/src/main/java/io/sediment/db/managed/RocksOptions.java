package io.sediment.db.managed;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.OptionsUtil;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.WriteOptions;

/**
 * Every native option object one open store needs, built from a {@link DBProfile} and optionally
 * overridden by an ini file. Owns them all and closes them in reverse order of creation, after
 * the database itself is closed. Not thread-safe; used only while opening and closing.
 */
final class RocksOptions implements AutoCloseable {

  static {
    RocksDB.loadLibrary();
  }

  private final String owner;
  private final Deque<Managed<?>> owned = new ArrayDeque<>();
  private final Map<String, ColumnFamilyOptions> cfOptions = new HashMap<>();
  private DBOptions dbOptions;
  private Statistics statistics;
  private WriteOptions writeOptions;
  private ReadOptions readOptions;
  private FlushOptions flushOptions;

  private RocksOptions(String owner) {
    this.owner = owner;
  }

  /**
   * @param families column family names
   * @param deleteHeavy the subset of {@code families} that get deletion-triggered compaction
   */
  static RocksOptions create(DBProfile profile, List<String> families, java.util.Set<String> deleteHeavy,
      String owner) {
    RocksOptions o = new RocksOptions(owner);
    try {
      o.build(profile, families, deleteHeavy);
      return o;
    } catch (RuntimeException e) {
      o.close();
      throw e;
    }
  }

  private <T extends org.rocksdb.AbstractNativeReference> T own(T object) {
    owned.push(Managed.of(object, owner));
    return object;
  }

  private void build(DBProfile profile, List<String> families, java.util.Set<String> deleteHeavy) {
    statistics = own(new Statistics());
    statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
    writeOptions = own(new WriteOptions());
    writeOptions.setSync(profile.syncWrites());
    writeOptions.setDisableWAL(profile.disableWal());
    readOptions = own(new ReadOptions());
    flushOptions = own(new FlushOptions());
    flushOptions.setWaitForFlush(true);

    LRUCache cache = own(new LRUCache(profile.blockCacheBytes(), profile.blockCacheShardBits(),
        false, profile.highPriPoolRatio()));
    BloomFilter filter = own(new BloomFilter(profile.bloomBitsPerKey()));

    dbOptions = own(new DBOptions());
    Map<String, ColumnFamilyOptions> fromFile = new HashMap<>();
    if (profile.optionsFile().isPresent()) {
      loadIniFile(profile.optionsFile().get().toString(), fromFile);
    } else {
      dbOptions.setMaxBackgroundJobs(profile.maxBackgroundJobs());
      dbOptions.setBytesPerSync(1L << 20);
    }
    dbOptions.setCreateIfMissing(true);
    dbOptions.setCreateMissingColumnFamilies(true);
    dbOptions.setStatistics(statistics);
    dbOptions.setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
    dbOptions.setKeepLogFileNum(5);

    for (String family : families) {
      ColumnFamilyOptions cf = fromFile.get(family);
      if (cf == null) {
        cf = deleteHeavy.contains(family) ? deleteHeavyBase(profile) : own(new ColumnFamilyOptions());
        configure(cf, profile, cache, filter);
      }
      cfOptions.put(family, cf);
    }
  }

  private void loadIniFile(String path, Map<String, ColumnFamilyOptions> fromFile) {
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    ConfigOptions config = own(new ConfigOptions());
    config.setIgnoreUnknownOptions(false);
    try {
      OptionsUtil.loadOptionsFromFile(config, path, dbOptions, descriptors);
    } catch (RocksDBException e) {
      for (ColumnFamilyDescriptor d : descriptors) {
        d.getOptions().close();
      }
      throw new RocksDatabaseException(owner + ": cannot load RocksDB options file " + path
          + ": " + e.getMessage(), e);
    }
    for (ColumnFamilyDescriptor d : descriptors) {
      String name = new String(d.getName(), java.nio.charset.StandardCharsets.UTF_8);
      fromFile.put(name, own(d.getOptions()));
    }
  }

  /**
   * Column family options carrying a {@code CompactOnDeletionCollector} and
   * {@code memtable_op_scan_flush_trigger}. {@code ColumnFamilyOptions} has no Java setter for
   * either in rocksdbjni 10.10.1.1, so they go through RocksDB's option-string parser.
   */
  private ColumnFamilyOptions deleteHeavyBase(DBProfile p) {
    java.util.Properties props = new java.util.Properties();
    props.setProperty("table_properties_collectors", String.format(java.util.Locale.ROOT,
        "{id=CompactOnDeletionCollector;window_size=%d;deletion_trigger=%d;deletion_ratio=%f}",
        p.deletionWindow(), p.deletionTrigger(), p.deletionRatio()));
    props.setProperty("memtable_op_scan_flush_trigger", Long.toString(p.memtableOpScanFlushTrigger()));
    ConfigOptions config = own(new ConfigOptions());
    ColumnFamilyOptions cf = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, props);
    if (cf == null) {
      throw new RocksDatabaseException(owner + ": RocksDB rejected the delete-heavy options " + props);
    }
    return own(cf);
  }

  private void configure(ColumnFamilyOptions cf, DBProfile p, LRUCache cache, BloomFilter filter) {
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setBlockCache(cache)
        .setFilterPolicy(filter)
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
    cf.setTableFormatConfig(table)
        .setCompactionStyle(CompactionStyle.LEVEL)
        .setLevelCompactionDynamicLevelBytes(true)
        .setCompressionType(compression(p.compression()))
        .setBottommostCompressionType(compression(p.bottommostCompression()))
        .setWriteBufferSize(p.writeBufferBytes())
        .setTargetFileSizeBase(p.targetFileSizeBase())
        .setDisableAutoCompactions(p.disableAutoCompactions())
        .setMemtableMaxRangeDeletions(p.memtableMaxRangeDeletions());
  }

  private static CompressionType compression(DBProfile.Compression c) {
    return switch (c) {
      case NONE -> CompressionType.NO_COMPRESSION;
      case LZ4 -> CompressionType.LZ4_COMPRESSION;
      case ZSTD -> CompressionType.ZSTD_COMPRESSION;
    };
  }

  DBOptions dbOptions() { return dbOptions; }
  ColumnFamilyOptions columnFamilyOptions(String family) { return cfOptions.get(family); }
  Statistics statistics() { return statistics; }
  WriteOptions writeOptions() { return writeOptions; }
  ReadOptions readOptions() { return readOptions; }
  FlushOptions flushOptions() { return flushOptions; }

  @Override
  public void close() {
    while (!owned.isEmpty()) {
      owned.pop().close();
    }
  }
}
