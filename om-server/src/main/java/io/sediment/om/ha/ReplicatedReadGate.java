package io.sediment.om.ha;

import io.sediment.om.requests.NotLeaderException;
import io.sediment.om.requests.ReadGate;
import java.util.Objects;

/**
 * Reads on a replica. On the leader: a read index barrier ({@link OmReplica#readBarrier}) before
 * every read, so it sees every write acknowledged before it began (linearizable). On a follower:
 * refused with the leader's address, or, with {@link HaOptions#followerReads}, served from what
 * this replica has applied: it may miss writes acknowledged in the last moments (at most its
 * {@link ReplicaStatus#applyLag()} plus what it has not received yet, normally one heartbeat).
 *
 * <p>Thread-safe.
 */
public final class ReplicatedReadGate implements ReadGate {

  private final OmReplica replica;
  private final ReplicatedWritePath writes;

  public ReplicatedReadGate(OmReplica replica, ReplicatedWritePath writes) {
    this.replica = Objects.requireNonNull(replica, "replica");
    this.writes = Objects.requireNonNull(writes, "writes");
  }

  @Override
  public void beforeRead() {
    if (!replica.isLeader()) {
      if (replica.options().followerReads()) {
        return;
      }
      ReplicaStatus s = replica.status();
      throw new NotLeaderException(replica.id(), s.leaderId(), s.leaderAddress());
    }
    try {
      replica.readBarrier();
    } catch (NotLeaderException e) {
      if (replica.options().followerReads()) {
        return;
      }
      throw e;
    }
    writes.ensureGroupTokenSecret();
  }
}
