package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.client.OmClient;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key's replication config in a group of three replicas configured with three different store
 * defaults: the config is decided by the leader before the entry is appended (the request's, else
 * the bucket's default, else the leader's own default), so every replica records the same one and
 * the stores stay identical (equal checksums); after a leadership change the new leader's default
 * applies, still on every replica alike. A refused config appends nothing. An entry logged without
 * a config (as a release before configs logged OpenKey) gives RATIS/THREE on every replica, the
 * default of none of them.
 */
class ReplicatedReplicationConfigTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Map<String, ReplicationConfig> DEFAULTS = Map.of(
      "om1", ReplicationText.parse("RATIS", "ONE"),
      "om2", ReplicationText.parse("EC", "rs-3-2-1024k"),
      "om3", ReplicationText.parse("STAND_ALONE", "THREE"));
  private static final ReplicationConfig RS_6_3 = ReplicationText.parse("EC", "rs-6-3-1024k");

  @TempDir
  Path root;

  private static ReplicationConfig put(OmClient client, String bucket, String key,
      ReplicationConfig asked) {
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().setVolume("vol").setBucket(bucket)
        .setKey(key);
    if (asked != null) {
      open.setReplicationConfig(asked);
    }
    OpenKeyResponse r = client.call(OmServiceGrpc.getOpenKeyMethod(), open.build());
    return client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
        .setVolume("vol").setBucket(bucket).setKey(key).setClientId(r.getClientId())
        .setDataSize(1).build()).getKey().getReplicationConfig();
  }

  /**
   * The node's applied index once it has applied all it committed and stayed there for 200 ms
   * (the state machine records an entry as applied just after answering its call).
   */
  private static long settled(ReplicaCluster.Node n) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long last = -1;
    while (System.nanoTime() < deadline) {
      ReplicaStatus s = n.replica.status();
      if (s.appliedIndex() == s.commitIndex() && s.appliedIndex() == last) {
        return last;
      }
      last = s.appliedIndex() == s.commitIndex() ? s.appliedIndex() : -1;
      Thread.sleep(200);
    }
    throw new AssertionError("Replica " + n.id + " did not settle: " + n.replica.status());
  }

  @Test
  void theLeaderDecidesTheConfigAndEveryReplicaRecordsIt() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false, true,
            HaOptions.DEFAULT_SNAPSHOT_EVERY, null,
            id -> OmStoreOptions.defaults().withDefaultReplication(DEFAULTS.get(id)));
         OmClient client = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
             .withCallTimeout(WAIT))) {
      client.call(OmServiceGrpc.getCreateVolumeMethod(),
          CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
      client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
          .setVolume("vol").setBucket("plain").setLayout(BucketLayout.OBJECT_STORE).build());
      client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
          .setVolume("vol").setBucket("ecbucket").setLayout(BucketLayout.OBJECT_STORE)
          .setDefaultReplicationConfig(RS_6_3).build());

      ReplicaCluster.Node leader = cluster.leader(WAIT);
      assertEquals(DEFAULTS.get(leader.id), put(client, "plain", "by-leader", null));
      assertEquals(RS_6_3, put(client, "ecbucket", "by-bucket", null));
      ReplicationConfig one = ReplicationText.parse("RATIS", "ONE");
      assertEquals(one, put(client, "ecbucket", "asked", one));

      long applied = settled(leader);
      StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
          () -> put(client, "plain", "bad", ReplicationText.parse("EC", "rs-3-2-1000k")));
      assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
      assertTrue(refused.getStatus().getDescription().contains("1024000 bytes"),
          refused.getStatus().getDescription());
      assertEquals(applied, settled(leader), "nothing was appended");

      // A leader of another default: its own default from now on, on every replica alike.
      ReplicaCluster.Node next = cluster.follower(leader);
      leader.replica.transferLeadership(next.id, WAIT);
      assertEquals(next, cluster.leader(WAIT));
      assertEquals(DEFAULTS.get(next.id), put(client, "plain", "by-next-leader", null));

      // An entry as a release before configs logged it: no config in the request.
      next.writes.write(OmLogEntry.newBuilder().setOpenKey(OpenKeyRequest.newBuilder()
          .setVolume("vol").setBucket("ecbucket").setKey("old-entry")), null);

      // The bucket's default changed: keys opened later get the new one.
      client.call(OmServiceGrpc.getSetBucketPropertiesMethod(), SetBucketPropertiesRequest
          .newBuilder().setVolume("vol").setBucket("ecbucket").setDefaultReplicationConfig(one)
          .build());
      assertEquals(one, put(client, "ecbucket", "after-update", null));

      cluster.awaitCaughtUp(next, WAIT);
      String checksum = ReplicaCluster.checksum(next.store);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        assertEquals(DEFAULTS.get(leader.id), n.store.lookupKey("vol", "plain", "by-leader")
            .getReplicationConfig(), n.id);
        assertEquals(DEFAULTS.get(next.id), n.store.lookupKey("vol", "plain", "by-next-leader")
            .getReplicationConfig(), n.id);
        assertEquals(RS_6_3, n.store.lookupKey("vol", "ecbucket", "by-bucket")
            .getReplicationConfig(), n.id);
        assertEquals(ReplicationConfigs.DEFAULT, n.store.openFiles().list("vol", "ecbucket", 10,
            null).entries().stream().filter(e -> e.path().equals("old-entry")).findFirst()
            .orElseThrow().info().getReplicationConfig(), n.id);
        assertEquals(checksum, ReplicaCluster.checksum(n.store), n.id);
      }
    }
  }
}
