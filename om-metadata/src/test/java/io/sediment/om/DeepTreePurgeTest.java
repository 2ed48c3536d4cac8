package io.sediment.om;

import static io.sediment.om.FsoTestSupport.assertCountersExact;
import static io.sediment.om.FsoTestSupport.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.testing.StoreProbe;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The directory purge removes a deleted subtree thousands of levels deep within its work budget
 * per step (not one level per step), resumably, holding at most two native iterators (the queue
 * pass and one child range) at a time.
 */
class DeepTreePurgeTest {

  private static final String V = "vol1";
  private static final String B = "fso1";
  /** Rows per step: a few steps for the tree below. */
  private static final int BUDGET = 500;

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(OmStoreOptions.defaults()
      .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxPathDepth(5000));
  private OmMetadataStore om;

  private void open() {
    om = omStore.store();
  }

  private StoreProbe db() {
    return StoreProbe.of(om.dbStore());
  }

  @Test
  void aDeletedTreeThousandsOfLevelsDeepGoesInBudgetSizedStepsAcrossAReopen() {
    open();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    DeepTree tree = new DeepTree(om, V, B);
    String root = tree.build(4);
    assertEquals(2003, tree.deepest().split("/").length);
    Set<String> files = new TreeSet<>();
    tree.model.forEach((p, isDir) -> {
      if (!isDir) {
        files.add(p);
      }
    });
    om.fso().deleteDirectory(V, B, root, true);
    // Every row below the root, and the root's queue row.
    int work = tree.model.size();
    assertTrue(work > 3 * BUDGET, "the tree needs several steps: " + work);

    List<Integer> steps = new ArrayList<>();
    for (int n; (n = step(BUDGET)) > 0; ) {
      steps.add(n);
      assertCountersExact(om);
      if (steps.size() == 2) {
        om = omStore.reopen();
      }
    }
    List<Integer> expected = new ArrayList<>();
    for (int left = work; left > 0; left -= BUDGET) {
      expected.add(Math.min(BUDGET, left));
    }
    assertEquals(expected, steps, "full budget-sized steps, whatever the depth");

    assertEquals(List.of(), keys(om, OmDBDefinition.DIRECTORY_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.FILE_TABLE));
    assertEquals(List.of(), keys(om, OmDBDefinition.DELETED_DIRECTORY_TABLE));
    Set<String> deleted = new TreeSet<>();
    for (String k : keys(om, OmDBDefinition.DELETED_TABLE)) {
      String path = OmKeys.withoutSuffixId(k).substring(OmKeys.bucketPrefix(V, B).length());
      deleted.add(path);
    }
    assertEquals(files, deleted, "every file moved to deletedTable under its full path");
    om.deleteBucket(V, B);
    assertCountersExact(om);
  }

  @Test
  void oneStepWithEnoughBudgetRemovesTheWholeDeepTree() {
    open();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    DeepTree tree = new DeepTree(om, V, B);
    String root = tree.build(3);
    om.fso().createDirectory(V, B, "keep");
    om.fso().deleteDirectory(V, B, root, true);
    assertEquals(tree.model.size(), step(10_000));
    assertEquals(0, step(10_000));
    assertEquals(List.of("keep"), FsoTestSupport.paths(om.fso().listStatus(V, B, "", true, null, 10,
        null)));
    assertCountersExact(om);
  }

  /** One purge step, asserting it held at most two native iterators at once. */
  private int step(int budget) {
    db().resetOpenIteratorPeak();
    int n = om.fso().purgeDeletedDirectories(budget);
    assertTrue(db().openIteratorPeak() <= 2, "a purge step held " + db().openIteratorPeak()
        + " native iterators at once");
    return n;
  }
}
