package io.sediment.om.ha;

import io.sediment.db.KeyValue;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.testing.LoopbackPorts;
import io.sediment.om.tls.TlsMaterial;
import java.io.IOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.TextFormat;

/**
 * Replicas of one group in this JVM, on loopback, each with its own store and Raft log under
 * {@code root}: start, stop (as a crash of the replica's process would: the store and the Raft
 * server closed, the files kept) and restart any of them. Closes everything on {@link #close()}.
 */
final class ReplicaCluster implements AutoCloseable {

  /** One running replica, with its gRPC server when the cluster serves gRPC. */
  static final class Node {
    final String id;
    final OmMetadataStore store;
    final OmReplica replica;
    final ReplicatedWritePath writes;
    final ReplicatedReadGate reads;
    OmGrpcServer grpc;

    Node(String id, OmMetadataStore store, OmReplica replica) {
      this.id = id;
      this.store = store;
      this.replica = replica;
      this.writes = new ReplicatedWritePath(replica, store, Clock.systemUTC());
      this.reads = new ReplicatedReadGate(replica, writes);
    }
  }

  final Path root;
  final HaPeers peers;
  final Duration electionTimeout;
  private final boolean followerReads;
  private final long snapshotEvery;
  /** Every replica's certificate and CA (one for all: they share loopback); null: plaintext. */
  final TlsMaterial tls;
  /** Whether each replica serves OmService on its peer's RPC port. */
  boolean serveGrpc;
  final Map<String, Node> running = new LinkedHashMap<>();
  /** Replicas that join the group at runtime ({@link #join}), which {@link #peers} lacks. */
  final Map<String, HaPeers.Peer> joiners = new LinkedHashMap<>();
  /** Each replica's store options, by id. */
  private final Function<String, OmStoreOptions> storeOptions;

  ReplicaCluster(Path root, int size, Duration electionTimeout, boolean followerReads)
      throws IOException {
    this(root, size, electionTimeout, followerReads, false);
  }

  ReplicaCluster(Path root, int size, Duration electionTimeout, boolean followerReads,
      boolean serveGrpc) throws IOException {
    this(root, size, electionTimeout, followerReads, serveGrpc, HaOptions.DEFAULT_SNAPSHOT_EVERY);
  }

  ReplicaCluster(Path root, int size, Duration electionTimeout, boolean followerReads,
      boolean serveGrpc, long snapshotEvery) throws IOException {
    this(root, size, electionTimeout, followerReads, serveGrpc, snapshotEvery, null);
  }

  /** With {@code tls}, replication and the replicas' gRPC servers use mutual TLS. */
  ReplicaCluster(Path root, int size, Duration electionTimeout, boolean followerReads,
      boolean serveGrpc, long snapshotEvery, TlsMaterial tls) throws IOException {
    this(root, size, electionTimeout, followerReads, serveGrpc, snapshotEvery, tls,
        id -> OmStoreOptions.defaults());
  }

