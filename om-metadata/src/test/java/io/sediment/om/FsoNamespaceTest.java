package io.sediment.om;

import static io.sediment.om.FsoTestSupport.assertCountersExact;
import static io.sediment.om.FsoTestSupport.keys;
import static io.sediment.om.FsoTestSupport.listAll;
import static io.sediment.om.FsoTestSupport.paths;
import static io.sediment.om.FsoTestSupport.purgeAll;
import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.fullScan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.DirectoryPurge;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** FSO writes, lookups, rename, recursive delete and the directory purge step, on real RocksDB. */
class FsoNamespaceTest {

  private static final String V = "vol1";
  private static final String B = "fso1";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(FsoNamespaceTest::options);
  private OmMetadataStore om;
  private BucketInfo bucket;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    bucket = om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
  }

  private static OmStoreOptions options() {
    return OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE);
  }

  private String childPrefix(long parentId) {
    return OmKeys.childPrefix(bucket.getVolumeId(), bucket.getObjectId(), parentId);
  }

  private long id(String path) {
    return om.fso().getFileStatus(V, B, path).objectId();
  }

  private long counter(OmCounter c) {
    return om.counters().get(c);
  }

  // ---- directories and files ----

  @Test
  void createDirectoryCreatesEveryMissingAncestorAndIsIdempotent() {
    FileStatus c = om.fso().createDirectory(V, B, "a/b/c");
    assertTrue(c.isDirectory());
    assertEquals("a/b/c", c.path());
    assertEquals("c", c.name());
    assertEquals(3, counter(OmCounter.DIRECTORIES));
    assertEquals(bucket.getObjectId(), om.fso().getFileStatus(V, B, "a").parentId());
    assertEquals(id("a"), om.fso().getFileStatus(V, B, "a/b").parentId());
    assertEquals(id("a/b"), c.parentId());
    assertEquals(3, om.bucketCounters(V, B).get(OmCounter.DIRECTORIES));

    Map<String, List<String>> before = fullScan(om);
    FileStatus again = om.fso().createDirectory(V, B, "/a/b/c/");
    assertEquals(c, again, "an existing directory is returned as it is");
    assertEquals(before, fullScan(om), "nothing is written for an existing directory");

    om.fso().createDirectory(V, B, "a/b/d");
    assertEquals(4, counter(OmCounter.DIRECTORIES));
    assertEquals(List.of("a", "a/b", "a/b/c", "a/b/d"),
        paths(listAll(om, V, B, "", true, null, 10)));
    assertCountersExact(om);
  }

  @Test
  void createFileMakesParentsAtOpenAndCommitPublishesTheFile() {
    OpenKeySession s = om.fso().createFile(V, B, "x/y/z.txt", "bob");
    assertTrue(om.fso().getFileStatus(V, B, "x/y").isDirectory(), "parents exist right after the open");
    assertEquals(2, counter(OmCounter.DIRECTORIES));
    assertEquals(1, counter(OmCounter.OPEN_FILES));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().lookupFile(V, B, "x/y/z.txt"));
    assertEquals(List.of(), om.fso().listStatus(V, B, "x/y", false, null, 10, null).items(),
        "open files are not listed");
    assertEquals("x/y/z.txt", s.openKey().getKeyName());
    assertEquals(id("x/y"), s.openKey().getParentId());

    KeyInfo committed = om.fso().commitFile(V, B, "x/y/z.txt", s.clientId(), 42);
    assertEquals("x/y/z.txt", committed.getKeyName());
    assertEquals("bob", committed.getOwner());
    KeyInfo looked = om.fso().lookupFile(V, B, "/x/y/z.txt");
    assertEquals(committed, looked);
    assertEquals(42, looked.getDataSize());
    assertEquals(0, looked.getClientId());
    // The row keeps the leaf name only, so a rename of an ancestor changes nothing below it.
    KeyInfo row = om.dbStore().getTable(OmDBDefinition.FILE_TABLE)
        .get(OmKeys.pathKey(bucket.getVolumeId(), bucket.getObjectId(), id("x/y"), "z.txt"));
    assertEquals("z.txt", row.getKeyName());
    assertEquals(0, counter(OmCounter.OPEN_FILES));
    assertEquals(1, counter(OmCounter.FILES));
    assertEquals(42, counter(OmCounter.FILE_BYTES));
    FileStatus st = om.fso().getFileStatus(V, B, "x/y/z.txt");
    assertFalse(st.isDirectory());
    assertEquals(42, st.size());
    assertCountersExact(om);
  }

  @Test
  void overwritingCommitMovesTheReplacedVersionToDeletedTable() {
    KeyInfo first = putFile(om, V, B, "d/f", 10);
    KeyInfo second = putFile(om, V, B, "d/f", 25);
    assertNotEquals(first.getObjectId(), second.getObjectId());
    assertEquals(25, om.fso().lookupFile(V, B, "d/f").getDataSize());
    assertEquals(List.of(OmKeys.deletedKey(V, B, "d/f", first.getObjectId())),
        keys(om, OmDBDefinition.DELETED_TABLE));
    KeyInfo deleted = om.dbStore().getTable(OmDBDefinition.DELETED_TABLE)
        .get(OmKeys.deletedKey(V, B, "d/f", first.getObjectId()));
    assertEquals("d/f", deleted.getKeyName(), "deletedTable holds the full path");
    assertEquals(10, deleted.getDataSize());
    assertTrue(deleted.getDeletionTime() > 0);
    assertEquals(1, counter(OmCounter.FILES));
    assertEquals(25, counter(OmCounter.FILE_BYTES));
    assertEquals(1, counter(OmCounter.DELETED_KEYS));
    assertEquals(10, counter(OmCounter.DELETED_KEY_BYTES));
    assertCountersExact(om);
  }

  @Test
  void twoSessionsOnOnePathEachReplaceThePreviousVersion() {
    OpenKeySession a = om.fso().createFile(V, B, "f", null);
    OpenKeySession b = om.fso().createFile(V, B, "f", null);
    om.fso().commitFile(V, B, "f", b.clientId(), 2);
    om.fso().commitFile(V, B, "f", a.clientId(), 1);
    assertEquals(1, om.fso().lookupFile(V, B, "f").getDataSize());
    assertEquals(1, counter(OmCounter.DELETED_KEYS));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().commitFile(V, B, "f", a.clientId(), 1));
    assertCountersExact(om);
  }

  @Test
  void commitResolvesThePathAgainSoARenamedParentMovesTheSession() {
    OpenKeySession s = om.fso().createFile(V, B, "a/f", null);
    om.fso().rename(V, B, "a", "b");
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().commitFile(V, B, "a/f", s.clientId(), 1));
    om.fso().commitFile(V, B, "b/f", s.clientId(), 1);
    assertEquals(1, om.fso().lookupFile(V, B, "b/f").getDataSize());

    OpenKeySession gone = om.fso().createFile(V, B, "c/f", null);
    om.fso().deleteDirectory(V, B, "c", false);
    assertEquals(0, counter(OmCounter.OPEN_FILES), "the open file of an empty deleted dir goes");
    om.fso().createDirectory(V, B, "c");
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().commitFile(V, B, "c/f", gone.clientId(), 1));
    assertCountersExact(om);
  }

  @Test
  void aDirectoryCreatedAfterTheOpenBlocksTheCommit() {
    OpenKeySession s = om.fso().createFile(V, B, "p/q", null);
    om.fso().createDirectory(V, B, "p/q");
    OmException e = assertRejected(om, Code.FAILED_PRECONDITION,
        () -> om.fso().commitFile(V, B, "p/q", s.clientId(), 1));
    assertTrue(e.getMessage().contains("directory"), e.getMessage());
  }

  @Test
  void deleteFileMovesItToDeletedTableAndRefusesDirectories() {
    putFile(om, V, B, "d/f", 7);
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().deleteFile(V, B, "d"));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().deleteDirectory(V, B, "d/f", true));
    om.fso().deleteFile(V, B, "d/f");
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().lookupFile(V, B, "d/f"));
    assertEquals(1, keys(om, OmDBDefinition.DELETED_TABLE).size());
    assertEquals(0, counter(OmCounter.FILES));
    assertEquals(7, counter(OmCounter.DELETED_KEY_BYTES));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().deleteFile(V, B, "d/f"));
    assertCountersExact(om);
  }

  @Test
  void emptyDirectoryIsDeletedAtOnceWithoutPurgeWork() {
    om.fso().createDirectory(V, B, "e/f");
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().deleteDirectory(V, B, "e", false));
    om.fso().deleteDirectory(V, B, "e/f", false);
    om.fso().deleteDirectory(V, B, "e", true);
    assertEquals(List.of(), keys(om, OmDBDefinition.DIRECTORY_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    assertEquals(0, om.fso().purgeDeletedDirectories(100));
    assertCountersExact(om);
  }

  // ---- recursive delete and purge ----

  /** Builds {@code root}: {@code files} files, {@code dirs} subdirs of 3 files and a nested dir. */
  private int buildTree(String root, int files, int dirs) {
    om.fso().createDirectory(V, B, root);
    int rows = 0;
    for (int i = 0; i < files; i++) {
      putFile(om, V, B, root + "/f" + i, i + 1);
      rows++;
    }
    for (int d = 0; d < dirs; d++) {
      for (int i = 0; i < 3; i++) {
        putFile(om, V, B, root + "/d" + d + "/g" + i, 100);
        rows++;
      }
      putFile(om, V, B, root + "/d" + d + "/deep/h", 5);
      rows += 3; // d, deep, h
    }
    return rows;
  }

  @Test
  void recursiveDeleteHidesTheWholeSubtreeAtOnce() {
    buildTree("a", 3, 2);
    putFile(om, V, B, "keep", 1);
    long filesBefore = counter(OmCounter.FILES);
    om.fso().deleteDirectory(V, B, "a", true);

    assertEquals(1, keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE).size(), "one queue row");
    for (String p : new String[] {"a", "a/f0", "a/d0", "a/d1/g2", "a/d0/deep/h"}) {
      assertRejected(om, Code.NOT_FOUND, () -> om.fso().getFileStatus(V, B, p));
    }
    assertEquals(List.of("keep"), paths(listAll(om, V, B, "", true, null, 3)));
    assertEquals(List.of("keep"), paths(listAll(om, V, B, "", false, null, 3)));
    assertEquals(filesBefore, counter(OmCounter.FILES), "rows below stay counted until purged");
    assertEquals(1, counter(OmCounter.DELETED_DIRECTORIES));
    // The name is free at once, with a new, empty child range.
    FileStatus fresh = om.fso().createDirectory(V, B, "a");
    assertEquals(List.of(), om.fso().listStatus(V, B, "a", true, null, 10, null).items());
    assertNotEquals(fresh.objectId(), OmKeys.suffixId(
        keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE).get(0)));
    // The bucket is not empty until the purge is done.
    om.fso().deleteFile(V, B, "keep");
    om.fso().deleteDirectory(V, B, "a", false);
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteBucket(V, B));
    purgeAll(om, 1000);
    om.deleteBucket(V, B);
    assertCountersExact(om);
  }

  @Test
  void purgeRemovesTheSubtreeWithRangeDeletesAndMovesFilesToDeletedTable() {
    buildTree("other", 2, 1);
    List<String> otherDirs = keys(om, OmDBDefinition.DIRECTORY_TABLE);
    List<String> otherFiles = keys(om, OmDBDefinition.FILE_TABLE);
    int rows = buildTree("a", 30, 5);
    om.fso().createFile(V, B, "a/d2/open-file", null);
    om.fso().deleteDirectory(V, B, "a", true);
    long pointDeletesFiles = memtableDeletes(OmDBDefinition.FILE_TABLE);
    long pointDeletesDirs = memtableDeletes(OmDBDefinition.DIRECTORY_TABLE);
    long pointDeletesOpen = memtableDeletes(OmDBDefinition.OPEN_FILE_TABLE);

    int removed = 0;
    int steps = 0;
    for (int n; (n = om.fso().purgeDeletedDirectories(1000)) > 0; steps++) {
      removed += n;
      assertCountersExact(om);
    }
    assertEquals(1, steps, "the whole subtree in one step, whatever its depth");
    assertEquals(rows + 1 + 1, removed, "every row below a, the open file, the queue row");

    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.OPEN_FILE_TABLE));
    assertEquals(otherDirs, keys(om, OmDBDefinition.DIRECTORY_TABLE));
    assertEquals(otherFiles, keys(om, OmDBDefinition.FILE_TABLE));
    List<String> deleted = keys(om, OmDBDefinition.DELETED_TABLE);
    assertEquals(30 + 5 * 4, deleted.size());
    for (String p : new String[] {"a/f7", "a/d0/g1", "a/d3/deep/h"}) {
      assertEquals(1, deleted.stream().filter(k -> k.startsWith(OmKeys.objectKey(V, B, p + "/")))
          .count(), "files keep their full path in deletedTable: " + p);
    }
    assertEquals(pointDeletesFiles, memtableDeletes(OmDBDefinition.FILE_TABLE),
        "fileTable children go with range deletes, not point deletes");
    assertEquals(pointDeletesDirs, memtableDeletes(OmDBDefinition.DIRECTORY_TABLE),
        "directoryTable children go with range deletes, not point deletes");
    assertEquals(pointDeletesOpen, memtableDeletes(OmDBDefinition.OPEN_FILE_TABLE));
    assertEquals(0, counter(OmCounter.DELETED_DIRECTORIES));
    assertEquals(50, counter(OmCounter.DELETED_KEYS));
    assertEquals(otherFiles.size(), om.bucketCounters(V, B).get(OmCounter.FILES));
    assertCountersExact(om);
    // Control: the measure does see point deletes.
    om.fso().deleteFile(V, B, "other/f0");
    assertEquals(pointDeletesFiles + 1, memtableDeletes(OmDBDefinition.FILE_TABLE));
  }

  private long memtableDeletes(io.sediment.db.TableDefinition<?, ?> table) {
    for (TableTombstoneStats t : om.dbStore().tombstoneStats().tables()) {
      if (t.table().equals(table.name())) {
        return t.memtableDeletes();
      }
    }
    throw new AssertionError("no stats for " + table.name());
  }

  @Test
  void purgeStepsAreBoundedAndFinishABigDirectoryInParts() {
    om.fso().createDirectory(V, B, "big");
    for (int i = 0; i < 25; i++) {
      putFile(om, V, B, "big/f" + (char) ('a' + i), 1);
    }
    long bigId = id("big");
    om.fso().deleteDirectory(V, B, "big", true);
    assertEquals(10, om.fso().purgeDeletedDirectories(10));
    assertEquals(15, keys(om, OmDBDefinition.FILE_TABLE, childPrefix(bigId)).size());
    assertEquals(1, keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE).size(), "still queued");
    assertCountersExact(om);
    assertEquals(10, om.fso().purgeDeletedDirectories(10));
    assertEquals(5, keys(om, OmDBDefinition.FILE_TABLE, childPrefix(bigId)).size());
    assertCountersExact(om);
    assertEquals(6, om.fso().purgeDeletedDirectories(10), "5 files and the queue row");
    assertEquals(List.of(), keys(om, OmDBDefinition.FILE_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    assertEquals(0, om.fso().purgeDeletedDirectories(10));
    assertEquals(25, counter(OmCounter.DELETED_KEYS));
    assertCountersExact(om);
  }

  @Test
  void aBudgetOfOneStillMakesProgressEveryStep() {
    buildTree("t", 2, 2);
    om.fso().deleteDirectory(V, B, "t", true);
    int steps = purgeAll(om, 1);
    // Rows below t: t's 4, each d's 4 (3 files + deep), each deep's 1 = 14; and t's queue row.
    assertEquals(14 + 1, steps, "one row per step: every row below t, then its queue row");
    assertEquals(List.of(), keys(om, OmDBDefinition.DIRECTORY_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.FILE_TABLE));
    assertCountersExact(om);
  }

  @Test
  void purgeCursorIsPersistedAndTheNextStepResumesAfterIt() {
    for (String d : new String[] {"m", "n"}) {
      putFile(om, V, B, d + "/f1", 1);
      putFile(om, V, B, d + "/f2", 1);
      om.fso().deleteDirectory(V, B, d, true);
    }
    List<String> queue = keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE);
    assertEquals(2, queue.size());
    assertTrue(queue.get(0).contains("/m/"));
    assertEquals(3, om.fso().purgeDeletedDirectories(3), "m: two files and its queue row");
    assertEquals(queue.get(0), cursor());

    om = omStore.reopen(options());
    assertEquals(queue.get(0), cursor(), "the cursor survives a reopen");
    // A directory queued before the cursor ('c' < 'n') is reached only after the wrap.
    putFile(om, V, B, "c/f1", 1);
    om.fso().deleteDirectory(V, B, "c", true);
    assertEquals(3, om.fso().purgeDeletedDirectories(3));
    List<String> left = keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE);
    assertEquals(1, left.size());
    assertTrue(left.get(0).contains("/c/"), "the step resumed after the cursor (n), not at c");
    assertEquals(queue.get(1), cursor());
    assertEquals(2, om.fso().purgeDeletedDirectories(3), "the next step wraps to c");
    assertEquals(left.get(0), cursor());
    assertEquals(0, om.fso().purgeDeletedDirectories(3));
    assertEquals(List.of(), keys(om, OmDBDefinition.FILE_TABLE));
    assertCountersExact(om);
  }

  private String cursor() {
    byte[] raw = om.dbStore().getTable(OmDBDefinition.META_TABLE).get(DirectoryPurge.CURSOR_KEY);
    return raw == null ? null : new String(raw, StandardCharsets.UTF_8);
  }

  @Test
  void wrappedStepThatStopsInsideItsFirstRowResumesAtTheTableStart() {
    putFile(om, V, B, "x/f1", 1);
    om.fso().deleteDirectory(V, B, "x", true);
    assertEquals(2, om.fso().purgeDeletedDirectories(5));
    String afterX = cursor();
    putFile(om, V, B, "b/f1", 1);
    putFile(om, V, B, "b/f2", 1);
    om.fso().deleteDirectory(V, B, "b", true);
    assertEquals(1, om.fso().purgeDeletedDirectories(1), "wraps to b and reads one of its files");
    assertNull(cursor(), "nothing finished before b: the next step starts at the table start");
    assertNotEquals(null, afterX);
    assertEquals(2, om.fso().purgeDeletedDirectories(5));
    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    assertCountersExact(om);
  }

  @Test
  void queuedDirectoryOutlivingItsBucketIsCountedStoreWideOnly() {
    om.fso().createDirectory(V, B, "a/empty");
    putFile(om, V, B, "a/f", 3);
    om.fso().deleteDirectory(V, B, "a", true);
    // The first step removes a's children (the file, then a/empty) but has no budget left for
    // a's queue row.
    assertEquals(2, om.fso().purgeDeletedDirectories(2));
    assertEquals(1, keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE).size());
    assertEquals(List.of(), keys(om, OmDBDefinition.DIRECTORY_TABLE));
    om.deleteBucket(V, B);
    assertEquals(1, counter(OmCounter.DELETED_DIRECTORIES));
    assertEquals(1, om.fso().purgeDeletedDirectories(10));
    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.META_TABLE,
        OmCounter.bucketMetaPrefix(bucket.getObjectId())), "no counters of the dropped bucket");
    assertCountersExact(om);
  }

  // ---- rename ----

  @Test
  void renamingADirectoryMovesOneRowAndItsSubtreeFollows() {
    putFile(om, V, B, "a/b/c.txt", 9);
    om.fso().createDirectory(V, B, "a/b/d");
    long b = id("a/b");
    long c = id("a/b/c.txt");
    int dirRows = keys(om, OmDBDefinition.DIRECTORY_TABLE).size();
    List<String> fileKeys = keys(om, OmDBDefinition.FILE_TABLE);

    FileStatus moved = om.fso().rename(V, B, "a/b", "z");
    assertEquals("z", moved.path());
    assertEquals(b, moved.objectId());
    assertEquals(bucket.getObjectId(), moved.parentId());
    assertEquals(c, id("z/c.txt"));
    assertEquals(9, om.fso().lookupFile(V, B, "z/c.txt").getDataSize());
    assertEquals("z/c.txt", om.fso().lookupFile(V, B, "z/c.txt").getKeyName());
    assertEquals(fileKeys, keys(om, OmDBDefinition.FILE_TABLE), "children rows did not move");
    assertEquals(dirRows, keys(om, OmDBDefinition.DIRECTORY_TABLE).size());
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().getFileStatus(V, B, "a/b"));
    assertEquals(List.of("a", "z", "z/c.txt", "z/d"), paths(listAll(om, V, B, "", true, null, 2)));

    FileStatus file = om.fso().rename(V, B, "z/c.txt", "a/c2");
    assertEquals(c, file.objectId());
    assertEquals(9, file.size());
    assertEquals(List.of("a", "a/c2", "z", "z/d"), paths(listAll(om, V, B, "", true, null, 3)));
    assertCountersExact(om);
  }

  @Test
  void renameRefusesItsOwnSubtreeAnExistingDestinationAndAMissingParent() {
    putFile(om, V, B, "a/b/f", 1);
    putFile(om, V, B, "g", 1);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, B, "a", "a/b/x"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, B, "a", "a/x"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().rename(V, B, "a", "a"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().rename(V, B, "a/b/f", "g"));
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.fso().rename(V, B, "a/b", "a"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().rename(V, B, "a/b/f", "no/f"));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.fso().rename(V, B, "a/b/f", "g/f"));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().rename(V, B, "nope", "x"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, B, "", "x"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, B, "g", "/"));
    // Moving up, or next to itself, is fine.
    om.fso().rename(V, B, "a/b", "b");
    om.fso().rename(V, B, "b/f", "b/f2");
    assertEquals(List.of("a", "b", "b/f2", "g"), paths(listAll(om, V, B, "", true, null, 10)));
  }

  @Test
  void renamedSubtreeIsStillPurgedWithItsNewPath() {
    putFile(om, V, B, "a/b/c", 1);
    om.fso().rename(V, B, "a", "r");
    om.fso().deleteDirectory(V, B, "r", true);
    purgeAll(om, 100);
    List<String> deleted = keys(om, OmDBDefinition.DELETED_TABLE);
    assertEquals(1, deleted.size());
    assertTrue(deleted.get(0).startsWith(OmKeys.objectKey(V, B, "r/b/c/")), deleted.get(0));
    assertCountersExact(om);
  }

  @Test
  void fileSystemOperationsNeedAnFsoBucketAndKeyOperationsRefuseIt() {
    om.createBucket(V, "obs1", BucketLayout.OBJECT_STORE, null, 0);
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.fso().createDirectory(V, "obs1", "a"));
    assertRejected(om, Code.UNIMPLEMENTED,
        () -> om.fso().listStatus(V, "obs1", "", false, null, 5, null));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.openKey(V, B, "k", null));
  }
}
