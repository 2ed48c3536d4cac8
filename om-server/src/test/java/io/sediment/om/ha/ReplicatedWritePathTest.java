package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.Context;
import io.sediment.om.core.OmException;
import io.sediment.om.listing.ListPage;
import io.sediment.om.grpc.RequestIds;
import io.sediment.om.requests.NotLeaderException;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitKeyResponse;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateBucketResponse;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateSnapshotResponse;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResponse;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas on loopback (real Ratis over gRPC, temporary directories): writes go through the
 * leader's log and every replica applies them to identical stores; followers refuse writes with
 * the leader's address; the group survives the loss of its leader; a restarted replica catches up
 * from the log; retried writes apply once; continuation tokens verify on every replica.
 */
class ReplicatedWritePathTest {

  private static final Duration ELECTION = Duration.ofMillis(400);
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;
  private ReplicaCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = new ReplicaCluster(root, 3, ELECTION, false);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  static OmLogEntry.Builder createVolume(String name) {
    return OmLogEntry.newBuilder().setCreateVolume(
        CreateVolumeRequest.newBuilder().setVolume(name).setOwner("alice"));
  }

  static OmLogEntry.Builder createBucket(String volume, String bucket) {
    return OmLogEntry.newBuilder().setCreateBucket(CreateBucketRequest.newBuilder()
        .setVolume(volume).setBucket(bucket).setLayout(BucketLayout.OBJECT_STORE)
        .setOwner("alice"));
  }

  static KeyInfo putKey(ReplicaCluster.Node n, String bucket, String key) {
    OpenKeyResponse open = n.writes.write(OmLogEntry.newBuilder().setOpenKey(OpenKeyRequest
        .newBuilder().setVolume("vol").setBucket(bucket).setKey(key).setOwner("alice")),
        OpenKeyResponse.parser());
    return n.writes.write(OmLogEntry.newBuilder().setCommitKey(CommitKeyRequest.newBuilder()
        .setVolume("vol").setBucket(bucket).setKey(key).setClientId(open.getClientId())
        .setDataSize(7)), CommitKeyResponse.parser()).getKey();
  }

  private ReplicaCluster.Node namespace() throws InterruptedException {
    ReplicaCluster.Node leader = cluster.leader(WAIT);
    leader.writes.write(createVolume("vol"), CreateVolumeResponse.parser());
    leader.writes.write(createBucket("vol", "bkt"), CreateBucketResponse.parser());
    return leader;
  }

  @Test
  void everyReplicaAppliesTheLeadersWritesToIdenticalStores() throws Exception {
    ReplicaCluster.Node leader = namespace();
    for (int i = 0; i < 20; i++) {
      putKey(leader, "bkt", "k" + i);
    }
    CreateSnapshotResponse snap = leader.writes.write(OmLogEntry.newBuilder().setCreateSnapshot(
        CreateSnapshotRequest.newBuilder().setVolume("vol").setBucket("bkt")),
        CreateSnapshotResponse.parser());

    cluster.awaitCaughtUp(leader, WAIT);

    String expected = ReplicaCluster.checksum(leader.store);
    for (ReplicaCluster.Node n : cluster.running.values()) {
      assertEquals(expected, ReplicaCluster.checksum(n.store), n.id + " differs from the leader");
      assertEquals(20, n.store.listKeys("vol", "bkt", "", "", 100, null).items().size());
      assertEquals(snap.getSnapshot(), n.store.snapshots().info("vol", "bkt",
          snap.getSnapshot().getName()), "the leader named the snapshot; every replica has it");
    }
  }

  @Test
  void aFollowerRefusesWritesAndNamesTheLeader() throws Exception {
    ReplicaCluster.Node leader = cluster.leader(WAIT);
    ReplicaCluster.Node follower = cluster.follower(leader);
    String before = ReplicaCluster.checksum(follower.store);

    NotLeaderException e = assertThrows(NotLeaderException.class,
        () -> follower.writes.write(createVolume("vol"), CreateVolumeResponse.parser()));

    assertEquals(leader.id, e.leaderId());
    assertEquals(cluster.peers.rpcAddressOf(leader.id), e.leaderAddress());
    assertEquals(before, ReplicaCluster.checksum(follower.store));
    assertThrows(NotLeaderException.class, follower.reads::beforeRead,
        "without follower reads a follower refuses reads too");
  }

  @Test
  void aRejectedWriteIsRejectedOnEveryReplicaAndChangesNothing() throws Exception {
    ReplicaCluster.Node leader = namespace();
    cluster.awaitCaughtUp(leader, WAIT);
    String before = ReplicaCluster.checksum(leader.store);

    OmException e = assertThrows(OmException.class,
        () -> leader.writes.write(createVolume("vol"), CreateVolumeResponse.parser()));

    assertEquals(OmException.Code.ALREADY_EXISTS, e.code());
    cluster.awaitCaughtUp(leader, WAIT);
    for (ReplicaCluster.Node n : cluster.running.values()) {
      assertEquals(before, ReplicaCluster.checksum(n.store));
    }
  }

