package io.sediment.om.ha;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.InsecureChannelCredentials;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * One replica of a replicated Sediment OM: a Ratis server in the group {@link HaOptions} names,
 * whose state machine ({@link OmStateMachine}) applies the group's log to this replica's store.
 * Submits writes (on the leader) and read barriers, and reports the replica's role and progress.
 *
 * <p>The store is the caller's: opened before {@link #start} and closed after {@link #close}.
 * Thread-safe.
 */
public final class OmReplica implements AutoCloseable {

  /** How long, and how often, a request is submitted again to a just-elected leader not ready. */
  static final Duration NOT_READY_PATIENCE = Duration.ofSeconds(2);
  static final Duration NOT_READY_RETRY = Duration.ofMillis(20);

  /** The least time a replica being added may stay silent before the change fails. */
  static final Duration STAGING_TIMEOUT_FLOOR = Duration.ofSeconds(10);

  private final HaOptions options;
  private final RaftServer server;
  private final RaftGroup group;
  /** The Ratis client id of requests that carry none of their own. */
  private final ClientId localClient = ClientId.randomId();
  private final AtomicLong localCallIds = new AtomicLong();
  private final GroupAdmin admin;

  private OmReplica(HaOptions options, RaftServer server, RaftGroup group) {
    this.options = options;
    this.server = server;
    this.group = group;
    this.admin = new GroupAdmin(this, server, group, localClient);
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
      peers.add(raftPeer(p));
    }
    return start(store, options, RaftGroup.valueOf(groupId(options.groupName()), peers));
  }

  /**
   * Starts this replica's Raft server over {@code store} as a replica about to be added to a
   * running group: with no members of its own, it elects nobody and waits until the group's
   * leader adds it ({@link #addPeer}) and sends it the log (or tells it to install a snapshot).
   * {@link HaOptions#peers} must name this replica (its Raft port); the other peers it names only
   * serve as leader hints until the group's configuration arrives. If this replica's log exists
   * already (it joined before), the configuration recorded there is used, as by {@link #start}.
   *
   * @throws UncheckedIOException if the Raft server cannot start
   */
  public static OmReplica join(OmMetadataStore store, HaOptions options) {
    return start(store, options, RaftGroup.valueOf(groupId(options.groupName())));
  }

  /**
   * The Ratis peer of {@code p}. Its client address is the replica's OmService address: Sediment
   * runs no Ratis client, so that field carries where this replica's own clients go, and every
   * replica learns it from the group's configuration (the leader hint for a replica added at
   * runtime, which no replica's {@code --peers} names).
   */
  static RaftPeer raftPeer(HaPeers.Peer p) {
    RaftPeer.Builder b = RaftPeer.newBuilder().setId(p.id()).setAddress(p.raftAddress());
    if (p.rpcAddress() != null) {
      b.setClientAddress(p.rpcAddress());
    }
    return b.build();
  }

  private static OmReplica start(OmMetadataStore store, HaOptions options, RaftGroup group) {
    CommonPoolParallelism.warnIfBelowMinimum();
    RaftServer server = null;
    try {
      server = RaftServer.newBuilder()
          .setServerId(RaftPeerId.valueOf(options.selfId()))
          .setGroup(group)
          .setStateMachine(new OmStateMachine(store, new SnapshotInstall(store,
              options.selfId(), options.peers()::rpcAddressOf, SnapshotInstall.DOWNLOAD_TIMEOUT,
              options.tls() == null ? InsecureChannelCredentials.create()
                  : options.tls().channelCredentials())))
          .setProperties(ReplicaProperties.of(options))
          .setParameters(ReplicaProperties.parameters(options))
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
    try {
      return submitAsync(entry, clientId, callId).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /**
   * {@link #submit}, completing later: the future holds the reply, or fails with the exception
   * {@link #submit} would throw. Nothing waits on the calling thread.
   */
  public CompletableFuture<OmLogReply> submitAsync(OmLogEntry entry, ClientId clientId,
      long callId) {
    return sendAsync(RaftClientRequest.writeRequestType(),
        Message.valueOf(UnsafeByteOperations.unsafeWrap(entry.toByteArray())), clientId, callId)
        .thenApply(reply -> {
          try {
            return OmLogReply.parseFrom(reply.getMessage().getContent().asReadOnlyByteBuffer());
          } catch (InvalidProtocolBufferException e) {
            throw new OmException(OmException.Code.INTERNAL, "Unreadable reply to log entry "
                + reply.getLogIndex() + ": " + e.getMessage(), e);
          }
        });
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
    try {
      return sendAsync(type, message, clientId, callId).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /**
   * Submits a request to this replica's Raft server; the future fails with
   * {@link NotLeaderException} or {@link OmException} UNAVAILABLE as {@link #submit} documents.
   * While this replica is a leader not ready yet (it takes requests once it has committed the
   * first entry of its term), the request, never appended, is submitted again with the same ids.
   */
  private CompletableFuture<RaftClientReply> sendAsync(RaftClientRequest.Type type,
      Message message, ClientId clientId, long callId) {
    return sendAsync(type, message, clientId, callId,
        System.nanoTime() + NOT_READY_PATIENCE.toNanos());
  }

  /** {@link #sendAsync(RaftClientRequest.Type, Message, ClientId, long)} until {@code readyBy}. */
  private CompletableFuture<RaftClientReply> sendAsync(RaftClientRequest.Type type,
      Message message, ClientId clientId, long callId, long readyBy) {
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(clientId == null ? localClient : clientId)
        .setServerId(server.getId())
        .setGroupId(group.getGroupId())
        .setCallId(callId)
        .setMessage(message)
        .setType(type)
        .build();
    CompletableFuture<RaftClientReply> submitted;
    try {
      submitted = server.submitClientRequestAsync(request);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(
          unavailable("this replica is not running: " + e.getMessage(), e));
    }
    return submitted
        .orTimeout(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .handle((reply, failure) -> {
          if (failure != null) {
            Throwable cause = failure instanceof CompletionException c && c.getCause() != null
                ? c.getCause() : failure;
            throw cause instanceof TimeoutException
                ? unavailable("the group did not answer within " + options.requestTimeout()
                    + " (no majority?); a write may still be applied later", cause)
                : unavailable("the group failed the request: " + cause, cause);
          }
          return reply;
        })
        .thenCompose(reply -> {
          if (reply.getException() instanceof LeaderNotReadyException
              && System.nanoTime() < readyBy) {
            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(
                    NOT_READY_RETRY.toMillis(), TimeUnit.MILLISECONDS))
                .thenCompose(waited -> sendAsync(type, message, clientId, callId, readyBy));
          }
          return CompletableFuture.completedFuture(checked(reply));
        });
  }

  /** {@code reply} if it succeeded; else the exception that says why, thrown. */
  private RaftClientReply checked(RaftClientReply reply) {
    if (reply.isSuccess()) {
      return reply;
    }
    org.apache.ratis.protocol.exceptions.NotLeaderException notLeader =
        reply.getNotLeaderException();
    if (notLeader != null) {
      RaftPeer leader = notLeader.getSuggestedLeader();
      String leaderId = leader == null ? null : leader.getId().toString();
      throw new NotLeaderException(id(), leaderId,
          leaderId == null ? null : rpcAddressOf(division(), leaderId));
    }
    if (reply.getException() instanceof LeaderNotReadyException) {
      throw unavailable("this replica was just elected leader and is not ready yet: retry", null);
    }
    throw unavailable("the group failed the request: " + reply.getException(),
        reply.getException());
  }

  static OmException unavailable(String why, Throwable cause) {
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
    admin.transferLeadership(toId, timeout);
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
        leader == null ? null : rpcAddressOf(d, leader.toString()),
        d.getRaftLog().getLastCommittedIndex(), info.getLastAppliedIndex(), followerMatch);
  }

  /** The index of the first entry this replica's Raft log still holds (the rest was purged). */
  long logStartIndex() {
    return division().getRaftLog().getStartIndex();
  }

  /**
   * The OmService address of replica {@code replicaId}: the one the group's configuration records
   * (so replicas added at runtime are found), else the one {@code --peers} gave, else null.
   */
  private String rpcAddressOf(RaftServer.Division d, String replicaId) {
    for (RaftPeer p : d.getRaftConf().getAllPeers()) {
      if (p.getId().toString().equals(replicaId) && p.getClientAddress() != null
          && !p.getClientAddress().isEmpty()) {
        return p.getClientAddress();
      }
    }
    return options.peers().rpcAddressOf(replicaId);
  }

  /**
   * The voting members of the group's current configuration as this replica knows it (on the
   * leader: the group's; a follower may be a configuration change behind), in the
   * configuration's order. Empty on a replica started with {@link #join} until it is added.
   */
  public List<GroupMember> members() {
    RaftServer.Division d = division();
    List<GroupMember> out = new ArrayList<>();
    for (RaftPeer p : d.getRaftConf().getCurrentPeers()) {
      out.add(new GroupMember(p.getId().toString(), p.getAddress(),
          rpcAddressOf(d, p.getId().toString())));
    }
    return out;
  }

  /**
   * Adds replica {@code peer} to the group (this replica must lead) and returns once the new
   * configuration is committed. Ratis first brings the new replica up to date (it offers the
   * replica a snapshot to install, then sends the log from there, or from the start when the
   * replica's state machine has no snapshot to install) and only then commits a configuration
   * that counts it, so the group's majority never depends on a replica still catching up. The new
   * replica must be running already, started with {@link #join}.
   *
   * @param peer the replica to add; its OmService port is recorded in the group's configuration
   *     (where every replica finds it for leader hints)
   * @throws NotLeaderException if this replica is not the leader (nothing changed)
   * @throws OmException FAILED_PRECONDITION, nothing changed: the id or the Raft address is in
   *     the group already, another change is in progress, or the new replica did not catch up
   *     (is it running, with {@code --ha-join}?); UNAVAILABLE if the change did not finish
   *     within {@code timeout} (it may still complete: look at the members in status)
   */
  public void addPeer(HaPeers.Peer peer, Duration timeout) {
    admin.add(peer, timeout);
  }

  /**
   * Removes replica {@code replicaId} from the group (this replica must lead, and may not remove
   * itself) and returns once the configuration without it is committed. The removed replica
   * stays running until its operator stops it; it no longer receives the log, and the group
   * tells it to shut its Raft server down if it starts an election.
   *
   * @throws NotLeaderException if this replica is not the leader (nothing changed)
   * @throws OmException FAILED_PRECONDITION, nothing changed: no such member, the leader itself
   *     (transfer the leadership first), the last member, or another change is in progress;
   *     UNAVAILABLE if the change did not finish within {@code timeout}
   */
  public void removePeer(String replicaId, Duration timeout) {
    admin.remove(replicaId, timeout);
  }

  RaftServer.Division division() {
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
