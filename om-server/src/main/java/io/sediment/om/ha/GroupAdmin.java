package io.sediment.om.ha;

import io.sediment.om.core.OmException;
import io.sediment.om.requests.NotLeaderException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.protocol.exceptions.ReconfigurationInProgressException;
import org.apache.ratis.protocol.exceptions.ReconfigurationTimeoutException;
import org.apache.ratis.protocol.exceptions.SetConfigurationException;
import org.apache.ratis.server.RaftServer;

/**
 * A group's administration, done on its leader: changes to its voting members (one Ratis
 * configuration change at a time, in compare-and-set mode against the members the leader just
 * read) and handing the leadership over. The contracts are {@link OmReplica#addPeer},
 * {@link OmReplica#removePeer} and {@link OmReplica#transferLeadership}. Thread-safe (Ratis
 * serializes the changes; a second one while the first is in progress is refused).
 */
final class GroupAdmin {

  private final OmReplica replica;
  private final RaftServer server;
  private final RaftGroup group;
  private final ClientId localClient;

  GroupAdmin(OmReplica replica, RaftServer server, RaftGroup group, ClientId localClient) {
    this.replica = replica;
    this.server = server;
    this.group = group;
    this.localClient = localClient;
  }

  void add(HaPeers.Peer peer, Duration timeout) {
    List<RaftPeer> current = stableConfigurationOnLeader();
    for (RaftPeer p : current) {
      if (p.getId().toString().equals(peer.id())) {
        throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + peer.id()
            + "' is in the group already (" + memberIds(replica.members()) + ")");
      }
      if (p.getAddress().equals(peer.raftAddress())) {
        throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + p.getId()
            + "' of the group listens on " + peer.raftAddress() + " already");
      }
    }
    List<RaftPeer> next = new ArrayList<>(current);
    next.add(OmReplica.raftPeer(peer));
    setConfiguration(current, next, "add replica " + peer.id(), timeout);
  }

  void remove(String replicaId, Duration timeout) {
    List<RaftPeer> current = stableConfigurationOnLeader();
    List<RaftPeer> next = new ArrayList<>(current);
    if (!next.removeIf(p -> p.getId().toString().equals(replicaId))) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + replicaId
          + "' is not in the group (" + memberIds(replica.members()) + ")");
    }
    if (next.isEmpty()) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + replicaId
          + "' is the group's last member: a group cannot lose its last replica");
    }
    if (replicaId.equals(replica.id())) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + replicaId
          + "' is the leader: transfer the leadership to another replica first, then remove it "
          + "through the new leader");
    }
    setConfiguration(current, next, "remove replica " + replicaId, timeout);
  }

  /**
   * The leader's current voting members.
   *
   * @throws NotLeaderException on a follower
   * @throws OmException FAILED_PRECONDITION while a configuration change is in progress
   */
  private List<RaftPeer> stableConfigurationOnLeader() {
    if (!replica.isLeader()) {
      ReplicaStatus s = replica.status();
      throw new NotLeaderException(replica.id(), s.leaderId(), s.leaderAddress());
    }
    var conf = replica.division().getRaftConf();
    if (!conf.getPreviousPeers().isEmpty()) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Another membership change is "
          + "in progress (" + conf + "): retry once it is done");
    }
    return new ArrayList<>(conf.getCurrentPeers());
  }

  /**
   * Replaces the voting members {@code current} with {@code next}, if the group's members are
   * still {@code current} (Ratis compares them, so a change made meanwhile by someone else fails
   * this one instead of being undone). Always the list form of the request: Ratis 3.2.2's array
   * form of the admin call drops the servers.
   */
  private void setConfiguration(List<RaftPeer> current, List<RaftPeer> next, String what,
      Duration timeout) {
    SetConfigurationRequest request = new SetConfigurationRequest(localClient, server.getId(),
        group.getGroupId(), replica.nextLocalCallId(), SetConfigurationRequest.Arguments.newBuilder()
            .setServersInCurrentConf(current)
            .setServersInNewConf(next)
            .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
            .build());
    RaftClientReply reply;
    try {
      reply = server.setConfigurationAsync(request)
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      // Refused up front (another change in progress, the members changed meanwhile).
      throw refused(what, e);
    } catch (ExecutionException e) {
      throw refused(what, e.getCause());
    } catch (TimeoutException e) {
      throw OmReplica.unavailable("Could not " + what + " within " + timeout + ": the change may still "
          + "complete; look at the members in `ha status`", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw OmReplica.unavailable("interrupted while waiting to " + what, e);
    }
    if (reply.isSuccess()) {
      return;
    }
    if (reply.getNotLeaderException() != null) {
      ReplicaStatus s = replica.status();
      throw new NotLeaderException(replica.id(), s.leaderId(), s.leaderAddress());
    }
    throw refused(what, reply.getException());
  }

  /** A configuration change Ratis refused or gave up on. */
  private static OmException refused(String what, Throwable cause) {
    String why = cause instanceof ReconfigurationTimeoutException
        ? "the new replica did not catch up (is it running, started with --ha-join?): " : "";
    // These three are raised before the new configuration enters the log.
    boolean unchanged = cause instanceof ReconfigurationTimeoutException
        || cause instanceof ReconfigurationInProgressException
        || cause instanceof SetConfigurationException;
    return new OmException(OmException.Code.FAILED_PRECONDITION, "Cannot " + what + ": " + why
        + cause.getMessage() + (unchanged ? "; the group's members are unchanged"
            : "; look at the members in `ha status`"), cause);
  }

  private static String memberIds(List<GroupMember> members) {
    return members.stream().map(GroupMember::id).toList().toString();
  }

  void transferLeadership(String toId, Duration timeout) {
    List<GroupMember> members = replica.members();
    if (members.stream().noneMatch(m -> m.id().equals(toId))) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + toId
          + "' is not in the group " + memberIds(members));
    }
    if (!replica.isLeader()) {
      ReplicaStatus s = replica.status();
      throw new NotLeaderException(replica.id(), s.leaderId(), s.leaderAddress());
    }
    if (toId.equals(replica.id())) {
      return;
    }
    TransferLeadershipRequest request = new TransferLeadershipRequest(localClient,
        server.getId(), group.getGroupId(), replica.nextLocalCallId(), RaftPeerId.valueOf(toId),
        timeout.toMillis());
    RaftClientReply reply;
    try {
      reply = server.transferLeadershipAsync(request)
          .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (IOException | ExecutionException | TimeoutException e) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Leadership did not pass to "
          + toId + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw OmReplica.unavailable("interrupted while handing over the leadership", e);
    }
    if (!reply.isSuccess()) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Leadership did not pass to "
          + toId + ": " + reply.getException(), reply.getException());
    }
  }
}
