package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.openfiles.OpenFileEntry;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.purge.PurgeResult;
import io.sediment.om.service.BackgroundService;
import io.sediment.om.service.DirectoryDeletingService;
import io.sediment.om.service.KeyDeletingService;
import io.sediment.om.service.MultipartUploadCleanupService;
import io.sediment.om.service.OmServices;
import io.sediment.om.service.OpenKeyCleanupService;
import io.sediment.om.service.PurgePacing;
import io.sediment.om.service.PurgeSteps;
import io.sediment.om.service.ServiceMetrics;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The purge steps and the background services: each purges exactly what it should (deleted
 * versions; open keys and files, and uploads, older than the threshold by the store's clock),
 * counters stay equal to a full scan, contiguous runs become one range tombstone, the cursor is
 * persisted with the purge and a later run (also after a reopen) resumes from it instead of
 * rescanning from the head, and the service life cycle is idempotent.
 */
class PurgeServicesTest {

  private static final String V = "vol1";
  private static final String B = "buck1";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(() -> options());
  private final MutableClock clock = new MutableClock();
  private OmMetadataStore om;

  private OmStoreOptions options() {
    return OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE)
        .withClock(clock).withTokenMaxAge(Duration.ZERO);
  }

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
  }

  private void reopen() {
    om = omStore.reopen(options());
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

  private List<String> deletedKeys() {
    return keysOf(OmDBDefinition.DELETED_TABLE);
  }

  private void assertCountersMatchScan() {
    assertEquals(om.countFromScan(), om.counters());
  }

  /** Creates and deletes {@code n} keys {@code prefix000...}; returns their deletedTable keys. */
  private List<String> deleteKeys(String bucket, String prefix, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String k = String.format("%s%03d", prefix, i);
      KeyInfo info = put(om, V, bucket, k, 10 + i);
      om.deleteKey(V, bucket, k);
      out.add(OmKeys.deletedKey(V, bucket, k, info.getObjectId()));
    }
    return out;
  }

  private TableTombstoneStats stats(String table) {
    return om.dbStore().tombstoneStats().tables().stream()
        .filter(t -> t.table().equals(table)).findFirst().orElseThrow();
  }

  // ---- KeyDeletingService ----

  @Test
  void keyPurgeRemovesEveryDeletedVersionAndNothingElse() {
    om.createBucket(V, "buck2", BucketLayout.LEGACY, null, 0);
    deleteKeys(B, "gone", 12);
    deleteKeys("buck2", "gone", 5);
    put(om, V, B, "kept", 1);
    put(om, V, B, "kept", 2); // the overwritten version goes to deletedTable too
    List<String> live = keysOf(OmDBDefinition.KEY_TABLE);
    assertEquals(18, deletedKeys().size());

    PurgeResult r = om.purges().purgeDeletedKeys(1000);
    assertEquals(18, r.examined());
    assertEquals(18, r.purged());
    assertNull(r.cursor(), "the pass ended");
    assertTrue(deletedKeys().isEmpty());
    assertEquals(live, keysOf(OmDBDefinition.KEY_TABLE));
    assertEquals(0, om.bucketCounters(V, B).get(OmCounter.DELETED_KEYS));
    assertEquals(0, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));
    assertEquals(0, om.bucketCounters(V, "buck2").get(OmCounter.DELETED_KEYS));
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.KEYS));
    assertCountersMatchScan();
  }

  @Test
  void keyPurgeResumesFromItsPersistedCursorAfterAReopen() {
    List<String> rows = deleteKeys(B, "k", 100);
    PurgeResult first = om.purges().purgeDeletedKeys(30);
    assertEquals(30, first.purged());
    assertEquals(rows.get(29), first.cursor());
    assertEquals(rows.subList(30, 100), deletedKeys());

    reopen();
    assertEquals(rows.get(29), om.purges().cursor(OmPurges.KEY_DELETING), "persisted");
    // A version deleted below the cursor after the pass went past it: a run that rescanned from
    // the head would purge it first.
    KeyInfo early = put(om, V, B, "a-early", 5);
    om.deleteKey(V, B, "a-early");
    String earlyRow = OmKeys.deletedKey(V, B, "a-early", early.getObjectId());

    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    PurgeResult second = om.purges().purgeDeletedKeys(30);
    assertEquals(2, om.dbStore().getTickerCount("NUMBER_DB_SEEK") - seeks,
        "one iterator positioned once, at the cursor (the read), and one at the first row read "
            + "(the confirmation under the write lock)");
    assertEquals(rows.get(59), second.cursor());
    List<String> expected = new ArrayList<>(List.of(earlyRow));
    expected.addAll(rows.subList(60, 100));
    assertEquals(expected, deletedKeys(), "rows 30-59 purged; the early row waits for the wrap");
    assertCountersMatchScan();

    assertEquals(rows.get(89), om.purges().purgeDeletedKeys(30).cursor());
    PurgeResult wrap = om.purges().purgeDeletedKeys(30);
    assertEquals(11, wrap.purged(), "the last 10 rows, then the early one after wrapping");
    assertNull(wrap.cursor(), "the pass ended: the next run starts at the head");
    assertNull(om.purges().cursor(OmPurges.KEY_DELETING));
    assertTrue(deletedKeys().isEmpty());
    assertCountersMatchScan();
  }

  @Test
  void aContiguousPurgeIsOneRangeTombstoneAndSparesTheRowsBeyondIt() {
    List<String> rows = deleteKeys(B, "r", 50);
    om.dbStore().flush(OmDBDefinition.DELETED_TABLE.name());
    long rangeBefore = stats("deletedTable").sstRangeDeletions();
    long deletionsBefore = stats("deletedTable").sstDeletions();

    PurgeResult big = om.purges().purgeDeletedKeys(20);
    assertEquals(1, big.rangeDeletes());
    assertEquals(rows.subList(20, 50), deletedKeys(), "the row after the range survives");
    om.dbStore().flush(OmDBDefinition.DELETED_TABLE.name());
    assertEquals(rangeBefore + 1, stats("deletedTable").sstRangeDeletions());
    assertEquals(deletionsBefore + 1, stats("deletedTable").sstDeletions(),
        "no point deletes: the whole run is one range tombstone");

    PurgeResult small = om.purges().purgeDeletedKeys(CursorSweep.RANGE_DELETE_MIN_ROWS - 1);
    assertEquals(0, small.rangeDeletes(), "a short run uses point deletes");
    assertEquals(rows.subList(20 + CursorSweep.RANGE_DELETE_MIN_ROWS - 1, 50), deletedKeys());
    assertCountersMatchScan();
  }

  @Test
  void anIdlePurgeDoesNotScan() {
    deleteKeys(B, "x", 20);
    om.purges().purgeDeletedKeys(1000);
    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    long nexts = om.dbStore().getTickerCount("NUMBER_DB_NEXT");
    PurgeResult idle = om.purges().purgeDeletedKeys(1000);
    assertTrue(idle.skipped());
    assertEquals(0, idle.examined());
    assertEquals(seeks, om.dbStore().getTickerCount("NUMBER_DB_SEEK"));
    assertEquals(nexts, om.dbStore().getTickerCount("NUMBER_DB_NEXT"));
  }

  @Test
  void versionsOfADeletedBucketAreCountedStoreWideNotAgainstItsSuccessor() {
    deleteKeys(B, "old", 3);
    om.deleteBucket(V, B);
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    deleteKeys(B, "new", 2);
    assertEquals(2, om.bucketCounters(V, B).get(OmCounter.DELETED_KEYS));
    assertEquals(5, om.counters().get(OmCounter.DELETED_KEYS));

    assertEquals(5, om.purges().purgeDeletedKeys(100).purged());
    assertEquals(0, om.bucketCounters(V, B).get(OmCounter.DELETED_KEYS),
        "not -3: the old bucket's versions are not the new bucket's");
    assertEquals(0, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));
    assertCountersMatchScan();
  }

  // ---- OpenKeyCleanupService ----

  @Test
  void openKeysAndFilesExpireOnlyOnceOlderThanTheThreshold() {
    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    BucketInfo fso = om.getBucketInfo(V, "fso");
    List<OpenKeySession> old = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      old.add(om.openKey(V, B, "old" + i, null));
    }
    String oldFile = ListOpenFilesTest.writeOpenFile(om, fso, fso.getObjectId(), "dir/f", 42,
        clock.millis());
    clock.advance(Duration.ofMinutes(40));
    OpenKeySession young = om.openKey(V, B, "young", null);
    ListOpenFilesTest.writeOpenFile(om, fso, fso.getObjectId(), "g", 0, clock.millis());
    Duration threshold = Duration.ofMinutes(30);

    PurgeResult keys = om.purges().expireOpenKeys(threshold, 100);
    assertEquals(6, keys.examined());
    assertEquals(5, keys.purged());
    assertEquals(List.of("young"), om.openFiles().list(V, B, 10, null).entries().stream()
        .map(OpenFileEntry::path).toList());
    assertRejected(om, Code.NOT_FOUND,
        () -> om.commitKey(V, B, "old0", old.get(0).clientId(), 1));
    om.commitKey(V, B, "young", young.clientId(), 1);

    assertTrue(deletedKeys().isEmpty());
    PurgeResult files = om.purges().expireOpenFiles(threshold, 100);
    assertEquals(1, files.purged());
    assertEquals(42, files.purgedBytes());
    assertFalse(keysOf(OmDBDefinition.OPEN_FILE_TABLE).contains(oldFile));
    assertEquals(List.of("g"), om.openFiles().list(V, "fso", 10, null).entries().stream()
        .map(OpenFileEntry::path).toList());
    assertEquals(1, deletedKeys().size(), "the expired file had data: it goes to the key purge");
    assertEquals(1, om.bucketCounters(V, "fso").get(OmCounter.OPEN_FILES));
    assertEquals(0, om.bucketCounters(V, B).get(OmCounter.OPEN_KEYS));
    assertCountersMatchScan();

    clock.advance(Duration.ofMinutes(29));
    assertEquals(0, om.purges().expireOpenFiles(threshold, 100).purged(), "39 minutes is not 30");
    clock.advance(Duration.ofMinutes(1));
    assertEquals(1, om.purges().expireOpenFiles(threshold, 100).purged(), "40 minutes is");
    assertCountersMatchScan();
  }

  @Test
  void survivorsSplitTheExpiredRunsIntoRangeAndPointDeletes() {
    for (int i = 0; i < 20; i++) {
      om.openKey(V, B, String.format("a%02d", i), null);
    }
    for (int i = 0; i < 3; i++) {
      om.openKey(V, B, "z" + i, null);
    }
    clock.advance(Duration.ofHours(2));
    om.openKey(V, B, "m", null);

    PurgeResult r = om.purges().expireOpenKeys(Duration.ofHours(1), 100);
    assertEquals(24, r.examined());
    assertEquals(23, r.purged());
    assertEquals(1, r.rangeDeletes(), "a00-a19 as one range; z0-z2 as point deletes");
    assertEquals(List.of("m"), om.openFiles().list(V, B, 10, null).entries().stream()
        .map(OpenFileEntry::path).toList(), "the survivor between the runs is untouched");
    assertCountersMatchScan();
  }

  @Test
  void theExpiryCursorWrapsAroundAtTheEndOfTheTable() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      OpenKeySession s = om.openKey(V, B, "k" + i, null);
      rows.add(OmKeys.openKey(V, B, "k" + i, s.clientId()));
    }
    Duration never = Duration.ofDays(1);
    assertEquals(rows.get(2), om.purges().expireOpenKeys(never, 3).cursor());
    reopen();
    assertEquals(rows.get(2), om.purges().cursor(OmPurges.OPEN_KEY_CLEANUP));
    assertEquals(rows.get(5), om.purges().expireOpenKeys(never, 3).cursor());
    PurgeResult wrapped = om.purges().expireOpenKeys(never, 3);
    assertEquals(3, wrapped.examined(), "k6, then k0 and k1 from the head");
    assertEquals(rows.get(1), wrapped.cursor());
    PurgeResult rest = om.purges().expireOpenKeys(never, 100);
    assertEquals(6, rest.examined(), "k2-k6, then k0 from the head; k1 ended the previous run");
    assertNull(rest.cursor(), "the pass ended");
    PurgeResult whole = om.purges().expireOpenKeys(never, 100);
    assertEquals(7, whole.examined(), "a new pass from the head sees every row");
    assertNull(whole.cursor());
    assertEquals(0, whole.purged());
    assertCountersMatchScan();
  }

  // ---- MultipartUploadCleanupService ----

  @Test
  void staleUploadsAreAbortedAndTheirPartsHandedToTheKeyPurge() {
    String stale = om.multipart().initiate(V, B, "stale", null);
    om.multipart().commitPart(V, B, "stale", stale, 1, 100, "a");
    om.multipart().commitPart(V, B, "stale", stale, 2, 200, "b");
    clock.advance(Duration.ofDays(10));
    String fresh = om.multipart().initiate(V, B, "fresh", null);
    om.multipart().commitPart(V, B, "fresh", fresh, 1, 7, "c");

    PurgeResult r = om.purges().abortExpiredUploads(Duration.ofDays(7), 100);
    assertEquals(2, r.examined());
    assertEquals(1, r.purged());
    assertEquals(300, r.purgedBytes());
    assertEquals(List.of(fresh), om.multipart().list(V, B, null, null, null, 10).uploads()
        .stream().map(u -> u.getUploadId()).toList());
    assertEquals(2, deletedKeys().size());
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.MULTIPART_UPLOADS));
    assertEquals(300, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));
    assertCountersMatchScan();

    // The key purge then reclaims the parts.
    assertEquals(2, om.purges().purgeDeletedKeys(100).purged());
    assertCountersMatchScan();
  }

  // ---- the services ----

  @Test
  void servicesRunTheirStepAndReportMetrics() {
    deleteKeys(B, "d", 5);
    om.openKey(V, B, "open", null);
    om.multipart().initiate(V, B, "mpu", null);
    clock.advance(Duration.ofDays(31));
    OmServices.Config config = new OmServices.Config(Duration.ofHours(1), 2, Duration.ofHours(1),
        Duration.ofDays(7), 10, Duration.ofHours(1), Duration.ofDays(30), 10);
    try (OmServices services = OmServices.create(om, config)) {
      KeyDeletingService keyDeleting = services.keyDeleting();
      assertEquals(5, keyDeleting.runOnce(), "one run: batches of 2, 2 and 1");
      ServiceMetrics drained = keyDeleting.metrics();
      assertEquals(3, drained.batches());
      assertEquals(5, drained.lastRunItems());
      assertTrue(drained.rowsPerSecond() > 0, drained.toString());
      assertFalse(drained.runInProgress());
      assertEquals(0, keyDeleting.runOnce());
      ServiceMetrics m = keyDeleting.metrics();
      assertEquals(2, m.runs());
      assertEquals(4, m.batches());
      assertEquals(5, m.itemsProcessed());
      assertEquals(0, m.lastRunItems());
      assertEquals(0.0, m.rowsPerSecond());
      assertEquals(0, m.failures());
      assertFalse(m.running());
      assertEquals(KeyDeletingService.NAME, m.asMap().get("name"));
      assertEquals(4L, m.asMap().get("batches"));

      assertEquals(1, services.openKeyCleanup().runOnce());
      assertEquals(1, services.multipartUploadCleanup().runOnce());
      assertEquals(List.of(KeyDeletingService.NAME, OpenKeyCleanupService.NAME,
          MultipartUploadCleanupService.NAME, DirectoryDeletingService.NAME),
          new ArrayList<>(services.metrics().keySet()));
    }
    assertCountersMatchScan();
  }

  @Test
  void directoryDeletingFeedsKeyDeletingUntilARecursivelyDeletedTreeIsGone() {
    om.createBucket(V, "fso-tree", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (int i = 0; i < 6; i++) {
      FsoTestSupport.putFile(om, V, "fso-tree", "top/d" + (i % 2) + "/f" + i, 10);
    }
    om.fso().deleteDirectory(V, "fso-tree", "top", true);
    List<Long> steps = new ArrayList<>();
    PurgeSteps recorded = new ForwardingPurgeSteps(PurgeSteps.on(om)) {
      @Override
      public long purgeDeletedDirectories(int limit) {
        long n = delegate.purgeDeletedDirectories(limit);
        steps.add(n);
        return n;
      }
    };
    try (OmServices services = OmServices.create(recorded, new OmServices.Config(
        Duration.ofHours(1), 1000, Duration.ofHours(1), Duration.ofDays(7), 10,
        Duration.ofHours(1), Duration.ofDays(30), 10, Duration.ofHours(1), 4,
        PurgePacing.unpaced()))) {
      long purged = services.directoryDeleting().runOnce();
      assertEquals(0, services.directoryDeleting().runOnce(), "the first run drained the queue");
      for (long step : steps.subList(0, steps.size() - 2)) {
        assertEquals(4, step, "a full batch, so the run went on: " + steps);
      }
      assertTrue(steps.get(steps.size() - 2) < 4, "the run ended on a batch that was not full");
      assertTrue(purged >= 6 + 2 + 1, "files, sub-directories and the queue row: " + purged);
      assertEquals(0L, (long) om.counters().get(OmCounter.DELETED_DIRECTORIES));
      assertEquals(0L, (long) om.counters().get(OmCounter.DIRECTORIES));
      assertEquals(0L, (long) om.counters().get(OmCounter.FILES));
      assertTrue(om.counters().get(OmCounter.DELETED_KEYS) >= 6);
      assertTrue(services.keyDeleting().runOnce() >= 6);
      assertEquals(0L, (long) om.counters().get(OmCounter.DELETED_KEYS));
      assertEquals(purged, services.directoryDeleting().metrics().itemsProcessed());
    }
    assertCountersMatchScan();
  }

  @Test
  void aScheduledServicePurgesOnItsOwnThread() throws InterruptedException {
    deleteKeys(B, "d", 30);
    try (KeyDeletingService s = new KeyDeletingService(PurgeSteps.on(om), Duration.ofMillis(5), 7)) {
      assertTrue(s.start());
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!deletedKeys().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      s.stop();
      assertTrue(deletedKeys().isEmpty());
      assertTrue(s.metrics().batches() >= 5, "30 rows at 7 per batch");
      assertEquals(30, s.metrics().itemsProcessed());
    }
    assertCountersMatchScan();
  }

  @Test
  void startStopAndCloseAreIdempotent() {
    KeyDeletingService s = new KeyDeletingService(PurgeSteps.on(om), Duration.ofHours(1), 10);
    assertTrue(s.start());
    assertFalse(s.start(), "already running");
    assertTrue(s.isRunning());
    s.stop();
    s.stop();
    assertFalse(s.isRunning());
    assertTrue(s.start(), "a stopped service may start again");
    s.close();
    s.close();
    assertFalse(s.isRunning());
    assertThrows(IllegalStateException.class, s::start);
    s.stop();

    OmServices services = OmServices.create(om, OmServices.Config.defaults());
    services.start();
    services.start();
    assertTrue(services.services().stream().allMatch(BackgroundService::isRunning));
    services.stop();
    services.stop();
    assertTrue(services.services().stream().noneMatch(BackgroundService::isRunning));
    services.close();
    services.close();
  }

  @Test
  void aFailingRunIsCountedAndTheScheduleGoesOn() throws InterruptedException {
    AtomicInteger calls = new AtomicInteger();
    BackgroundService failing = new BackgroundService("failing", Duration.ofMillis(2)) {
      @Override
      protected long runTask() {
        calls.incrementAndGet();
        throw new IllegalStateException("boom");
      }
    };
    try (failing) {
      assertThrows(IllegalStateException.class, failing::runOnce);
      failing.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (calls.get() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
    }
    ServiceMetrics m = failing.metrics();
    assertTrue(m.failures() >= 4, "the schedule survived failures: " + m);
    assertEquals(m.runs(), m.failures());
    assertTrue(m.lastFailure().contains("boom"));
  }

  @Test
  void badConfigurationIsRejected() {
    assertThrows(IllegalArgumentException.class,
        () -> new KeyDeletingService(PurgeSteps.on(om), Duration.ZERO, 10));
    assertThrows(IllegalArgumentException.class,
        () -> new KeyDeletingService(PurgeSteps.on(om), Duration.ofSeconds(1), 0));
    assertThrows(IllegalArgumentException.class, () -> new OpenKeyCleanupService(PurgeSteps.on(om),
        Duration.ofSeconds(1), Duration.ofSeconds(-1), 10));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.purges().purgeDeletedKeys(0));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.purges().expireOpenKeys(Duration.ofSeconds(-1), 10));
    assertThrows(IllegalArgumentException.class, () -> om.purges().cursor("nope"));
    Map<OmCounter, Long> before = om.counters();
    assertEquals(before, om.counters());
  }
}
