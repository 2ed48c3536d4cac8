package io.sediment.om;

import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.core.UnlockedPhase;
import io.sediment.om.fso.DirectoryPurge;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.purge.PurgeResult;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The purge steps read their batch without the write lock and apply it in one short write: a
 * foreground write issued while a step scans completes before the scan ends (the step waits in its
 * scan until it has); rows a foreground write adds among the rows read, or changes, or removes
 * between the read and the write, are left alone and counted right; under writers racing the
 * purges, the counters always equal a scan and only deleted versions are purged.
 */
class PurgeConcurrencyTest {

  private static final String V = "vol1";
  private static final String B = "buck1";
  private static final String FSO = "fso1";
  /** Guards against a hang if a write waited for a lock the scan holds (a failure). */
  private static final long WRITE_WAIT_SECONDS = 60;

  private final MutableClock clock = new MutableClock();
  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(() -> OmStoreOptions.defaults()
      .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withClock(clock));
  private OmMetadataStore om;
  private OmContext ctx;

  @BeforeEach
  void open() {
    om = omStore.store();
    ctx = om.context();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, FSO, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
  }

  @AfterEach
  void noObserver() {
    ctx.unlocked().observe(null);
  }

  /** Runs {@code write} on another thread and waits for it: it must not need the step's locks. */
  private static <T> T onAnotherThread(Supplier<T> write) {
    try {
      return CompletableFuture.supplyAsync(write).get(WRITE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("a foreground write did not complete while a purge scanned", e);
    }
  }

  /** Runs {@code write} on another thread when {@code step} reaches {@code phase}. */
  private void at(UnlockedPhase phase, String step, Runnable write) {
    AtomicBoolean done = new AtomicBoolean();
    ctx.unlocked().observe((p, s) -> {
      assertFalse(ctx.unlocked().isWriteLocked(), p + " of " + s + " with the write lock held");
      if (p == phase && s.equals(step) && done.compareAndSet(false, true)) {
        onAnotherThread(() -> {
          write.run();
          return null;
        });
      }
    });
  }

  private void assertCountersMatchScan() {
    assertEquals(om.countFromScan(), om.counters());
  }

  private List<String> keysOf(io.sediment.db.TableDefinition<String, ?> table) {
    List<String> out = new ArrayList<>();
    try (TableIterator<String, ? extends KeyValue<String, ?>> it =
             om.dbStore().getTable(table).iterator()) {
      while (it.hasNext()) {
        out.add(it.next().getKey());
      }
    }
    return out;
  }

  /** Creates and deletes keys {@code prefix000..}; returns their deletedTable keys in order. */
  private List<String> deleteKeys(String prefix, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String k = String.format("%s%03d", prefix, i);
      KeyInfo info = put(om, V, B, k, 10 + i);
      om.deleteKey(V, B, k);
      out.add(OmKeys.deletedKey(V, B, k, info.getObjectId()));
    }
    return out;
  }

  // ---- (a) foreground writes are not blocked by a scan ----

  @Test
  void aForegroundWriteCompletesWhileEachStepScans() {
    deleteKeys("k", 40);
    om.openKey(V, B, "left-open", "alice");
    om.multipart().initiate(V, B, "upload", "alice");
    FsoTestSupport.putFile(om, V, FSO, "top/sub/file", 7);
    om.fso().deleteDirectory(V, FSO, "top", true);
    clock.advance(Duration.ofDays(60));
    List<String> seen = new ArrayList<>();
    ctx.unlocked().observe((phase, step) -> {
      assertFalse(ctx.unlocked().isWriteLocked(),
          phase + " of " + step + " with the write lock held");
      if (phase == UnlockedPhase.PURGE_SCAN_BEGINS) {
        seen.add(step);
        KeyInfo k = onAnotherThread(() -> put(om, V, B, "during-" + step, 1));
        assertEquals("during-" + step, k.getKeyName());
      }
    });

    assertEquals(40, om.purges().purgeDeletedKeys(1000).purged());
    assertEquals(1, om.purges().expireOpenKeys(Duration.ofDays(7), 1000).purged());
    assertEquals(1, om.purges().abortExpiredUploads(Duration.ofDays(30), 1000).purged());
    assertEquals(3, om.fso().purgeDeletedDirectories(1000), "file, subdirectory, queue row");

    assertEquals(List.of(OmPurges.KEY_DELETING, OmPurges.OPEN_KEY_CLEANUP,
        OmPurges.MULTIPART_UPLOAD_CLEANUP, DirectoryPurge.STEP), seen);
    for (String step : seen) {
      assertEquals(1, om.lookupKey(V, B, "during-" + step).getDataSize());
    }
    assertCountersMatchScan();
  }

