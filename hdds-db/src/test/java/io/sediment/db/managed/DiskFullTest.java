package io.sediment.db.managed;

import static io.sediment.db.testing.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.StoreOutOfSpaceException;
import io.sediment.db.Table;
import io.sediment.db.testing.LogCapture;
import io.sediment.db.testing.TestStores;
import io.sediment.db.testing.TmpfsMount;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store on a file system that fills up, for real (a small tmpfs; skipped where mounting is not
 * permitted): writes are refused with {@link StoreOutOfSpaceException} naming the directory and
 * the free space needed, reads keep working, the store says it is out of space (one WARN, one
 * INFO, listeners), writes resume by themselves once the largest memtable size is free and not
 * before, and every acknowledged write survives a close and reopen.
 */
class DiskFullTest {

  /** TestStores.smallProfile(): 1 MiB memtables, so RocksDB resumes at 1 MiB free. */
  private static final long RESUME_BYTES = 1L << 20;
  private static final byte[] VALUE = new byte[1000];

  @TempDir Path dir;

  @Test
  void writesAreRefusedWhileTheDiskIsFullAndResumeByThemselvesOnceTheLargestMemtableFits()
      throws Exception {
    try (TmpfsMount fs = TmpfsMount.mount(dir.resolve("fs"), 16L << 20);
        LogCapture log = LogCapture.of(OutOfSpaceWatch.class)) {
      Path storeDir = fs.path().resolve("store");
      Path ballast = fs.path().resolve("ballast");
      // RocksDB preallocates 1.1 memtables for each new WAL and ignores a preallocation that
      // fails: leaving less than that free makes the WAL fill after a few writes.
      TmpfsMount.grow(ballast, fs.usableSpace() - (512 << 10));
      Map<String, String> acked = new TreeMap<>();
      AtomicInteger changes = new AtomicInteger();
      DBStore store = TestStores.open(storeDir);
      try {
        Runnable unregister = store.addOutOfSpaceListener(changes::incrementAndGet);
        Table<String, String> strings = store.getTable(TestStores.STRINGS);
        for (int i = 0; i < 50; i++) {
          put(store, strings, acked, i);
        }
        TmpfsMount.fill(ballast);

        StoreOutOfSpaceException refused = null;
        int i = 50;
        for (; i < 20_000 && refused == null; i++) {
          try {
            put(store, strings, acked, i);
          } catch (StoreOutOfSpaceException e) {
            refused = e;
          }
        }
        assertNotNull(refused, "20,000 writes of 1 KB fit on a full 16 MiB file system");
        assertEquals(storeDir, refused.directory());
        assertEquals(RESUME_BYTES, refused.requiredFreeBytes());
        assertTrue(refused.getMessage().contains("out of disk space in " + storeDir)
            && refused.getMessage().contains("at least 1048576 bytes"), refused.getMessage());
        assertTrue(store.isOutOfSpace());
        assertEquals(1, changes.get());

        // Reads keep working: point gets and iteration.
        for (Map.Entry<String, String> e : acked.entrySet()) {
          assertEquals(e.getValue(), strings.get(e.getKey()));
        }
        try (var it = strings.iterator()) {
          int n = 0;
          while (it.hasNext()) {
            it.next();
            n++;
          }
          assertTrue(n >= acked.size());
        }

        // Below the threshold RocksDB does not resume, however long it polls (every 5 s).
        try (RandomAccessFile f = new RandomAccessFile(ballast.toFile(), "rw")) {
          f.setLength(f.length() - RESUME_BYTES / 2);
        }
        Thread.sleep(6_500);
        int next = i;
        assertThrows(StoreOutOfSpaceException.class, () -> put(store, strings, acked, next));
        assertTrue(store.isOutOfSpace());

        // Once the ballast is gone, writes resume by themselves, without a reopen.
        Files.delete(ballast);
        long start = System.nanoTime();
        waitFor(() -> {
          try {
            put(store, strings, acked, next);
            return true;
          } catch (StoreOutOfSpaceException e) {
            return false;
          }
        }, 20_000, "writes to resume");
        long resumedMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(resumedMillis < 15_000, "resumed after " + resumedMillis + " ms");
        waitFor(() -> !store.isOutOfSpace(), 5_000, "the store to say it recovered");
        assertEquals(2, changes.get());
        for (int j = next + 1; j < next + 100; j++) {
          put(store, strings, acked, j);
        }
        unregister.run();

        assertEquals(1, log.messages(Level.WARN).size(), () -> log.messages(Level.WARN).toString());
        assertEquals(1, log.messages(Level.INFO).size(), () -> log.messages(Level.INFO).toString());
      } finally {
        store.close();
      }

      try (DBStore reopened = TestStores.open(storeDir)) {
        Table<String, String> strings = reopened.getTable(TestStores.STRINGS);
        List<String> lost = acked.entrySet().stream()
            .filter(e -> !e.getValue().equals(strings.get(e.getKey()))).map(Map.Entry::getKey)
            .toList();
        assertEquals(List.of(), lost, "acknowledged writes lost of " + acked.size());
        assertFalse(reopened.isOutOfSpace());
      }
    }
  }

  @Test
  void aStoreClosedWhileTheDiskIsFullReopensWithEveryAcknowledgedWrite() throws Exception {
    try (TmpfsMount fs = TmpfsMount.mount(dir.resolve("fs"), 16L << 20)) {
      Path storeDir = fs.path().resolve("store");
      Path ballast = fs.path().resolve("ballast");
      TmpfsMount.grow(ballast, fs.usableSpace() - (512 << 10));
      Map<String, String> acked = new TreeMap<>();
      try (DBStore store = TestStores.open(storeDir)) {
        Table<String, String> strings = store.getTable(TestStores.STRINGS);
        for (int i = 0; i < 50; i++) {
          put(store, strings, acked, i);
        }
        TmpfsMount.fill(ballast);
        boolean refused = false;
        for (int i = 50; i < 20_000 && !refused; i++) {
          try {
            put(store, strings, acked, i);
          } catch (StoreOutOfSpaceException e) {
            refused = true;
          }
        }
        assertTrue(refused);
        assertTrue(store.isOutOfSpace());
      }
      // The last WAL now ends in the record whose append failed: a torn tail, as after a crash.
      Files.delete(ballast);
      try (DBStore reopened = TestStores.open(storeDir)) {
        Table<String, String> strings = reopened.getTable(TestStores.STRINGS);
        List<String> lost = acked.entrySet().stream()
            .filter(e -> !e.getValue().equals(strings.get(e.getKey()))).map(Map.Entry::getKey)
            .toList();
        assertEquals(List.of(), lost, "acknowledged writes lost of " + acked.size());
        put(reopened, strings, acked, 1_000_000);
      }
    }
  }

  /** One durable write (a batch, then a WAL sync), recorded once acknowledged. */
  private static void put(DBStore store, Table<String, String> table, Map<String, String> acked,
      int i) {
    String key = String.format("key-%06d", i);
    String value = "v" + i + new String(VALUE);
    try (BatchOperation batch = store.initBatchOperation()) {
      table.putWithBatch(batch, key, value);
      batch.commit();
    }
    store.syncWal();
    acked.put(key, value);
  }
}
