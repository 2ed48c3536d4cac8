package io.sediment.db;

/**
 * Chooses the shard count of the shared LRU block cache.
 *
 * <p>RocksDB splits an LRU cache evenly across {@code 2^bits} shards, and a block larger than
 * its shard is inserted over capacity and evicted on release: the cache stops working for it
 * (BookKeeper PR 4909 measured ×100 fewer gets per second with 8.7 MiB filter blocks in
 * 3.2 MiB shards). With partitioned index and filters the largest cached block is about
 * {@code max(block_size, metadata_block_size)}, so every shard must hold at least
 * {@link #MIN_BLOCKS_PER_SHARD} of those and never less than RocksDB's own 512 KiB minimum.
 * At most 64 shards (6 bits), as RocksDB's automatic choice.
 */
public final class BlockCacheSizing {

  /** RocksDB's own floor for an automatically sized LRU shard. */
  public static final long MIN_SHARD_BYTES = 512L << 10;
  /** How many of the largest blocks one shard must be able to hold. */
  public static final int MIN_BLOCKS_PER_SHARD = 32;
  /** RocksDB's automatic maximum. */
  public static final int MAX_SHARD_BITS = 6;

  private BlockCacheSizing() {
  }

  /** Shard bits for a cache of {@code capacity} bytes whose largest block is {@code largestBlock}. */
  public static int shardBits(long capacity, long largestBlock) {
    if (capacity <= 0 || largestBlock <= 0) {
      throw new IllegalArgumentException("capacity and largestBlock must be positive");
    }
    long blocks = largestBlock > Long.MAX_VALUE / MIN_BLOCKS_PER_SHARD
        ? Long.MAX_VALUE : largestBlock * MIN_BLOCKS_PER_SHARD;
    long minShard = Math.max(MIN_SHARD_BYTES, blocks);
    int bits = 0;
    while (bits < MAX_SHARD_BITS && (capacity >> (bits + 1)) >= minShard) {
      bits++;
    }
    return bits;
  }
}
