package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OmContext#deferringDurability}: writes inside it return once applied, and the future it
 * returns completes only after a WAL sync covering every one of them, on the syncing thread. WAL
 * syncs are held open ({@link GatedSync}) or made to fail, so each claim is checked at the moment
 * it matters.
 */
class DeferredDurabilityTest {

  private static final long WAIT = 30;

  @TempDir
  Path dir;
  DBStore real;
  final CountDownLatch syncing = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  final ExecutorService pool = Executors.newFixedThreadPool(2);

  @BeforeEach
  void open() {
    OmMetadataStore.open(dir).close();
    real = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(dir).build();
  }

  @AfterEach
  void close() throws Exception {
    release.countDown();
    pool.shutdownNow();
    assertTrue(pool.awaitTermination(WAIT, TimeUnit.SECONDS));
    real.close();
  }

  private OmContext gated() {
    return new OmContext(GatedSync.holding(real, syncing, release), OmStoreOptions.defaults());
  }

  private static String put(OmContext ctx, String key) {
    return ctx.write(txn -> {
      ctx.table(OmDBDefinition.META_TABLE).putWithBatch(txn.batch(), key, key.getBytes());
      return key;
    });
  }

  private static byte[] read(OmContext ctx, String key) {
    return ctx.table(OmDBDefinition.META_TABLE).get(key);
  }

  @Test
  void aDeferredWriteIsReadableAtOnceAndAcknowledgedOnlyAfterTheSyncCoveringIt() throws Exception {
    OmContext ctx = gated();
    CompletableFuture<String> acked = ctx.deferringDurability(() -> put(ctx, "test/a"));
    assertTrue(syncing.await(WAIT, TimeUnit.SECONDS), "no WAL sync was started for the write");
    assertArrayEquals("test/a".getBytes(), read(ctx, "test/a"), "applied before it is durable");
    assertFalse(GatedSync.finishesWithin(acked, 300),
        "acknowledged while the WAL sync covering the write was held");
    release.countDown();
    assertEquals("test/a", acked.get(WAIT, TimeUnit.SECONDS));
  }

