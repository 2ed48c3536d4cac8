package io.sediment.om;

import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.service.BackgroundService;
import io.sediment.om.service.KeyDeletingService;
import io.sediment.om.service.OmServices;
import io.sediment.om.service.PurgePacing;
import io.sediment.om.service.PurgeSteps;
import io.sediment.om.service.ServiceMetrics;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pacing of the purge services: a run takes batches while they come back full, waiting at least
 * the pause and, with a rate, at least what the rate needs between two batches; stop ends a run
 * in its pause; the rate is reported; out-of-range settings are refused with a message that names
 * the bound.
 */
class PurgePacingTest {

  private static final String V = "vol1";
  private static final String B = "buck1";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(
      OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
  }

  private void deleteKeys(int n) {
    for (int i = 0; i < n; i++) {
      String k = String.format("k%04d", i);
      put(om, V, B, k, 1);
      om.deleteKey(V, B, k);
    }
  }

  /** The key purge steps of {@code om}, recording when each began and ended and what it did. */
  private static final class Timed extends ForwardingPurgeSteps {
    final List<long[]> batches = new ArrayList<>(); // {start, end, purged}
    final CountDownLatch firstDone = new CountDownLatch(1);

    Timed(OmMetadataStore om) {
      super(PurgeSteps.on(om));
    }

    @Override
    public synchronized long purgeDeletedKeys(int limit) {
      long start = System.nanoTime();
      long n = delegate.purgeDeletedKeys(limit);
      batches.add(new long[] {start, System.nanoTime(), n});
      firstDone.countDown();
      return n;
    }
  }

  @Test
  void aRunDrainsTheBacklogInBatchesAtLeastThePauseApart() {
    deleteKeys(30);
    Timed steps = new Timed(om);
    Duration pause = Duration.ofMillis(30);
    try (KeyDeletingService s = new KeyDeletingService(steps, Duration.ofHours(1), 7,
        new PurgePacing(0, pause))) {
      assertEquals(30, s.runOnce());
      assertEquals(List.of(7L, 7L, 7L, 7L, 2L), steps.batches.stream().map(b -> b[2]).toList());
      for (int i = 1; i < steps.batches.size(); i++) {
        long gap = steps.batches.get(i)[0] - steps.batches.get(i - 1)[1];
        assertTrue(gap >= pause.toNanos(), "batches " + (i - 1) + " and " + i + " were "
            + gap / 1000 + " us apart, less than the pause");
      }
      ServiceMetrics m = s.metrics();
      assertEquals(5, m.batches());
      assertEquals(1, m.runs());
      assertTrue(m.lastRunDuration().toNanos() >= 4 * pause.toNanos(), m.toString());
      assertTrue(m.rowsPerSecond() > 0 && m.rowsPerSecond() <= 30 * 1e9 / (4 * pause.toNanos()),
          "the reported rate counts the pauses: " + m.rowsPerSecond());
    }
  }

  @Test
  void aRateLimitSpacesBatchesByTheirRowsOverTheRate() {
    deleteKeys(30);
    Timed steps = new Timed(om);
    // 10 rows a batch at 100 rows/s: each batch starts at least 100 ms after the previous one.
    try (KeyDeletingService s = new KeyDeletingService(steps, Duration.ofHours(1), 10,
        new PurgePacing(100, Duration.ZERO))) {
      assertEquals(30, s.runOnce());
    }
    assertEquals(4, steps.batches.size(), "three full batches, then an empty one ends the run");
    for (int i = 1; i < steps.batches.size(); i++) {
      long apart = steps.batches.get(i)[0] - steps.batches.get(i - 1)[0];
      assertTrue(apart >= TimeUnit.MILLISECONDS.toNanos(100),
          "batch starts " + apart / 1000 + " us apart at 10 rows a batch and 100 rows/s");
    }
  }

  @Test
  void stopEndsARunInItsPauseAtOnce() throws InterruptedException {
    deleteKeys(20);
    Timed steps = new Timed(om);
    KeyDeletingService s = new KeyDeletingService(steps, Duration.ofMillis(1), 5,
        new PurgePacing(0, PurgePacing.MAX_PAUSE));
    try (s) {
      s.start();
      assertTrue(steps.firstDone.await(60, TimeUnit.SECONDS), "the first batch ran");
      long start = System.nanoTime();
      s.stop();
      long took = System.nanoTime() - start;
      assertTrue(took < BackgroundService.STOP_TIMEOUT.toNanos() / 3,
          "stop waited " + took / 1_000_000 + " ms: the pause was not cut short");
    }
    assertEquals(1, steps.batches.size(), "the run ended in the pause after its first batch");
    ServiceMetrics m = s.metrics();
    assertEquals(5, m.itemsProcessed());
    assertFalse(m.runInProgress());
    assertEquals(0, m.failures());
    // Stopped, the service drains again when run directly.
    assertEquals(15, new KeyDeletingService(steps, Duration.ofHours(1), 5,
        PurgePacing.unpaced()).runOnce());
  }

  @Test
  void waitIsThePauseOrWhatTheRateNeedsWhicheverIsLonger() {
    PurgePacing pauseOnly = new PurgePacing(0, Duration.ofMillis(20));
    assertEquals(20_000_000L, pauseOnly.waitNanos(1000, 5_000_000));
    PurgePacing rate = new PurgePacing(1000, Duration.ofMillis(20));
    assertEquals(800_000_000L, rate.waitNanos(1000, 200_000_000), "1,000 rows at 1,000/s: 1 s");
    assertEquals(20_000_000L, rate.waitNanos(1000, 2_000_000_000L), "a slow batch: the pause");
    assertEquals(20_000_000L, rate.waitNanos(0, 0), "an empty batch needs no rate wait");
    assertEquals(0, PurgePacing.unpaced().waitNanos(1000, 0));
  }

  @Test
  void outOfRangeSettingsAreRefusedNamingTheBound() {
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
        () -> new PurgePacing(-1, Duration.ZERO));
    assertTrue(negative.getMessage().contains("0 (no limit) to " + PurgePacing.MAX_ROWS_PER_SECOND),
        negative.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new PurgePacing(PurgePacing.MAX_ROWS_PER_SECOND + 1, Duration.ZERO));
    IllegalArgumentException pause = assertThrows(IllegalArgumentException.class,
        () -> new PurgePacing(0, Duration.ofMillis(-1)));
    assertTrue(pause.getMessage().contains("0 to 10 minutes"), pause.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new PurgePacing(0, PurgePacing.MAX_PAUSE.plusNanos(1)));
    assertThrows(NullPointerException.class, () -> new PurgePacing(0, null));
    // The bounds themselves are accepted.
    new PurgePacing(PurgePacing.MAX_ROWS_PER_SECOND, PurgePacing.MAX_PAUSE);
    new PurgePacing(0, Duration.ZERO);
  }

  @Test
  void theConfiguredPacingReachesEveryService() {
    PurgePacing pacing = new PurgePacing(5000, Duration.ofMillis(7));
    try (OmServices services = OmServices.create(om,
        OmServices.Config.defaults().withPacing(pacing))) {
      for (BackgroundService s : services.services()) {
        assertEquals(pacing, s.pacing(), s.name());
      }
    }
    try (OmServices services = OmServices.create(om, OmServices.Config.defaults())) {
      assertEquals(PurgePacing.defaults(), services.keyDeleting().pacing());
    }
  }
}
