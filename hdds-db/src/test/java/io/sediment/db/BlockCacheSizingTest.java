package io.sediment.db;

import static io.sediment.db.BlockCacheSizing.MAX_SHARD_BITS;
import static io.sediment.db.BlockCacheSizing.MIN_BLOCKS_PER_SHARD;
import static io.sediment.db.BlockCacheSizing.MIN_SHARD_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Proves the shard-count rule of the shared LRU block cache ({@link BlockCacheSizing}): every
 * shard holds at least 512 KiB and at least 32 of the largest blocks (unless the cache is too
 * small to split at all, then it is one shard); never more than 6 bits; the most shards that
 * rule allows (so the count grows with capacity and shrinks with block size); non-positive
 * input is rejected; and {@link DBProfile#blockCacheShardBits()} applies the rule to the
 * profile's largest block.
 */
class BlockCacheSizingTest {

  private static final long KIB = 1L << 10;
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private static final long[] BLOCKS = {
      1, 512, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, MIB, 8_700_000L, 64 * MIB};

  private static List<Long> capacities() {
    List<Long> out = new ArrayList<>();
    for (int shift = 0; shift <= 44; shift++) {
      long c = 1L << shift;
      out.add(c);
      out.add(c + 1);
      out.add(Math.max(1, c - 1));
      out.add(c + c / 2);
    }
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      out.add(rnd.nextLong(1, 1L << 42));
    }
    return out;
  }

  private static long minShard(long largestBlock) {
    return Math.max(MIN_SHARD_BYTES, largestBlock * MIN_BLOCKS_PER_SHARD);
  }

  @Test
  void everyShardHoldsHalfAMebibyteAndThirtyTwoLargestBlocks() {
    for (long block : BLOCKS) {
      for (long capacity : capacities()) {
        int bits = BlockCacheSizing.shardBits(capacity, block);
        if (bits > 0) {
          long shard = capacity >> bits;
          String what = "capacity " + capacity + ", block " + block + ", bits " + bits;
          assertTrue(shard >= MIN_SHARD_BYTES, "shard below 512 KiB: " + what);
          assertTrue(shard >= MIN_BLOCKS_PER_SHARD * block, "shard below 32 blocks: " + what);
        }
      }
    }
  }

  @Test
  void neverMoreThanSixBitsAndNeverNegative() {
    for (long block : BLOCKS) {
      for (long capacity : capacities()) {
        int bits = BlockCacheSizing.shardBits(capacity, block);
        assertTrue(bits >= 0 && bits <= MAX_SHARD_BITS, "bits " + bits + " for " + capacity);
      }
    }
    assertEquals(6, MAX_SHARD_BITS);
    assertEquals(6, BlockCacheSizing.shardBits(Long.MAX_VALUE, 1));
    assertEquals(6, BlockCacheSizing.shardBits(1L << 40, 16 * KIB));
  }

  @Test
  void choosesTheMostShardsTheFloorAllows() {
    for (long block : BLOCKS) {
      for (long capacity : capacities()) {
        int bits = BlockCacheSizing.shardBits(capacity, block);
        if (bits < MAX_SHARD_BITS) {
          assertTrue((capacity >> (bits + 1)) < minShard(block),
              "one more bit would still satisfy the floor: capacity " + capacity + ", block "
                  + block + ", bits " + bits);
        }
      }
    }
  }

  @Test
  void growsWithCapacityAndShrinksWithBlockSize() {
    for (long block : BLOCKS) {
      int previous = 0;
      for (int shift = 0; shift <= 44; shift++) {
        int bits = BlockCacheSizing.shardBits(1L << shift, block);
        assertTrue(bits >= previous, "fewer shards for a larger cache: 2^" + shift
            + ", block " + block);
        previous = bits;
      }
      assertEquals(MAX_SHARD_BITS, previous, "a huge cache reaches the maximum, block " + block);
    }
    for (long capacity : capacities()) {
      int previous = MAX_SHARD_BITS;
      for (long block : BLOCKS) {
        int bits = BlockCacheSizing.shardBits(capacity, block);
        assertTrue(bits <= previous, "more shards for a larger block: capacity " + capacity);
        previous = bits;
      }
    }
  }

  @Test
  void knownSizes() {
    // 512 KiB floor dominates for small blocks.
    assertEquals(0, BlockCacheSizing.shardBits(100 * KIB, 4 * KIB));
    assertEquals(0, BlockCacheSizing.shardBits(MIB - 1, 4 * KIB));
    assertEquals(1, BlockCacheSizing.shardBits(MIB, 4 * KIB));
    assertEquals(4, BlockCacheSizing.shardBits(8 * MIB, 16 * KIB));
    assertEquals(6, BlockCacheSizing.shardBits(256 * MIB, 16 * KIB));
    // 32 blocks of 64 KiB = 2 MiB per shard.
    assertEquals(5, BlockCacheSizing.shardBits(64 * MIB, 64 * KIB));
    assertEquals(4, BlockCacheSizing.shardBits(64 * MIB - 1, 64 * KIB));
    // BookKeeper's case: 8.7 MB filter blocks in a ~197 MiB cache must not be split at all.
    assertEquals(0, BlockCacheSizing.shardBits(206_150_041L, 8_700_000L));
    assertEquals(6, BlockCacheSizing.shardBits(GIB, 16 * KIB));
  }

  @Test
  void hugeBlockSizesDoNotOverflowTheFloor() {
    // 32 blocks of 2^58 bytes or more do not fit in a long: no capacity can hold two such shards.
    for (long block : new long[] {1L << 58, (1L << 58) + 1, Long.MAX_VALUE / 16, Long.MAX_VALUE}) {
      assertEquals(0, BlockCacheSizing.shardBits(Long.MAX_VALUE, block), "block " + block);
      assertEquals(0, BlockCacheSizing.shardBits(1L << 40, block), "block " + block);
    }
    assertEquals(1, BlockCacheSizing.shardBits(Long.MAX_VALUE, (1L << 57) - 1));
  }

  @Test
  void rejectsNonPositiveCapacityOrBlockSize() {
    assertThrows(IllegalArgumentException.class, () -> BlockCacheSizing.shardBits(0, 4096));
    assertThrows(IllegalArgumentException.class, () -> BlockCacheSizing.shardBits(-1, 4096));
    assertThrows(IllegalArgumentException.class,
        () -> BlockCacheSizing.shardBits(Long.MIN_VALUE, 4096));
    assertThrows(IllegalArgumentException.class, () -> BlockCacheSizing.shardBits(MIB, 0));
    assertThrows(IllegalArgumentException.class, () -> BlockCacheSizing.shardBits(MIB, -4096));
    assertThrows(IllegalArgumentException.class, () -> BlockCacheSizing.shardBits(0, 0));
  }

  @Test
  void profileUsesItsLargestBlockAndCapacity() {
    DBProfile defaults = DBProfile.defaults();
    assertEquals(BlockCacheSizing.shardBits(defaults.blockCacheBytes(),
        Math.max(defaults.blockSize(), defaults.metadataBlockSize())),
        defaults.blockCacheShardBits());
    assertEquals(6, defaults.blockCacheShardBits(), "256 MiB with 16 KiB blocks: 64 shards");

    DBProfile small = DBProfile.builder().blockCacheBytes(8 * MIB).build();
    assertEquals(4, small.blockCacheShardBits(), "8 MiB: 16 shards of 512 KiB");

    DBProfile bigMetadata = DBProfile.builder().blockCacheBytes(64 * MIB)
        .blockSize(4 * KIB).metadataBlockSize(256 * KIB).build();
    assertEquals(BlockCacheSizing.shardBits(64 * MIB, 256 * KIB),
        bigMetadata.blockCacheShardBits(), "the metadata block is the largest block");
    assertEquals(3, bigMetadata.blockCacheShardBits(), "64 MiB / 8 MiB shards (32 x 256 KiB)");
  }
}
