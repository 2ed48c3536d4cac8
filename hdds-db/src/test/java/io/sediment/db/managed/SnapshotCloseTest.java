package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.rdb.RDBStore;
import io.sediment.db.testing.ChildJvm;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
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

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

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
      Thread.sleep(200);
      assertFalse(closing.isDone(), "close returned while a read of the snapshot was running");
      assertThrows(IllegalStateException.class, () -> db.get(cf, b("k"), snapshot),
          "a read starting after the close began is refused");
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
      assertEquals(0, db.openSnapshots());
      assertArrayEquals(b("new"), db.get(cf, b("k")));
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
    assertTrue(run.output().contains("snapshot race passed"), run.describe());
  }

  /** Child JVM of {@link #readersRacingASnapshotCloseSeeTheSnapshotOrAClosedError}. */
  static final class SnapshotRace {
    public static void main(String[] args) {
      ChildJvm.main(() -> race(Path.of(args[0]).resolve("db")), "snapshot race passed");
    }
  }

  private static void race(Path dir) throws Exception {
    try (DBStore store = TestStores.open(dir)) {
      RocksDatabase db = ((RDBStore) store).database();
      ColumnFamily cf = db.columnFamily(TestStores.BYTES.name());
      db.put(cf, b("k"), b("v0"));
      AtomicReference<ManagedSnapshot> current = new AtomicReference<>();
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong reads = new AtomicLong();
      List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        int id = r;
        Thread t = new Thread(() -> {
          while (!stop.get()) {
            ManagedSnapshot s = current.get();
            if (s == null) {
              continue;
            }
            try {
              byte[] seen = db.get(cf, b("k"), s);
              byte[] missing = db.get(cf, b("absent"), s);
              assertTrue(seen != null && new String(seen, StandardCharsets.UTF_8).startsWith("v"));
              assertNull(missing);
              try (ManagedRocksIterator it = db.newIterator(cf, b("k"), b("l"), false, s)) {
                it.seekToFirst();
                assertTrue(it.isValid());
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
      try {
        for (int round = 1; round <= 300; round++) {
          ManagedSnapshot s = db.newSnapshot();
          current.set(s);
          db.put(cf, b("k"), b("v" + round));
          // Close while reads are running: after the readers have used this snapshot at least
          // once (or 50 ms), plus a random sliver, so the close lands at varied points of a read.
          long before = reads.get();
          long deadline = System.nanoTime() + 50_000_000L;
          while (reads.get() == before && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
          }
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
      assertTrue(reads.get() >= 300, "readers did real work: " + reads.get() + " reads");
      System.out.println(reads.get() + " reads through 300 snapshots closed under them");
      assertEquals(0, db.openSnapshots());
      assertEquals(0, db.openIteratorCount());
    }
  }
}
