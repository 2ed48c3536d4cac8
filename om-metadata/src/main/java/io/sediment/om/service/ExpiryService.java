package io.sediment.om.service;

import io.sediment.om.purge.OmPurges;
import java.time.Duration;
import java.util.Objects;

/**
 * A cleanup that removes what has waited at least {@code expireThreshold} (store clock), examining
 * at most {@code limit} rows per batch through {@link OmPurges}; a run goes on with another batch
 * while one expired a full {@code limit}. Arguments are checked on construction.
 */
abstract class ExpiryService extends BackgroundService {

  protected final PurgeSteps steps;
  protected final Duration expireThreshold;
  protected final int limit;

  /**
   * @param expireThreshold age from which an entry expires, positive
   * @param limit rows examined per batch, 1 to {@link OmPurges#MAX_LIMIT}
   */
  ExpiryService(String name, PurgeSteps steps, Duration interval, Duration expireThreshold,
      int limit, PurgePacing pacing) {
    super(name, interval, pacing);
    this.steps = Objects.requireNonNull(steps, "steps");
    this.expireThreshold = checkThreshold(expireThreshold);
    this.limit = checkLimit(limit, "limit");
  }

  @Override
  protected boolean moreAfter(long items) {
    return items >= limit;
  }
}