  /**
   * As above, each replica's store opened with {@code storeOptions.apply(id)} (its sync policy
   * always REPLAYED_FROM_LOG, as a replica's is).
   */
  ReplicaCluster(Path root, int size, Duration electionTimeout, boolean followerReads,
      boolean serveGrpc, long snapshotEvery, TlsMaterial tls,
      Function<String, OmStoreOptions> storeOptions) throws IOException {
    this.storeOptions = storeOptions;
    this.tls = tls;
    this.serveGrpc = serveGrpc;
    this.snapshotEvery = snapshotEvery;
    this.root = root;
    this.electionTimeout = electionTimeout;
    this.followerReads = followerReads;
    StringBuilder spec = new StringBuilder();
    for (int i = 1; i <= size; i++) {
      if (i > 1) {
        spec.append(',');
      }
      spec.append("om").append(i).append("=127.0.0.1:").append(freePort()).append(':')
          .append(freePort());
    }
    this.peers = HaPeers.parse(spec.toString());
    try {
      for (HaPeers.Peer p : peers.all()) {
        start(p.id());
      }
    } catch (RuntimeException e) {
      // No caller holds a cluster that failed to start: stop the replicas that did.
      try {
        close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  static int freePort() {
    return LoopbackPorts.free();
  }

  /** A peer on free loopback ports, for {@link #join}. */
  static HaPeers.Peer newPeer(String id) throws IOException {
    return HaPeers.parse(id + "=127.0.0.1:" + freePort() + ":" + freePort()).all().get(0);
  }

  /**
   * Starts replica {@code peer} with no group of its own ({@link OmReplica#join}), knowing the
   * group's peers and itself; it waits until the leader adds it. A later {@link #start} of the
   * same id starts it the same way.
   */
  Node join(HaPeers.Peer peer) {
    joiners.put(peer.id(), peer);
    return start(peer.id());
  }

  Node start(String id) {
    HaPeers.Peer joiner = joiners.get(id);
    HaPeers known = joiner == null ? peers : HaPeers.parse(
        peers + "," + joiner.id() + "=" + joiner.raftAddress() + ":" + joiner.rpcPort());
    OmMetadataStore store = OmMetadataStore.open(root.resolve(id).resolve("store"),
        storeOptions.apply(id).withSyncPolicy(SyncPolicy.REPLAYED_FROM_LOG));
    try {
      HaOptions options = HaOptions.of(id, known, root.resolve(id).resolve("ratis"))
          .withElectionTimeout(electionTimeout)
          .withRequestTimeout(Duration.ofSeconds(20))
          .withFollowerReads(followerReads)
          .withSnapshotEvery(snapshotEvery)
          .withTls(tls);
      Node node = new Node(id, store, joiner == null ? OmReplica.start(store, options)
          : OmReplica.join(store, options));
      running.put(id, node);
      if (serveGrpc) {
        OmGrpcServer.Builder b = OmGrpcServer.builder(store).port(known.require(id).rpcPort())
            .drainTimeout(Duration.ofSeconds(1))
            .replication(new ReplicaRequests(node.replica, store, Clock.systemUTC()));
        if (tls != null) {
          b.credentials(tls.serverCredentials());
        }
        node.grpc = b.build();
        node.grpc.start();
      }
      return node;
    } catch (IOException e) {
      stop(id);
      throw new java.io.UncheckedIOException(e);
    } catch (RuntimeException e) {
      if (running.containsKey(id)) {
        stop(id);
      } else {
        store.close();
      }
      throw e;
    }
  }

  /** Stops a replica: its gRPC server, its Raft server, then its store. */
  void stop(String id) {
    Node n = running.remove(id);
    try {
      if (n.grpc != null) {
        n.grpc.close();
      }
      n.replica.close();
    } finally {
      n.store.close();
    }
  }

  /**
   * Stops a replica as a crash would look to its peers: its Raft server first, so that its
   * heartbeats end at once and calls waiting on the group fail, then its gRPC server and its
   * store. Safe to call from another thread while clients call the cluster; not with another
   * start, stop or kill.
   */
  void kill(String id) {
    Node n = running.remove(id);
    try {
      n.replica.close();
    } finally {
      try {
        if (n.grpc != null) {
          n.grpc.close();
        }
      } finally {
        n.store.close();
      }
    }
  }

  /** Every replica's OmService address, in peer order. */
  java.util.List<String> rpcTargets() {
    return peers.all().stream().map(HaPeers.Peer::rpcAddress).toList();
  }

  /** The ready leader, waiting up to {@code timeout} for one. */
  Node leader(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (Node n : running.values()) {
        if (n.replica.isLeader()) {
          return n;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("No leader within " + timeout + " among " + running.keySet());
  }

  Node follower(Node leader) {
    return running.values().stream().filter(n -> n != leader).findFirst().orElseThrow();
  }

  /** Waits until every running replica has applied at least what {@code leader} has applied. */
  void awaitCaughtUp(Node leader, Duration timeout) throws InterruptedException {
    long target = leader.replica.status().appliedIndex();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      boolean all = true;
      for (Node n : running.values()) {
        all &= n.replica.status().appliedIndex() >= target;
      }
      if (all) {
        return;
      }
      Thread.sleep(20);
    }
    StringBuilder s = new StringBuilder();
    for (Node n : running.values()) {
      s.append(' ').append(n.replica.status());
    }
    throw new AssertionError("Replicas did not reach index " + target + " in " + timeout + ":" + s
        + "\n" + raftDiagnostics());
  }

  /**
   * What a replica that stopped hearing from its leader needs explained: every running replica's
   * Ratis role (a leader's view of each follower, with the time since its last reply; a
   * follower's or candidate's time since it last heard a leader) and the top of the stack of
   * every thread that sends appends, runs elections or waits for a leader.
   */
  String raftDiagnostics() {
    StringBuilder s = new StringBuilder("Ratis roles:\n");
    for (Node n : running.values()) {
      try {
        DivisionInfo info = n.replica.division().getInfo();
        s.append(n.id).append(": ").append(TextFormat.shortDebugString(info.getRoleInfoProto()));
        if (info.isLeader()) {
          s.append(" followerNextIndices=").append(Arrays.toString(info.getFollowerNextIndices()))
              .append(" followerMatchIndices=")
              .append(Arrays.toString(info.getFollowerMatchIndices()));
        }
        s.append('\n');
      } catch (RuntimeException e) {
        s.append(n.id).append(": ").append(e).append('\n');
      }
    }
    s.append("Raft threads:\n");
    for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
      String name = t.getKey().getName();
      if (name.contains("LogAppender") || name.contains("LeaderElection")
          || name.contains("FollowerState") || name.contains("StateMachineUpdater")) {
        s.append(name).append(' ').append(t.getKey().getState()).append('\n');
        StackTraceElement[] stack = t.getValue();
        for (int i = 0; i < Math.min(12, stack.length); i++) {
          s.append("    at ").append(stack[i]).append('\n');
        }
      }
    }
    return s.toString();
  }

  /** SHA-256 of every row of every table, in table and key order. */
  static String checksum(OmMetadataStore store) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    for (TableDefinition<?, ?> t : OmDBDefinition.DEFINITION.tables()) {
      md.update(t.name().getBytes());
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               store.dbStore().getTable(t.name()).iterator()) {
        while (it.hasNext()) {
          KeyValue<byte[], byte[]> kv = it.next();
          if (t.name().equals(OmDBDefinition.META_TABLE.name())
              && new String(kv.getKey()).equals(OmDBDefinition.META_LAST_APPLIED)) {
            continue; // replicas record positions of different no-op entries
          }
          md.update(kv.getKey());
          md.update(kv.getValue());
        }
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  @Override
  public void close() {
    RuntimeException first = null;
    for (String id : running.keySet().toArray(new String[0])) {
      try {
        stop(id);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