  @Test
  void oneSyncAcknowledgesEveryDeferredWriteThatArrivedDuringThePreviousOne() throws Exception {
    OmContext ctx = gated();
    long syncsBefore = ctx.committer().syncCount();
    CompletableFuture<String> first = ctx.deferringDurability(() -> put(ctx, "test/first"));
    assertTrue(syncing.await(WAIT, TimeUnit.SECONDS));
    List<CompletableFuture<String>> later = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      String key = "test/later" + i;
      later.add(ctx.deferringDurability(() -> put(ctx, key)));
    }
    for (CompletableFuture<String> f : later) {
      assertFalse(f.isDone(), "acknowledged before any sync covering it");
    }
    release.countDown();
    assertEquals("test/first", first.get(WAIT, TimeUnit.SECONDS));
    for (int i = 0; i < 10; i++) {
      assertEquals("test/later" + i, later.get(i).get(WAIT, TimeUnit.SECONDS));
    }
    assertEquals(2, ctx.committer().syncCount() - syncsBefore,
        "one sync for the first write, one for the ten that waited behind it");
  }

  @Test
  void theFutureCompletesOnTheSyncingThreadNotTheWriters() throws Exception {
    OmContext ctx = gated();
    AtomicReference<Thread> completedOn = new AtomicReference<>();
    CompletableFuture<String> acked = ctx.deferringDurability(() -> put(ctx, "test/a"));
    CompletableFuture<Void> seen = acked.thenRun(() -> completedOn.set(Thread.currentThread()));
    assertTrue(syncing.await(WAIT, TimeUnit.SECONDS));
    release.countDown();
    seen.get(WAIT, TimeUnit.SECONDS);
    assertEquals("wal-sync", completedOn.get().getName());
  }

  @Test
  void aRejectedWriteFailsAtOnceAndSyncsNothing() {
    OmContext ctx = gated();
    long syncsBefore = ctx.committer().syncCount();
    OmException refusal = OmException.invalid("no");
    CompletableFuture<String> acked = ctx.deferringDurability(() -> ctx.write(txn -> {
      throw refusal;
    }));
    assertTrue(acked.isCompletedExceptionally(), "a write that applied nothing waits for nothing");
    ExecutionException e = assertThrows(ExecutionException.class, acked::get);
    assertSame(refusal, e.getCause());
    assertEquals(syncsBefore, ctx.committer().syncCount());
  }

  @Test
  void aBodyFailingAfterAWriteIsAnsweredWithItsFailureOnlyOnceTheWriteIsDurable()
      throws Exception {
    OmContext ctx = gated();
    IllegalStateException late = new IllegalStateException("after the write");
    CompletableFuture<String> acked = ctx.deferringDurability(() -> {
      put(ctx, "test/a");
      throw late;
    });
    assertTrue(syncing.await(WAIT, TimeUnit.SECONDS));
    assertFalse(GatedSync.finishesWithin(acked, 300),
        "answered (with its failure) while the write it made was not yet durable");
    release.countDown();
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> acked.get(WAIT, TimeUnit.SECONDS));
    assertSame(late, e.getCause());
  }

  @Test
  void aFailedSyncFailsTheWaitingFuturesAndALaterWriteIsSyncedAgain() throws Exception {
    AtomicBoolean failNext = new AtomicBoolean(true);
    RuntimeException diskGone = new IllegalStateException("WAL sync failed (test)");
    DBStore failingOnce = (DBStore) Proxy.newProxyInstance(DBStore.class.getClassLoader(),
        new Class<?>[] {DBStore.class}, (proxy, method, args) -> {
          if (method.getName().equals("syncWal") && failNext.getAndSet(false)) {
            throw diskGone;
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    OmContext ctx = new OmContext(failingOnce, OmStoreOptions.defaults());
    CompletableFuture<String> lost = ctx.deferringDurability(() -> put(ctx, "test/a"));
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> lost.get(WAIT, TimeUnit.SECONDS));
    assertSame(diskGone, e.getCause());
    assertEquals("test/b",
        ctx.deferringDurability(() -> put(ctx, "test/b")).get(WAIT, TimeUnit.SECONDS));
  }

  @Test
  void aBlockingWriterReturnsWithoutSyncingForDeferredWritesThatArrivedDuringItsSync()
      throws Exception {
    OmContext ctx = gated();
    Future<String> blocking = pool.submit(() -> put(ctx, "test/blocking"));
    assertTrue(syncing.await(WAIT, TimeUnit.SECONDS), "the blocking write never reached its sync");
    CompletableFuture<String> deferred = ctx.deferringDurability(() -> put(ctx, "test/deferred"));
    AtomicReference<Thread> completedOn = new AtomicReference<>();
    CompletableFuture<Void> seen = deferred.thenRun(() -> completedOn.set(Thread.currentThread()));
    release.countDown();
    assertEquals("test/blocking", blocking.get(WAIT, TimeUnit.SECONDS));
    seen.get(WAIT, TimeUnit.SECONDS);
    assertEquals("wal-sync", completedOn.get().getName(),
        "the deferred write was synced by the syncer, not the blocking writer");
  }

  @Test
  void deferringInsideADeferralIsRefused() {
    OmContext ctx = gated();
    CompletableFuture<Object> outer = ctx.deferringDurability(
        () -> ctx.deferringDurability(() -> "inner"));
    ExecutionException e = assertThrows(ExecutionException.class, outer::get);
    assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
  }

  @Test
  void withoutDurableSyncsTheFutureIsCompleteOnReturn() throws Exception {
    OmContext ctx = new OmContext(GatedSync.holding(real, syncing, release),
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
    CompletableFuture<String> acked = ctx.deferringDurability(() -> put(ctx, "test/a"));
    assertTrue(acked.isDone());
    assertEquals("test/a", acked.get());
    assertEquals(0, ctx.committer().syncCount());
  }
}
