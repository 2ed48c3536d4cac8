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
   * @param limit rows examined per table per run, 1 to {@link OmPurges#MAX_LIMIT}
   */
  public OpenKeyCleanupService(PurgeSteps steps, Duration interval, Duration expireThreshold,
      int limit) {
    super(NAME, steps, interval, expireThreshold, limit);
  }

  @Override
  protected long runTask() {
    return steps.expireOpenKeys(expireThreshold, limit)
        + steps.expireOpenFiles(expireThreshold, limit);
  }
}
