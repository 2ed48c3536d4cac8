package io.sediment.om.ha;

import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.requests.NotLeaderException;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmLogReply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * One replica of a replicated Sediment OM: a Ratis server in the group {@link HaOptions} names,
 * whose state machine ({@link OmStateMachine}) applies the group's log to this replica's store.
 * Submits writes (on the leader) and read barriers, and reports the replica's role and progress.
 *
 * <p>The store is the caller's: opened before {@link #start} and closed after {@link #close}.
 * Thread-safe.
 */
public final class OmReplica implements AutoCloseable {

  private final HaOptions options;
  private final RaftServer server;
  private final RaftGroup group;
  /** The Ratis client id of requests that carry none of their own. */
  private final ClientId localClient = ClientId.randomId();
  private final AtomicLong localCallIds = new AtomicLong();

  private OmReplica(HaOptions options, RaftServer server, RaftGroup group) {
    this.options = options;
    this.server = server;
    this.group = group;
  }

  /**
   * Starts this replica's Raft server over {@code store} and joins the group (recovering its log
   * from {@link HaOptions#storageDir} if there is one). Returns at once; a leader is elected in
   * the background (see {@link #awaitLeader}).
   *
   * @throws UncheckedIOException if the Raft server cannot start (its port is taken, its storage
   *     directory is unusable)
   */
  public static OmReplica start(OmMetadataStore store, HaOptions options) {
    List<RaftPeer> peers = new ArrayList<>();
    for (HaPeers.Peer p : options.peers().all()) {
      peers.add(RaftPeer.newBuilder().setId(p.id()).setAddress(p.raftAddress()).build());
    }
    RaftGroup group = RaftGroup.valueOf(groupId(options.groupName()), peers);
    RaftServer server = null;
    try {
      server = RaftServer.newBuilder()
          .setServerId(RaftPeerId.valueOf(options.selfId()))
          .setGroup(group)
          .setStateMachine(new OmStateMachine(store, new SnapshotInstall(store,
              options.selfId(), options.peers()::rpcAddressOf, SnapshotInstall.DOWNLOAD_TIMEOUT)))
          .setProperties(properties(options))
          .setOption(RaftStorage.StartupOption.RECOVER)
          .build();
      server.start();
    } catch (IOException | RuntimeException e) {
      if (server != null) {
        try {
          server.close();
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw new UncheckedIOException("Cannot start replica " + options.selfId() + " ("
          + options.peers().require(options.selfId()).raftAddress() + ", log in "
          + options.storageDir() + "): " + e.getMessage(), (IOException) e);
    }
    return new OmReplica(options, server, group);
  }

  /** Ratis' group id for a group name: the same on every replica that uses the name. */
  static RaftGroupId groupId(String name) {
    return RaftGroupId.valueOf(
        UUID.nameUUIDFromBytes(("sediment-om-group:" + name).getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * The Ratis properties a replica with options {@code o} runs with (a fresh object each call).
   * Public so that a benchmark can run a bare Ratis group configured exactly like the replicas.
   */
  public static RaftProperties properties(HaOptions o) {
    RaftProperties p = new RaftProperties();
    RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
    GrpcConfigKeys.Server.setPort(p, o.peers().require(o.selfId()).raftPort());
    RaftServerConfigKeys.setStorageDir(p, List.of(o.storageDir().toFile()));
    long min = o.electionTimeoutMin().toMillis();
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(min, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2 * min, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setTimeout(p,
        TimeDuration.valueOf(o.requestTimeout().toMillis(), TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, o.snapshotEvery());
    // Without this a replica that is down pins the leader's log for ever.
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    // Only whole closed segments are purged: about one segment per snapshot interval lets the
    // log behind a snapshot go (entries are a few hundred bytes), within Ratis' usual sizes.
    long segment = Math.min(32L << 20, Math.max(8L << 10, o.snapshotEvery() * 512));
    RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(segment));
    RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(o.snapshotEvery(), 1024));
    // The store is the snapshot: a replica behind the purged log is told to install one rather
    // than sent files by Ratis.
    RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, false);
    return p;
  }

  /** This replica's id. */
  public String id() {
    return options.selfId();
  }

  /** The options this replica started with. */
  public HaOptions options() {
    return options;
  }

  /** Whether this replica is the leader and ready to take writes. */
  public boolean isLeader() {
    DivisionInfo info = division().getInfo();
    return info.isLeader() && info.isLeaderReady();
  }

  /**
   * Waits until the group has a ready leader, up to {@code timeout}; returns its id, or null if
   * none was elected in time.
   */
  public String awaitLeader(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      ReplicaStatus s = status();
      if (s.leaderId() != null && (!s.role().equals("LEADER") || isLeader())) {
        return s.leaderId();
      }
      Thread.sleep(20);
    }
    return null;
  }

  /**
   * Appends {@code entry} to the group's log (this replica must be the leader) and waits until
   * it is committed and applied here; returns what applying it returned.
   *
   * @param clientId the Ratis client id of the request's sender, or null for this replica's own
   * @param callId the sender's call id (with {@code clientId}: Ratis' retry cache answers a
   *     repeated request with the first one's reply instead of applying it twice)
   * @throws NotLeaderException if this replica is not (or no longer) the leader: nothing was
   *     appended, or an entry appended just before it stepped down may still be committed by
   *     the next leader (a retry with the same ids is answered from the retry cache)
   * @throws OmException UNAVAILABLE if the group did not commit it within the request timeout
   *     (it may still be applied later)
   */
  public OmLogReply submit(OmLogEntry entry, ClientId clientId, long callId) {
    RaftClientReply reply = send(RaftClientRequest.writeRequestType(),
        Message.valueOf(UnsafeByteOperations.unsafeWrap(entry.toByteArray())), clientId, callId);
    try {
      return OmLogReply.parseFrom(reply.getMessage().getContent().asReadOnlyByteBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmException.Code.INTERNAL, "Unreadable reply to log entry "
          + reply.getLogIndex() + ": " + e.getMessage(), e);
    }
  }

  /** A fresh call id under this replica's own client id (for requests that carry none). */
  public long nextLocalCallId() {
    return localCallIds.incrementAndGet();
  }

  /**
   * Returns once this replica has applied every entry committed before the call, as confirmed by
   * a majority (Raft's read index): a read of the store after it is linearizable.
   *
   * @throws NotLeaderException if this replica is not the leader
   * @throws OmException UNAVAILABLE if the group did not confirm within the request timeout
   */
  public void readBarrier() {
    send(RaftClientRequest.readRequestType(), Message.EMPTY, null, nextLocalCallId());
  }

  private RaftClientReply send(RaftClientRequest.Type type, Message message, ClientId clientId,
      long callId) {
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(clientId == null ? localClient : clientId)
        .setServerId(server.getId())
        .setGroupId(group.getGroupId())
        .setCallId(callId)
        .setMessage(message)
        .setType(type)
        .build();
    RaftClientReply reply;
    try {
      reply = server.submitClientRequestAsync(request)
          .get(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException e) {
      throw unavailable("this replica is not running: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("interrupted while waiting for the group", e);
    } catch (ExecutionException e) {
      throw unavailable("the group failed the request: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw unavailable("the group did not answer within " + options.requestTimeout()
          + " (no majority?); a write may still be applied later", e);
    }
    if (reply.isSuccess()) {
      return reply;
    }
    org.apache.ratis.protocol.exceptions.NotLeaderException notLeader =
        reply.getNotLeaderException();
    if (notLeader != null) {
      RaftPeer leader = notLeader.getSuggestedLeader();
      String leaderId = leader == null ? null : leader.getId().toString();
      throw new NotLeaderException(id(), leaderId,
          leaderId == null ? null : options.peers().rpcAddressOf(leaderId));
    }
    if (reply.getException() instanceof LeaderNotReadyException) {
      throw unavailable("this replica was just elected leader and is not ready yet: retry", null);
    }
    throw unavailable("the group failed the request: " + reply.getException(),
        reply.getException());
  }

  private static OmException unavailable(String why, Throwable cause) {
    return new OmException(OmException.Code.UNAVAILABLE, why, cause);
  }

  /**
   * Hands the group's leadership to replica {@code toId} (this replica must lead) and returns
   * once it has taken over.
   *
   * @throws NotLeaderException if this replica is not the leader
   * @throws OmException FAILED_PRECONDITION for an id not in the group, or when the new leader
   *     was not elected within {@code timeout}
   */
  public void transferLeadership(String toId, Duration timeout) {
    if (options.peers().all().stream().noneMatch(p -> p.id().equals(toId))) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Replica '" + toId
          + "' is not in the group " + options.peers());
    }
    if (!isLeader()) {
      ReplicaStatus s = status();
      throw new NotLeaderException(id(), s.leaderId(), s.leaderAddress());
    }
    if (toId.equals(id())) {
      return;
    }
    TransferLeadershipRequest request = new TransferLeadershipRequest(localClient,
        server.getId(), group.getGroupId(), nextLocalCallId(), RaftPeerId.valueOf(toId),
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
      throw unavailable("interrupted while handing over the leadership", e);
    }
    if (!reply.isSuccess()) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "Leadership did not pass to "
          + toId + ": " + reply.getException(), reply.getException());
    }
  }

  /** This replica's role and progress now. */
  public ReplicaStatus status() {
    RaftServer.Division d = division();
    DivisionInfo info = d.getInfo();
    RaftPeerId leader = info.getLeaderId();
    Map<String, Long> followerMatch = new java.util.TreeMap<>();
    if (info.isLeader()) {
      // Keyed by the peer each figure belongs to (Ratis' own follower order is not the group's).
      for (CommitInfoProto c : d.getCommitInfos()) {
        String peer = RaftPeerId.valueOf(c.getServer().getId()).toString();
        if (!peer.equals(id())) {
          followerMatch.put(peer, c.getCommitIndex());
        }
      }
    }
    // A replica whose own storage failed has its Raft server stopped (see OmStateMachine).
    String role = info.isAlive() ? info.getCurrentRole().name() : ReplicaStatus.STOPPED;
    return new ReplicaStatus(id(), role, info.getCurrentTerm(),
        leader == null ? null : leader.toString(),
        leader == null ? null : options.peers().rpcAddressOf(leader.toString()),
        d.getRaftLog().getLastCommittedIndex(), info.getLastAppliedIndex(), followerMatch);
  }

  /** The index of the first entry this replica's Raft log still holds (the rest was purged). */
  long logStartIndex() {
    return division().getRaftLog().getStartIndex();
  }

  private RaftServer.Division division() {
    try {
      return server.getDivision(group.getGroupId());
    } catch (IOException e) {
      throw unavailable("this replica's Raft server is not running: " + e.getMessage(), e);
    }
  }

  /** Leaves the group: stops the Raft server (its log stays on disk for a restart). */
  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop replica " + id(), e);
    }
  }
}
