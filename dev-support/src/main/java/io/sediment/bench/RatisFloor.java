package io.sediment.bench;

import io.sediment.om.grpc.WriteRequests;
import io.sediment.om.ha.HaOptions;
import io.sediment.om.ha.HaPeers;
import io.sediment.om.ha.PositionSnapshots;
import io.sediment.om.ha.ReplicaProperties;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OpenKeyRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
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
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * The floor of a replicated key creation: a bare Ratis group of replicas in this JVM on loopback,
 * each with the Raft properties of an {@link OmReplica} with default {@link HaOptions}
 * ({@link ReplicaProperties#of}) and its own log directory, whose state machine applies nothing
 * ({@link AppliedIndexOnly}). {@link #createKey} appends what a key creation appends (an OpenKey
 * entry, then a CommitKey entry, each waited for) through the leader's in-process
 * {@link RaftServer#submitClientRequestAsync}, as {@code OmReplica.submit} does. No gRPC front
 * end, no store, no apply work: what it costs is the Raft log alone (append, fsync, replication to
 * a majority, commit).
 *
 * <p>Both entries are real {@link OmLogEntry}s for a freon-style key name, serialized once and
 * reused for every key, so they have the size of Sediment's entries. Thread-safe.
 */
final class RatisFloor implements AutoCloseable {

  /** Sediment's OpenKey entry for a key named as the benchmark names them. */
  static final OmLogEntry OPEN_KEY = WriteRequests.preExecute(OmLogEntry.newBuilder()
      .setOpenKey(OpenKeyRequest.newBuilder().setVolume(ReplicatedWriteBenchmark.VOLUME)
          .setBucket(ReplicatedWriteBenchmark.BUCKET).setKey("w63-123456")),
      System.currentTimeMillis());
  /** The CommitKey entry of the same key (an object id of a store with a few 100,000 rows). */
  static final OmLogEntry COMMIT_KEY = WriteRequests.preExecute(OmLogEntry.newBuilder()
      .setCommitKey(CommitKeyRequest.newBuilder().setVolume(ReplicatedWriteBenchmark.VOLUME)
          .setBucket(ReplicatedWriteBenchmark.BUCKET).setKey("w63-123456").setClientId(250_001)
          .setDataSize(1024)), System.currentTimeMillis());

  private static final Duration TIMEOUT = HaOptions.DEFAULT_REQUEST_TIMEOUT;

  private final RaftGroup group;
  /** Started servers, in start order. */
  private final List<RaftServer> servers;
  private final ByteString openKey = UnsafeByteOperations.unsafeWrap(OPEN_KEY.toByteArray());
  private final ByteString commitKey = UnsafeByteOperations.unsafeWrap(COMMIT_KEY.toByteArray());
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();
  private volatile RaftServer leader;

  private RatisFloor(RaftGroup group, List<RaftServer> servers) {
    this.group = group;
    this.servers = servers;
  }

  /**
   * Starts {@code size} servers with ids {@code idPrefix1..idPrefixN}, logs under {@code dir},
   * and waits up to 30 s for a ready leader.
   */
  static RatisFloor start(Path dir, String idPrefix, int size)
      throws IOException, InterruptedException {
    StringBuilder spec = new StringBuilder();
    for (int i = 1; i <= size; i++) {
      spec.append(i > 1 ? "," : "").append(idPrefix).append(i).append("=127.0.0.1:")
          .append(ReplicatedWriteBenchmark.freePort());
    }
    HaPeers peers = HaPeers.parse(spec.toString());
    List<RaftPeer> raftPeers = new ArrayList<>();
    for (HaPeers.Peer p : peers.all()) {
      raftPeers.add(RaftPeer.newBuilder().setId(p.id()).setAddress(p.raftAddress()).build());
    }
    RaftGroup group = RaftGroup.valueOf(RaftGroupId.randomId(), raftPeers);
    RatisFloor floor = new RatisFloor(group, new ArrayList<>());
    try {
      for (HaPeers.Peer p : peers.all()) {
        RaftServer server = RaftServer.newBuilder()
            .setServerId(RaftPeerId.valueOf(p.id()))
            .setGroup(group)
            .setStateMachine(new AppliedIndexOnly())
            .setProperties(ReplicaProperties.of(HaOptions.of(p.id(), peers, dir.resolve(p.id()))))
            .setOption(RaftStorage.StartupOption.RECOVER)
            .build();
        floor.servers.add(server);
        server.start();
      }
      floor.leader = floor.awaitLeader(Duration.ofSeconds(30));
    } catch (IOException | InterruptedException | RuntimeException e) {
      floor.close();
      throw e;
    }
    return floor;
  }

  private RaftServer awaitLeader(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (RaftServer s : servers) {
        DivisionInfo info = s.getDivision(group.getGroupId()).getInfo();
        if (info.isLeader() && info.isLeaderReady()) {
          return s;
        }
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("No leader elected within " + timeout);
  }

  /** Appends the two entries of a key creation, one after the other, each committed. */
  void createKey() {
    append(openKey);
    append(commitKey);
  }

  /**
   * Appends {@code entry} through the leader and waits until it is committed and applied there.
   * After a change of leader it asks the new one, with the same call id (the retry cache answers
   * if the old leader had appended it).
   */
  private void append(ByteString entry) {
    long callId = callIds.incrementAndGet();
    while (true) {
      RaftServer to = leader;
      RaftClientReply reply = submit(to, entry, callId);
      if (reply.isSuccess()) {
        return;
      }
      if (reply.getNotLeaderException() == null
          && !(reply.getException() instanceof LeaderNotReadyException)) {
        throw new IllegalStateException("The floor's group refused an append: "
            + reply.getException(), reply.getException());
      }
      synchronized (this) {
        if (leader == to) {
          try {
            leader = awaitLeader(TIMEOUT);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
          }
        }
      }
    }
  }

  private RaftClientReply submit(RaftServer to, ByteString entry, long callId) {
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(clientId)
        .setServerId(to.getId())
        .setGroupId(group.getGroupId())
        .setCallId(callId)
        .setMessage(Message.valueOf(entry))
        .setType(RaftClientRequest.writeRequestType())
        .build();
    try {
      return to.submitClientRequestAsync(request).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (IOException | ExecutionException | TimeoutException e) {
      throw new IllegalStateException("The floor's group failed an append: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }

  /** The servers' ids, in start order. */
  List<String> peerIds() {
    return servers.stream().map(s -> s.getId().toString()).toList();
  }

  /** How many state machine entries (not Raft's own) each server has applied, by id. */
  Map<String, Long> appliedEntries() throws IOException {
    Map<String, Long> out = new TreeMap<>();
    for (RaftServer s : servers) {
      out.put(s.getId().toString(),
          ((AppliedIndexOnly) s.getDivision(group.getGroupId()).getStateMachine()).applied.get());
    }
    return out;
  }

  /** Each server's state machine, by id. */
  Map<String, AppliedIndexOnly> stateMachines() throws IOException {
    Map<String, AppliedIndexOnly> out = new TreeMap<>();
    for (RaftServer s : servers) {
      out.put(s.getId().toString(),
          (AppliedIndexOnly) s.getDivision(group.getGroupId()).getStateMachine());
    }
    return out;
  }

  /** The leader's id, term and applied index now. */
  DivisionInfo leaderInfo() throws IOException {
    return leader.getDivision(group.getGroupId()).getInfo();
  }

  /** Stops the followers, then the leader (stopping the leader first only starts an election). */
  @Override
  public void close() throws IOException {
    IOException first = null;
    List<RaftServer> order = new ArrayList<>(servers);
    if (leader != null && order.remove(leader)) {
      order.add(leader);
    }
    for (RaftServer s : order) {
      try {
        s.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * A state machine that applies nothing: applying an entry records its position (as every
   * state machine must) and answers an empty message. A snapshot, which the replicas' Raft
   * properties trigger as they do a replica's, is that position alone (as a replica's is its
   * store's applied position, without the store's flush), so the log behind it is purged as a
   * replica's is, and the log cache does not grow over a long trial. Counts what it applied.
   */
  static final class AppliedIndexOnly extends BaseStateMachine {
    /** Entries applied (read by tests). */
    final AtomicLong applied = new AtomicLong();
    private final PositionSnapshots storage = new PositionSnapshots();

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
      LogEntryProto entry = trx.getLogEntry();
      updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
      applied.incrementAndGet();
      return CompletableFuture.completedFuture(Message.EMPTY);
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
      return storage;
    }

    @Override
    public long takeSnapshot() {
      TermIndex last = getLastAppliedTermIndex();
      if (last == null || last.getIndex() < 0) {
        return RaftLog.INVALID_LOG_INDEX;
      }
      storage.record(last);
      return last.getIndex();
    }
  }
}
