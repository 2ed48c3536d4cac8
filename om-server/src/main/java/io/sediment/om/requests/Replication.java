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
}
