package io.sediment.db.stats;

import java.util.List;

/**
 * Tombstone figures of one table.
 *
 * @param table the table
 * @param estimatedLiveKeys RocksDB's {@code rocksdb.estimate-num-keys} (tombstones lower it, and it
 *     can be far off while many are unflushed or uncompacted)
 * @param memtableDeletes point deletes in the active and immutable memtables
 * @param memtableRangeDeletes range deletions in the active and immutable memtables (counted by
 *     the store as it writes them; an upper bound that may lag a concurrent flush)
 * @param sstFiles live SST files
 * @param sstEntries entries in SST files, tombstones included
 * @param sstDeletions point and range deletions in SST files
 * @param sstRangeDeletions range deletions in SST files
 * @param slowPasses positionings or advances that skipped at least the policy's minimum
 * @param tombstonesSkipped tombstones those passes skipped
 * @param hotRanges ranges being watched
 * @param pendingCompactions ranges waiting for a targeted compaction
 * @param sampledScans what the sampled iterators returned, skipped and spent
 */
public record TableTombstoneStats(String table, long estimatedLiveKeys, long memtableDeletes,
    long memtableRangeDeletes, int sstFiles, long sstEntries, long sstDeletions,
    long sstRangeDeletions, long slowPasses, long tombstonesSkipped, List<HotRange> hotRanges,
    List<KeyRange> pendingCompactions, SampledScans sampledScans) {
}
