package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.StatusRuntimeException;
import io.sediment.om.client.OmClient;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leader kills under a write load: writers commit keys through {@link OmClient} while the leader
 * is killed ({@link ReplicaCluster#kill}: its Raft server, gRPC server and store closed at once,
 * Raft first, files kept) again and again, and restarted once a new leader serves. Afterwards every acknowledged key is listed and every
 * replica's tables are identical. Records the time from each kill to the first write acknowledged
 * through the new leader.
 *
 * <p>Kills: {@code -Dsediment.ha.kills=N} (default 3 in the build; the soak runs 50, see
 * docs/RELIABILITY.md).
 */
class LeaderFailoverSoakTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int KILLS = Integer.getInteger("sediment.ha.kills", 3);
  private static final Duration ELECTION =
      Duration.ofMillis(Long.getLong("sediment.ha.electionMillis", 400));

  @TempDir
  Path root;

  @Test
  void noAcknowledgedWriteIsLostAcrossLeaderKills() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, ELECTION, false, true);
         OmClient client = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
             .withCallTimeout(Duration.ofSeconds(30)))) {
      client.call(OmServiceGrpc.getCreateVolumeMethod(),
          CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
      client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setLayout(BucketLayout.OBJECT_STORE)
          .setOwner("alice").build());

      Set<String> acknowledged = new ConcurrentSkipListSet<>();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong failedCalls = new AtomicLong();
      AtomicLong names = new AtomicLong();
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        Thread t = new Thread(() -> {
          while (!stop.get()) {
            String key = String.format("k%08d", names.incrementAndGet());
            try {
              putKey(client, key);
              acknowledged.add(key);
            } catch (StatusRuntimeException e) {
              failedCalls.incrementAndGet(); // outcome unknown: not counted either way
            }
          }
        }, "writer-" + w);
        t.start();
        writers.add(t);
      }

      List<Long> failoverMillis = new ArrayList<>();
      try (OmClient probe = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
          .withCallTimeout(Duration.ofSeconds(60)))) {
        for (int kill = 0; kill < KILLS; kill++) {
          ReplicaCluster.Node leader = cluster.leader(WAIT);
          cluster.awaitCaughtUp(leader, WAIT);
          Thread.sleep(200);
          long killedAt = System.nanoTime();
          // The kill runs beside the probe, which starts writing at once, as a client of a
          // crashed leader would (closing the replica's servers and store takes up to seconds).
          CompletableFuture<Void> killing =
              CompletableFuture.runAsync(() -> cluster.kill(leader.id));
          putKey(probe, "probe-" + kill);
          failoverMillis.add((System.nanoTime() - killedAt) / 1_000_000);
          acknowledged.add("probe-" + kill);
          killing.join();
          cluster.start(leader.id);
        }
      } finally {
        stop.set(true);
        for (Thread t : writers) {
          t.join();
        }
      }

      ReplicaCluster.Node leader = cluster.leader(WAIT);
      Set<String> listed = listAll(client);
      Set<String> lost = new TreeSet<>(acknowledged);
      lost.removeAll(listed);
      assertEquals(Set.of(), lost, "acknowledged keys missing after " + KILLS + " leader kills");
      cluster.awaitCaughtUp(leader, WAIT);
      String expected = ReplicaCluster.checksum(leader.store);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        assertEquals(expected, ReplicaCluster.checksum(n.store), n.id + " differs");
      }
      assertTrue(acknowledged.size() > KILLS);

      List<Long> sorted = new ArrayList<>(failoverMillis);
      Collections.sort(sorted);
      System.out.printf("FAILOVER kills=%d electionTimeoutMin=%dms acknowledged=%d "
          + "unknownOutcome=%d kill-to-first-write ms: p50=%d p99=%d max=%d all=%s%n",
          KILLS, ELECTION.toMillis(), acknowledged.size(), failedCalls.get(),
          percentile(sorted, 50), percentile(sorted, 99), sorted.get(sorted.size() - 1),
          failoverMillis);
    }
  }

  private static long percentile(List<Long> sorted, int p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }

  private static void putKey(OmClient client, String key) {
    OpenKeyResponse open = client.call(OmServiceGrpc.getOpenKeyMethod(), OpenKeyRequest
        .newBuilder().setVolume("vol").setBucket("bkt").setKey(key).setOwner("alice").build());
    client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setKey(key).setClientId(open.getClientId())
        .setDataSize(1).build());
  }

  private static Set<String> listAll(OmClient client) {
    Set<String> out = new TreeSet<>();
    ListKeysResponse page = null;
    do {
      ListKeysRequest.Builder req = ListKeysRequest.newBuilder().setVolume("vol").setBucket("bkt")
          .setMaxKeys(1000);
      if (page != null) {
        req.setPageToken(page.getNextPageToken());
      }
      page = client.call(OmServiceGrpc.getListKeysMethod(), req.build());
      page.getKeysList().forEach(k -> out.add(k.getKeyName()));
    } while (page.getTruncated());
    return out;
  }
}
