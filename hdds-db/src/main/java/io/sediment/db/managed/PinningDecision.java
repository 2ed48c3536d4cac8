package io.sediment.db.managed;

import io.sediment.db.managed.DBProfile.PartitionPinning;
import java.nio.file.Path;

/**
 * Whether a store pins its index and filter partitions for as long as it is open, and why.
 *
 * @param requested the profile's {@link DBProfile#partitionPinning()}
 * @param pinned whether every partition of every open file stays pinned
 * @param estimatedMetadataBytes index and filter bytes of the files on disk when the store
 *     opened ({@link MetadataFootprint}); -1 when the directory could not be listed, or when
 *     nothing was estimated ({@code budgetBytes} is -1 then too)
 * @param budgetBytes {@link DBProfile#autoPinCacheFraction()} of the block cache, the most that
 *     {@code AUTO} pins; -1 unless {@code requested} is {@code AUTO}, the profile partitions index
 *     and filters and names no OPTIONS file
 */
public record PinningDecision(PartitionPinning requested, boolean pinned,
    long estimatedMetadataBytes, long budgetBytes) {

  /**
   * Decides for a store about to open at {@code dir} with {@code profile}. {@code AUTO} pins when
   * there are files whose index and filters take at most the budget: a store without files (a new
   * one) does not pin, since nothing tells how large it will grow while open, and neither does one
   * whose directory cannot be listed. With an OPTIONS file {@code AUTO} estimates nothing and does
   * not pin (the file's tables pin as it says).
   */
  static PinningDecision decide(DBProfile profile, Path dir) {
    PartitionPinning requested = profile.partitionPinning();
    if (requested != PartitionPinning.AUTO || !profile.partitionedIndexAndFilters()
        || profile.optionsFile().isPresent()) {
      return new PinningDecision(requested, requested == PartitionPinning.ALL, -1, -1);
    }
    long budget = (long) (profile.blockCacheBytes() * profile.autoPinCacheFraction());
    long estimate = MetadataFootprint.estimate(dir);
    return new PinningDecision(requested, estimate > 0 && estimate <= budget, estimate, budget);
  }
}
