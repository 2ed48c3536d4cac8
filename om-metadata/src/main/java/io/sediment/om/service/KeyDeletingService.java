package io.sediment.om.service;

import io.sediment.om.purge.OmPurges;
import java.time.Duration;
import java.util.Objects;

/**
 * Purges deletedTable rows (deleted and overwritten versions, replaced and discarded multipart
 * parts): each run is one {@link OmPurges#purgeDeletedKeys} transaction of up to
 * {@code batchSize} rows, resuming after the previous run's cursor. Counters DELETED_KEYS and
 * DELETED_KEY_BYTES go down in the same batch.
 */
public final class KeyDeletingService extends BackgroundService {

  public static final String NAME = "KeyDeletingService";

  private final PurgeSteps steps;
  private final int batchSize;

  /**
   * @param batchSize rows per run, 1 to {@link OmPurges#MAX_LIMIT}
   */
  public KeyDeletingService(PurgeSteps steps, Duration interval, int batchSize) {
    super(NAME, interval);
    this.steps = Objects.requireNonNull(steps, "steps");
    this.batchSize = checkLimit(batchSize, "batchSize");
  }

  @Override
  protected long runTask() {
    return steps.purgeDeletedKeys(batchSize);
  }
}
