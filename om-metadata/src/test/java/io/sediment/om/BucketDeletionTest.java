package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** When a bucket may be deleted, across layouts, snapshots and pending purges. */
class BucketDeletionTest {

  private static final String V = "vol";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
  }

  @Test
  void aBucketWithAnActiveSnapshotCannotBeDeletedUntilTheSnapshotIs() {
    om.createBucket(V, "snapped", BucketLayout.OBJECT_STORE, null, 0);
    om.snapshots().create(V, "snapped", "snap1");
    OmException e = assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteBucket(V, "snapped"));
    assertEquals(true, e.getMessage().contains("snapshots"), e.getMessage());
    om.snapshots().delete(V, "snapped", "snap1");
    om.deleteBucket(V, "snapped");
    assertThrows(OmException.class, () -> om.getBucketInfo(V, "snapped"));
    // A bucket re-created under the name inherits none of the old one's snapshot rows.
    om.createBucket(V, "snapped", BucketLayout.OBJECT_STORE, null, 0);
    assertEquals(0, om.snapshots().list(V, "snapped", null, null, 100, null, true).items().size());
    om.snapshots().create(V, "snapped", "snap1");
    assertEquals(om.countFromScan(), om.counters());
  }

  @Test
  void anFsoBucketWhoseTreeWasDeletedRecursivelyCanBeDeletedOnceThePurgeHasRun() {
    om.createBucket(V, "fso-bkt", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    FsoTestSupport.putFile(om, V, "fso-bkt", "a/b/c/file", 10);
    om.fso().deleteDirectory(V, "fso-bkt", "a", true);
    // Rows under the queued directory still count until the directory purge removes them.
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteBucket(V, "fso-bkt"));
    while (om.fso().purgeDeletedDirectories(100) > 0) {
      // drain
    }
    om.deleteBucket(V, "fso-bkt");
    assertEquals(om.countFromScan(), om.counters());
    assertEquals(0L, (long) om.counters().get(OmCounter.FILES));
    assertEquals(0L, (long) om.counters().get(OmCounter.DIRECTORIES));
  }
}
