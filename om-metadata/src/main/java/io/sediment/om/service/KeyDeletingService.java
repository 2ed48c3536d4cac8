package io.sediment.om.service;

import io.sediment.om.purge.OmPurges;
import java.time.Duration;
import java.util.Objects;

/**
 * Purges deletedTable rows (deleted and overwritten versions, replaced and discarded multipart
 * parts): each batch is one {@link OmPurges#purgeDeletedKeys} step of up to {@code batchSize}
 * rows, resuming after the previous one's cursor; a run takes batches, paced, while they come
 * back full. Counters DELETED_KEYS and DELETED_KEY_BYTES go down in the same write.
 */
public final class KeyDeletingService extends BackgroundService {

  public static final String NAME = "KeyDeletingService";

  private final PurgeSteps steps;
  private final int batchSize;

  /**
   * @param batchSize rows per batch, 1 to {@link OmPurges#MAX_LIMIT}
   */
  public KeyDeletingService(PurgeSteps steps, Duration interval, int batchSize) {
    this(steps, interval, batchSize, PurgePacing.unpaced());
  }

  /**
   * @param batchSize rows per batch, 1 to {@link OmPurges#MAX_LIMIT}
   * @param pacing how the batches of a run are paced
   */
  public KeyDeletingService(PurgeSteps steps, Duration interval, int batchSize,
      PurgePacing pacing) {
    super(NAME, interval, pacing);
    this.steps = Objects.requireNonNull(steps, "steps");
    this.batchSize = checkLimit(batchSize, "batchSize");
  }

  @Override
  protected long runTask() {
    return steps.purgeDeletedKeys(batchSize);
  }

  @Override
  protected boolean moreAfter(long items) {
    return items >= batchSize;
  }
}
