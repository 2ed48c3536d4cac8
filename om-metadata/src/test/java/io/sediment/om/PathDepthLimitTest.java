package io.sediment.om;

import static io.sediment.om.FsoTestSupport.assertCountersExact;
import static io.sediment.om.FsoTestSupport.keys;
import static io.sediment.om.FsoTestSupport.listAll;
import static io.sediment.om.FsoTestSupport.paths;
import static io.sediment.om.FsoTestSupport.purgeAll;
import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The maximum FSO path depth: creates and renames past it are refused and change nothing. */
class PathDepthLimitTest {

  private static final String V = "vol1";
  private static final String B = "fso1";

  @TempDir
  Path dir;
  private OmMetadataStore om;

  private void open(int maxDepth) {
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxPathDepth(maxDepth));
  }

  private void openWithBucket(int maxDepth) {
    open(maxDepth);
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
  }

  @AfterEach
  void close() {
    if (om != null) {
      om.close();
    }
  }

  /** {@code n} components named {@code name}, joined by '/'. */
  static String chain(String name, int n) {
    return String.join("/", java.util.Collections.nCopies(n, name));
  }

  private static void assertNamesLimit(OmException e, int limit) {
    assertTrue(e.getMessage().contains("maximum path depth of " + limit), e.getMessage());
  }

  @Test
  void theDefaultIs1024() {
    assertEquals(1024, OmStoreOptions.defaults().maxPathDepth());
    assertEquals(1024, OmStoreOptions.DEFAULT_MAX_PATH_DEPTH);
    assertThrows(IllegalArgumentException.class,
        () -> OmStoreOptions.defaults().withMaxPathDepth(0));
  }

  @Test
  void createsDeeperThanTheLimitAreRefusedWithAllTheirParents() {
    openWithBucket(5);
    assertEquals(5, om.fso().createDirectory(V, B, chain("d", 5)).path().split("/").length);
    putFile(om, V, B, "x/y/z/w/f", 1);

    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, B, "p/q/r/s/t/u")), 5);
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, B, chain("d", 6))), 5);
    // A file whose missing parents would be created: neither the parents nor the file appear.
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().createFile(V, B, "n1/n2/n3/n4/n5/f", null)), 5);
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().createFile(V, B, chain("d", 5) + "/f", null)), 5);
    assertCountersExact(om);
  }

  @Test
  void renameRefusesADestinationOrASubtreeThatWouldEndTooDeep() {
    openWithBucket(6);
    putFile(om, V, B, "f", 1);
    om.fso().createDirectory(V, B, "a/b/c/d/e/x");
    // The file itself would be 7 levels deep.
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, B, "f", "a/b/c/d/e/x/f")), 6);
    om.fso().rename(V, B, "f", "a/b/c/d/e/f2");

    // t holds a directory 2 levels below it: at depth 5 it would reach 7, at depth 4 just 6.
    om.fso().createDirectory(V, B, "t/u/v");
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, B, "t", "a/b/c/d/t")), 6);
    om.fso().rename(V, B, "t", "a/b/c/t");
    assertEquals("a/b/c/t/u/v", om.fso().getFileStatus(V, B, "a/b/c/t/u/v").path());

    // The deepest entry is a file: it counts as a level too.
    putFile(om, V, B, "s/u/g", 1);
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, B, "s", "a/b/c/d/s")), 6);
    om.fso().rename(V, B, "s", "a/b/c/s");
    assertCountersExact(om);
  }

  @Test
  void renameFindsTheOneDeepBranchAmongManyShallowOnes() {
    openWithBucket(8);
    // w has 30 shallow branches and, in the middle of them by name, one 5 levels deep; the walk
    // must come back up and take the next sibling after each branch.
    for (int i = 0; i < 30; i++) {
      om.fso().createDirectory(V, B, String.format("w/b%02d/x", i));
      putFile(om, V, B, String.format("w/b%02d/x/f", i), 1);
    }
    om.fso().createDirectory(V, B, "w/b15/x/y/z/deep");
    om.fso().createDirectory(V, B, "p/q/r");
    // w's deepest entry is 5 below it; at depth 4 it would end at 9 > 8.
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, B, "w", "p/q/r/w")), 8);
    om.fso().rename(V, B, "w", "p/q/w");
    assertEquals("p/q/w/b15/x/y/z/deep", om.fso().getFileStatus(V, B, "p/q/w/b15/x/y/z/deep").path());
    om.fso().deleteDirectory(V, B, "p/q/w/b15/x/y", true);
    om.fso().rename(V, B, "p/q/w", "p/q/r/w");
    assertCountersExact(om);
  }

  @Test
  void aRenameUpToTheDefaultLimitPassesAndOneLevelMoreIsRefused() {
    open(OmStoreOptions.DEFAULT_MAX_PATH_DEPTH);
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    // A path may be at most 1024 bytes, so 512 one-letter levels per call.
    om.fso().createDirectory(V, B, chain("a", 512));
    om.fso().createDirectory(V, B, chain("b", 512));
    om.fso().rename(V, B, "a", chain("b", 511) + "/a");
    om.fso().createDirectory(V, B, "c");
    om.fso().rename(V, B, "b", "c/b");
    String deepest = "c/" + chain("b", 511) + "/" + chain("a", 512);
    assertEquals(1024, om.fso().getFileStatus(V, B, deepest).path().split("/").length);
    om.fso().createDirectory(V, B, "e");
    OmException e = assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, B, "c", "e/c"));
    assertNamesLimit(e, 1024);
    assertTrue(e.getMessage().contains("max-path-depth"), e.getMessage());
  }

  @Test
  void aStoreHoldingDeeperTreesStillOpensListsRenamesAndPurges() {
    openWithBucket(12);
    putFile(om, V, B, chain("d", 10) + "/f", 7);
    om.fso().createDirectory(V, B, "keep/x");
    om.close();
    om = null;
    open(4);

    List<String> all = paths(listAll(om, V, B, "", true, null, 3));
    assertEquals(13, all.size());
    assertEquals(chain("d", 10) + "/f", all.get(10));
    assertEquals(7, om.fso().lookupFile(V, B, chain("d", 10) + "/f").getDataSize());
    // Nothing new below the limit...
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().createDirectory(V, B, chain("d", 5))), 4);
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, B, "keep", chain("d", 6) + "/keep")), 4);
    assertNamesLimit(assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().rename(V, B, chain("d", 2), "keep/x/d")), 4);
    // ...but renames that make nothing deeper are fine.
    om.fso().rename(V, B, chain("d", 10) + "/f", chain("d", 10) + "/g");
    om.fso().rename(V, B, chain("d", 3), "d/e");
    String g = "d/e/" + chain("d", 7) + "/g";
    assertEquals(7, om.fso().lookupFile(V, B, g).getDataSize());
    om.fso().rename(V, B, "d/e", "e");
    om.fso().deleteDirectory(V, B, "e", true);
    om.fso().deleteDirectory(V, B, "d", true);
    purgeAll(om, 1000);
    assertEquals(List.of("keep", "keep/x"), paths(listAll(om, V, B, "", true, null, 3)));
    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    assertCountersExact(om);
  }
}
