package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Context;
import io.sediment.om.client.OmClient;
import io.sediment.om.grpc.RequestIds;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteKeyResult.Outcome;
import io.sediment.proto.om.DeleteKeysEntry;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeleteKeys in a group of three: one log entry whose application is the same on every replica
 * (equal store checksums), the leader's denials included: a key the entry says the caller may not
 * delete stays on every replica, and every replica reports it the same way; a retry under the
 * same request ids is answered from the retry cache.
 */
class ReplicatedDeleteKeysTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;

  @Test
  void aBatchDeleteIsAppliedIdenticallyOnEveryReplica() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false, true);
         OmClient client = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
             .withCallTimeout(WAIT))) {
      client.call(OmServiceGrpc.getCreateVolumeMethod(),
          CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
      client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setLayout(BucketLayout.OBJECT_STORE).build());
      for (int i = 0; i < 6; i++) {
        OpenKeyResponse open = client.call(OmServiceGrpc.getOpenKeyMethod(), OpenKeyRequest
            .newBuilder().setVolume("vol").setBucket("bkt").setKey("k" + i).build());
        client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
            .setVolume("vol").setBucket("bkt").setKey("k" + i).setClientId(open.getClientId())
            .setDataSize(i).build());
      }
      DeleteKeysResponse r = client.call(OmServiceGrpc.getDeleteKeysMethod(), DeleteKeysRequest
          .newBuilder().setVolume("vol").setBucket("bkt").addKeys("k0").addKeys("nope")
          .addKeys("k2").build());
      assertEquals(List.of(Outcome.DELETED, Outcome.NOT_FOUND, Outcome.DELETED),
          r.getResultsList().stream().map(x -> x.getOutcome()).toList());

      // An entry as a leader with authorization submits it: k4 denied, reported, kept. Sent
      // again under the same request ids (a client's retry), it gets the first reply and
      // applies nothing.
      ReplicaCluster.Node leader = cluster.leader(WAIT);
      Context withIds = Context.current().withValue(RequestIds.contextKey(),
          new RequestIds.Ids(UUID.randomUUID(), 7));
      List<DeleteKeysResponse> replies = new ArrayList<>();
      for (int attempt = 0; attempt < 2; attempt++) {
        replies.add(withIds.call(() -> leader.writes.write(OmLogEntry.newBuilder()
            .setDeleteKeys(DeleteKeysEntry.newBuilder().setRequest(DeleteKeysRequest.newBuilder()
                .setVolume("vol").setBucket("bkt").addKeys("k3").addKeys("k4"))
                .addDenied(1).addDeniedMessages("Permission denied: bob lacks ACL_DELETE")),
            DeleteKeysResponse.parser())));
      }
      DeleteKeysResponse decided = replies.get(0);
      assertEquals(List.of(Outcome.DELETED, Outcome.FAILED),
          decided.getResultsList().stream().map(x -> x.getOutcome()).toList());
      assertEquals("PERMISSION_DENIED", decided.getResults(1).getErrorCode());
      assertEquals(decided, replies.get(1), "the retry got the first reply");

      cluster.awaitCaughtUp(leader, WAIT);
      String checksum = ReplicaCluster.checksum(leader.store);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        assertEquals(List.of("k1", "k4", "k5"), n.store.listKeys("vol", "bkt", null, null, 10,
            null).items().stream().map(KeyInfo::getKeyName).toList(), n.id);
        assertEquals(n.store.countFromScan(), n.store.counters(), n.id);
        assertEquals(checksum, ReplicaCluster.checksum(n.store), n.id);
      }
    }
  }
}
