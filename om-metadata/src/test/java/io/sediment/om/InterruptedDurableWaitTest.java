package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Under {@link io.sediment.om.core.SyncPolicy#DURABLE}, a writer interrupted while it waits for the WAL sync covering
 * its write (another writer keeps syncs in flight) still completes the call: the write is applied,
 * so the caller is answered once it is durable, never told it failed, and the interrupt is kept for
 * the caller. Work done after the commit (closing a deleted snapshot's store, updating the
 * in-memory counters of a recount) is never skipped.
 */
class InterruptedDurableWaitTest {

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();
  OmMetadataStore om;
  Thread hammer;
  final AtomicBoolean stop = new AtomicBoolean();

  @BeforeEach
  void open() {
    om = omStore.store(); // DURABLE
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "hot", BucketLayout.OBJECT_STORE, null, 0);
    OmTestSupport.put(om, "vol", "bkt", "k", 1);
    // Another writer keeps a WAL sync in flight most of the time.
    hammer = new Thread(() -> {
      AtomicInteger i = new AtomicInteger();
      while (!stop.get()) {
        try {
          OmTestSupport.put(om, "vol", "hot", "h" + (i.incrementAndGet() % 50), 1);
        } catch (RuntimeException e) {
          // store closing
        }
      }
    });
  }

  @AfterEach
  void close() throws InterruptedException {
    stop.set(true);
    hammer.join(10_000);
  }

  /** Runs {@code call} with the interrupt flag set; asserts it completed and kept the flag. */
  static void interrupted(Runnable call) {
    try {
      Thread.currentThread().interrupt();
      call.run();
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt was swallowed");
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void anInterruptedWriterIsAnsweredNormallyAndKeepsItsInterrupt() {
    hammer.start();
    for (int i = 0; i < 300; i++) {
      String key = "w" + i;
      interrupted(() -> OmTestSupport.put(om, "vol", "bkt", key, 1));
      assertEquals(1, om.lookupKey("vol", "bkt", key).getDataSize());
    }
  }

  /**
   * Deterministic: while another writer's WAL sync is held open, an interrupted writer neither
   * returns nor fails; once the sync completes it returns normally, its interrupt kept.
   */
  @Test
  void anInterruptedWriterWaitsForTheSyncInFlightAndKeepsItsInterrupt() throws Exception {
    Path gated = omStore.scratch("gated");
    OmMetadataStore.open(gated).close();
    CountDownLatch syncing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (DBStore real = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(gated)
        .build()) {
      OmContext ctx = new OmContext(GatedSync.holding(real, syncing, release),
          OmStoreOptions.defaults());
      Future<?> first = pool.submit(() -> ctx.write(txn -> {
        ctx.table(OmDBDefinition.META_TABLE).putWithBatch(txn.batch(), "test/first", new byte[1]);
        return null;
      }));
      assertTrue(syncing.await(30, TimeUnit.SECONDS), "the first write never reached its sync");
      Future<Boolean> second = pool.submit(() -> {
        Thread.currentThread().interrupt();
        ctx.write(txn -> {
          ctx.table(OmDBDefinition.META_TABLE).putWithBatch(txn.batch(), "test/second",
              new byte[1]);
          return null;
        });
        return Thread.interrupted();
      });
      assertFalse(GatedSync.finishesWithin(second, 300),
          "the interrupted writer returned (or failed) while the sync it waits for was held");
      release.countDown();
      first.get(30, TimeUnit.SECONDS);
      assertTrue(second.get(30, TimeUnit.SECONDS), "the interrupt was not kept");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void anInterruptedSnapshotDeleteStillClosesTheStoreAndRemovesTheCheckpoint() throws Exception {
    hammer.start();
    for (int i = 0; i < 40; i++) {
      String name = "snap" + i;
      SnapshotInfo s = om.snapshots().create("vol", "bkt", name);
      om.snapshots().lookupKey("vol", "bkt", name, "k"); // caches the snapshot's store
      Path checkpoint = om.areas().snapshotStores.root().resolve(s.getCheckpointDir());
      interrupted(() -> om.snapshots().delete("vol", "bkt", name));
      assertEquals(SnapshotStatus.SNAPSHOT_DELETED,
          om.snapshots().info("vol", "bkt", name).getStatus(), "the delete was applied");
      assertEquals(0, om.areas().snapshotStores.openCount(),
          "the DELETED snapshot's store is still open (and stays open until the store closes)");
      assertTrue(Files.notExists(checkpoint),
          "the DELETED snapshot's checkpoint is still on disk (until the next open)");
    }
  }

  @Test
  void anInterruptedRecountKeepsTheInMemoryCountersWithThePersistedOnes() throws Exception {
    hammer.start();
    for (int i = 0; i < 40; i++) {
      // An external change recount is meant to repair: a keyTable row written around the API.
      String key = "ext" + i;
      om.dbStore().getTable(OmDBDefinition.KEY_TABLE).put(OmKeys.objectKey("vol", "bkt", key),
          KeyInfo.newBuilder().setVolumeName("vol").setBucketName("bkt").setKeyName(key)
              .setObjectId(1_000_000 + i).setDataSize(5).build());
      interrupted(om::recount);
    }
    stop.set(true);
    hammer.join(10_000);
    // One more ordinary write persists in-memory value + delta: a stale memory would undo repairs.
    OmTestSupport.put(om, "vol", "bkt", "after", 1);
    OmInsight.Counters maintained = om.insight().maintainedCounters();
    OmInsight.Counters scanned = om.insight().scannedCounters();
    assertEquals(scanned.totals(), maintained.totals(), "persisted store-wide counters");
    assertEquals(scanned.buckets(), maintained.buckets(), "persisted per-bucket counters");
    assertEquals(om.countFromScan(), om.counters(), "in-memory counters");
  }
}
