package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.StoreClosedException;
import io.sediment.db.StoreException;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.AbandonedIterators;
import io.sediment.db.managed.NativeTracker;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.testing.ChildJvm;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the close model of {@link DBStore#close()} on real RocksDB: closing a store while other
 * threads are iterating, writing, paging and committing batches never crashes the JVM, makes every
 * worker fail promptly and only with "closed" errors ({@link StoreClosedException},
 * {@link IllegalStateException}, or a {@link StoreException} saying closed), and frees every native object the store created,
 * including iterators its users never closed. Close waits for an iterator whose owner closes it
 * within the grace, and force-closes one left open past it (natives and pooled buffers, recorded
 * as abandoned), whose later use throws {@link StoreClosedException}.
 *
 * <p>The scenarios that could crash the JVM (use of freed native memory) run in a child JVM
 * ({@link MidFlightRounds}, {@link BatchAfterClose}), so that a crash is a failed assertion with
 * the child's output and {@code hs_err} summary instead of a dead test fork.
 */
class ConcurrentCloseTest {

  private static final int ROUNDS = 20;
  private static final int WORKERS = 4;
  private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(1);

  @TempDir
  Path dir;

  private static DBStore open(Path path, Duration closeTimeout) {
    return DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(path)
        .setProfile(TestStores.smallProfile()).setCloseTimeout(closeTimeout).build();
  }

  /** What a worker saw: the exception that ended it, and whether close had begun by then. */
  private record Failure(int worker, Throwable error, boolean afterClose) {
  }

  private static boolean isClosedError(Throwable t) {
    boolean ok = t instanceof IllegalStateException
        || (t instanceof StoreException && t.getMessage() != null
            && t.getMessage().toLowerCase().contains("closed"));
    for (Throwable s : t.getSuppressed()) {
      ok &= isClosedError(s);
    }
    return ok;
  }

  /** One worker's endless mix of operations on its own key range; ends only by an exception. */
  private static void work(int w, RDBStore store, CountDownLatch warm, AtomicLong ops) {
    RDBTable bytes = store.getTable(TestStores.BYTES.name());
    TypedTable<String, String> strings = store.getTable(TestStores.STRINGS);
    byte[] prefix = b("w" + w + "/");
    byte[] upper = b("w" + w + "0");
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    boolean counted = false;
    for (long i = 0; ; i++) {
      try (RDBStoreByteArrayIterator it = bytes.iterator(prefix, IteratorType.KEY_AND_VALUE)) {
        int n = 0;
        while (it.hasNext() && n++ < 40) {
          it.next();
        }
        if (i % 7 == 0 && n > 0) {
          it.removeFromDB();
        }
      }
      try (RDBStoreCodecBufferIterator it =
          bytes.codecBufferIterator(prefix, upper, IteratorType.KEY_AND_VALUE);
          CodecBuffer target = CodecBuffer.copyOf(b("w" + w + "/" + rnd.nextInt(100)))) {
        KeyValue<CodecBuffer, CodecBuffer> kv = it.seek(target);
        int n = 0;
        while (kv != null && it.hasNext() && n++ < 20) {
          it.next().getKey().getArray();
        }
      }
      try (TableIterator<String, KeyValue<String, String>> it = strings.iterator("s" + w + "/")) {
        it.seekToLast();
        if (it.hasNext()) {
          it.next();
        }
      }
      bytes.put(b("w" + w + "/" + (i % 100)), b("v" + i));
      bytes.delete(b("w" + w + "/" + ((i + 50) % 100)));
      strings.put("s" + w + "/" + (i % 50), "v" + i);
      strings.delete("s" + w + "/" + ((i + 25) % 50));
      bytes.get(b("w" + w + "/" + (i % 100)));
      strings.get("s" + w + "/" + (i % 50));
      bytes.getRangeKVs(null, 10, prefix);
      strings.getRangeKVs(null, 5, "s" + w + "/");
      try (BatchOperation batch = store.initBatchOperation()) {
        bytes.putWithBatch(batch, b("w" + w + "/b" + (i % 10)), b("batch" + i));
        strings.putWithBatch(batch, "s" + w + "/b" + (i % 10), "batch" + i);
        bytes.deleteWithBatch(batch, b("w" + w + "/" + ((i + 3) % 100)));
        batch.commit();
      }
      ops.incrementAndGet();
      if (!counted) {
        counted = true;
        warm.countDown();
      }
    }
  }

  @Test
  void closingMidFlightNeverCrashesFailsWorkersOnlyWithClosedErrorsAndFreesEveryNativeObject()
      throws Exception {
    ChildJvm.Run run = ChildJvm.run(MidFlightRounds.class, dir.resolve("rounds"),
        Duration.ofSeconds(180));
    assertEquals(0, run.exitCode(), run.describe());
    assertTrue(run.output().contains("rounds passed: " + ROUNDS), run.describe());
  }

  /** The same, 500 rounds: a soak run of the long suite ({@code mvn verify -Plong}). */
  @Test
  @org.junit.jupiter.api.Tag("long")
  void closingMidFlightSoakOfFiveHundredRounds() throws Exception {
    ChildJvm.Run run = ChildJvm.run(MidFlightRounds.class, dir.resolve("soak"),
        Duration.ofMinutes(30), "500");
    assertEquals(0, run.exitCode(), run.describe());
    assertTrue(run.output().contains("rounds passed: 500"), run.describe());
  }

  @Test
  void addingToABatchAfterItsStoreClosedThrowsInsteadOfCrashing() throws Exception {
    ChildJvm.Run run = ChildJvm.run(BatchAfterClose.class, dir.resolve("batch"),
        Duration.ofSeconds(120));
    assertEquals(0, run.exitCode(), run.describe());
    assertTrue(run.output().contains("all batch operations after close threw"), run.describe());
  }

  /**
   * Child JVM: {@link #ROUNDS} rounds of {@link #WORKERS} workers running a mix of iterators,
   * writes, pages and batches while the main thread closes the store; exits 0 only if every
   * assertion of every round held.
   */
  static final class MidFlightRounds {
    public static void main(String[] args) {
      int rounds = args.length > 1 ? Integer.parseInt(args[1]) : ROUNDS;
      ChildJvm.main(() -> {
        for (int round = 0; round < rounds; round++) {
          closeMidFlight(Path.of(args[0]), round);
        }
      }, "rounds passed: " + rounds);
    }
  }

  /**
   * Child JVM: a batch created while the store was open and written to after it closed must throw
   * {@link IllegalStateException} (the store's column family handles are freed by then); prints a
   * marker and exits 0 only then.
   */
  static final class BatchAfterClose {
    public static void main(String[] args) {
      ChildJvm.main(() -> {
        int nativesBefore = NativeTracker.REGISTRY.liveCount();
        RDBStore store = (RDBStore) open(Path.of(args[0]).resolve("db"), SHORT_TIMEOUT);
        RDBTable bytes = store.getTable(TestStores.BYTES.name());
        TypedTable<String, String> strings = store.getTable(TestStores.STRINGS);
        BatchOperation batch = store.initBatchOperation();
        bytes.putWithBatch(batch, b("before"), b("close"));
        store.close();
        List<String> ops = List.of("byte[] put", "byte[] delete", "byte[] deleteRange",
            "typed put", "typed delete", "commit");
        for (String op : ops) {
          System.out.println("trying " + op + " on a batch of a closed store");
          System.out.flush();
          StoreClosedException e = assertThrows(StoreClosedException.class, () -> {
            switch (op) {
              case "byte[] put" -> bytes.putWithBatch(batch, b("k"), b("v"));
              case "byte[] delete" -> bytes.deleteWithBatch(batch, b("k"));
              case "byte[] deleteRange" -> bytes.deleteRangeWithBatch(batch, b("a"), b("b"));
              case "typed put" -> strings.putWithBatch(batch, "k", "v");
              case "typed delete" -> strings.deleteWithBatch(batch, "k");
              default -> batch.commit();
            }
          }, op + " after close");
          System.out.println("  threw " + e);
        }
        batch.close();
        assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount());
        assertEquals(0, CodecBuffer.LEAKS.liveCount());
      }, "all batch operations after close threw");
    }
  }

  private static void closeMidFlight(Path work, int round) throws Exception {
    int nativesBefore = NativeTracker.REGISTRY.liveCount();
    int buffersBefore = CodecBuffer.LEAKS.liveCount();
    RDBStore store = (RDBStore) open(work.resolve("round" + round), SHORT_TIMEOUT);
    RDBTable bytes = store.getTable(TestStores.BYTES.name());
    for (int w = 0; w < WORKERS; w++) {
      for (int i = 0; i < 100; i++) {
        bytes.put(b("w" + w + "/" + i), b("seed" + i));
      }
    }

    AtomicBoolean closing = new AtomicBoolean();
    List<Failure> failures = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch warm = new CountDownLatch(WORKERS);
    AtomicLong ops = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      int id = w;
      Thread t = new Thread(() -> {
        try {
          work(id, store, warm, ops);
        } catch (Throwable e) {
          failures.add(new Failure(id, e, closing.get()));
        } finally {
          warm.countDown();
        }
      }, "close-round" + round + "-worker" + w);
      t.setDaemon(true);
      workers.add(t);
    }
    workers.forEach(Thread::start);
    try {
      assertTrue(warm.await(30, TimeUnit.SECONDS), "workers did not get going");
      Thread.sleep(ThreadLocalRandom.current().nextInt(1, 25));

      closing.set(true);
      long t0 = System.nanoTime();
      store.close();
      long closeMs = (System.nanoTime() - t0) / 1_000_000;
      int nativesAfterClose = NativeTracker.REGISTRY.liveCount();

      long stopDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      for (Thread t : workers) {
        t.join(Math.max(1, (stopDeadline - System.nanoTime()) / 1_000_000));
        assertFalse(t.isAlive(), t.getName() + " did not stop by itself within 5 s of close");
      }

      assertTrue(closeMs < SHORT_TIMEOUT.toMillis() + 3_000,
          "round " + round + ": close took " + closeMs + " ms");
      assertEquals(WORKERS, failures.size(),
          "round " + round + ": every worker ends with exactly one exception: " + failures);
      for (Failure f : failures) {
        if (!f.afterClose() || !isClosedError(f.error())) {
          AssertionError e = new AssertionError("round " + round + ", worker " + f.worker()
              + (f.afterClose() ? " failed after close" : " failed BEFORE close")
              + " with an error other than 'closed': " + f.error());
          e.initCause(f.error());
          throw e;
        }
      }
      // Right after close only write batches still held by workers (at most one each) may live;
      // every iterator, handle and option of the store is gone.
      assertTrue(nativesAfterClose - nativesBefore <= WORKERS, "round " + round + ": "
          + (nativesAfterClose - nativesBefore) + " native objects alive right after close: "
          + NativeTracker.REGISTRY.leakedSince(java.util.Set.of()));
      assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount(),
          "round " + round + ": native objects alive after close and worker exit");
      assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount(),
          "round " + round + ": CodecBuffers alive after close and worker exit");
      assertTrue(ops.get() >= WORKERS, "workers did real work before close");
      System.out.println("round " + round + " passed: " + ops.get() + " loops, close took "
          + closeMs + " ms, workers ended with " + failures.stream()
              .map(f -> f.error().getClass().getSimpleName()).toList());
    } finally {
      store.close();
      for (Thread t : workers) {
        t.join(5_000);
      }
    }
  }

  @Test
  void closeWaitsForAnIteratorThatItsOwnerClosesWithinTheGrace() throws Exception {
    int nativesBefore = NativeTracker.REGISTRY.liveCount();
    long mark = AbandonedIterators.mark();
    Duration timeout = Duration.ofSeconds(10);
    DBStore store = open(dir.resolve("wait"), timeout);
    RDBTable bytes = (RDBTable) store.getTable(TestStores.BYTES.name());
    bytes.put(b("a"), b("1"));
    bytes.put(b("b"), b("2"));
    TableIterator<byte[], KeyValue<byte[], byte[]>> it = bytes.iterator();
    assertEquals("a", new String(it.next().getKey(), StandardCharsets.UTF_8));

    // The owner keeps using its iterator: its first call after close began fails, and it then
    // closes the iterator, as a try-with-resources does.
    CountDownLatch using = new CountDownLatch(1);
    AtomicLong ownerClosedAt = new AtomicLong();
    Thread owner = new Thread(() -> {
      try {
        while (true) {
          it.seekToFirst();
          it.hasNext();
          using.countDown();
        }
      } catch (StoreClosedException closed) {
        ownerClosedAt.set(System.nanoTime());
        it.close();
      }
    }, "iterator-owner");
    owner.start();
    assertTrue(using.await(30, TimeUnit.SECONDS));

    long t0 = System.nanoTime();
    store.close();
    long closedAt = System.nanoTime();
    owner.join(5_000);

    assertTrue(ownerClosedAt.get() != 0 && closedAt > ownerClosedAt.get(),
        "close must return only after the owner closed its iterator");
    long waitedMs = (closedAt - t0) / 1_000_000;
    assertTrue(waitedMs < timeout.toMillis() - 2_000,
        "close must stop waiting once the iterator is closed, not run to the timeout: " + waitedMs);
    assertEquals(0, AbandonedIterators.acknowledgeSince(mark), "its owner closed it, not the store");
    assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount());
    assertThrows(IllegalStateException.class, it::hasNext);
  }

  @Test
  void closeForceClosesIteratorsLeftOpenPastTheGraceAndTheirLaterUseThrows() {
    int nativesBefore = NativeTracker.REGISTRY.liveCount();
    int buffersBefore = CodecBuffer.LEAKS.liveCount();
    long mark = AbandonedIterators.mark();
    Duration timeout = Duration.ofMillis(300);
    Duration grace = RocksDatabase.ITERATOR_CLOSE_GRACE;
    RDBStore store = (RDBStore) open(dir.resolve("force"), timeout);
    RDBTable bytes = store.getTable(TestStores.BYTES.name());
    TypedTable<String, String> strings = store.getTable(TestStores.STRINGS);
    for (int i = 0; i < 10; i++) {
      bytes.put(b("k" + i), b("v" + i));
      strings.put("s" + i, "v" + i);
    }
    RDBStoreByteArrayIterator raw = bytes.iterator(null, IteratorType.KEY_AND_VALUE);
    RDBStoreCodecBufferIterator zeroCopy =
        bytes.codecBufferIterator(null, null, IteratorType.KEY_AND_VALUE);
    TableIterator<String, KeyValue<String, String>> typed = strings.iterator();
    assertEquals("k0", new String(raw.next().getKey(), StandardCharsets.UTF_8));
    assertEquals("k0", new String(zeroCopy.next().getKey().getArray(), StandardCharsets.UTF_8));
    assertEquals("s0", typed.next().getKey());
    assertEquals(3, store.database().openIteratorCount());

    long t0 = System.nanoTime();
    store.close();
    long waitedMs = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(waitedMs >= grace.toMillis() - 20, "close waited only " + waitedMs + " ms");
    assertTrue(waitedMs < grace.toMillis() + 3_000, "close took " + waitedMs + " ms");
    assertEquals(0, store.database().openIteratorCount());
    assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount(),
        "the store must free the natives of iterators left open: "
            + NativeTracker.REGISTRY.leakedSince(java.util.Set.of()));
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount(),
        "and the pooled buffers of the zero-copy and typed iterators");
    assertEquals(3, AbandonedIterators.acknowledgeSince(mark), "the store closed all three");

    assertThrows(StoreClosedException.class, raw::hasNext);
    assertThrows(StoreClosedException.class, raw::next);
    assertThrows(StoreClosedException.class, raw::seekToFirst);
    assertThrows(StoreClosedException.class, raw::seekToLast);
    assertThrows(StoreClosedException.class, () -> raw.seek(b("k5")));
    assertThrows(StoreClosedException.class, raw::removeFromDB);
    assertThrows(StoreClosedException.class, zeroCopy::hasNext);
    try (CodecBuffer target = CodecBuffer.copyOf(b("k5"))) {
      assertThrows(StoreClosedException.class, () -> zeroCopy.seek(target));
    }
    assertThrows(StoreClosedException.class, typed::hasNext);
    assertThrows(StoreClosedException.class, () -> typed.seek("s5"));
    assertThrows(StoreClosedException.class, () -> bytes.get(b("k1")));
    assertThrows(StoreClosedException.class, () -> strings.put("x", "y"));
    assertThrows(StoreClosedException.class, () -> store.getTable(TestStores.BYTES.name()));

    // Closing them afterwards is harmless and releases nothing twice.
    raw.close();
    zeroCopy.close();
    typed.close();
    assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount());
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount());
  }
}
