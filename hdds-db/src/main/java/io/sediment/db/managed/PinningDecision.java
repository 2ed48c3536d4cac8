package io.sediment.db.managed;

import io.sediment.db.managed.DBProfile.PartitionPinning;
import java.nio.file.Path;

/**
 * Whether a store pins its index and filter partitions for as long as it is open, and why.
 *
 * @param requested the profile's {@link DBProfile#partitionPinning()}
 * @param pinned whether every partition of every open file stays pinned
 * @param estimatedMetadataBytes index and filter bytes of the files on disk when the store
 *     opened ({@link MetadataFootprint}); -1 unless {@code requested} is {@code AUTO} and the
 *     profile partitions index and filters
 * @param budgetBytes {@link DBProfile#autoPinCacheFraction()} of the block cache, the most that
 *     {@code AUTO} pins; -1 when {@code estimatedMetadataBytes} is
 */
public record PinningDecision(PartitionPinning requested, boolean pinned,
    long estimatedMetadataBytes, long budgetBytes) {

  /** Decides for a store about to open at {@code dir} with {@code profile}. */
  static PinningDecision decide(DBProfile profile, Path dir) {
    PartitionPinning requested = profile.partitionPinning();
    if (requested != PartitionPinning.AUTO || !profile.partitionedIndexAndFilters()) {
      return new PinningDecision(requested, requested == PartitionPinning.ALL, -1, -1);
    }
    long budget = (long) (profile.blockCacheBytes() * profile.autoPinCacheFraction());
    long estimate = MetadataFootprint.estimate(dir);
    return new PinningDecision(requested, estimate <= budget, estimate, budget);
  }
}
