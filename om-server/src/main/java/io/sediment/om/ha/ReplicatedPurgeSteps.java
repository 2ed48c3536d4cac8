package io.sediment.om.ha;

import io.sediment.om.requests.NotLeaderException;
import io.sediment.om.service.PurgeSteps;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.PurgeStep;
import io.sediment.proto.om.PurgeStepResult;
import java.time.Duration;
import java.util.Objects;

/**
 * The background services' steps in a replicated group: only the leader runs them, each as one log
 * entry ({@link PurgeStep}) that every replica applies in log order with the entry's time as "now"
 * (so every replica purges, expires and aborts exactly the same rows). On a follower a step does
 * nothing and returns 0; each replica's tombstone tracking and compactions stay local.
 *
 * <p>Thread-safe.
 */
public final class ReplicatedPurgeSteps implements PurgeSteps {

  private final OmReplica replica;
  private final ReplicatedWritePath writes;

  public ReplicatedPurgeSteps(OmReplica replica, ReplicatedWritePath writes) {
    this.replica = Objects.requireNonNull(replica, "replica");
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  @Override
  public long purgeDeletedKeys(int limit) {
    return run(PurgeStep.Kind.PURGE_DELETED_KEYS, limit, Duration.ZERO);
  }

  @Override
  public long expireOpenKeys(Duration threshold, int limit) {
    return run(PurgeStep.Kind.EXPIRE_OPEN_KEYS, limit, threshold);
  }

  @Override
  public long expireOpenFiles(Duration threshold, int limit) {
    return run(PurgeStep.Kind.EXPIRE_OPEN_FILES, limit, threshold);
  }

  @Override
  public long abortExpiredUploads(Duration threshold, int limit) {
    return run(PurgeStep.Kind.ABORT_EXPIRED_UPLOADS, limit, threshold);
  }

  @Override
  public long purgeDeletedDirectories(int limit) {
    return run(PurgeStep.Kind.PURGE_DELETED_DIRECTORIES, limit, Duration.ZERO);
  }

  private long run(PurgeStep.Kind kind, int limit, Duration threshold) {
    if (!replica.isLeader()) {
      return 0;
    }
    try {
      return writes.write(OmLogEntry.newBuilder().setPurgeStep(PurgeStep.newBuilder()
              .setKind(kind).setLimit(limit).setThresholdMillis(threshold.toMillis())),
          PurgeStepResult.parser()).getPurged();
    } catch (NotLeaderException e) {
      return 0; // lost the leadership meanwhile: the new leader's schedule takes over
    }
  }
}
