package io.sediment.db;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The RocksDB tuning a store opens with. Immutable; {@link #defaults()} is the profile of
 * DESIGN §2: block-based tables, two-level (partitioned) index and partitioned Bloom filters of
 * 10 bits per key, {@code metadata_block_size} 4 KiB, top-level index and filter pinned,
 * index and filter blocks cached with high priority in one shared LRU cache whose shards are
 * never smaller than {@link BlockCacheSizing#MIN_SHARD_BYTES}, the other partitions pinned too
 * when the index and filters of the store's files fit in an eighth of that cache
 * ({@link PartitionPinning#AUTO}), LZ4 on upper levels and ZSTD at
 * the bottom, level compaction with dynamic level bytes, statistics on. Every table gets
 * {@code memtable_op_scan_flush_trigger}: one iterator operation that skips that many invisible
 * entries (tombstones, overwritten versions) of the active memtable marks it for flush. Tables
 * declared delete-heavy also get RocksDB's {@code CompactOnDeletionCollector} (a file with
 * {@link #deletionTrigger()} point deletions in any {@link #deletionWindow()} consecutive entries,
 * or a {@link #deletionRatio()} of deletions overall, is compacted), so the tombstones such a flush
 * writes are compacted away.
 *
 * <p>Any option can also be overridden from a RocksDB OPTIONS-format ini file
 * ({@link Builder#optionsFile(Path)}): the file's {@code [DBOptions]} replace the profile's DB
 * options and each {@code [CFOptions "name"]} section replaces the profile's options for that
 * column family entirely. Statistics stay on whatever the file says.
 */
public final class DBProfile {

  /** Compression of SST blocks. */
  public enum Compression { NONE, LZ4, ZSTD }

  /**
   * Whether the index and filter partitions of an open file stay pinned in the block cache
   * ({@code metadata_cache_options.partition_pinning}). The top level is pinned or not by
   * {@link #pinTopLevelIndexAndFilter()} whatever this says.
   */
  public enum PartitionPinning {
    /**
     * Partitions are cached like data blocks (with high priority) and can be evicted: memory
     * stays bounded by the cache, but a point get looks up a filter and an index partition in
     * the cache besides its data block.
     */
    NONE,
    /**
     * Every partition of every open file stays pinned ({@code kAll}): a point get looks up only
     * its data block, but the partitions stay in memory whatever the cache's capacity (the cache
     * is not strict, so they can push it over capacity and evict data blocks).
     */
    ALL,
    /**
     * {@link #ALL} when there are files on disk and their index and filters, as
     * estimated from their sizes and table properties while the store opens, take at most
     * {@link DBProfile#autoPinCacheFraction()} of the block cache; {@link #NONE} otherwise (a new
     * store, one whose directory cannot be listed, and one opened with an OPTIONS file). Decided
     * once per open: the files a store writes while open are pinned or not as decided, and the
     * next open decides again; a pinned store logs a warning when its pinned usage passes half
     * the cache. The decision is {@link DBStore#partitionPinning()}.
     */
    AUTO
  }

  private final long blockCacheBytes;
  private final long blockSize;
  private final long metadataBlockSize;
  private final boolean partitionedIndexAndFilters;
  private final boolean pinTopLevelIndexAndFilter;
  private final boolean cacheIndexAndFilterBlocks;
  private final double highPriPoolRatio;
  private final double bloomBitsPerKey;
  private final int formatVersion;
  private final Compression compression;
  private final Compression bottommostCompression;
  private final long writeBufferBytes;
  private final long targetFileSizeBase;
  private final int maxBackgroundJobs;
  private final boolean disableAutoCompactions;
  private final boolean syncWrites;
  private final boolean disableWal;
  private final Path optionsFile;
  private final long deletionWindow;
  private final long deletionTrigger;
  private final double deletionRatio;
  private final long memtableOpScanFlushTrigger;
  private final int memtableMaxRangeDeletions;
  private final PartitionPinning partitionPinning;
  private final double autoPinCacheFraction;

  private DBProfile(Builder b) {
    this.memtableMaxRangeDeletions = b.memtableMaxRangeDeletions;
    this.deletionWindow = b.deletionWindow;
    this.deletionTrigger = b.deletionTrigger;
    this.deletionRatio = b.deletionRatio;
    this.memtableOpScanFlushTrigger = b.memtableOpScanFlushTrigger;
    this.blockCacheBytes = b.blockCacheBytes;
    this.blockSize = b.blockSize;
    this.metadataBlockSize = b.metadataBlockSize;
    this.partitionedIndexAndFilters = b.partitionedIndexAndFilters;
    this.pinTopLevelIndexAndFilter = b.pinTopLevelIndexAndFilter;
    this.cacheIndexAndFilterBlocks = b.cacheIndexAndFilterBlocks;
    this.highPriPoolRatio = b.highPriPoolRatio;
    this.bloomBitsPerKey = b.bloomBitsPerKey;
    this.formatVersion = b.formatVersion;
    this.compression = b.compression;
    this.bottommostCompression = b.bottommostCompression;
    this.writeBufferBytes = b.writeBufferBytes;
    this.targetFileSizeBase = b.targetFileSizeBase;
    this.maxBackgroundJobs = b.maxBackgroundJobs;
    this.disableAutoCompactions = b.disableAutoCompactions;
    this.syncWrites = b.syncWrites;
    this.disableWal = b.disableWal;
    this.optionsFile = b.optionsFile;
    this.partitionPinning = b.partitionPinning;
    this.autoPinCacheFraction = b.autoPinCacheFraction;
  }

  /** The DESIGN §2 profile. */
  public static DBProfile defaults() {
    return new Builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  public long blockCacheBytes() { return blockCacheBytes; }
  public long blockSize() { return blockSize; }
  public long metadataBlockSize() { return metadataBlockSize; }
  public boolean partitionedIndexAndFilters() { return partitionedIndexAndFilters; }
  public boolean pinTopLevelIndexAndFilter() { return pinTopLevelIndexAndFilter; }
  public boolean cacheIndexAndFilterBlocks() { return cacheIndexAndFilterBlocks; }

  /** Whether index and filter partitions stay pinned; {@link PartitionPinning#AUTO} by default. */
  public PartitionPinning partitionPinning() { return partitionPinning; }

  /**
   * The largest share of the block cache that the estimated index and filters of the files on
   * disk may take for {@link PartitionPinning#AUTO} to pin them; 1/8 by default, which leaves
   * room for the store to grow eightfold while open before pinned partitions could fill the
   * cache.
   */
  public double autoPinCacheFraction() { return autoPinCacheFraction; }
  public double highPriPoolRatio() { return highPriPoolRatio; }
  public double bloomBitsPerKey() { return bloomBitsPerKey; }
  public int formatVersion() { return formatVersion; }
  public Compression compression() { return compression; }
  public Compression bottommostCompression() { return bottommostCompression; }
  public long writeBufferBytes() { return writeBufferBytes; }
  public long targetFileSizeBase() { return targetFileSizeBase; }
  public int maxBackgroundJobs() { return maxBackgroundJobs; }
  public boolean disableAutoCompactions() { return disableAutoCompactions; }
  public boolean syncWrites() { return syncWrites; }
  /**
   * Whether writes skip RocksDB's write-ahead log: only a flush persists them, so a crash loses
   * every write since the last flush. The store then flushes all its column families together
   * (RocksDB's atomic flush), so what survives a crash is a prefix of its writes, never part of
   * a batch. For a store whose writes are replayed from a log of their own.
   */
  public boolean disableWal() { return disableWal; }
  public Optional<Path> optionsFile() { return Optional.ofNullable(optionsFile); }

  /** Delete-heavy tables: a file is compacted when any window of this many entries ... */
  public long deletionWindow() { return deletionWindow; }
  /** ... holds at least this many point deletions, */
  public long deletionTrigger() { return deletionTrigger; }
  /** or when at least this fraction of the whole file is deletions (0 disables the ratio). */
  public double deletionRatio() { return deletionRatio; }
  /** Every table: one iterator operation that skips this many active-memtable entries flushes it. */
  public long memtableOpScanFlushTrigger() { return memtableOpScanFlushTrigger; }
  /**
   * A memtable holding this many range deletions is flushed ({@code memtable_max_range_deletions}),
   * so many small range tombstones never pile up in one memtable where every read must consult
   * them; 0 disables.
   */
  public int memtableMaxRangeDeletions() { return memtableMaxRangeDeletions; }

  /** Shard bits of the shared block cache; see {@link BlockCacheSizing}. */
  public int blockCacheShardBits() {
    return BlockCacheSizing.shardBits(blockCacheBytes, Math.max(blockSize, metadataBlockSize));
  }

  /** Mutable builder; every setter validates its argument. */
  public static final class Builder {
    private long blockCacheBytes = 256L << 20;
    private long blockSize = 16L << 10;
    private long metadataBlockSize = 4096;
    private boolean partitionedIndexAndFilters = true;
    private boolean pinTopLevelIndexAndFilter = true;
    private boolean cacheIndexAndFilterBlocks = true;
    private double highPriPoolRatio = 0.5;
    private double bloomBitsPerKey = 10;
    private int formatVersion = 6;
    private Compression compression = Compression.LZ4;
    private Compression bottommostCompression = Compression.ZSTD;
    private long writeBufferBytes = 64L << 20;
    private long targetFileSizeBase = 64L << 20;
    private int maxBackgroundJobs = 2;
    private boolean disableAutoCompactions;
    private boolean syncWrites;
    private boolean disableWal;
    private Path optionsFile;
    private long deletionWindow = 4096;
    private long deletionTrigger = 2048;
    private double deletionRatio = 0.5;
    private long memtableOpScanFlushTrigger = 10_000;
    private int memtableMaxRangeDeletions = 1_000;
    private PartitionPinning partitionPinning = PartitionPinning.AUTO;
    private double autoPinCacheFraction = 0.125;

    private Builder() {
    }

    private Builder(DBProfile p) {
      blockCacheBytes = p.blockCacheBytes;
      blockSize = p.blockSize;
      metadataBlockSize = p.metadataBlockSize;
      partitionedIndexAndFilters = p.partitionedIndexAndFilters;
      pinTopLevelIndexAndFilter = p.pinTopLevelIndexAndFilter;
      cacheIndexAndFilterBlocks = p.cacheIndexAndFilterBlocks;
      highPriPoolRatio = p.highPriPoolRatio;
      bloomBitsPerKey = p.bloomBitsPerKey;
      formatVersion = p.formatVersion;
      compression = p.compression;
      bottommostCompression = p.bottommostCompression;
      writeBufferBytes = p.writeBufferBytes;
      targetFileSizeBase = p.targetFileSizeBase;
      maxBackgroundJobs = p.maxBackgroundJobs;
      disableAutoCompactions = p.disableAutoCompactions;
      syncWrites = p.syncWrites;
      disableWal = p.disableWal;
      optionsFile = p.optionsFile;
      deletionWindow = p.deletionWindow;
      deletionTrigger = p.deletionTrigger;
      deletionRatio = p.deletionRatio;
      memtableOpScanFlushTrigger = p.memtableOpScanFlushTrigger;
      memtableMaxRangeDeletions = p.memtableMaxRangeDeletions;
      partitionPinning = p.partitionPinning;
      autoPinCacheFraction = p.autoPinCacheFraction;
    }

    public Builder memtableMaxRangeDeletions(int v) {
      if (v < 0) {
        throw new IllegalArgumentException("memtableMaxRangeDeletions must not be negative: " + v);
      }
      memtableMaxRangeDeletions = v;
      return this;
    }

    /** Deletion-triggered compaction of delete-heavy tables: window, trigger and file ratio. */
    public Builder deletionCompaction(long window, long trigger, double ratio) {
      if (window < 1 || trigger < 1 || trigger > window || !(ratio >= 0 && ratio <= 1)) {
        throw new IllegalArgumentException("need 1 <= trigger <= window and 0 <= ratio <= 1");
      }
      deletionWindow = window;
      deletionTrigger = trigger;
      deletionRatio = ratio;
      return this;
    }

    public Builder memtableOpScanFlushTrigger(long v) {
      memtableOpScanFlushTrigger = positive(v, "memtableOpScanFlushTrigger");
      return this;
    }

    public Builder blockCacheBytes(long v) { blockCacheBytes = positive(v, "blockCacheBytes"); return this; }
    public Builder blockSize(long v) { blockSize = positive(v, "blockSize"); return this; }
    public Builder metadataBlockSize(long v) { metadataBlockSize = positive(v, "metadataBlockSize"); return this; }
    public Builder partitionedIndexAndFilters(boolean v) { partitionedIndexAndFilters = v; return this; }
    public Builder pinTopLevelIndexAndFilter(boolean v) { pinTopLevelIndexAndFilter = v; return this; }
    public Builder cacheIndexAndFilterBlocks(boolean v) { cacheIndexAndFilterBlocks = v; return this; }
    public Builder partitionPinning(PartitionPinning v) {
      partitionPinning = Objects.requireNonNull(v);
      return this;
    }
    public Builder autoPinCacheFraction(double v) {
      if (!(v > 0 && v <= 1)) {
        throw new IllegalArgumentException("autoPinCacheFraction must be in (0, 1]: " + v);
      }
      autoPinCacheFraction = v;
      return this;
    }
    public Builder bloomBitsPerKey(double v) {
      if (!(v >= 0 && v <= 100)) {
        throw new IllegalArgumentException("bloomBitsPerKey must be in [0, 100]: " + v);
      }
      bloomBitsPerKey = v;
      return this;
    }
    public Builder highPriPoolRatio(double v) {
      if (!(v >= 0 && v <= 1)) {
        throw new IllegalArgumentException("highPriPoolRatio must be in [0, 1]: " + v);
      }
      highPriPoolRatio = v;
      return this;
    }
    public Builder formatVersion(int v) {
      if (v < 5 || v > 7) {
        throw new IllegalArgumentException("formatVersion must be 5, 6 or 7: " + v);
      }
      formatVersion = v;
      return this;
    }
    public Builder compression(Compression v) { compression = Objects.requireNonNull(v); return this; }
    public Builder bottommostCompression(Compression v) { bottommostCompression = Objects.requireNonNull(v); return this; }
    public Builder writeBufferBytes(long v) { writeBufferBytes = positive(v, "writeBufferBytes"); return this; }
    public Builder targetFileSizeBase(long v) { targetFileSizeBase = positive(v, "targetFileSizeBase"); return this; }
    public Builder maxBackgroundJobs(int v) { maxBackgroundJobs = (int) positive(v, "maxBackgroundJobs"); return this; }
    public Builder disableAutoCompactions(boolean v) { disableAutoCompactions = v; return this; }
    public Builder syncWrites(boolean v) { syncWrites = v; return this; }
    public Builder disableWal(boolean v) { disableWal = v; return this; }
    /** A RocksDB OPTIONS ini file whose settings override this profile; {@code null} for none. */
    public Builder optionsFile(Path v) { optionsFile = v; return this; }

    public DBProfile build() {
      return new DBProfile(this);
    }

    private static long positive(long v, String what) {
      if (v <= 0) {
        throw new IllegalArgumentException(what + " must be positive: " + v);
      }
      return v;
    }
  }
}
