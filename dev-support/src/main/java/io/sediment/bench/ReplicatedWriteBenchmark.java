package io.sediment.bench;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.client.OmClient;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.ha.CommonPoolParallelism;
import io.sediment.om.ha.HaOptions;
import io.sediment.om.ha.HaPeers;
import io.sediment.om.ha.OmReplica;
import io.sediment.om.ha.ReplicaRequests;
import io.sediment.om.ha.ReplicaStatus;
import io.sediment.om.testing.LoopbackPorts;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.apache.ratis.server.DivisionInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Suite {@code replication}: durable key creation through the gRPC service on loopback, one
 * server against a group of three replicas, at 64 clients. One operation is what Ozone's freon
 * key generator does per key: OpenKey, then CommitKey of a name no other operation uses, in a
 * volume and OBJECT_STORE bucket created before the trial. Both are mutating RPCs, so a
 * replicated key creation is two entries of the group's log.
 *
 * <p>Setups ({@link #setup}):
 * <ul>
 *   <li>{@code single}: one {@link OmGrpcServer} over a store with {@link SyncPolicy#DURABLE}
 *       (a write is acknowledged after its group-committed WAL fsync), as {@code sediment serve}
 *       runs by default.
 *   <li>{@code replicated3}: three replicas in this JVM, each an {@link OmReplica} (its own Raft
 *       log, fsynced by Ratis) over its own store with {@link SyncPolicy#REPLAYED_FROM_LOG}
 *       ({@link #replicaSync}) and an {@link OmGrpcServer} with {@link ReplicaRequests}, as
 *       {@code serve --ha-id} runs them
 *       (default election timeout); a write is acknowledged once a majority holds it in its log
 *       and the leader has applied it.
 *   <li>{@code ratisFloor}: the floor of {@code replicated3} on this machine, {@link RatisFloor}:
 *       three bare Ratis servers in this JVM with the replicas' Raft properties and a state
 *       machine that applies nothing; an operation appends an OpenKey entry and then a CommitKey
 *       entry of Sediment's size through the leader's in-process submit, each waited for. No gRPC,
 *       no store, no handler threads (all 64 clients submit at once): the cost of the Raft log
 *       alone. {@code replicated3} cannot be faster than it on the same machine.
 * </ul>
 * {@code single} and {@code replicated3} serve with {@link #handlerThreads} handler threads (default: serve's,
 * {@value OmGrpcServer#DEFAULT_HANDLER_THREADS}), which bounds the calls in flight on a server
 * (a replicated write holds its handler until the group has applied it), and are reached through one {@link OmClient} (given every replica, it sends to the leader and
 * follows its hints), so the client path is the same. Everything runs in one JVM on one machine:
 * the clients, and in {@code replicated3} all three replicas, share its cores and its disk.
 * Stores and logs live in a temporary directory deleted after the trial. At the end of a trial the
 * benchmark prints the leader's term as {@code #metric} lines (an election during the trial shows
 * as a term above 1); with {@code -Dsediment.bench.ratisTimers=true} in the fork's JVM options
 * also each replica's Ratis timers ({@code #ratis} lines, see {@link RatisTimers}), and the
 * process CPU time per key over the measurement iterations ({@code cpuMicrosPerKey}: every
 * thread of the JVM, clients and JIT included). The forks run with the common ForkJoinPool's
 * parallelism at 2, as the {@code sediment} command sets it on a small machine
 * ({@link CommonPoolParallelism}). Run through {@code dev-support/bin/bench replication [--quick]}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(64)
// As the sediment command runs a replica (CommonPoolParallelism); the floor shares the JVM.
@Fork(jvmArgsPrepend = "-D" + CommonPoolParallelism.PROPERTY + "=2")
@State(Scope.Benchmark)
public class ReplicatedWriteBenchmark {

  static final String VOLUME = "vol";
  static final String BUCKET = "bucket";

  /** {@code single}, {@code replicated3} or {@code ratisFloor} (see the class comment). */
  @Param({"single", "replicated3", "ratisFloor"})
  public String setup;

  /**
   * The replicas' store policy in {@code replicated3}: {@code REPLAYED_FROM_LOG} (no WAL, as
   * {@code serve --ha-id} runs them) or {@code PROCESS_CRASH_SAFE} (a WAL written, not synced).
   */
  @Param({"REPLAYED_FROM_LOG"})
  public SyncPolicy replicaSync;

  /** Each server's handler threads ({@code serve --handler-threads}; its default is 16). */
  @Param({"16"})
  public int handlerThreads;

  private Path dir;
  /** What the trial opened, closed in reverse order. */
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private final List<OmReplica> replicas = new ArrayList<>();
  private OmClient client;
  private RatisFloor floor;
  private final AtomicInteger writers = new AtomicInteger();
  /** Keys created in the current iteration. */
  private final LongAdder created = new LongAdder();
  private long iterationCpuStart;
  /** Process CPU time and keys created over the trial's measurement iterations. */
  private long measuredCpuNanos;
  private long measuredKeys;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("sediment-replication");
    List<String> targets;
    switch (setup) {
      case "single" -> targets = List.of(startSingle());
      case "replicated3" -> targets = startGroup(3);
      case "ratisFloor" -> {
        floor = RatisFloor.start(dir, "floor", 3);
        open.push(floor);
        return;
      }
      default -> throw new IllegalArgumentException("unknown setup " + setup);
    }
    client = OmClient.connect(targets, OmClient.Options.defaults());
    client.call(OmServiceGrpc.getCreateVolumeMethod(),
        CreateVolumeRequest.newBuilder().setVolume(VOLUME).setOwner("bench").build());
    client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
        .setVolume(VOLUME).setBucket(BUCKET).setLayout(BucketLayout.OBJECT_STORE).build());
  }

  private String startSingle() throws IOException {
    OmMetadataStore store = OmMetadataStore.open(dir.resolve("store"),
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.DURABLE));
    open.push(store);
    OmGrpcServer server = OmGrpcServer.builder(store).port(freePort())
        .handlerThreads(handlerThreads).drainTimeout(Duration.ofSeconds(1)).build();
    server.start();
    open.push(server);
    return server.target();
  }

  private List<String> startGroup(int size) throws IOException, InterruptedException {
    StringBuilder spec = new StringBuilder();
    for (int i = 1; i <= size; i++) {
      spec.append(i > 1 ? "," : "").append("om").append(i).append("=127.0.0.1:")
          .append(freePort()).append(':').append(freePort());
    }
    HaPeers peers = HaPeers.parse(spec.toString());
    for (HaPeers.Peer p : peers.all()) {
      Path home = dir.resolve(p.id());
      OmMetadataStore store = OmMetadataStore.open(home.resolve("store"),
          OmStoreOptions.defaults().withSyncPolicy(replicaSync));
      open.push(store);
      OmReplica replica = OmReplica.start(store, HaOptions.of(p.id(), peers, home.resolve("ratis")));
      open.push(replica);
      replicas.add(replica);
      OmGrpcServer server = OmGrpcServer.builder(store).port(p.rpcPort())
          .handlerThreads(handlerThreads).drainTimeout(Duration.ofSeconds(1))
          .replication(new ReplicaRequests(replica, store, Clock.systemUTC())).build();
      server.start();
      open.push(server);
    }
    String leader = replicas.get(0).awaitLeader(Duration.ofSeconds(30));
    if (leader == null) {
      throw new IllegalStateException("No leader elected within 30 s");
    }
    // The client's first target is the leader, so no call starts with a redirect.
    List<String> targets = new ArrayList<>();
    targets.add(peers.rpcAddressOf(leader));
    for (HaPeers.Peer p : peers.all()) {
      if (!p.id().equals(leader)) {
        targets.add(p.rpcAddress());
      }
    }
    return targets;
  }

  static int freePort() {
    return LoopbackPorts.free();
  }

  @Setup(Level.Iteration)
  public void startIteration() {
    created.reset();
    iterationCpuStart = processCpuNanos();
  }

  @TearDown(Level.Iteration)
  public void endIteration(IterationParams iteration) {
    if (iteration.getType() == IterationType.MEASUREMENT) {
      measuredCpuNanos += processCpuNanos() - iterationCpuStart;
      measuredKeys += created.sum();
    }
  }

  /** CPU time of every thread of this JVM so far: clients, servers, replicas and the JIT. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    String params = "handlerThreads=" + handlerThreads + ",setup=" + setup;
    if (measuredKeys > 0) {
      System.out.printf("#metric createKey %s cpuMicrosPerKey=%.0f%n", params,
          measuredCpuNanos / 1000.0 / measuredKeys);
    }
    if (floor != null) {
      DivisionInfo leader = floor.leaderInfo();
      System.out.println("#metric createKey " + params + " leaderTerm=" + leader.getCurrentTerm());
      System.out.println("#metric createKey " + params + " appliedIndex="
          + leader.getLastAppliedIndex());
      if (Boolean.getBoolean("sediment.bench.ratisTimers")) {
        for (String id : floor.peerIds()) {
          RatisTimers.of(id).forEach((name, value) ->
              System.out.println("#ratis " + id + " " + name + " " + value));
        }
      }
    }
    for (OmReplica r : replicas) {
      ReplicaStatus s = r.status();
      if (Boolean.getBoolean("sediment.bench.ratisTimers")) {
        RatisTimers.of(s.id()).forEach((name, value) ->
            System.out.println("#ratis " + s.id() + " " + s.role() + " " + name + " " + value));
      }
      if (s.role().equals("LEADER")) {
        System.out.println("#metric createKey " + params + " leaderTerm=" + s.term());
        System.out.println("#metric createKey " + params + " appliedIndex=" + s.appliedIndex());
      }
    }
    if (client != null) {
      client.close();
    }
    Exception first = null;
    while (!open.isEmpty()) {
      try {
        open.pop().close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** One client thread: its own key-name prefix and counter. */
  @State(Scope.Thread)
  public static class Writer {
    String prefix;
    long next;

    @Setup(Level.Trial)
    public void setUp(ReplicatedWriteBenchmark bench) {
      prefix = "w" + bench.writers.getAndIncrement() + "-";
    }
  }

  /**
   * OpenKey, then CommitKey of a new key; returns the committed key's object id ({@code
   * ratisFloor}: appends the two entries and returns 0).
   */
  @Benchmark
  public long createKey(Writer w) {
    created.increment();
    if (floor != null) {
      floor.createKey();
      return 0;
    }
    String key = w.prefix + w.next++;
    OpenKeyResponse opened = client.call(OmServiceGrpc.getOpenKeyMethod(),
        OpenKeyRequest.newBuilder().setVolume(VOLUME).setBucket(BUCKET).setKey(key).build());
    return client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
        .setVolume(VOLUME).setBucket(BUCKET).setKey(key).setClientId(opened.getClientId())
        .setDataSize(1024).build()).getKey().getObjectId();
  }
}
