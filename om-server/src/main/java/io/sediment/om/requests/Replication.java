package io.sediment.om.requests;

import io.sediment.proto.om.GetReplicationStatusResponse;

/**
 * What a server needs of the replicated group its store belongs to: where writes go, what reads
 * must pass, and how this replica stands. A single-node server has none.
 *
 * <p>Implementations are thread-safe.
 */
public interface Replication {

  /** The replicated write path. */
  WritePath writes();

  /** What every read passes first. */
  ReadGate reads();

  /** This replica's role and progress now. */
  GetReplicationStatusResponse status();

  /**
   * Hands the leadership to replica {@code toReplica} and returns once it leads.
   *
   * @throws NotLeaderException if this replica is not the leader
   * @throws io.sediment.om.core.OmException FAILED_PRECONDITION for an unknown replica or one
   *     that did not take over within {@code timeout}
   */
  void transferLeader(String toReplica, java.time.Duration timeout);

  /**
   * Metrics of the replication machinery itself, which the server registers on its metrics
   * registry next to its own (none by default).
   */
  default java.util.List<io.prometheus.metrics.model.registry.MultiCollector> metrics() {
    return java.util.List.of();
  }

  /**
   * Adds replica {@code replicaId} (Raft at {@code host:raftPort}, OmService at
   * {@code host:rpcPort}) to the group, and returns the members once the change is committed.
   *
   * @throws NotLeaderException if this replica is not the leader
   * @throws IllegalArgumentException for a malformed id, host or port (nothing changed)
   * @throws io.sediment.om.core.OmException FAILED_PRECONDITION if the group refused the change
   *     (nothing changed), UNAVAILABLE if it did not finish within {@code timeout}
   */
  java.util.List<io.sediment.proto.om.GroupMember> addPeer(String replicaId, String host,
      int raftPort, int rpcPort, java.time.Duration timeout);

  /**
   * Removes replica {@code replicaId} from the group, and returns the members once the change is
   * committed.
   *
   * @throws NotLeaderException if this replica is not the leader
   * @throws io.sediment.om.core.OmException FAILED_PRECONDITION if the group refused the change
   *     (nothing changed), UNAVAILABLE if it did not finish within {@code timeout}
   */
  java.util.List<io.sediment.proto.om.GroupMember> removePeer(String replicaId,
      java.time.Duration timeout);
}
