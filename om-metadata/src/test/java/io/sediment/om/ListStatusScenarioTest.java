package io.sediment.om;

import static io.sediment.om.FsoTestSupport.listAll;
import static io.sediment.om.FsoTestSupport.paths;
import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.listing.ListPage;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The listStatus matrix, written from scratch after the cases Ozone's TestListStatus and
 * TestKeyManagerImpl cover (startKey inside and outside the listed directory, missing start keys,
 * deeper paths, files versus directories, paging to the end), plus what Ozone does not do:
 * recursive listings, exclusive start keys, exact {@code truncated}, tokens, and siblings whose
 * names share a prefix or hold characters that sort below {@code /}.
 *
 * <p>The tree (Ozone's, plus traps):
 * <pre>
 * a1/ {a11 a12 a13}   a2   a3/ {a31 a32}   a8  a9  a10  b1  b2  b7  b8
 * s/  {a/x  "a b"/x  a-/x  a.b  a1/x  ab/x}
 * deep/l1/l2/l3/l4/l5/file
 * </pre>
 */
class ListStatusScenarioTest {

  private static final String V = "vol1";
  private static final String B = "fso1";

  private static final List<String> ROOT_CHILDREN =
      List.of("a1", "a10", "a2", "a3", "a8", "a9", "b1", "b2", "b7", "b8", "deep", "s");

  private static final List<String> RECURSIVE_FROM_ROOT = List.of(
      "a1", "a1/a11", "a1/a12", "a1/a13", "a10", "a2", "a3", "a3/a31", "a3/a32", "a8", "a9",
      "b1", "b2", "b7", "b8",
      "deep", "deep/l1", "deep/l1/l2", "deep/l1/l2/l3", "deep/l1/l2/l3/l4",
      "deep/l1/l2/l3/l4/l5", "deep/l1/l2/l3/l4/l5/file",
      "s", "s/a", "s/a/x", "s/a b", "s/a b/x", "s/a-", "s/a-/x", "s/a.b", "s/a1", "s/a1/x",
      "s/ab", "s/ab/x");

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withMaxListSize(100)
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.createBucket(V, "fso2", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    long size = 1;
    for (String f : new String[] {"a1/a11", "a1/a12", "a1/a13", "a2", "a3/a31", "a3/a32", "a8",
        "a9", "a10", "b1", "b2", "b7", "b8", "s/a/x", "s/a b/x", "s/a-/x", "s/a.b", "s/a1/x",
        "s/ab/x", "deep/l1/l2/l3/l4/l5/file"}) {
      putFile(om, V, B, f, size++);
    }
    // Another bucket with overlapping names never leaks in.
    putFile(om, V, "fso2", "a1/zz", 1);
    putFile(om, V, "fso2", "a0", 1);
  }

  private List<String> list(String path, boolean recursive, String startKey, int n) {
    ListPage<FileStatus> page = om.fso().listStatus(V, B, path, recursive, startKey, n, null);
    return paths(page);
  }

  private List<String> all(String path, boolean recursive, String startKey) {
    return paths(listAll(om, V, B, path, recursive, startKey, 100));
  }

  private static List<String> under(List<String> listing, String dir, boolean recursive) {
    List<String> out = new ArrayList<>();
    for (String p : listing) {
      String rest = dir.isEmpty() ? p
          : p.startsWith(dir + "/") ? p.substring(dir.length() + 1) : null;
      if (rest != null && (recursive || !rest.contains("/"))) {
        out.add(p);
      }
    }
    return out;
  }

  // ---- non-recursive ----

  @Test
  void rootListsItsChildrenDirectoriesAndFilesMergedInNameOrder() {
    ListPage<FileStatus> page = om.fso().listStatus(V, B, "", false, null, 100, null);
    assertEquals(ROOT_CHILDREN, paths(page));
    assertFalse(page.truncated());
    assertNull(page.nextToken());
    assertTrue(page.items().get(0).isDirectory());
    assertFalse(page.items().get(1).isDirectory());
    assertEquals(ROOT_CHILDREN, list("/", false, null, 100), "'/' is the root too");
  }

  @Test
  void aFullPageIsTruncatedExactly() {
    ListPage<FileStatus> two = om.fso().listStatus(V, B, "", false, null, 2, null);
    assertEquals(List.of("a1", "a10"), paths(two));
    assertTrue(two.truncated());
    ListPage<FileStatus> exact = om.fso().listStatus(V, B, "a1", false, null, 3, null);
    assertEquals(3, exact.items().size());
    assertFalse(exact.truncated(), "exactly numEntries left: not truncated");
    assertNull(exact.nextToken());
  }

  @Test
  void directoryListsOnlyItsChildren() {
    assertEquals(List.of("a1/a11", "a1/a12", "a1/a13"), list("a1", false, null, 100));
    assertEquals(List.of("a1/a11", "a1/a12", "a1/a13"), list("/a1/", false, null, 100));
    assertEquals(List.of("deep/l1"), list("deep", false, null, 100));
  }

  @Test
  void startKeyIsExclusiveUnlikeOzone() {
    // Ozone lists a12 and a13 here: its startKey is inclusive.
    assertEquals(List.of("a1/a13"), list("a1", false, "a1/a12", 100));
    assertEquals(List.of("a3", "a8"), list("", false, "a2", 2));
  }

  @Test
  void missingStartKeyStartsAtTheNextPath() {
    assertEquals(List.of("a8", "a9", "b1", "b2", "b7", "b8", "deep", "s"),
        list("", false, "a7", 100));
    assertEquals(List.of("b7", "b8", "deep", "s"), list("", false, "b5", 100));
    assertEquals(List.of("a1/a12", "a1/a13"), list("a1", false, "a1/a111", 100));
  }

  @Test
  void startKeyAtTheLastEntryGivesAnEmptyLastPage() {
    ListPage<FileStatus> page = om.fso().listStatus(V, B, "a1", false, "a1/a13", 10, null);
    assertEquals(List.of(), page.items());
    assertFalse(page.truncated());
    assertEquals(List.of(), list("a1", false, "a1/zzz", 10));
  }

  @Test
  void startKeyEqualToTheListedPathStartsAtTheBeginning() {
    assertEquals(List.of("a1/a11", "a1/a12", "a1/a13"), list("a1", false, "a1", 100));
    assertEquals(ROOT_CHILDREN, list("", false, "/", 100));
  }

  @Test
  void startKeyOutsideTheListedPathIsInvalid() {
    // Ozone returns an empty list for these.
    for (String start : new String[] {"b1", "a10", "a", "a10/a11", "c/g5", "a1x/y"}) {
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.fso().listStatus(V, B, "a1", false, start, 10, null));
    }
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, B, "b", false, "c", 10, null));
  }

  @Test
  void deeperStartKeyResumesAfterTheChildThatHoldsIt() {
    assertEquals(List.of("a10", "a2"), list("", false, "a1/a12", 2));
    assertEquals(List.of("a8", "a9"), list("", false, "a3/zz/yy", 2));
    assertEquals(List.of("s/a b", "s/a-"), list("s", false, "s/a/x", 2));
  }

  @Test
  void missingPathsAndPartialPrefixesAreNotFound() {
    // Ozone treats 'b' as a partial prefix and lists b1 b2 b7 b8; a path must exist here.
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().listStatus(V, B, "b", false, null, 10, null));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.fso().listStatus(V, B, "a1/a111", false, null, 10, null));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.fso().listStatus(V, B, "a1/a111", false, "a1/a111/a100", 10, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().listStatus(V, B, "a2/x", false, null, 10, null));
  }

  @Test
  void aFileListsItselfOnce() {
    for (boolean recursive : new boolean[] {false, true}) {
      ListPage<FileStatus> page = om.fso().listStatus(V, B, "a2", recursive, null, 10, null);
      assertEquals(List.of("a2"), paths(page));
      assertFalse(page.items().get(0).isDirectory());
      assertFalse(page.truncated());
      assertEquals(List.of(), list("a2", recursive, "a2", 10));
      assertEquals(List.of(), list("a2", recursive, "a2/below", 10));
    }
  }

  @Test
  void entriesCarryTheirIdsSizesOwnersAndTimes() {
    for (FileStatus s : listAll(om, V, B, "", true, null, 7)) {
      assertEquals(om.fso().getFileStatus(V, B, s.path()), s);
    }
    FileStatus a2 = om.fso().getFileStatus(V, B, "a2");
    assertEquals(4, a2.size());
    assertEquals("alice", a2.owner());
    assertTrue(a2.creationTime() > 0 && a2.modificationTime() >= a2.creationTime());
    assertEquals(0, om.fso().getFileStatus(V, B, "a1").size());
  }

  // ---- recursive ----

  @Test
  void recursiveListingIsDepthFirstWithChildrenInNameOrder() {
    assertEquals(RECURSIVE_FROM_ROOT, all("", true, null));
    assertEquals(under(RECURSIVE_FROM_ROOT, "s", true), all("s", true, null));
    assertEquals(List.of("a1/a11", "a1/a12", "a1/a13"), all("a1", true, null));
  }

  @Test
  void componentOrderIsNotPlainStringOrder() {
    List<String> s = all("s", true, null);
    // As strings "s/a b" < "s/a-" < "s/a.b" < "s/a/x"; by components "a" comes first.
    assertEquals(List.of("s/a", "s/a/x", "s/a b"), s.subList(0, 3));
    List<String> sorted = new ArrayList<>(s);
    sorted.sort(FsoPath.LISTING_ORDER);
    assertEquals(sorted, s);
  }

  @Test
  void recursiveStartKeysResumeInsideTheTree() {
    assertEquals(List.of("a1/a11", "a1/a12"), list("", true, "a1", 2), "a dir: its children next");
    assertEquals(List.of("a1/a13", "a10", "a2"), list("", true, "a1/a12", 3));
    assertEquals(List.of("a1/a13", "a10"), list("", true, "a1/a12/below", 2), "below a file");
    assertEquals(List.of("a8", "a9"), list("", true, "a3/zz", 2), "missing entry in a3");
    assertEquals(List.of("a8"), list("", true, "a3/zz/yy/xx", 1), "missing deeper path");
    assertEquals(List.of("deep/l1/l2/l3/l4/l5/file", "s"),
        list("", true, "deep/l1/l2/l3/l4/l5", 2));
    assertEquals(List.of("s/a/x", "s/a b"), list("s", true, "s/a", 2));
    assertEquals(List.of("s/a b"), list("s", true, "s/a/x", 1));
  }

  @Test
  void siblingsSharingAPrefixNeverMix() {
    for (String d : new String[] {"s/a", "s/a1", "s/ab", "s/a-", "s/a b"}) {
      assertEquals(List.of(d + "/x"), list(d, false, null, 10));
      assertEquals(List.of(d + "/x"), list(d, true, null, 10));
    }
    assertEquals(List.of("a1/a11", "a1/a12", "a1/a13"), list("a1", true, null, 10));
    assertEquals(List.of("a0", "a1", "a1/zz"),
        paths(listAll(om, V, "fso2", "", true, null, 1)), "the other bucket has its own tree");
  }

  // ---- paging ----

  @Test
  void pagingBy1And2And10CoversEveryListingExactly() {
    for (boolean recursive : new boolean[] {false, true}) {
      for (String path : new String[] {"", "a1", "s", "deep", "deep/l1/l2"}) {
        List<String> expected = under(RECURSIVE_FROM_ROOT, path, recursive);
        for (int size : new int[] {1, 2, 10}) {
          assertEquals(expected, paths(listAll(om, V, B, path, recursive, null, size)),
              path + " recursive=" + recursive + " by " + size);
        }
        // Paging by start key (the last path of each page) gives the same.
        List<String> byStartKey = new ArrayList<>();
        String start = null;
        while (true) {
          List<String> page = list(path, recursive, start, 3);
          if (start != null && !page.isEmpty()) {
            assertTrue(FsoPath.LISTING_ORDER.compare(start, page.get(0)) < 0, "start key excluded");
          }
          byStartKey.addAll(page);
          if (page.size() < 3) {
            break;
          }
          start = page.get(2);
        }
        assertEquals(expected, byStartKey);
      }
    }
  }

  @Test
  void tokenWinsOverStartKeyAndPagesFromWhereItStopped() {
    String token = om.fso().listStatus(V, B, "", false, null, 2, null).nextToken();
    ListPage<FileStatus> next = om.fso().listStatus(V, B, "", false, "b7", 2, token);
    assertEquals(List.of("a2", "a3"), paths(next));
  }

  @Test
  void tokensAreBoundToBucketPathAndRecursion() {
    String token = om.fso().listStatus(V, B, "", false, null, 2, null).nextToken();
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, B, "", true, null, 2, token));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, B, "a1", false, null, 2, token));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, "fso2", "", false, null, 2, token));
    String recursive = om.fso().listStatus(V, B, "a1", true, null, 1, null).nextToken();
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, B, "a1", false, null, 2, recursive));
    // Equivalent spellings of the path share tokens.
    assertEquals(List.of("a1/a12"), paths(om.fso().listStatus(V, B, "/a1/", true, null, 1, recursive)));
  }

  // ---- changes between pages ----

  @Test
  void deletedCursorResumesAtTheNextLivePath() {
    ListPage<FileStatus> first = om.fso().listStatus(V, B, "", false, null, 3, null);
    assertEquals(List.of("a1", "a10", "a2"), paths(first));
    om.fso().deleteFile(V, B, "a2");
    assertEquals(List.of("a3", "a8", "a9"),
        paths(om.fso().listStatus(V, B, "", false, null, 3, first.nextToken())));

    ListPage<FileStatus> rec = om.fso().listStatus(V, B, "", true, null, 2, null);
    assertEquals(List.of("a1", "a1/a11"), paths(rec));
    om.fso().deleteDirectory(V, B, "a1", true);
    assertEquals(List.of("a10", "a3"),
        paths(om.fso().listStatus(V, B, "", true, null, 2, rec.nextToken())),
        "the cursor's directory is gone: continue after it");
  }

  @Test
  void pathsStayStrictlyIncreasingWhenTheTreeChangesBetweenPages() {
    ListPage<FileStatus> page = om.fso().listStatus(V, B, "", true, null, 3, null);
    assertEquals(List.of("a1", "a1/a11", "a1/a12"), paths(page));
    om.fso().rename(V, B, "a1", "zz");
    putFile(om, V, B, "a0", 1);
    om.fso().createDirectory(V, B, "a3/a30");
    List<String> out = new ArrayList<>(paths(page));
    String token = page.nextToken();
    while (token != null) {
      ListPage<FileStatus> p = om.fso().listStatus(V, B, "", true, null, 3, token);
      for (String path : paths(p)) {
        assertTrue(FsoPath.LISTING_ORDER.compare(out.get(out.size() - 1), path) < 0,
            out + " then " + path);
        out.add(path);
      }
      token = p.nextToken();
    }
    assertFalse(out.contains("a0"), "added before the cursor: not listed");
    assertTrue(out.contains("a3/a30"), "added after the cursor: listed");
    assertTrue(out.containsAll(List.of("zz", "zz/a11", "zz/a13")), "moved later: listed again");
  }
}
