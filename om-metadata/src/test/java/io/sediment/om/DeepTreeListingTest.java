package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.testing.StoreProbe;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.listing.ListPage;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * listStatus over a tree 3,003 levels deep: every page holds a bounded number of native
 * iterators whatever the depth, and the pages, joined through continuation tokens, are the
 * model's entries in listing order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeepTreeListingTest {

  private static final String V = "vol1";
  private static final String B = "fso1";
  /** One pair of child iterators (directoryTable, fileTable) at a time. */
  private static final int MAX_OPEN_ITERATORS = 2;

  @RegisterExtension
  static final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults()
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxPathDepth(5000));
  private OmMetadataStore om;
  private DeepTree tree;
  private StoreProbe db;

  @BeforeAll
  void build() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    tree = new DeepTree(om, V, B);
    tree.build(6);
    assertEquals(3003, tree.deepest().split("/").length);
    db = StoreProbe.of(om.dbStore());
  }

  /** Lists every page; asserts each page's iterator peak; items as "path" or "path/" (dirs). */
  private List<String> listAll(String path, boolean recursive, String startKey, int pageSize) {
    List<String> out = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      db.resetOpenIteratorPeak();
      ListPage<FileStatus> page = om.fso().listStatus(V, B, path, recursive, startKey, pageSize, token);
      int peak = db.openIteratorPeak();
      assertTrue(peak <= MAX_OPEN_ITERATORS, "page " + pages + " held " + peak
          + " native iterators at once");
      for (FileStatus s : page.items()) {
        out.add(s.path() + (s.isDirectory() ? "/" : ""));
      }
      token = page.nextToken();
      assertEquals(page.truncated(), token != null);
      pages++;
    } while (token != null);
    assertEquals(0, db.openIteratorCount());
    return out;
  }

  @Test
  void recursiveListingOfTheWholeTreeMatchesTheModelPageAfterPage() {
    List<String> expected = tree.below("");
    assertEquals(expected, listAll("", true, null, 97));
    assertEquals(expected, listAll("", true, null, 1000));
  }

  @Test
  void recursiveListingOfADeepDirectoryFromADeepStartKey() {
    List<String> all = tree.below("");
    // A directory 1,200 levels down, listed from an entry 1,000 levels further down.
    String listed = all.stream().filter(p -> p.endsWith("/") && p.split("/").length == 1200)
        .findFirst().orElseThrow();
    listed = listed.substring(0, listed.length() - 1);
    List<String> below = tree.below(listed);
    String start = below.get(1000);
    start = start.endsWith("/") ? start.substring(0, start.length() - 1) : start;
    assertEquals(below.subList(1001, below.size()), listAll(listed, true, start, 50));
  }

  @Test
  void nonRecursiveListingOfADeepDirectory() {
    String bottom = tree.deepest();
    String parent = bottom.substring(0, bottom.lastIndexOf('/'));
    String grandParent = parent.substring(0, parent.lastIndexOf('/'));
    assertEquals(List.of(parent + "/"), listAll(grandParent, false, null, 10));
    assertEquals(List.of(bottom), listAll(parent, false, null, 10));
  }
}
