package io.sediment.db;

import io.sediment.db.DBProfile.PartitionPinning;

/**
 * Whether a store pins its index and filter partitions for as long as it is open, and why.
 *
 * @param requested the profile's {@link DBProfile#partitionPinning()}
 * @param pinned whether every partition of every open file stays pinned
 * @param estimatedMetadataBytes index and filter bytes of the files on disk when the store
 *     opened (from the files' sizes and what their tables' properties say); -1 when the directory could not be listed, or when
 *     nothing was estimated ({@code budgetBytes} is -1 then too)
 * @param budgetBytes {@link DBProfile#autoPinCacheFraction()} of the block cache, the most that
 *     {@code AUTO} pins; -1 unless {@code requested} is {@code AUTO}, the profile partitions index
 *     and filters and names no OPTIONS file
 */
public record PinningDecision(PartitionPinning requested, boolean pinned,
    long estimatedMetadataBytes, long budgetBytes) {
}
