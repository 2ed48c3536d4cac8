package io.sediment.om;

import static io.sediment.om.OmTestSupport.fullScan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBProfile;
import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListPage;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica replacing its store with a copy of its leader's: the copy holds the live tables and
 * the snapshots at the leader's applied position, is refused when it is not a whole positioned
 * store (the replica's own files unchanged and still served), and a crash part-way through the
 * replacement leaves one whole store that the next open serves.
 */
class ReplicaFilesTest {

  private static final byte[] GROUP_SECRET = "the group's secret, 32 bytes ...".getBytes();

  @TempDir
  Path root;

  /** Applies a small namespace as log entries 1..n of term 3; returns the last position. */
  private static LogPosition leaderWrites(OmMetadataStore om) {
    long[] index = {0};
    apply(om, ++index[0], () -> om.createVolume("vol", "alice"));
    apply(om, ++index[0],
        () -> om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, "alice", 0));
    for (int i = 0; i < 5; i++) {
      String key = "k" + i;
      apply(om, ++index[0], () -> commit(om, key));
    }
    apply(om, ++index[0], () -> om.snapshots().create("vol", "obs", "snap"));
    apply(om, ++index[0], () -> {
      om.deleteKey("vol", "obs", "k0");
      return null;
    });
    apply(om, ++index[0], () -> {
      om.appliedLog().adoptTokenSecret(GROUP_SECRET);
      return null;
    });
    return new LogPosition(3, index[0]);
  }

  private static void apply(OmMetadataStore om, long index, java.util.function.Supplier<?> write) {
    om.appliedLog().apply(new LogPosition(3, index), 1_700_000_000_000L + index, write);
  }

  private static KeyInfo commit(OmMetadataStore om, String key) {
    OpenKeySession s = om.openKey("vol", "obs", key, "alice");
    return om.commitKey("vol", "obs", key, s.clientId(), 7);
  }

  /** What a transfer does: each file of the checkpoint written into the replica's incoming dir. */
  private static void transfer(StoreCheckpoint from, Path to) throws IOException {
    for (String f : from.files()) {
      Path target = to.resolve(f);
      Files.createDirectories(target.getParent());
      Files.copy(from.dir().resolve(f), target);
    }
  }

  @Test
  void aReplicaInstallsTheLeadersCopyAndServesItFromThen() throws IOException {
    Path leaderDir = root.resolve("leader");
    Path followerDir = root.resolve("follower");
    try (OmMetadataStore leader = OmMetadataStore.open(leaderDir);
         OmMetadataStore follower = OmMetadataStore.open(followerDir)) {
      LogPosition last = leaderWrites(leader);
      follower.appliedLog().apply(new LogPosition(1, 1), 1L,
          () -> follower.createVolume("stale", "bob"));
      Path outgoing;
      try (StoreCheckpoint copy = leader.replicaFiles().checkpoint()) {
        outgoing = copy.dir();
        assertEquals(last, copy.position());
        assertTrue(copy.files().contains("CURRENT"), copy.files().toString());
        assertTrue(copy.files().stream().anyMatch(f -> f.startsWith("snapshots/")),
            "the snapshot's checkpoint travels with the copy: " + copy.files());
        transfer(copy, follower.replicaFiles().incomingDir());
      }
      assertFalse(Files.exists(outgoing), "closing the checkpoint deletes it");

      assertEquals(last, follower.replicaFiles().installIncoming());

      assertEquals(fullScan(leader), fullScan(follower));
      assertEquals(Optional.of(last), follower.appliedLog().lastApplied());
      assertThrows(OmException.class, () -> follower.getVolumeInfo("stale"));
      assertEquals(7, follower.snapshots().lookupKey("vol", "obs", "snap", "k0").getDataSize(),
          "the snapshot still holds the key deleted after it");
      ListPage<KeyInfo> page = leader.listKeys("vol", "obs", "", "", 2, null);
      assertEquals(List.of("k3", "k4"), keys(follower.listKeys("vol", "obs", "", "", 2,
          page.nextToken())), "a token the leader issued pages on at the replica");
      assertEquals(leader.counters(), follower.counters());
      follower.createVolume("after", "carol");
      assertEquals(List.of("follower"), siblings(followerDir),
          "nothing is left next to the store's directory");
    }
    try (OmMetadataStore reopened = OmMetadataStore.open(followerDir)) {
      assertEquals("carol", reopened.getVolumeInfo("after").getOwner());
      assertEquals(Optional.of(new LogPosition(3, 10)), reopened.appliedLog().lastApplied());
    }
  }

  @Test
  void aSnapshotCheckpointStillBeingWrittenIsLeftOutOfTheCopy() throws IOException {
    try (OmMetadataStore leader = OmMetadataStore.open(root.resolve("leader"))) {
      leaderWrites(leader);
      // A create writes its checkpoint here without the write lock, and may rename it meanwhile.
      Path pending = root.resolve("leader").resolve(Snapshots.ROOT_DIR)
          .resolve(Snapshots.PENDING_PREFIX + "in-progress");
      Files.createDirectories(pending);
      Files.writeString(pending.resolve("CURRENT"), "MANIFEST-000001\n");
      try (StoreCheckpoint copy = leader.replicaFiles().checkpoint()) {
        assertTrue(copy.files().stream().anyMatch(f -> f.startsWith("snapshots/")),
            copy.files().toString());
        assertTrue(copy.files().stream().noneMatch(f -> f.contains(Snapshots.PENDING_PREFIX)),
            copy.files().toString());
      }
    }
  }

  @Test
  void theInstalledCopyOpensWithTheStoresOwnProfile() throws IOException {
    DBProfile profile = DBProfile.defaults().toBuilder().blockCacheBytes(40L << 20)
        .partitionPinning(DBProfile.PartitionPinning.NONE).build();
    try (OmMetadataStore leader = OmMetadataStore.open(root.resolve("leader"));
         OmMetadataStore follower = OmMetadataStore.open(root.resolve("follower"),
             OmStoreOptions.defaults(), profile)) {
      assertEquals(40L << 20, follower.dbStore().getLongProperty("keyTable",
          "rocksdb.block-cache-capacity"));
      LogPosition last = leaderWrites(leader);
      try (StoreCheckpoint copy = leader.replicaFiles().checkpoint()) {
        transfer(copy, follower.replicaFiles().incomingDir());
      }
      assertEquals(last, follower.replicaFiles().installIncoming());
      assertEquals(profile, follower.profile());
      assertEquals(40L << 20, follower.dbStore().getLongProperty("keyTable",
          "rocksdb.block-cache-capacity"), "the new files open with the same block cache");
      assertEquals(DBProfile.PartitionPinning.NONE,
          follower.dbStore().partitionPinning().requested());
      assertEquals(DBProfile.defaults().blockCacheBytes(), leader.profile().blockCacheBytes(),
          "a store opened without a profile has the default one");
    }
  }

  private static List<String> keys(ListPage<KeyInfo> page) {
    return page.items().stream().map(KeyInfo::getKeyName).toList();
  }

  private List<String> siblings(Path dir) throws IOException {
    try (var s = Files.list(dir.getParent())) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(dir.getFileName().toString())).sorted().toList();
    }
  }

  @Test
  void aCopyWithoutAnAppliedPositionIsRefusedAndTheStoreStaysAsItWas() {
    try (OmMetadataStore follower = OmMetadataStore.open(root.resolve("follower"))) {
      leaderWrites(follower);
      Map<String, List<String>> before = fullScan(follower);
      Path incoming = follower.replicaFiles().incomingDir();
      try (OmMetadataStore unpositioned = OmMetadataStore.open(incoming)) {
        unpositioned.createVolume("other", "eve");
      }

      OmException e = assertThrows(OmException.class,
          () -> follower.replicaFiles().installIncoming());

      assertEquals(OmException.Code.FAILED_PRECONDITION, e.code());
      assertTrue(e.getMessage().contains("no applied log position"), e.getMessage());
      assertEquals(before, fullScan(follower));
      follower.createVolume("still", "served");
    }
  }

  @Test
  void aDamagedCopyIsRefusedAndTheStoreStaysAsItWas() throws IOException {
    try (OmMetadataStore follower = OmMetadataStore.open(root.resolve("follower"))) {
      leaderWrites(follower);
      Map<String, List<String>> before = fullScan(follower);
      Path incoming = follower.replicaFiles().incomingDir();
      Files.writeString(incoming.resolve("CURRENT"), "MANIFEST-000099\n");

      assertThrows(RuntimeException.class, () -> follower.replicaFiles().installIncoming());

      assertEquals(before, fullScan(follower));
      follower.createVolume("still", "served");
    }
  }

  @Test
  void installingWithoutACopyIsRefused() {
    try (OmMetadataStore follower = OmMetadataStore.open(root.resolve("follower"))) {
      OmException e = assertThrows(OmException.class,
          () -> follower.replicaFiles().installIncoming());
      assertEquals(OmException.Code.FAILED_PRECONDITION, e.code());
    }
  }

  @Test
  void aStoreThatAppliedNoEntryHasNoCopyToGive() {
    try (OmMetadataStore om = OmMetadataStore.open(root.resolve("single"))) {
      om.createVolume("vol", "alice");
      OmException e = assertThrows(OmException.class, () -> om.replicaFiles().checkpoint());
      assertEquals(OmException.Code.FAILED_PRECONDITION, e.code());
    }
  }

  /** The files of a crash between the two renames: the checked copy ready, the old store aside. */
  private Path crashedBetweenTheRenames(boolean copyKept) throws IOException {
    Path dir = root.resolve("om");
    try (OmMetadataStore old = OmMetadataStore.open(ReplacementDirs.replaced(dir))) {
      old.createVolume("old", "bob");
    }
    if (copyKept) {
      try (OmMetadataStore leader = OmMetadataStore.open(root.resolve("leader"));
           StoreCheckpoint copy = checkpointOf(leader)) {
        Files.createDirectories(ReplacementDirs.ready(dir));
        transfer(copy, ReplacementDirs.ready(dir));
      }
    }
    return dir;
  }

  private static StoreCheckpoint checkpointOf(OmMetadataStore leader) {
    leaderWrites(leader);
    return leader.replicaFiles().checkpoint();
  }

  @Test
  void aReplacementACrashInterruptedIsFinishedByTheNextOpen() throws IOException {
    Path dir = crashedBetweenTheRenames(true);
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      assertEquals("alice", om.getVolumeInfo("vol").getOwner());
      assertThrows(OmException.class, () -> om.getVolumeInfo("old"));
    }
    assertFalse(Files.exists(ReplacementDirs.replaced(dir)));
    assertFalse(Files.exists(ReplacementDirs.ready(dir)));
  }

  @Test
  void aReplacementWhoseCopyIsGoneIsUndoneByTheNextOpen() throws IOException {
    Path dir = crashedBetweenTheRenames(false);
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      assertEquals("bob", om.getVolumeInfo("old").getOwner());
    }
    assertFalse(Files.exists(ReplacementDirs.replaced(dir)));
  }

  @Test
  void theNextOpenRemovesWhatAFinishedOrAbandonedReplacementLeft() throws IOException {
    Path dir = root.resolve("om");
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
    }
    for (Path leftover : List.of(ReplacementDirs.replaced(dir), ReplacementDirs.ready(dir),
        ReplacementDirs.incoming(dir), ReplacementDirs.newOutgoing(dir))) {
      Files.createDirectories(leftover);
      Files.writeString(leftover.resolve("000001.sst"), "partial");
    }
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      assertEquals("alice", om.getVolumeInfo("vol").getOwner());
    }
    assertEquals(List.of("om"), siblings(dir));
  }
}
