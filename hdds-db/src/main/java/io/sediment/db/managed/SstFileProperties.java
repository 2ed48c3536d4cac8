package io.sediment.db.managed;

/**
 * What one SST file's table properties say about its layout and contents.
 *
 * @param file the file name
 * @param entries internal entries, tombstones included
 * @param deletions point and range deletions
 * @param rangeDeletions range deletions only
 * @param dataBlocks number of data blocks
 * @param indexSize bytes of index (all partitions and the top level)
 * @param indexPartitions number of index partitions; above 0 only for a two-level index
 * @param topLevelIndexSize bytes of the top-level index; above 0 only for a two-level index
 * @param indexType RocksDB's index type as it recorded it (for example {@code 2} = two-level)
 * @param filterPolicy the filter policy's name, empty when the file has no filter
 * @param filterSize bytes of filter (all partitions)
 * @param partitionedFilter whether the filter is partitioned
 * @param propertyCollectors the table-property collectors that ran when the file was written
 */
public record SstFileProperties(
    String file,
    long entries,
    long deletions,
    long rangeDeletions,
    long dataBlocks,
    long indexSize,
    long indexPartitions,
    long topLevelIndexSize,
    long indexType,
    String filterPolicy,
    long filterSize,
    boolean partitionedFilter,
    String propertyCollectors) {
}
