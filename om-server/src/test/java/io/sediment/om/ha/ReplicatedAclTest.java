package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.om.OmAcls;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.client.OmClient;
import io.sediment.proto.om.AclResource;
import io.sediment.proto.om.AddAclRequest;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RemoveAclRequest;
import io.sediment.proto.om.SetAclRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL edits are replicated writes: set, add and remove sent to a group of three land on every
 * replica with the same ACL (and the same rows: equal store checksums), prefix ACLs included, as
 * does the ACL a key inherited from its bucket's or its prefix's DEFAULT entries at creation; each
 * replica's parsed bucket row follows the edits it applies.
 */
class ReplicatedAclTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;

  @Test
  void anAclEditOnTheLeaderIsOnEveryReplica() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false, true);
         OmClient client = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
             .withCallTimeout(WAIT))) {
      client.call(OmServiceGrpc.getCreateVolumeMethod(),
          CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
      client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setLayout(BucketLayout.OBJECT_STORE).build());
      AclResource bucket = AclResource.newBuilder().setVolume("vol").setBucket("bkt").build();
      client.call(OmServiceGrpc.getSetAclMethod(), SetAclRequest.newBuilder().setTarget(bucket)
          .addAcls(AclText.parse("user:alice:a"))
          .addAcls(AclText.parse("group:dev:rl[DEFAULT]")).build());
      OpenKeyResponse open = client.call(OmServiceGrpc.getOpenKeyMethod(), OpenKeyRequest
          .newBuilder().setVolume("vol").setBucket("bkt").setKey("k").setOwner("bob").build());
      client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setKey("k").setClientId(open.getClientId()).build());
      AclResource key = bucket.toBuilder().setKey("k").build();
      client.call(OmServiceGrpc.getAddAclMethod(), AddAclRequest.newBuilder().setTarget(key)
          .addAcls(AclText.parse("world::r")).build());
      client.call(OmServiceGrpc.getRemoveAclMethod(), RemoveAclRequest.newBuilder()
          .setTarget(key).addAcls(AclText.parse("group:dev:l")).build());
      AclResource logs = bucket.toBuilder().setPrefix("logs/").build();
      client.call(OmServiceGrpc.getAddAclMethod(), AddAclRequest.newBuilder().setTarget(logs)
          .addAcls(AclText.parse("group:ops:w[DEFAULT]")).build());
      OpenKeyResponse underPrefix = client.call(OmServiceGrpc.getOpenKeyMethod(), OpenKeyRequest
          .newBuilder().setVolume("vol").setBucket("bkt").setKey("logs/1").setOwner("bob").build());
      client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setKey("logs/1")
          .setClientId(underPrefix.getClientId()).build());

      ReplicaCluster.Node leader = cluster.leader(WAIT);
      cluster.awaitCaughtUp(leader, WAIT);
      String checksum = ReplicaCluster.checksum(leader.store);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        OmAcls acls = new OmAcls(n.store);
        assertEquals(List.of("user:alice:a", "group:dev:rl[DEFAULT]"),
            AclText.formatAll(acls.get(AclTarget.bucket("vol", "bkt"))), n.id);
        assertEquals(List.of("user:bob:a", "group:dev:r", "world::r"),
            AclText.formatAll(acls.get(AclTarget.key("vol", "bkt", "k"))), n.id);
        assertEquals(List.of("group:ops:w[DEFAULT]"),
            AclText.formatAll(acls.get(AclTarget.prefix("vol", "bkt", "logs/"))), n.id);
        assertEquals(List.of("user:bob:a", "group:ops:w"),
            AclText.formatAll(acls.get(AclTarget.key("vol", "bkt", "logs/1"))),
            n.id + ": the key inherits its prefix's DEFAULT entries");
        assertEquals(List.of("user:alice:a", "group:dev:rl[DEFAULT]"),
            AclText.formatAll(n.store.parsedRows().bucket("vol", "bkt").getAclsList()),
            n.id + ": the parsed bucket row follows the replicated edit");
        assertEquals(checksum, ReplicaCluster.checksum(n.store), n.id);
      }
    }
  }
}
