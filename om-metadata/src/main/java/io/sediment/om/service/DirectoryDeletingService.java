package io.sediment.om.service;

import java.time.Duration;
import java.util.Objects;

/**
 * Purges the subtrees of recursively deleted FSO directories: each batch is one
 * {@link io.sediment.om.fso.FsoNamespace#purgeDeletedDirectories} step of up to {@code batchSize}
 * rows (a run takes batches, paced, while they come back full), depth
 * first through whole subtrees whatever their depth (children go with one range delete per
 * directory and table; files move to deletedTable for the {@link KeyDeletingService}), resuming
 * after the previous step's persisted cursor.
 */
public final class DirectoryDeletingService extends BackgroundService {

  public static final String NAME = "DirectoryDeletingService";

  private final PurgeSteps steps;
  private final int batchSize;

  /**
   * @param batchSize rows per batch, 1 to {@link io.sediment.om.purge.OmPurges#MAX_LIMIT}
   */
  public DirectoryDeletingService(PurgeSteps steps, Duration interval, int batchSize) {
    this(steps, interval, batchSize, PurgePacing.unpaced());
  }

  /**
   * @param batchSize rows per batch, 1 to {@link io.sediment.om.purge.OmPurges#MAX_LIMIT}
   * @param pacing how the batches of a run are paced
   */
  public DirectoryDeletingService(PurgeSteps steps, Duration interval, int batchSize,
      PurgePacing pacing) {
    super(NAME, interval, pacing);
    this.steps = Objects.requireNonNull(steps, "steps");
    this.batchSize = checkLimit(batchSize, "batchSize");
  }

  @Override
  protected long runTask() {
    return steps.purgeDeletedDirectories(batchSize);
  }

  @Override
  protected boolean moreAfter(long items) {
    return items >= batchSize;
  }
}
