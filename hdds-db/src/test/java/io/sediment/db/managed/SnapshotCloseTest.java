package io.sediment.db.managed;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.StoreException;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.testing.ChildJvm;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a {@link ManagedSnapshot} never frees it under a read: the close waits for reads the
 * snapshot has admitted, reads that start after it throw {@link IllegalStateException}, and
 * readers racing the close see either the snapshot's value or that exception.
 */
class SnapshotCloseTest {

  private static final int ROUNDS = 300;

  @TempDir Path dir;

  @Test
  void closeWaitsForAnAdmittedReadThenLaterReadsThrow() throws Exception {
    try (DBStore store = TestStores.open(dir)) {
      RocksDatabase db = ((RDBStore) store).database();
      ColumnFamily cf = db.columnFamily(TestStores.BYTES.name());
      db.put(cf, b("k"), b("old"));
      ManagedSnapshot snapshot = db.newSnapshot();
      db.put(cf, b("k"), b("new"));

      snapshot.enter(); // a read in flight
      CompletableFuture<Void> closing = CompletableFuture.runAsync(snapshot::close);
      // Once the close has begun, new reads are refused ...
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (true) {
        try {
          assertArrayEquals(b("old"), db.get(cf, b("k"), snapshot));
        } catch (IllegalStateException refused) {
          break;
        }
        assertTrue(System.nanoTime() - deadline < 0, "close did not begin within 10 s");
        Thread.sleep(1);
      }
      // ... but the close waits for the read admitted before it.
      Thread.sleep(100);
      assertFalse(closing.isDone(), "close returned while a read of the snapshot was running");
      snapshot.exit();
      closing.get(10, TimeUnit.SECONDS);

      assertThrows(IllegalStateException.class, () -> db.get(cf, b("k"), snapshot));
      assertThrows(IllegalStateException.class, () -> db.keyMayExist(cf, b("k"), snapshot));
      assertThrows(IllegalStateException.class, snapshot::sequenceNumber);
      assertThrows(IllegalStateException.class,
          () -> db.newIterator(cf, b("a"), b("z"), false, snapshot));
      assertThrows(IllegalStateException.class,
          () -> db.newIterator(cf, null, null, false, snapshot));
      assertEquals(0, db.openIteratorCount(), "a refused iterator is not left open");
      assertEquals(0, db.introspection().openSnapshots());
      assertArrayEquals(b("new"), db.get(cf, b("k")));
    }
  }

  @Test
  void aCloseThatTimesOutLeavesTheSnapshotForALaterCloseToRelease() {
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(TestStores.smallProfile()).setCloseTimeout(Duration.ofMillis(50)).build()) {
      RocksDatabase db = ((RDBStore) store).database();
      ColumnFamily cf = db.columnFamily(TestStores.BYTES.name());
      ManagedSnapshot snapshot = db.newSnapshot();
      snapshot.enter(); // a read that outlasts the close timeout
      StoreException e = assertThrows(StoreException.class, snapshot::close);
      assertTrue(e.getMessage().contains("not released yet"), e.getMessage());
      assertEquals(1, db.introspection().openSnapshots(), "still held");
      assertThrows(IllegalStateException.class, () -> db.get(cf, b("k"), snapshot),
          "but refusing new reads");
      snapshot.exit();
      snapshot.close();
      assertEquals(0, db.introspection().openSnapshots(), "the second close released it");
      snapshot.close(); // idempotent
    }
  }

  /**
   * Two readers read through the current snapshot (point gets, a bounded iterator, its sequence
   * number) while the main thread takes and closes 300 snapshots under them. Runs in a child JVM:
   * without the snapshot's guard this crashes the JVM.
   */
  @Test
  void readersRacingASnapshotCloseSeeTheSnapshotOrAClosedError() throws Exception {
    ChildJvm.Run run = ChildJvm.run(SnapshotRace.class, dir.resolve("race"), Duration.ofSeconds(120));
    assertEquals(0, run.exitCode(), run.describe());
    assertTrue(run.output().contains("snapshot race passed: " + ROUNDS), run.describe());
  }

  /** The same, 10,000 snapshots: a soak run of the long suite ({@code dev-support/bin/check --long}). */
  @Test
  @org.junit.jupiter.api.Tag("long")
  void readersRacingTenThousandSnapshotClosesSoak() throws Exception {
    ChildJvm.Run run = ChildJvm.run(SnapshotRace.class, dir.resolve("soak"), Duration.ofMinutes(20),
        "10000");
    assertEquals(0, run.exitCode(), run.describe());
    assertTrue(run.output().contains("snapshot race passed: 10000"), run.describe());
  }

  /** Child JVM of the race tests: work directory, then the number of snapshots (default 300). */
  static final class SnapshotRace {
    public static void main(String[] args) {
      int rounds = args.length > 1 ? Integer.parseInt(args[1]) : ROUNDS;
      ChildJvm.main(() -> race(Path.of(args[0]).resolve("db"), rounds),
          "snapshot race passed: " + rounds);
    }
  }

  private static void race(Path dir, int rounds) throws Exception {
    try (DBStore store = TestStores.open(dir)) {
      RocksDatabase db = ((RDBStore) store).database();
      ColumnFamily cf = db.columnFamily(TestStores.BYTES.name());
      db.put(cf, b("k"), b("v0"));
      // The snapshot the readers use, and the value it must show: the one written before it.
      record Current(ManagedSnapshot snapshot, String value) {
      }
      AtomicReference<Current> current = new AtomicReference<>();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong reads = new AtomicLong();
      List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        int id = r;
        Thread t = new Thread(() -> {
          while (!stop.get()) {
            Current c = current.get();
            if (c == null) {
              continue;
            }
            ManagedSnapshot s = c.snapshot();
            try {
              assertArrayEquals(b(c.value()), db.get(cf, b("k"), s));
              assertNull(db.get(cf, b("absent"), s));
              try (ManagedRocksIterator it = db.newIterator(cf, b("k"), b("l"), false, s)) {
                it.seekToFirst();
                assertTrue(it.isValid());
                assertArrayEquals(b(c.value()), it.value());
              }
              if (id == 0) {
                s.sequenceNumber();
              }
              reads.incrementAndGet();
            } catch (IllegalStateException closed) {
              // the snapshot was closed: the only failure allowed
            } catch (Throwable e) {
              failures.add(e);
              return;
            }
          }
        }, "snapshot-reader-" + r);
        readers.add(t);
        t.start();
      }
      int roundsRead = 0;
      try {
        for (int round = 1; round <= rounds; round++) {
          ManagedSnapshot s = db.newSnapshot();
          current.set(new Current(s, "v" + (round - 1)));
          db.put(cf, b("k"), b("v" + round));
          // Close while reads are running: after the readers have used this snapshot at least
          // once (or 5 s), plus a random sliver, so the close lands at varied points of a read.
          long before = reads.get();
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
          while (reads.get() == before && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
          }
          roundsRead += reads.get() > before ? 1 : 0;
          LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(50_000));
          s.close();
        }
      } finally {
        stop.set(true);
        for (Thread t : readers) {
          t.join(10_000);
        }
      }
      assertEquals(List.of(), failures);
      assertEquals(rounds, roundsRead, "every snapshot was read before its close");
      System.out.println(reads.get() + " reads through " + rounds + " snapshots closed under them");
      assertEquals(0, db.introspection().openSnapshots());
      assertEquals(0, db.openIteratorCount());
    }
  }
}