  // ---- (b) what changes between the read and the write ----

  @Test
  void aVersionDeletedAmongTheRowsReadStaysAndSplitsTheRangeDelete() {
    List<String> rows = deleteKeys("k", 100);
    // "k050x" sorts between k050 and k051: its deleted version lands inside the range read.
    at(UnlockedPhase.PURGE_SCAN_DONE, OmPurges.KEY_DELETING, () -> {
      put(om, V, B, "k050x", 99);
      om.deleteKey(V, B, "k050x");
    });
    PurgeResult r = om.purges().purgeDeletedKeys(1000);
    ctx.unlocked().observe(null);

    assertEquals(100, r.examined());
    assertEquals(100, r.purged());
    assertEquals(2, r.rangeDeletes(), "k000-k050 and k051-k099, each one range tombstone");
    List<String> left = keysOf(OmDBDefinition.DELETED_TABLE);
    assertEquals(1, left.size());
    assertTrue(left.get(0).startsWith(OmKeys.objectKey(V, B, "k050x") + "/"), left.toString());
    assertFalse(left.contains(rows.get(50)));
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.DELETED_KEYS));
    assertEquals(99, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));
    assertCountersMatchScan();

    assertEquals(1, om.purges().purgeDeletedKeys(1000).purged(), "the next pass takes it");
    assertEquals(0, om.counters().get(OmCounter.DELETED_KEYS));
  }

  @Test
  void anOpenKeyCommittedOrReopenedMeanwhileIsNotExpired() {
    List<OpenKeySession> sessions = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sessions.add(om.openKey(V, B, String.format("o%02d", i), "alice"));
    }
    clock.advance(Duration.ofDays(8));
    at(UnlockedPhase.PURGE_SCAN_DONE, OmPurges.OPEN_KEY_CLEANUP, () -> {
      // Its open row goes: the step must neither count it nor touch the committed key.
      om.commitKey(V, B, "o05", sessions.get(5).clientId(), 3);
      // A fresh session between o19 and o20: young, and not read by the step.
      om.openKey(V, B, "o19a", "alice");
    });
    PurgeResult r = om.purges().expireOpenKeys(Duration.ofDays(7), 1000);
    ctx.unlocked().observe(null);

    assertEquals(40, r.examined());
    assertEquals(39, r.purged(), "all read but the committed one");
    assertEquals(2, r.rangeDeletes(), "o00-o19 (o05 already gone) and o20-o39, split by o19a");
    assertEquals(3, om.lookupKey(V, B, "o05").getDataSize());
    List<String> open = keysOf(OmDBDefinition.OPEN_KEY_TABLE);
    assertEquals(1, open.size());
    assertTrue(open.get(0).startsWith(OmKeys.objectKey(V, B, "o19a") + "/"), open.toString());
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.OPEN_KEYS));
    assertCountersMatchScan();
  }

  @Test
  void anOpenFileExpiredWhileTheDirectoryPurgeScansIsCountedOnce() {
    FsoTestSupport.putFile(om, V, FSO, "top/d/committed", 5);
    om.fso().createFile(V, FSO, "top/d/left-open", "alice");
    om.fso().deleteDirectory(V, FSO, "top", true);
    clock.advance(Duration.ofDays(8));
    assertEquals(1, om.counters().get(OmCounter.OPEN_FILES));
    at(UnlockedPhase.PURGE_SCAN_DONE, DirectoryPurge.STEP,
        () -> assertEquals(1, om.purges().expireOpenFiles(Duration.ofDays(7), 100).purged()));
    int removed = om.fso().purgeDeletedDirectories(1000);
    ctx.unlocked().observe(null);

    assertEquals(3, removed, "the file, d and the queue row; the open file was already gone");
    assertEquals(0, om.counters().get(OmCounter.OPEN_FILES));
    assertEquals(0, om.counters().get(OmCounter.DIRECTORIES));
    assertEquals(0, om.counters().get(OmCounter.DELETED_DIRECTORIES));
    assertTrue(keysOf(OmDBDefinition.DELETED_DIRECTORY_TABLE).isEmpty());
    assertCountersMatchScan();
  }

  @Test
  void aSubtreeWhoseFirstRowsAreOpenFilesIsPurgedAndCounted() {
    // top holds only d, and d only a file left open: the first rows the walk removes are open.
    om.fso().createFile(V, FSO, "top/d/left-open", "alice");
    om.fso().deleteDirectory(V, FSO, "top", true);
    assertEquals(1, om.counters().get(OmCounter.DELETED_DIRECTORIES));
    // Budgets of one row: the first step removes the open file and nothing it counts otherwise.
    assertEquals(1, om.fso().purgeDeletedDirectories(1), "the open file");
    assertEquals(0, om.bucketCounters(V, FSO).get(OmCounter.OPEN_FILES));
    assertCountersMatchScan();
    assertEquals(1, om.fso().purgeDeletedDirectories(1), "d");
    assertEquals(1, om.fso().purgeDeletedDirectories(1), "the queue row");
    assertEquals(0, om.fso().purgeDeletedDirectories(1));
    assertEquals(0, om.counters().get(OmCounter.DELETED_DIRECTORIES));
    assertCountersMatchScan();
  }

  @Test
  void aDirectoryQueuedAmongTheFinishedOnesStaysQueued() {
    for (String d : new String[] {"a", "c", "e", "g"}) {
      FsoTestSupport.putFile(om, V, FSO, d + "/f", 1);
      om.fso().deleteDirectory(V, FSO, d, true);
    }
    at(UnlockedPhase.PURGE_SCAN_DONE, DirectoryPurge.STEP, () -> {
      // Top-level queue rows are keyed by parent (the bucket) and name: "d" sorts among them.
      FsoTestSupport.putFile(om, V, FSO, "d/f", 1);
      om.fso().deleteDirectory(V, FSO, "d", true);
    });
    assertEquals(8, om.fso().purgeDeletedDirectories(1000), "four files, four queue rows");
    ctx.unlocked().observe(null);

    List<String> queued = keysOf(OmDBDefinition.DELETED_DIRECTORY_TABLE);
    assertEquals(1, queued.size(), queued.toString());
    assertTrue(queued.get(0).contains("/d/"), queued.toString());
    assertEquals(1, om.counters().get(OmCounter.DELETED_DIRECTORIES));
    assertCountersMatchScan();
    assertEquals(2, om.fso().purgeDeletedDirectories(1000));
    assertCountersMatchScan();
  }

  // ---- races ----

  @Test
  void purgesRacingWritersKeepCountersExactAndPurgeOnlyDeletedVersions() throws Exception {
    int writers = 3;
    int perWriter = 300;
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int id = w;
      Thread t = new Thread(() -> {
        SplittableRandom random = new SplittableRandom(id);
        try {
          for (int i = 0; i < perWriter; i++) {
            String k = String.format("w%d-%04d", id, random.nextInt(200));
            put(om, V, B, k, 1 + random.nextInt(100));
            if (random.nextInt(3) == 0) {
              om.deleteKey(V, B, k);
            }
            if (random.nextInt(10) == 0) {
              FsoTestSupport.putFile(om, V, FSO, "t" + id + "-" + i + "/x/f", 4);
              om.fso().deleteDirectory(V, FSO, "t" + id + "-" + i, true);
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "writer-" + w);
      threads.add(t);
      t.start();
    }
    // Purge in small batches while the writers run, checking that nothing but deleted versions
    // went: every key a writer can see stays readable.
    while (threads.stream().anyMatch(Thread::isAlive)) {
      om.purges().purgeDeletedKeys(7);
      om.fso().purgeDeletedDirectories(5);
    }
    for (Thread t : threads) {
      t.join();
    }
    assertNull(failure.get(), () -> "a writer failed: " + failure.get());
    assertCountersMatchScan();
    for (String key : keysOf(OmDBDefinition.KEY_TABLE)) {
      assertTrue(key.startsWith(OmKeys.bucketPrefix(V, B)), key);
    }
    while (om.fso().purgeDeletedDirectories(1000) > 0) {
      assertCountersMatchScan();
    }
    while (om.purges().purgeDeletedKeys(1000).purged() > 0) {
      assertCountersMatchScan();
    }
    assertEquals(0, om.counters().get(OmCounter.DELETED_KEYS));
    assertEquals(0, om.counters().get(OmCounter.DELETED_DIRECTORIES));
    assertTrue(keysOf(OmDBDefinition.DELETED_TABLE).isEmpty());
    assertCountersMatchScan();
  }
}
