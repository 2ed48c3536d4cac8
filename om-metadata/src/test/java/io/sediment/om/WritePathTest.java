package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.GroupCommitter;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one write path: group commit, namespace counters and their persistence. */
class WritePathTest {

  @TempDir
  Path dir;

  @Test
  void concurrentDurableWritersShareWalSyncsAndEveryAckedWriteIsThere() throws Exception {
    int threads = 8;
    int perThread = 50;
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      GroupCommitter committer = om.context().committer();
      long syncsBefore = committer.syncCount();
      long writesBefore = committer.writeCount();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            String key = "t" + id + "/k" + i;
            OpenKeySession s = om.openKey("vol", "bkt", key, null);
            om.commitKey("vol", "bkt", key, s.clientId(), 10);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      long writes = committer.writeCount() - writesBefore;
      long syncs = committer.syncCount() - syncsBefore;
      assertEquals(2L * threads * perThread, writes);
      assertTrue(syncs > 0 && syncs < writes, "syncs " + syncs + " for " + writes + " writes");
      assertEquals((long) threads * perThread, om.counters().get(OmCounter.KEYS));
    }
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      assertEquals(threads * perThread,
          om.listKeys("vol", "bkt", null, null, 1000, null).items().size());
    }
  }

  @Test
  void processCrashSafePolicyNeverSyncs() {
    try (OmMetadataStore om = OmMetadataStore.open(dir,
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE))) {
      om.createVolume("vol", "alice");
      assertEquals(0, om.context().committer().syncCount());
      assertEquals(1, om.context().committer().writeCount());
    }
  }

  @Test
  void rejectedWriteConsumesNoIdAndLeavesCountersAlone() {
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      long first = om.createVolume("vol", "alice").getObjectId();
      Map<OmCounter, Long> before = om.counters();
      long writes = om.context().committer().writeCount();
      assertThrows(OmException.class, () -> om.createVolume("vol", "bob"));
      assertEquals(before, om.counters());
      assertEquals(writes, om.context().committer().writeCount());
      assertEquals(first + 1, om.createVolume("vol2", "alice").getObjectId());
    }
  }

  @Test
  void countersFollowWritesSurviveRestartAndAgreeWithAScan() {
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol", "gone-bkt", BucketLayout.LEGACY, null, 0);
      om.openKey("vol", "gone-bkt", "left-open", null);
      om.deleteBucket("vol", "gone-bkt");
      for (int i = 0; i < 5; i++) {
        OpenKeySession s = om.openKey("vol", "bkt", "k" + i, null);
        om.commitKey("vol", "bkt", "k" + i, s.clientId(), 100 + i);
      }
      OpenKeySession again = om.openKey("vol", "bkt", "k0", null);
      om.commitKey("vol", "bkt", "k0", again.clientId(), 7);
      om.deleteKey("vol", "bkt", "k1");
      om.openKey("vol", "bkt", "pending", null);

      Map<OmCounter, Long> c = om.counters();
      assertEquals(1L, (long) c.get(OmCounter.VOLUMES));
      assertEquals(1L, (long) c.get(OmCounter.BUCKETS));
      assertEquals(4L, (long) c.get(OmCounter.KEYS));
      assertEquals(7L + 102 + 103 + 104, (long) c.get(OmCounter.KEY_BYTES));
      assertEquals(2L, (long) c.get(OmCounter.DELETED_KEYS));
      assertEquals(100L + 101, (long) c.get(OmCounter.DELETED_KEY_BYTES));
      assertEquals(1L, (long) c.get(OmCounter.OPEN_KEYS));
      assertEquals(c, om.countFromScan());
      Map<OmCounter, Long> bkt = om.bucketCounters("vol", "bkt");
      assertEquals(4L, (long) bkt.get(OmCounter.KEYS));
      assertEquals(7L + 102 + 103 + 104, (long) bkt.get(OmCounter.KEY_BYTES));
      assertEquals(1L, (long) bkt.get(OmCounter.OPEN_KEYS));
      assertEquals(2L, (long) bkt.get(OmCounter.DELETED_KEYS));
      assertEquals(0L, (long) bkt.get(OmCounter.VOLUMES));
    }
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      assertEquals(om.countFromScan(), om.counters());
      assertEquals(4L, (long) om.bucketCounters("vol", "bkt").get(OmCounter.KEYS));
      om.createBucket("vol", "gone-bkt", BucketLayout.LEGACY, null, 0);
      assertEquals(0L, (long) om.bucketCounters("vol", "gone-bkt").get(OmCounter.OPEN_KEYS),
          "a recreated bucket does not inherit the deleted one's counters");
    }
  }

  @Test
  void recountRepairsCountersAfterARawChange() {
    try (OmMetadataStore om = OmMetadataStore.open(dir)) {
      om.createVolume("vol", "alice");
      om.dbStore().getTable(OmDBDefinition.VOLUME_TABLE).delete(OmKeys.volumeKey("vol"));
      assertEquals(1L, om.counters().get(OmCounter.VOLUMES));
      assertEquals(0L, om.recount().get(OmCounter.VOLUMES));
      assertEquals(om.countFromScan(), om.counters());
    }
  }
}
