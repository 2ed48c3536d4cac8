package io.sediment.om.service;

import io.sediment.om.purge.OmPurges;
import java.time.Duration;

/**
 * Aborts multipart uploads initiated at least {@code expireThreshold} ago (store clock) and never
 * completed: each run examines up to {@code limit} uploads ({@link OmPurges#abortExpiredUploads}),
 * resuming after the previous run's cursor; aborted uploads' parts go to deletedTable.
 */
public final class MultipartUploadCleanupService extends ExpiryService {

  public static final String NAME = "MultipartUploadCleanupService";

  /**
   * @param expireThreshold age (since initiation) from which an upload is aborted
   * @param limit uploads examined per batch, 1 to {@link OmPurges#MAX_LIMIT}
   */
  public MultipartUploadCleanupService(PurgeSteps steps, Duration interval,
      Duration expireThreshold, int limit) {
    this(steps, interval, expireThreshold, limit, PurgePacing.unpaced());
  }

  /** As above, with {@code pacing} for the batches of a run. */
  public MultipartUploadCleanupService(PurgeSteps steps, Duration interval,
      Duration expireThreshold, int limit, PurgePacing pacing) {
    super(NAME, steps, interval, expireThreshold, limit, pacing);
  }

  @Override
  protected long runTask() {
    return steps.abortExpiredUploads(expireThreshold, limit);
  }
}
