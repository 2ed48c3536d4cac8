package io.sediment.om.ha;

import static io.sediment.db.testing.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmException;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.proto.om.CreateBucketResponse;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateSnapshotResponse;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.OmLogEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose own storage fails while applying an entry stops there instead of skipping the
 * entry and diverging, and catches up once restarted; a rejection that is the same on every
 * replica is not such a failure: every replica passes the entry and goes on.
 *
 * <p>The local failure is real: the follower's snapshot root ({@code <store>/snapshots}) is a
 * plain file, so its checkpoint for a replicated CreateSnapshot cannot be made (the store answers
 * INTERNAL) while the leader's and the other follower's can.
 */
class ReplicaLocalFailureTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;

  private ReplicaCluster cluster() throws java.io.IOException {
    return new ReplicaCluster(root, 3, Duration.ofMillis(400), false);
  }

  @Test
  void aFollowerWhoseStorageFailsStopsAtTheEntryAndCatchesUpAfterARestart() throws Exception {
    try (ReplicaCluster cluster = cluster()) {
      ReplicaCluster.Node leader = cluster.leader(WAIT);
      leader.writes.write(ReplicatedWritePathTest.createVolume("vol"),
          CreateVolumeResponse.parser());
      leader.writes.write(ReplicatedWritePathTest.createBucket("vol", "bkt"),
          CreateBucketResponse.parser());
      ReplicatedWritePathTest.putKey(leader, "bkt", "before");
      cluster.awaitCaughtUp(leader, WAIT);
      ReplicaCluster.Node failing = cluster.follower(leader);
      ReplicaCluster.Node healthy = cluster.running.values().stream()
          .filter(n -> n != leader && n != failing).findFirst().orElseThrow();
      Path snapshotRoot = root.resolve(failing.id).resolve("store").resolve(Snapshots.ROOT_DIR);
      deleteIfEmptyDirectory(snapshotRoot);
      Files.writeString(snapshotRoot, "not a directory");

      CreateSnapshotResponse snapshot = leader.writes.write(OmLogEntry.newBuilder()
          .setCreateSnapshot(CreateSnapshotRequest.newBuilder().setVolume("vol").setBucket("bkt")
              .setName("snap1")), CreateSnapshotResponse.parser());
      // The leader's store records the entry's position in the snapshot row's batch (nothing else
      // writes to it meanwhile; Ratis' own later entries do not touch the store).
      long failedIndex = appliedInStore(leader.store);
      for (int i = 0; i < 5; i++) {
        ReplicatedWritePathTest.putKey(leader, "bkt", "after-" + i);
      }
      leader.writes.write(ReplicatedWritePathTest.createVolume("vol2"),
          CreateVolumeResponse.parser());
      long last = leader.replica.status().appliedIndex();
      waitFor(() -> healthy.replica.status().appliedIndex() >= last, WAIT.toMillis(),
          "the healthy follower applying up to " + last);
      waitFor(() -> stopped(failing) || appliedInStore(failing.store) >= last, WAIT.toMillis(),
          failing.id + " stopping, or (wrongly) applying past its failure");

      // Ratis' metadata entries are applied without a store write, so the stored position may be
      // an earlier one; never the failed entry's or a later one.
      assertTrue(appliedInStore(failing.store) < failedIndex, failing.id + " recorded "
          + appliedInStore(failing.store) + ", at or after the entry it failed to apply, "
          + failedIndex);
      assertTrue(stopped(failing), failing.id + "'s Raft server is stopped");
      assertEquals(failedIndex - 1, failing.replica.status().appliedIndex(),
          "Ratis' applied index of " + failing.id + " stays before the entry too");
      assertEquals(1, failing.store.listKeys("vol", "bkt", "", "", 100, null).items().size(),
          "only the key written before the failure");
      assertThrows(OmException.class, () -> failing.store.getVolumeInfo("vol2"));
      assertNotInSnapshots(failing.store, "snap1");

      cluster.stop(failing.id);
      Files.delete(snapshotRoot);
      ReplicaCluster.Node restarted = cluster.start(failing.id);
      cluster.awaitCaughtUp(leader, WAIT);

      String expected = ReplicaCluster.checksum(leader.store);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        assertEquals(expected, ReplicaCluster.checksum(n.store), n.id + " differs from the leader");
      }
      assertEquals(snapshot.getSnapshot(),
          restarted.store.snapshots().info("vol", "bkt", "snap1"), "replayed from its position");
      assertEquals(6, restarted.store.listKeys("vol", "bkt", "", "", 100, null).items().size());
    }
  }

  @Test
  void aRejectionTheSameOnEveryReplicaIsPassedByEveryReplica() throws Exception {
    try (ReplicaCluster cluster = cluster()) {
      ReplicaCluster.Node leader = cluster.leader(WAIT);
      leader.writes.write(ReplicatedWritePathTest.createVolume("vol"),
          CreateVolumeResponse.parser());

      OmException e = assertThrows(OmException.class,
          () -> leader.writes.write(ReplicatedWritePathTest.createBucket("missing", "bkt"),
              CreateBucketResponse.parser()));
      assertEquals(OmException.Code.NOT_FOUND, e.code());
      long rejectedIndex = leader.replica.status().appliedIndex();
      leader.writes.write(ReplicatedWritePathTest.createBucket("vol", "bkt"),
          CreateBucketResponse.parser());
      long next = appliedInStore(leader.store);
      cluster.awaitCaughtUp(leader, WAIT);

      String expected = ReplicaCluster.checksum(leader.store);
      for (ReplicaCluster.Node n : cluster.running.values()) {
        assertFalse(stopped(n), n.id + " goes on after the rejection");
        assertTrue(n.replica.status().appliedIndex() >= next, n.id + " passed entry "
            + rejectedIndex + " and applied the next one");
        assertEquals(next, appliedInStore(n.store), n.id + " records the write after it");
        assertEquals(expected, ReplicaCluster.checksum(n.store), n.id + " differs from the leader");
        assertThrows(OmException.class, () -> n.store.getVolumeInfo("missing"));
      }
    }
  }

  /** Whether the replica's Raft server stopped. */
  private static boolean stopped(ReplicaCluster.Node n) {
    return n.replica.status().role().equals(ReplicaStatus.STOPPED);
  }

  private static long appliedInStore(OmMetadataStore store) {
    return store.appliedLog().lastApplied().map(LogPosition::index).orElse(-1L);
  }

  private static void assertNotInSnapshots(OmMetadataStore store, String name) {
    OmException e = assertThrows(OmException.class,
        () -> store.snapshots().info("vol", "bkt", name));
    assertEquals(OmException.Code.NOT_FOUND, e.code());
  }

  private static void deleteIfEmptyDirectory(Path dir) throws java.io.IOException {
    if (Files.isDirectory(dir)) {
      try (var entries = Files.list(dir)) {
        assertNull(entries.findAny().orElse(null), "no snapshot yet under " + dir);
      }
      Files.delete(dir);
    }
  }
}
