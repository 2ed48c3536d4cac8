package io.sediment.om.ha;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.requests.ReadGate;
import io.sediment.om.requests.Replication;
import io.sediment.om.requests.WritePath;
import io.sediment.proto.om.GetReplicationStatusResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * What a gRPC server over a replica's store needs ({@link Replication}): the replicated write
 * path, the read gate and the replica's status.
 *
 * <p>Thread-safe.
 */
public final class ReplicaRequests implements Replication {

  private final OmReplica replica;
  private final ReplicatedWritePath writes;
  private final ReplicatedReadGate reads;

  /** Requests to {@code replica}, whose store is {@code store}; entry times from {@code clock}. */
  public ReplicaRequests(OmReplica replica, OmMetadataStore store, Clock clock) {
    this.replica = replica;
    this.writes = new ReplicatedWritePath(replica, store, clock);
    this.reads = new ReplicatedReadGate(replica, writes);
  }

  @Override
  public WritePath writes() {
    return writes;
  }

  @Override
  public ReadGate reads() {
    return reads;
  }

  @Override
  public void transferLeader(String toReplica, java.time.Duration timeout) {
    replica.transferLeadership(toReplica, timeout);
  }

  @Override
  public List<io.sediment.proto.om.GroupMember> addPeer(String replicaId, String host, int raftPort, int rpcPort,
      Duration timeout) {
    // The --peers grammar validates the id, host and ports as serve does.
    HaPeers.Peer peer = HaPeers.parse(replicaId + "=" + host + ":" + raftPort + ":" + rpcPort)
        .all().get(0);
    replica.addPeer(peer, timeout);
    return members();
  }

  @Override
  public List<io.sediment.proto.om.GroupMember> removePeer(String replicaId, Duration timeout) {
    replica.removePeer(replicaId, timeout);
    return members();
  }

  private List<io.sediment.proto.om.GroupMember> members() {
    return replica.members().stream().map(ReplicaRequests::toProto).toList();
  }

  private static io.sediment.proto.om.GroupMember toProto(GroupMember m) {
    return io.sediment.proto.om.GroupMember.newBuilder().setReplicaId(m.id()).setRaftAddress(m.raftAddress())
        .setRpcAddress(m.rpcAddress() == null ? "" : m.rpcAddress()).build();
  }

  /** The background services' steps, run by the leader through the log. */
  public ReplicatedPurgeSteps purgeSteps() {
    return new ReplicatedPurgeSteps(replica, writes);
  }

  /** Ratis' own metrics of this replica ({@link RatisMetrics}). */
  @Override
  public java.util.List<io.prometheus.metrics.model.registry.MultiCollector> metrics() {
    return java.util.List.of(new RatisMetrics(replica.options()));
  }

  @Override
  public GetReplicationStatusResponse status() {
    ReplicaStatus s = replica.status();
    return GetReplicationStatusResponse.newBuilder()
        .setReplicated(true)
        .setReplicaId(s.id())
        .setRole(s.role())
        .setTerm(s.term())
        .setLeaderId(s.leaderId() == null ? "" : s.leaderId())
        .setLeaderAddress(s.leaderAddress() == null ? "" : s.leaderAddress())
        .setCommitIndex(s.commitIndex())
        .setAppliedIndex(s.appliedIndex())
        .putAllFollowerMatchIndex(s.followerMatchIndex())
        .addAllMembers(members())
        .build();
  }
}
