package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.names;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.testing.LeakCheck;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.listing.ListPage;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bucket snapshots: create, list (paged, token bound to its bucket and prefix), delete; reads of
 * keys as a snapshot holds them after the live store changed; persistence across a reopen; crash
 * order of rows and checkpoint directories; no leaked store handles; and that a snapshot does not
 * keep tombstones in the live store.
 */
class SnapshotTest {

  private static final String V = "vol1";
  private static final String B = "buck1";
  /** Shares B's name as a prefix: {@code /vol1/buck1/} must not match {@code /vol1/buck10/}. */
  private static final String B10 = "buck10";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(
      OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, B10, BucketLayout.OBJECT_STORE, null, 0);
  }

  /** Opens the store's directory again, as a restart does. */
  private OmMetadataStore openStore() {
    return omStore.reopen();
  }

  private Path snapshotRoot() {
    return omStore.dir().resolve(Snapshots.ROOT_DIR);
  }

  private Set<String> snapshotDirs() throws IOException {
    if (!Files.isDirectory(snapshotRoot())) {
      return Set.of();
    }
    try (Stream<Path> s = Files.list(snapshotRoot())) {
      return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }

  private static List<String> snapshotNames(ListPage<SnapshotInfo> page) {
    return page.items().stream().map(SnapshotInfo::getName).toList();
  }

  @Test
  void createListAndDeleteKeepADeletedRowAndRemoveTheCheckpoint() throws IOException {
    SnapshotInfo s1 = om.snapshots().create(V, B, "snap1");
    SnapshotInfo s2 = om.snapshots().create(V, B, "snap2");
    assertEquals(SnapshotStatus.SNAPSHOT_ACTIVE, s1.getStatus());
    assertEquals("snap1", s1.getName());
    assertEquals(V, s1.getVolumeName());
    assertEquals(B, s1.getBucketName());
    assertEquals(s1.getSnapshotId(), UUID.fromString(s1.getSnapshotId()).toString());
    assertEquals(s1.getSnapshotId(), s1.getCheckpointDir(), "relative to the snapshot root");
    assertTrue(s1.getCreationTime() > 0);
    assertEquals(0, s1.getDeletionTime());
    assertEquals(Set.of(s1.getSnapshotId(), s2.getSnapshotId()), snapshotDirs());
    assertTrue(Files.isRegularFile(snapshotRoot().resolve(s1.getSnapshotId()).resolve("CURRENT")));
    assertEquals(List.of(s1, s2), om.snapshots().list(V, B, null, null, 10).items());
    assertEquals(2, om.counters().get(OmCounter.SNAPSHOTS));

    SnapshotInfo deleted = om.snapshots().delete(V, B, "snap1");
    assertEquals(SnapshotStatus.SNAPSHOT_DELETED, deleted.getStatus());
    assertTrue(deleted.getDeletionTime() >= s1.getCreationTime());
    assertEquals(deleted, om.snapshots().info(V, B, "snap1"));
    assertEquals(Set.of(s2.getSnapshotId()), snapshotDirs(), "checkpoint removed");
    assertEquals(List.of("snap2"), snapshotNames(om.snapshots().list(V, B, null, null, 10)),
        "deleted snapshots are not listed by default");
    assertEquals(List.of(deleted, s2),
        om.snapshots().list(V, B, null, null, 10, null, true).items());
    assertEquals(2, om.counters().get(OmCounter.SNAPSHOTS), "the DELETED row still counts");
    assertEquals(om.countFromScan(), om.counters());

    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().delete(V, B, "snap1"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, B, "snap1", "k"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().delete(V, B, "never"));
  }

  @Test
  void aDuplicateNameIsAlreadyExistsAndADeletedNameCanBeReused() throws IOException {
    SnapshotInfo first = om.snapshots().create(V, B, "daily");
    Set<String> dirs = snapshotDirs();
    OmException e = assertRejected(om, Code.ALREADY_EXISTS,
        () -> om.snapshots().create(V, B, "daily"));
    assertTrue(e.getMessage().contains("daily"), e.getMessage());
    assertEquals(dirs, snapshotDirs(), "no checkpoint left behind by the rejected create");
    om.snapshots().create(V, B10, "daily");

    om.snapshots().delete(V, B, "daily");
    SnapshotInfo again = om.snapshots().create(V, B, "daily");
    assertNotEquals(first.getSnapshotId(), again.getSnapshotId());
    assertEquals(SnapshotStatus.SNAPSHOT_ACTIVE, om.snapshots().info(V, B, "daily").getStatus());
    assertEquals(2, om.counters().get(OmCounter.SNAPSHOTS), "the DELETED row was replaced");
    assertEquals(om.countFromScan(), om.counters());
  }

  @Test
  void previousSnapshotIdsFollowCreationOrderPerBucketAndStoreWide() {
    SnapshotInfo a1 = om.snapshots().create(V, B, "aa1");
    SnapshotInfo b1 = om.snapshots().create(V, B10, "bb1");
    SnapshotInfo a2 = om.snapshots().create(V, B, "aa2");
    assertEquals("", a1.getPathPreviousSnapshotId());
    assertEquals("", a1.getGlobalPreviousSnapshotId());
    assertEquals("", b1.getPathPreviousSnapshotId());
    assertEquals(a1.getSnapshotId(), b1.getGlobalPreviousSnapshotId());
    assertEquals(a1.getSnapshotId(), a2.getPathPreviousSnapshotId());
    assertEquals(b1.getSnapshotId(), a2.getGlobalPreviousSnapshotId());
  }

  @Test
  void badNamesAndMissingParentsAreRejectedAndChangeNothing() {
    for (String bad : new String[] {"ab", "Snap", "snap_1", "-snap", "snap.", "a..b", "a/b",
        "192.168.0.1", "x".repeat(64), ""}) {
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.snapshots().create(V, B, bad));
    }
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.snapshots().create(V, B, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().create(V, "nope", "snap"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().create("novol", B, "snap"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().list(V, "nope", null, null, 10));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().info(V, B, "snap"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, B, "snap", "k"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, "nope", "snap", "k"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.snapshots().list(V, B, null, null, -1));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.snapshots().list(V, B, null, null, 1001));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.snapshots().list(V, B, "\uD800", null, 10));
    om.snapshots().create(V, B, "snap");
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.snapshots().lookupKey(V, B, "snap", ""));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().listKeys(V, B, "snap", null, null, -1));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, B, "snap", "k"));
  }

  @Test
  void aSnapshotReadsKeysAsTheyWereAfterTheLiveStoreOverwroteOrDeletedThem() {
    put(om, V, B, "k1", 1);
    put(om, V, B, "k2", 2);
    put(om, V, B, "dir/k3", 3);
    put(om, V, B10, "other", 4);
    om.snapshots().create(V, B, "before");
    put(om, V, B, "k1", 100);
    om.deleteKey(V, B, "k2");
    put(om, V, B, "k4", 4);
    om.renameKey(V, B, "dir/k3", "dir/moved");

    assertEquals(1, om.snapshots().lookupKey(V, B, "before", "k1").getDataSize());
    assertEquals(100, om.lookupKey(V, B, "k1").getDataSize());
    assertEquals(2, om.snapshots().lookupKey(V, B, "before", "k2").getDataSize());
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey(V, B, "k2"));
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, B, "before", "k4"));
    assertEquals(List.of("dir/k3", "k1", "k2"),
        names(om.snapshots().listKeys(V, B, "before", null, null, 10)));
    assertEquals(List.of("dir/moved", "k1", "k4"), names(om.listKeys(V, B, null, null, 10, null)));
    assertEquals(List.of("dir/k3"), names(om.snapshots().listKeys(V, B, "before", "dir/", null, 10)));

    // Paging by one with the last key as start-after; truncated is exact.
    List<String> paged = new ArrayList<>();
    String after = null;
    while (true) {
      ListPage<KeyInfo> page = om.snapshots().listKeys(V, B, "before", null, after, 1);
      paged.addAll(names(page));
      assertNull(page.nextToken());
      if (!page.truncated()) {
        break;
      }
      after = paged.get(paged.size() - 1);
    }
    assertEquals(List.of("dir/k3", "k1", "k2"), paged);

    // Another bucket's snapshot does not exist under this name.
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, B10, "before", "other"));
  }

  @Test
  void aSnapshotSurvivesReopenAndCanBeDeletedAfterIt() throws IOException {
    put(om, V, B, "k", 5);
    SnapshotInfo s = om.snapshots().create(V, B, "kept");
    om.deleteKey(V, B, "k");
    assertEquals(5, om.snapshots().lookupKey(V, B, "kept", "k").getDataSize());
    om.close();

    om = openStore();
    assertEquals(s, om.snapshots().info(V, B, "kept"));
    assertEquals(5, om.snapshots().lookupKey(V, B, "kept", "k").getDataSize());
    assertEquals(List.of("kept"), snapshotNames(om.snapshots().list(V, B, null, null, 10)));
    assertEquals(Set.of(s.getSnapshotId()), snapshotDirs());
    om.snapshots().delete(V, B, "kept");
    assertEquals(Set.of(), snapshotDirs());
    om.close();

    om = openStore();
    assertEquals(SnapshotStatus.SNAPSHOT_DELETED, om.snapshots().info(V, B, "kept").getStatus());
    assertRejected(om, Code.NOT_FOUND, () -> om.snapshots().lookupKey(V, B, "kept", "k"));
  }

  @Test
  void pagingListSnapshotsToTheEndReturnsEverySnapshotOnce() {
    List<String> names = List.of("snap", "snap-1", "snap-10", "snap-2", "snap1", "snap.a",
        "snapshot", "sna", "sn0", "x-snap", "snap-1a", "snap-1-b");
    for (String n : names) {
      om.snapshots().create(V, B, n);
    }
    // Neighbours: the same names in buck10 and two deleted snapshots in buck1.
    om.snapshots().create(V, B10, "snap-1");
    om.snapshots().create(V, B10, "snap-3");
    om.snapshots().create(V, B, "snap-gone");
    om.snapshots().create(V, B, "sna-gone");
    om.snapshots().delete(V, B, "snap-gone");
    om.snapshots().delete(V, B, "sna-gone");

    TreeSet<String> model = new TreeSet<>(UTF8_ORDER);
    model.addAll(names);
    for (String prefix : new String[] {null, "", "snap", "snap-1", "sna", "x", "zzz"}) {
      List<String> expected = model.stream()
          .filter(n -> prefix == null || n.startsWith(prefix)).toList();
      for (int size : new int[] {1, 2, 10}) {
        assertEquals(expected, pageWithTokens(prefix, size, expected.size()),
            "tokens, prefix " + prefix + ", page " + size);
        assertEquals(expected, pageWithPrevSnapshot(prefix, size, expected.size()),
            "prevSnapshot, prefix " + prefix + ", page " + size);
      }
    }
    // prevSnapshot is exclusive and need not exist.
    assertEquals(List.of("snap-10", "snap-1a", "snap-2"),
        snapshotNames(om.snapshots().list(V, B, "snap-", "snap-1-b", 3)));
    assertEquals(List.of("snap-2"), snapshotNames(om.snapshots().list(V, B, "snap-", "snap-1b", 3)));
    List<String> withDeleted = new ArrayList<>();
    String token = null;
    do {
      ListPage<SnapshotInfo> page = om.snapshots().list(V, B, "sna", null, 2, token, true);
      withDeleted.addAll(snapshotNames(page));
      token = page.nextToken();
    } while (token != null);
    assertTrue(withDeleted.contains("snap-gone") && withDeleted.contains("sna-gone"));
    assertEquals(model.stream().filter(n -> n.startsWith("sna")).count() + 2, withDeleted.size());
  }

  private List<String> pageWithTokens(String prefix, int size, int total) {
    List<String> out = new ArrayList<>();
    String token = null;
    for (int guard = 0; guard < 100; guard++) {
      ListPage<SnapshotInfo> page = om.snapshots().list(V, B, prefix, null, size, token, false);
      out.addAll(snapshotNames(page));
      assertEquals(out.size() < total, page.truncated(), "truncated is exact after " + out);
      if (!page.truncated()) {
        assertNull(page.nextToken());
        return out;
      }
      assertEquals(size, page.items().size());
      token = page.nextToken();
      assertNotNull(token);
    }
    throw new AssertionError("listing did not end");
  }

  private List<String> pageWithPrevSnapshot(String prefix, int size, int total) {
    List<String> out = new ArrayList<>();
    String prev = null;
    for (int guard = 0; guard < 100; guard++) {
      ListPage<SnapshotInfo> page = om.snapshots().list(V, B, prefix, prev, size);
      out.addAll(snapshotNames(page));
      assertEquals(out.size() < total, page.truncated(), "truncated is exact after " + out);
      if (!page.truncated()) {
        return out;
      }
      prev = out.get(out.size() - 1);
    }
    throw new AssertionError("listing did not end");
  }

  @Test
  void aTokenIsBoundToItsBucketPrefixAndDeletedFlag() {
    for (String n : List.of("s-a", "s-b", "s-c")) {
      om.snapshots().create(V, B, n);
      om.snapshots().create(V, B10, n);
    }
    String token = om.snapshots().list(V, B, "s-", null, 1, null, false).nextToken();
    assertNotNull(token);
    assertEquals(List.of("s-b"), snapshotNames(om.snapshots().list(V, B, "s-", null, 1, token, false)));
    OmException e = assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, B10, "s-", null, 1, token, false));
    assertTrue(e.getMessage().contains("another listing"), e.getMessage());
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, B, "s", null, 1, token, false));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, B, "s-", null, 1, token, true));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, B, "s-", null, 1, token.substring(1), false));
    String keysToken = om.listKeys(V, B, null, null, 1, null).nextToken();
    assertNull(keysToken, "no keys: no token");
    put(om, V, B, "k1", 1);
    put(om, V, B, "k2", 1);
    String listKeysToken = om.listKeys(V, B, null, null, 1, null).nextToken();
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, B, null, null, 1, listKeysToken, false));
    // A re-created bucket of the same name does not accept the old bucket's token either.
    om.createBucket(V, "buck2", BucketLayout.OBJECT_STORE, null, 0);
    om.snapshots().create(V, "buck2", "s-a");
    om.snapshots().create(V, "buck2", "s-b");
    String old = om.snapshots().list(V, "buck2", null, null, 1, null, false).nextToken();
    om.snapshots().delete(V, "buck2", "s-a");
    om.snapshots().delete(V, "buck2", "s-b");
    om.deleteBucket(V, "buck2");
    om.createBucket(V, "buck2", BucketLayout.OBJECT_STORE, null, 0);
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, "buck2", null, null, 1, old, false));
  }

  @Test
  void aFailedCheckpointLeavesNoRowAndNoDirectory() throws IOException {
    Files.writeString(snapshotRoot(), "not a directory");
    OmException e = assertRejected(om, Code.INTERNAL, () -> om.snapshots().create(V, B, "doomed"));
    assertTrue(e.getMessage().contains("checkpoint"), e.getMessage());
    assertEquals(0, om.counters().get(OmCounter.SNAPSHOTS));
    Files.delete(snapshotRoot());
    SnapshotInfo s = om.snapshots().create(V, B, "doomed");
    assertEquals(Set.of(s.getSnapshotId()), snapshotDirs());
    assertEquals(SnapshotStatus.SNAPSHOT_ACTIVE, s.getStatus());
  }

  @Test
  void unreferencedDirectoriesAreRemovedAtOpen() throws IOException {
    SnapshotInfo kept = om.snapshots().create(V, B, "kept");
    SnapshotInfo gone = om.snapshots().create(V, B, "gone");
    om.close();
    // A crash between checkpoint and row, RocksDB's temporary directory, a delete whose
    // directory removal did not happen: all are unreferenced by ACTIVE rows.
    Files.createDirectories(snapshotRoot().resolve(UUID.randomUUID().toString()).resolve("x"));
    Files.createDirectories(snapshotRoot().resolve(UUID.randomUUID() + ".tmp"));
    om = openStore();
    om.snapshots().delete(V, B, "gone");
    om.close();
    Path stale = snapshotRoot().resolve(gone.getSnapshotId());
    Files.createDirectories(stale);
    Files.writeString(stale.resolve("CURRENT"), "stale");
    om = openStore();
    assertEquals(Set.of(kept.getSnapshotId()), snapshotDirs());
    assertEquals(List.of("kept"), snapshotNames(om.snapshots().list(V, B, null, null, 10)));
  }

  @Test
  void snapshotStoresAreOpenedOnceAndClosedOnDeleteAndOnStoreClose() {
    put(om, V, B, "k", 1);
    om.snapshots().create(V, B, "one");
    om.snapshots().create(V, B, "two");
    assumeTrue(LeakCheck.detailed(), "needs -Dsediment.leakDetection=true");
    Set<Long> baseline = LeakCheck.NATIVE_OBJECTS.snapshot();
    assertEquals(0, om.areas().snapshotStores.openCount());
    om.snapshots().lookupKey(V, B, "one", "k");
    om.snapshots().listKeys(V, B, "one", null, null, 10);
    assertEquals(1, om.areas().snapshotStores.openCount(), "cached: opened once");
    assertFalse(LeakCheck.NATIVE_OBJECTS.leakedSince(baseline).isEmpty());
    om.snapshots().delete(V, B, "one");
    assertEquals(0, om.areas().snapshotStores.openCount());
    assertEquals(List.of(), LeakCheck.NATIVE_OBJECTS.leakedSince(baseline),
        "deleting the snapshot freed every native object of its store");

    om.snapshots().lookupKey(V, B, "two", "k");
    assertEquals(1, om.areas().snapshotStores.openCount());
    om.close();
    assertEquals(0, om.areas().snapshotStores.openCount());
    om = openStore();
    assertEquals(1, om.snapshots().lookupKey(V, B, "two", "k").getDataSize());
  }

  @Test
  void readsRacingADeleteSeeTheKeyOrNotFoundNeverAClosedStore() throws Exception {
    put(om, V, B, "k", 1);
    for (int round = 0; round < 3; round++) {
      om.snapshots().create(V, B, "racy");
      AtomicBoolean stop = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicInteger reads = new AtomicInteger();
      Thread reader = new Thread(() -> {
        while (!stop.get()) {
          try {
            assertEquals(1, om.snapshots().lookupKey(V, B, "racy", "k").getDataSize());
            reads.incrementAndGet();
          } catch (OmException e) {
            if (e.code() != Code.NOT_FOUND) {
              failure.set(e);
              return;
            }
          } catch (Throwable t) {
            failure.set(t);
            return;
          }
        }
      });
      reader.start();
      while (reads.get() < 3 && failure.get() == null) {
        Thread.onSpinWait();
      }
      om.snapshots().delete(V, B, "racy");
      stop.set(true);
      reader.join(10_000);
      if (failure.get() != null) {
        fail("a read racing the delete failed", failure.get());
      }
      assertEquals(0, om.areas().snapshotStores.openCount());
    }
  }

  @Test
  void snapshotsOfFsoBucketsAreTakenButTheirKeysAreReadThroughFileSystemOperations() {
    om.createBucket(V, "fso1", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.snapshots().create(V, "fso1", "fsnap");
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.snapshots().lookupKey(V, "fso1", "fsnap", "k"));
    assertRejected(om, Code.UNIMPLEMENTED,
        () -> om.snapshots().listKeys(V, "fso1", "fsnap", null, null, 10));
  }

  @Test
  void aSnapshotDoesNotKeepTombstonesInTheLiveStore() {
    int n = 300;
    for (int i = 0; i < n; i++) {
      put(om, V, B, String.format("k%04d", i), 1);
    }
    om.snapshots().create(V, B, "before-purge");
    for (int i = 0; i < n; i++) {
      om.deleteKey(V, B, String.format("k%04d", i));
    }
    om.dbStore().flush();
    om.dbStore().compactRange(OmDBDefinition.KEY_TABLE.name(), null, null);
    TableTombstoneStats live = om.dbStore().tombstoneStats().tables().stream()
        .filter(t -> t.table().equals(OmDBDefinition.KEY_TABLE.name())).findFirst().orElseThrow();
    assertEquals(0, live.sstDeletions(), "compaction dropped the live tombstones");
    assertEquals(0, live.sstEntries());
    ListPage<KeyInfo> page = om.snapshots().listKeys(V, B, "before-purge", null, null, 1000);
    assertEquals(n, page.items().size(), "the snapshot still holds every key");
  }
}