  @Test
  void theGroupGoesOnWithoutItsLeaderAndTheOldLeaderCatchesUpAfterARestart() throws Exception {
    ReplicaCluster.Node first = namespace();
    for (int i = 0; i < 10; i++) {
      putKey(first, "bkt", "before-" + i);
    }
    String oldLeader = first.id;
    cluster.stop(oldLeader);

    ReplicaCluster.Node second = cluster.leader(WAIT);
    assertNotEquals(oldLeader, second.id);
    for (int i = 0; i < 10; i++) {
      putKey(second, "bkt", "after-" + i);
    }
    cluster.start(oldLeader);
    cluster.awaitCaughtUp(second, WAIT);

    String expected = ReplicaCluster.checksum(second.store);
    for (ReplicaCluster.Node n : cluster.running.values()) {
      assertEquals(expected, ReplicaCluster.checksum(n.store), n.id + " differs from the leader");
      assertEquals(20, n.store.listKeys("vol", "bkt", "", "", 100, null).items().size());
    }
  }

  @Test
  void aRetriedWriteWithTheSameRequestIdsAppliesOnce() throws Exception {
    ReplicaCluster.Node leader = namespace();
    RequestIds.Ids ids = new RequestIds.Ids(UUID.randomUUID(), 42);
    Context withIds = Context.current().withValue(keyForTest(), ids);

    OpenKeyResponse first = withIds.call(() -> leader.writes.write(OmLogEntry.newBuilder()
        .setOpenKey(OpenKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey("k")
            .setOwner("alice")), OpenKeyResponse.parser()));
    OpenKeyResponse retried = withIds.call(() -> leader.writes.write(OmLogEntry.newBuilder()
        .setOpenKey(OpenKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey("k")
            .setOwner("alice")), OpenKeyResponse.parser()));

    assertEquals(first.getClientId(), retried.getClientId(), "the retry got the first reply");
    assertEquals(1, leader.store.openFiles().list("vol", "bkt", 100, null).entries().size(),
        "one open-key session, not two");
  }

  @Test
  void aContinuationTokenFromOneReplicaVerifiesOnAnother() throws Exception {
    ReplicaCluster.Node leader = namespace();
    for (int i = 0; i < 3; i++) {
      putKey(leader, "bkt", "k" + i);
    }
    leader.reads.beforeRead();
    ListPage<KeyInfo> page = leader.store.listKeys("vol", "bkt", "", "", 1, null);
    assertNotNull(page.nextToken());
    cluster.awaitCaughtUp(leader, WAIT);
    ReplicaCluster.Node follower = cluster.follower(leader);

    ListPage<KeyInfo> next = follower.store.listKeys("vol", "bkt", "", "", 1, page.nextToken());

    assertEquals("k1", next.items().get(0).getKeyName());
  }

  @Test
  void backgroundStepsRunOnlyOnTheLeaderAndEveryReplicaPurgesTheSameRows() throws Exception {
    ReplicaCluster.Node leader = namespace();
    for (int i = 0; i < 6; i++) {
      putKey(leader, "bkt", "k" + i);
      leader.writes.write(OmLogEntry.newBuilder().setDeleteKey(DeleteKeyRequest.newBuilder()
          .setVolume("vol").setBucket("bkt").setKey("k" + i)), DeleteKeyResponse.parser());
    }
    leader.writes.write(OmLogEntry.newBuilder().setOpenKey(OpenKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setKey("left-open").setOwner("alice")),
        OpenKeyResponse.parser());
    cluster.awaitCaughtUp(leader, WAIT);
    ReplicaCluster.Node follower = cluster.follower(leader);
    String before = ReplicaCluster.checksum(follower.store);
    ReplicaRequests followerRequests =
        new ReplicaRequests(follower.replica, follower.store, java.time.Clock.systemUTC());

    assertEquals(0, followerRequests.purgeSteps().purgeDeletedKeys(100),
        "a follower's step does nothing");
    assertEquals(before, ReplicaCluster.checksum(follower.store));

    ReplicaRequests leaderRequests =
        new ReplicaRequests(leader.replica, leader.store, java.time.Clock.systemUTC());
    assertEquals(6, leaderRequests.purgeSteps().purgeDeletedKeys(100));
    assertEquals(1, leaderRequests.purgeSteps().expireOpenKeys(Duration.ofMillis(1), 100),
        "the entry's time is the cutoff's now on every replica");
    cluster.awaitCaughtUp(leader, WAIT);
    String expected = ReplicaCluster.checksum(leader.store);
    for (ReplicaCluster.Node n : cluster.running.values()) {
      assertEquals(expected, ReplicaCluster.checksum(n.store), n.id + " differs from the leader");
      assertEquals(0L, (long) n.store.counters().get(io.sediment.om.core.OmCounter.DELETED_KEYS));
    }
  }

  private static Context.Key<RequestIds.Ids> keyForTest() {
    return RequestIds.contextKey();
  }
}
