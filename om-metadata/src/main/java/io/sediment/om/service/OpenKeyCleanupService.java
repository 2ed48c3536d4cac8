package io.sediment.om.service;

import io.sediment.om.purge.OmPurges;
import java.time.Duration;

/**
 * Expires keys and files opened for writing but never committed: each run examines up to
 * {@code limit} rows of openKeyTable ({@link OmPurges#expireOpenKeys}) and up to {@code limit} of
 * openFileTable ({@link OmPurges#expireOpenFiles}), each resuming after its own cursor, and
 * removes those created at least {@code expireThreshold} ago by the store's clock.
 */
public final class OpenKeyCleanupService extends ExpiryService {

  public static final String NAME = "OpenKeyCleanupService";

  /**
   * @param expireThreshold age (since opening) from which an open key or file expires
   * @param limit rows examined per table per batch, 1 to {@link OmPurges#MAX_LIMIT}
   */
  public OpenKeyCleanupService(PurgeSteps steps, Duration interval, Duration expireThreshold,
      int limit) {
    this(steps, interval, expireThreshold, limit, PurgePacing.unpaced());
  }

  /** As above, with {@code pacing} for the batches of a run. */
  public OpenKeyCleanupService(PurgeSteps steps, Duration interval, Duration expireThreshold,
      int limit, PurgePacing pacing) {
    super(NAME, steps, interval, expireThreshold, limit, pacing);
  }

  /** Whether either table's step of the latest batch expired a full limit (run thread only). */
  private boolean full;

  @Override
  protected long runTask() {
    long keys = steps.expireOpenKeys(expireThreshold, limit);
    long files = steps.expireOpenFiles(expireThreshold, limit);
    full = keys >= limit || files >= limit;
    return keys + files;
  }

  @Override
  protected boolean moreAfter(long items) {
    return full;
  }
}
