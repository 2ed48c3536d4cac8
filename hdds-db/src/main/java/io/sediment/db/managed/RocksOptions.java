package io.sediment.db.managed;

import io.sediment.db.DBProfile;
import io.sediment.db.PinningDecision;
import io.sediment.db.StoreException;
import io.sediment.db.WalRecovery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;
import org.rocksdb.OptionsUtil;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TablePropertiesCollectorFactory;
import org.rocksdb.WALRecoveryMode;
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
  private final MemtableRangeDeletions rangeDeletions = new MemtableRangeDeletions();
  private final OutOfSpaceWatch outOfSpace;
  private final DeletionCompactions deletionCompactions;
  private PinnedUsageWatch pinnedUsageWatch;

  private RocksOptions(String owner) {
    this.owner = owner;
    this.outOfSpace = new OutOfSpaceWatch(owner);
    this.deletionCompactions = new DeletionCompactions(owner);
  }

  /**
   * @param pinPartitions whether index and filter partitions stay pinned ({@link PinningDecision})
   * @param families column family names
   * @param deleteHeavy the subset of {@code families} that get deletion-triggered compaction
   */
  static RocksOptions create(DBProfile profile, boolean pinPartitions, List<String> families,
      java.util.Set<String> deleteHeavy, String owner) {
    return create(profile, pinPartitions, families, deleteHeavy, owner, true, WalRecovery.STRICT);
  }

  /**
   * As {@link #create(DBProfile, boolean, List, java.util.Set, String)}, saying whether RocksDB
   * may create a missing store and how it treats a damaged write-ahead log. Both are forced over
   * an OPTIONS ini file: they decide whether data can be lost silently, not how fast it is.
   */
  static RocksOptions create(DBProfile profile, boolean pinPartitions, List<String> families,
      java.util.Set<String> deleteHeavy, String owner, boolean createIfMissing,
      WalRecovery walRecovery) {
    RocksOptions o = new RocksOptions(owner);
    try {
      o.build(profile, pinPartitions, families, deleteHeavy);
      o.dbOptions.setCreateIfMissing(createIfMissing);
      o.dbOptions.setWalRecoveryMode(switch (walRecovery) {
        case STRICT -> WALRecoveryMode.TolerateCorruptedTailRecords;
        case ACCEPT_LOSS_AFTER_DAMAGE -> WALRecoveryMode.PointInTimeRecovery;
      });
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

  private void build(DBProfile profile, boolean pinPartitions, List<String> families,
      java.util.Set<String> deleteHeavy) {
    statistics = own(new Statistics());
    statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
    writeOptions = own(new WriteOptions());
    writeOptions.setSync(profile.syncWrites());
    writeOptions.setDisableWAL(profile.disableWal());
    readOptions = own(new ReadOptions());
    flushOptions = own(new FlushOptions());
    flushOptions.setWaitForFlush(true);

    dbOptions = own(new DBOptions());
    Map<String, ColumnFamilyOptions> fromFile = new HashMap<>();
    if (profile.optionsFile().isPresent()) {
      loadIniFile(profile.optionsFile().get().toString(), fromFile);
    } else {
      dbOptions.setMaxBackgroundJobs(profile.maxBackgroundJobs());
      dbOptions.setBytesPerSync(1L << 20);
    }
    dbOptions.setCreateMissingColumnFamilies(true);
    // Without a WAL only a flush persists a write, and a crash leaves each family at its last
    // flush: flushing all of them together keeps a batch across families all or nothing, as WAL
    // replay does otherwise. Forced over an OPTIONS file, like the recovery mode.
    dbOptions.setAtomicFlush(profile.disableWal());
    dbOptions.setStatistics(statistics);
    dbOptions.setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
    dbOptions.setKeepLogFileNum(5);
    List<org.rocksdb.AbstractEventListener> listeners = new ArrayList<>();
    listeners.add(own(rangeDeletions.newListener()));
    listeners.add(own(outOfSpace.newListener()));
    listeners.add(own(deletionCompactions.newListener()));
    if (pinPartitions) {
      pinnedUsageWatch = new PinnedUsageWatch(owner, profile.blockCacheBytes());
      listeners.add(own(pinnedUsageWatch.newListener()));
    }
    dbOptions.setListeners(listeners);

    ColumnFamilyOptions base = null;
    for (String family : families) {
      ColumnFamilyOptions cf = fromFile.get(family);
      if (cf == null) {
        if (base == null) {
          base = tableBase(profile, pinPartitions);
        }
        cf = deleteHeavy.contains(family) ? withDeletionCollector(base, profile)
            : own(new ColumnFamilyOptions(base));
        configure(cf, profile);
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
      throw new StoreException(owner + ": cannot load RocksDB options file " + path
          + ": " + e.getMessage(), e);
    }
    for (ColumnFamilyDescriptor d : descriptors) {
      String name = new String(d.getName(), java.nio.charset.StandardCharsets.UTF_8);
      fromFile.put(name, own(d.getOptions()));
    }
  }

  /**
   * The column family options every table's are copied from: the profile's block-based table
   * factory, with its block cache, and {@code memtable_op_scan_flush_trigger}.
   *
   * <p>They are parsed from an option string because rocksdbjni 10.10.1.1 has no setter for
   * {@code metadata_cache_options} (partition pinning) or {@code memtable_op_scan_flush_trigger},
   * and a string cannot refer to a cache created in Java. So the string creates the cache, and
   * every table's options are native copies of these, which share the one table factory and so
   * the one cache ({@code setTableFormatConfig} must never be called on them: it would give that
   * table a factory and cache of its own).
   */
  private ColumnFamilyOptions tableBase(DBProfile p, boolean pinPartitions) {
    java.util.Properties props = new java.util.Properties();
    props.setProperty("block_based_table_factory", tableFactory(p, pinPartitions));
    props.setProperty("memtable_op_scan_flush_trigger", Long.toString(p.memtableOpScanFlushTrigger()));
    ConfigOptions config = own(new ConfigOptions());
    ColumnFamilyOptions cf = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, props);
    if (cf == null) {
      throw new StoreException(owner + ": RocksDB rejected the table options " + props);
    }
    return own(cf);
  }

  /** The block-based table options of {@code p} in RocksDB's option-string syntax. */
  static String tableFactory(DBProfile p, boolean pinPartitions) {
    String pinning = pinPartitions ? "kAll" : "kFallback";
    return String.format(Locale.ROOT, "{block_cache={capacity=%d;num_shard_bits=%d;"
            + "strict_capacity_limit=false;high_pri_pool_ratio=%s};"
            + "filter_policy=bloomfilter:%s:false;block_size=%d;format_version=%d;"
            + "cache_index_and_filter_blocks=%b;cache_index_and_filter_blocks_with_high_priority=true;"
            + "pin_top_level_index_and_filter=%b;metadata_block_size=%d;index_type=%s;"
            + "partition_filters=%b;metadata_cache_options={top_level_index_pinning=kFallback;"
            + "partition_pinning=%s;unpartitioned_pinning=kFallback}}",
        p.blockCacheBytes(), p.blockCacheShardBits(), p.highPriPoolRatio(), p.bloomBitsPerKey(),
        p.blockSize(), p.formatVersion(), p.cacheIndexAndFilterBlocks(),
        p.pinTopLevelIndexAndFilter(), p.metadataBlockSize(),
        p.partitionedIndexAndFilters() ? "kTwoLevelIndexSearch" : "kBinarySearch",
        p.partitionedIndexAndFilters(), pinning);
  }

  /**
   * A copy of {@code base} carrying a {@code CompactOnDeletionCollector}: {@code ColumnFamilyOptions}
   * has no collector setter in rocksdbjni 10.10.1.1, {@code Options} has, and copying through
   * {@code Options} keeps the shared table factory.
   */
  private ColumnFamilyOptions withDeletionCollector(ColumnFamilyOptions base, DBProfile p) {
    try (DBOptions unused = new DBOptions(); Options options = new Options(unused, base);
        TablePropertiesCollectorFactory collector =
            TablePropertiesCollectorFactory.NewCompactOnDeletionCollectorFactory(
                p.deletionWindow(), p.deletionTrigger(), p.deletionRatio())) {
      options.setTablePropertiesCollectorFactory(List.of(collector));
      return own(new ColumnFamilyOptions(options));
    }
  }

  /** Everything but the table factory, which the options share with {@link #tableBase}. */
  private void configure(ColumnFamilyOptions cf, DBProfile p) {
    cf.setCompactionStyle(CompactionStyle.LEVEL)
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

  /**
   * A new {@code Options} for writing SST files of {@code family}: a native copy of its column
   * family options (sharing their table factory, so the same format, filter and cache) over
   * default DB options. The caller owns and closes it.
   */
  Options sstWriterOptions(String family) {
    ColumnFamilyOptions cf = cfOptions.get(family);
    if (cf == null) {
      throw new IllegalArgumentException(owner + " has no table " + family);
    }
    try (DBOptions unused = new DBOptions()) {
      return new Options(unused, cf);
    }
  }

  DBOptions dbOptions() { return dbOptions; }
  ColumnFamilyOptions columnFamilyOptions(String family) { return cfOptions.get(family); }
  Statistics statistics() { return statistics; }
  WriteOptions writeOptions() { return writeOptions; }
  ReadOptions readOptions() { return readOptions; }
  FlushOptions flushOptions() { return flushOptions; }
  MemtableRangeDeletions rangeDeletions() { return rangeDeletions; }
  OutOfSpaceWatch outOfSpaceWatch() { return outOfSpace; }
  DeletionCompactions deletionCompactions() { return deletionCompactions; }

  /**
   * The free space at which RocksDB resumes writes after running out of space: the largest
   * {@code write_buffer_size} of the column families, which RocksDB reserves at open for the
   * flush that ends the recovery.
   */
  long resumeFreeBytes() {
    long max = 0;
    for (ColumnFamilyOptions cf : cfOptions.values()) {
      max = Math.max(max, cf.writeBufferSize());
    }
    return max;
  }
  /** The watch over pinned cache usage; null when partitions are not pinned. */
  PinnedUsageWatch pinnedUsageWatch() { return pinnedUsageWatch; }

  @Override
  public void close() {
    while (!owned.isEmpty()) {
      owned.pop().close();
    }
  }
}
