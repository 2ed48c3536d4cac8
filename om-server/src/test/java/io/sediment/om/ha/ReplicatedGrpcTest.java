package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.client.OmClient;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.GetReplicationStatusRequest;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.TransferLeaderRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas each serving OmService on loopback, driven through {@link OmClient}: a follower
 * answers UNAVAILABLE with the leader's address and the client follows it; when the leader is
 * stopped in the middle of a write load the client goes on through the new leader, no
 * acknowledged write is lost, and a listing continues with a token another replica issued.
 */
class ReplicatedGrpcTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;
  private ReplicaCluster cluster;
  private OmClient client;

  @BeforeEach
  void start() throws Exception {
    cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false, true);
    client = OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
        .withCallTimeout(Duration.ofSeconds(30)));
  }

  @AfterEach
  void stop() {
    try {
      client.close();
    } finally {
      cluster.close();
    }
  }

  private void namespace() {
    client.call(OmServiceGrpc.getCreateVolumeMethod(),
        CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
    client.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setLayout(BucketLayout.OBJECT_STORE).setOwner("alice")
        .build());
  }

  private void putKey(String key) {
    OpenKeyResponse open = client.call(OmServiceGrpc.getOpenKeyMethod(), OpenKeyRequest
        .newBuilder().setVolume("vol").setBucket("bkt").setKey(key).setOwner("alice").build());
    client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setKey(key).setClientId(open.getClientId())
        .setDataSize(1).build());
  }

  @Test
  void aFollowerNamesTheLeaderInItsAnswerAndTheClientFollowsIt() throws Exception {
    ReplicaCluster.Node leader = cluster.leader(WAIT);
    ReplicaCluster.Node follower = cluster.follower(leader);
    String followerTarget = cluster.peers.rpcAddressOf(follower.id);
    ManagedChannel channel = Grpc.newChannelBuilder(followerTarget,
        InsecureChannelCredentials.create()).build();
    try {
      StatusRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(
          StatusRuntimeException.class, () -> OmServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .createVolume(CreateVolumeRequest.newBuilder().setVolume("vol").build()));
      assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
      assertEquals(cluster.peers.rpcAddressOf(leader.id),
          e.getTrailers().get(io.grpc.Metadata.Key.of(OmClient.LEADER_HEADER,
              io.grpc.Metadata.ASCII_STRING_MARSHALLER)));

      assertEquals(1.0, gauge(leader, "sediment_replica_leader"));
      assertEquals(0.0, gauge(follower, "sediment_replica_leader"));
      assertEquals(leader.replica.status().term(), (long) gauge(follower, "sediment_replica_term"));

      GetReplicationStatusResponse status = AdminServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .getReplicationStatus(GetReplicationStatusRequest.getDefaultInstance());
      assertTrue(status.getReplicated());
      assertEquals("FOLLOWER", status.getRole());
      assertEquals(leader.id, status.getLeaderId());
    } finally {
      channel.shutdownNow();
    }

    OmClient viaFollower = OmClient.connect(List.of(followerTarget), OmClient.Options.defaults());
    try {
      viaFollower.call(OmServiceGrpc.getCreateVolumeMethod(),
          CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
      assertEquals(cluster.peers.rpcAddressOf(leader.id), viaFollower.currentTarget());
    } finally {
      viaFollower.close();
    }
  }

  @Test
  void writesGoOnThroughANewLeaderAndNoAcknowledgedWriteIsLost() throws Exception {
    namespace();
    List<String> acknowledged = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      putKey(String.format("k%03d", i));
      acknowledged.add(String.format("k%03d", i));
    }
    ListKeysResponse firstPage = client.call(OmServiceGrpc.getListKeysMethod(), ListKeysRequest
        .newBuilder().setVolume("vol").setBucket("bkt").setMaxKeys(5).build());
    assertTrue(firstPage.getTruncated());
    ReplicaCluster.Node old = cluster.leader(WAIT);
    cluster.stop(old.id);

    for (int i = 15; i < 30; i++) {
      putKey(String.format("k%03d", i));
      acknowledged.add(String.format("k%03d", i));
    }
    ReplicaCluster.Node now = cluster.leader(WAIT);
    assertNotEquals(old.id, now.id);

    List<String> listed = new ArrayList<>();
    firstPage.getKeysList().forEach(k -> listed.add(k.getKeyName()));
    ListKeysResponse page = firstPage;
    while (page.getTruncated()) {
      page = client.call(OmServiceGrpc.getListKeysMethod(), ListKeysRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setMaxKeys(5)
          .setPageToken(page.getNextPageToken()).build());
      page.getKeysList().forEach(k -> listed.add(k.getKeyName()));
    }
    assertEquals(acknowledged, listed,
        "every acknowledged key, once, in order; the token the old leader issued still works");
    assertFalse(listed.isEmpty());
  }

  @Test
  void theLeaderHandsOverToTheReplicaAskedAndOnlyTheLeaderCan() throws Exception {
    ReplicaCluster.Node leader = cluster.leader(WAIT);
    ReplicaCluster.Node follower = cluster.follower(leader);
    ManagedChannel toLeader = Grpc.newChannelBuilder(cluster.peers.rpcAddressOf(leader.id),
        InsecureChannelCredentials.create()).build();
    ManagedChannel toFollower = Grpc.newChannelBuilder(cluster.peers.rpcAddressOf(follower.id),
        InsecureChannelCredentials.create()).build();
    try {
      var leaderAdmin = AdminServiceGrpc.newBlockingStub(toLeader)
          .withDeadlineAfter(30, TimeUnit.SECONDS);
      var followerAdmin = AdminServiceGrpc.newBlockingStub(toFollower)
          .withDeadlineAfter(30, TimeUnit.SECONDS);
      assertEquals(Status.Code.FAILED_PRECONDITION, org.junit.jupiter.api.Assertions.assertThrows(
          StatusRuntimeException.class, () -> leaderAdmin.transferLeader(
              TransferLeaderRequest.newBuilder().setToReplica("om9").build()))
          .getStatus().getCode());
      assertEquals(Status.Code.UNAVAILABLE, org.junit.jupiter.api.Assertions.assertThrows(
          StatusRuntimeException.class, () -> followerAdmin.transferLeader(
              TransferLeaderRequest.newBuilder().setToReplica(follower.id).build()))
          .getStatus().getCode(), "a follower names the leader instead");

      leaderAdmin.transferLeader(TransferLeaderRequest.newBuilder().setToReplica(follower.id)
          .build());

      assertEquals(follower.id, cluster.leader(WAIT).id);
      assertEquals("LEADER", followerAdmin.getReplicationStatus(
          GetReplicationStatusRequest.getDefaultInstance()).getRole());
      client.call(OmServiceGrpc.getCreateVolumeMethod(),
          CreateVolumeRequest.newBuilder().setVolume("after").setOwner("alice").build());
    } finally {
      toLeader.shutdownNow();
      toFollower.shutdownNow();
    }
  }

  /** A gauge's value on {@code node}'s /prom registry. */
  private static double gauge(ReplicaCluster.Node node, String name) {
    for (var snapshot : node.grpc.registry().scrape()) {
      if (snapshot.getMetadata().getPrometheusName().equals(name)) {
        return ((io.prometheus.metrics.model.snapshots.GaugeSnapshot) snapshot).getDataPoints()
            .get(0).getValue();
      }
    }
    throw new AssertionError("no gauge " + name);
  }

  @Test
  void aStubOverTheClientsChannelGoesOnThroughANewLeader() throws Exception {
    OmServiceGrpc.OmServiceBlockingStub stub = OmServiceGrpc.newBlockingStub(client.asChannel());
    stub.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice")
        .build());
    cluster.stop(cluster.leader(WAIT).id);

    stub.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setLayout(BucketLayout.OBJECT_STORE).setOwner("alice").build());

    assertEquals("alice", stub.getBucket(io.sediment.proto.om.GetBucketRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").build()).getBucket().getOwner());
    StatusRuntimeException exists = org.junit.jupiter.api.Assertions.assertThrows(
        StatusRuntimeException.class, () -> stub.createVolume(CreateVolumeRequest.newBuilder()
            .setVolume("vol").setOwner("bob").build()));
    assertEquals(Status.Code.ALREADY_EXISTS, exists.getStatus().getCode());
  }
}
