package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException;
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
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica kept down until the leader has purged the log it missed catches up by installing a
 * copy of the leader's store (fetched over ReplicationService), then follows the log again: its
 * tables, snapshots included, end identical to the leader's.
 */
class SnapshotInstallTest {

  // Generous: a needless election on the loaded build machine only costs a retry.
  private static final Duration ELECTION = Duration.ofMillis(1000);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final long SNAPSHOT_EVERY = 20;

  @TempDir
  Path root;
  private ReplicaCluster cluster;

  @BeforeEach
  void start() throws Exception {
    cluster = newCluster(root, ELECTION, SNAPSHOT_EVERY);
  }

  /** Three replicas serving gRPC, which the copy is fetched over. */
  ReplicaCluster newCluster(Path dir, Duration election, long snapshotEvery) throws Exception {
    return new ReplicaCluster(dir, 3, election, false, true, snapshotEvery);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  /** Puts a key through whichever replica leads, again after a leader change. */
  private void putKey(String key) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        putKey(cluster.leader(WAIT), key);
        return;
      } catch (NotLeaderException | OmException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  private static void putKey(ReplicaCluster.Node n, String key) {
    OpenKeyResponse open = n.writes.write(OmLogEntry.newBuilder().setOpenKey(OpenKeyRequest
        .newBuilder().setVolume("vol").setBucket("obs").setKey(key).setOwner("alice")),
        OpenKeyResponse.parser());
    n.writes.write(OmLogEntry.newBuilder().setCommitKey(CommitKeyRequest.newBuilder()
        .setVolume("vol").setBucket("obs").setKey(key).setClientId(open.getClientId())
        .setDataSize(7)), CommitKeyResponse.parser());
  }

  @Test
  void aReplicaBehindThePurgedLogInstallsTheLeadersStoreAndFollowsOn() throws Exception {
    ReplicaCluster.Node leader = cluster.leader(WAIT);
    leader.writes.write(OmLogEntry.newBuilder().setCreateVolume(
        CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice")),
        CreateVolumeResponse.parser());
    leader.writes.write(OmLogEntry.newBuilder().setCreateBucket(CreateBucketRequest.newBuilder()
        .setVolume("vol").setBucket("obs").setLayout(BucketLayout.OBJECT_STORE)
        .setOwner("alice")), CreateBucketResponse.parser());
    putKey("before");
    cluster.awaitCaughtUp(leader, WAIT);
    String laggard = cluster.follower(leader).id;
    long laggardApplied = cluster.running.get(laggard).replica.status().appliedIndex();
    cluster.stop(laggard);

    leader.writes.write(OmLogEntry.newBuilder().setCreateSnapshot(CreateSnapshotRequest
        .newBuilder().setVolume("vol").setBucket("obs").setName("snap")),
        CreateSnapshotResponse.parser());
    for (int i = 0; i < 150 && leader.replica.logStartIndex() <= laggardApplied + 1; i++) {
      putKey("k" + i);
      leader = cluster.leader(WAIT);
    }
    assertTrue(leader.replica.logStartIndex() > laggardApplied + 1, "the leader purged the log "
        + "the stopped replica needs (log starts at " + leader.replica.logStartIndex()
        + ", the replica applied " + laggardApplied + ")");

    long restarted = System.nanoTime();
    ReplicaCluster.Node back = cluster.start(laggard);
    putKey("after");
    leader = cluster.leader(WAIT);
    cluster.awaitCaughtUp(leader, WAIT);
    System.out.printf("CATCHUP by install: %d ms from restart%n",
        (System.nanoTime() - restarted) / 1_000_000);

    assertEquals(ReplicaCluster.checksum(leader.store), ReplicaCluster.checksum(back.store));
    assertEquals(7, back.store.snapshots().lookupKey("vol", "obs", "snap", "before")
        .getDataSize(), "the snapshot came with the copy");
    Path storeDir = back.store.dbStore().getPath();
    try (Stream<Path> siblings = Files.list(storeDir.getParent())) {
      assertEquals(1, siblings.filter(p -> p.getFileName().toString().startsWith("store"))
          .count(), "the replaced store and the copy's staging are gone");
    }
  }
}
