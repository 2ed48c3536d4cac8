package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.OmLogEntry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ratis' own metrics on a replica's {@code /prom} registry: this replica's only, though the JVM
 * runs three, with peers as labels and Ratis' names in Prometheus' spelling.
 */
class RatisMetricsTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;

  @Test
  void aScrapeShowsThisReplicasRatisMetricsAndNoneOfAnotherReplicas() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false,
        true)) {
      ReplicaCluster.Node leader = cluster.leader(WAIT);
      for (int i = 0; i < 5; i++) {
        leader.writes.write(OmLogEntry.newBuilder().setCreateVolume(CreateVolumeRequest
            .newBuilder().setVolume("vol" + i).setOwner("alice")), CreateVolumeResponse.parser());
      }
      cluster.awaitCaughtUp(leader, WAIT);
      ReplicaCluster.Node follower = cluster.follower(leader);

      Map<String, MetricSnapshot> onLeader = scrape(leader);
      Map<String, MetricSnapshot> onFollower = scrape(follower);

      for (String name : new String[] {"ratis_server_client_write_request_seconds",
          "ratis_server_num_install_snapshot", "ratis_leader_election_election_count",
          "ratis_log_worker_flush_time_seconds", "ratis_log_worker_sync_time_seconds"}) {
        assertNotNull(onLeader.get(name), name + " on the leader; it has " + onLeader.keySet());
        assertNotNull(onFollower.get(name), name + " on a follower; it has "
            + onFollower.keySet());
      }
      assertNotNull(onLeader.get("ratis_server_num_pending_request_in_queue"),
          "the leader's request queue");
      assertTrue(count(onLeader, "ratis_server_client_write_request_seconds") >= 5,
          "the leader timed the writes it took");
      assertEquals(0, count(onFollower, "ratis_server_client_write_request_seconds"),
          "a follower took no client write: a scrape mixing replicas would show the leader's");

      Set<String> followers = new TreeSet<>(cluster.running.keySet());
      followers.remove(leader.id);
      long applied = leader.replica.status().appliedIndex();
      Map<String, Double> match = byPeer(onLeader, "ratis_log_appender_follower_match_index");
      assertEquals(followers, match.keySet(), "one point per follower, the peer as a label");
      for (double m : match.values()) {
        assertTrue(m >= applied - 1, "match index " + m + " near the leader's " + applied);
      }
      assertEquals(followers,
          byPeer(onLeader, "ratis_log_appender_follower_next_index").keySet());
      assertNull(onFollower.get("ratis_log_appender_follower_match_index"),
          "a follower has no followers");
      for (MetricSnapshot s : onFollower.values()) {
        for (DataPointSnapshot p : s.getDataPoints()) {
          assertFalse(p.getLabels().contains("peer") && !cluster.running.containsKey(
              p.getLabels().get("peer")), s.getMetadata().getName() + " names a peer not in"
              + " the group: " + p.getLabels());
        }
      }
    }
  }

  @Test
  void ratisNamesAreSpelledForPrometheusWithPeersTakenOut() {
    assertEquals("client_write_request", RatisMetrics.snake("clientWriteRequest"));
    assertEquals("num_pending_request_in_queue", RatisMetrics.snake("numPendingRequestInQueue"));
    assertEquals("follower_append_entry_latency",
        RatisMetrics.snake("follower_append_entry_latency"));
    assertEquals("ratis_grpc", RatisMetrics.snake("ratis.grpc"));
    assertEquals("follower_match_index",
        RatisMetrics.withoutPeer("follower_om2_match_index", "om2"));
    assertEquals("peerCommitIndex", RatisMetrics.withoutPeer("om2_peerCommitIndex", "om2"));
    assertNull(RatisMetrics.withoutPeer("follower_om20_match_index", "om2"), "om20 is not om2");
    assertNull(RatisMetrics.withoutPeer("clientWriteRequest", "om2"));
  }

  private static Map<String, MetricSnapshot> scrape(ReplicaCluster.Node n) {
    Map<String, MetricSnapshot> out = new TreeMap<>();
    for (MetricSnapshot s : n.grpc.registry().scrape()) {
      if (s.getMetadata().getPrometheusName().startsWith("ratis_")) {
        out.put(s.getMetadata().getPrometheusName(), s);
      }
    }
    return out;
  }

  private static long count(Map<String, MetricSnapshot> scrape, String name) {
    SummarySnapshot s = (SummarySnapshot) scrape.get(name);
    assertEquals(1, s.getDataPoints().size(), name);
    return s.getDataPoints().get(0).getCount();
  }

  private static Map<String, Double> byPeer(Map<String, MetricSnapshot> scrape, String name) {
    GaugeSnapshot g = (GaugeSnapshot) scrape.get(name);
    assertNotNull(g, name + " in " + scrape.keySet());
    Map<String, Double> out = new TreeMap<>();
    for (GaugeSnapshot.GaugeDataPointSnapshot p : g.getDataPoints()) {
      out.put(p.getLabels().get("peer"), p.getValue());
    }
    return out;
  }
}
