package io.sediment.db.tombstone;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LowWatermark}: scans may start at the watermark because no live key of the scope ever
 * sorts below it, with writers and a head purger running concurrently.
 */
class LowWatermarkTest {

  @TempDir Path dir;

  private static byte[] q(int i) {
    return String.format("q/%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static final byte[] START = "q/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] END = "q0".getBytes(StandardCharsets.UTF_8);

  @Test
  void aWriteBelowTheWatermarkLowersItBeforeTheWriteIsVisible() {
    LowWatermark w = new LowWatermark(START, END);
    w.advance(w.beginPurge(), q(100));
    assertArrayEquals(q(100), w.get());
    try (LowWatermark.Write ignored = w.beforeWrite(q(40))) {
      assertArrayEquals(q(40), w.get());
    }
    try (LowWatermark.Write ignored = w.beforeWrite("p".getBytes(StandardCharsets.UTF_8))) {
      assertArrayEquals(q(40), w.get(), "keys outside the scope are ignored");
    }
  }

  @Test
  void advanceStopsAtTheLowestKeyWrittenDuringThePurge() {
    LowWatermark w = new LowWatermark(START, END);
    LowWatermark.Purge p = w.beginPurge();
    try (LowWatermark.Write ignored = w.beforeWrite(q(7))) {
      // applied while the purger was deleting [0, 10)
    }
    assertArrayEquals(q(7), w.advance(p, q(10)));
  }

  @Test
  void beginPurgeWaitsForAWriteInFlight() throws Exception {
    LowWatermark w = new LowWatermark(START, END);
    LowWatermark.Write inFlight = w.beforeWrite(q(5));
    CompletableFuture<LowWatermark.Purge> begun = CompletableFuture.supplyAsync(w::beginPurge);
    assertThrows(TimeoutException.class, () -> begun.get(200, TimeUnit.MILLISECONDS));
    inFlight.close();
    assertTrue(begun.get(5, TimeUnit.SECONDS) != null);
  }

  @Test
  void aSupersededPurgeDoesNotAdvanceAndTheWatermarkNeverLeavesTheScope() {
    LowWatermark w = new LowWatermark(START, END);
    LowWatermark.Purge old = w.beginPurge();
    LowWatermark.Purge current = w.beginPurge();
    assertArrayEquals(START, w.advance(old, q(50)));
    assertArrayEquals(END, w.advance(current, "z".getBytes(StandardCharsets.UTF_8)));
    assertArrayEquals(END, w.advance(w.beginPurge(), q(1)), "never moves down");
    assertThrows(IllegalArgumentException.class, () -> new LowWatermark(END, START));
  }

  @Test
  void theScopeEndsAreCopiesAndAnEmptyScopeIsAllowed() {
    byte[] start = START.clone();
    LowWatermark w = new LowWatermark(start, END);
    start[0] = 'x';
    assertArrayEquals(START, w.scopeStart());
    assertArrayEquals(END, w.scopeEnd());
    w.get()[0] = 'x';
    assertArrayEquals(START, w.get(), "get() hands out a copy");

    LowWatermark empty = new LowWatermark(START, START);
    assertArrayEquals(START, empty.get());
    assertArrayEquals(START, empty.advance(empty.beginPurge(), q(5)), "clamped to the empty scope");
  }

  @Test
  void anOpenEndedScopeTakesEveryKeyFromItsStart() {
    LowWatermark w = new LowWatermark(START, null);
    assertNull(w.scopeEnd());
    byte[] far = "z".getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(far, w.advance(w.beginPurge(), far), "no end to clamp the advance to");

    LowWatermark.Purge p = w.beginPurge();
    byte[] farther = "zz".getBytes(StandardCharsets.UTF_8);
    try (LowWatermark.Write ignored = w.beforeWrite(farther)) {
      // in the scope however high: the advance must stop there
    }
    assertArrayEquals(farther, w.advance(p, "zzz".getBytes(StandardCharsets.UTF_8)));
    try (LowWatermark.Write ignored = w.beforeWrite(q(3))) {
      assertArrayEquals(q(3), w.get(), "a write far below the watermark lowers it");
    }
  }

  /**
   * The scope is {@code [scopeStart, scopeEnd)}: a write at the start is in it and lowers the
   * watermark to the start; a write at the end is outside, recorded nowhere and takes no lock, so a
   * purge may begin while it is open.
   */
  @Test
  void theScopeIncludesItsStartAndExcludesItsEnd() throws Exception {
    LowWatermark w = new LowWatermark(START, END);
    w.advance(w.beginPurge(), q(10));
    try (LowWatermark.Write ignored = w.beforeWrite(START)) {
      assertArrayEquals(START, w.get());
    }

    w.advance(w.beginPurge(), q(20));
    LowWatermark.Purge p = w.beginPurge();
    byte[] lastInScope = q(999_999);
    try (LowWatermark.Write ignored = w.beforeWrite(lastInScope)) {
      // recorded: the advance below stops at it
    }
    assertArrayEquals(lastInScope, w.advance(p, END));

    LowWatermark other = new LowWatermark(START, END);
    LowWatermark.Write atEnd = other.beforeWrite(END);
    try {
      LowWatermark.Purge purge = CompletableFuture.supplyAsync(other::beginPurge)
          .get(2, TimeUnit.SECONDS);
      assertArrayEquals(END, other.advance(purge, END), "the write at the end was not recorded");
    } finally {
      atEnd.close(); // a write outside the scope is closed like any other
    }
  }

  @Test
  void concurrentWritersNeverLeaveALiveKeyBelowTheWatermark() throws Exception {
    try (DBStore store = TestStores.open(dir)) {
      Table<byte[], byte[]> table = store.getTable("bytes");
      LowWatermark w = new LowWatermark(START, END);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong written = new AtomicLong();
      AtomicLong purged = new AtomicLong();
      List<CompletableFuture<Void>> workers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        workers.add(CompletableFuture.runAsync(() -> {
          ThreadLocalRandom r = ThreadLocalRandom.current();
          int next = 0;
          while (!stop.get()) {
            // mostly append at the tail, sometimes write far below the head
            int k = r.nextInt(10) == 0 ? r.nextInt(Math.max(1, next)) : next++;
            byte[] key = q(k);
            try (LowWatermark.Write ignored = w.beforeWrite(key)) {
              table.put(key, key);
            }
            written.incrementAndGet();
          }
        }));
      }
      workers.add(CompletableFuture.runAsync(() -> {
        while (!stop.get()) {
          LowWatermark.Purge p = w.beginPurge();
          List<byte[]> head = new ArrayList<>();
          byte[] deletedBelow = null;
          try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
                   table.rangeIterator(w.get(), END, IteratorType.KEY_ONLY)) {
            while (it.hasNext() && head.size() < 20) {
              head.add(it.next().getKey());
            }
            deletedBelow = it.hasNext() ? it.next().getKey() : null;
          }
          if (deletedBelow == null) {
            continue;
          }
          try (BatchOperation b = store.initBatchOperation()) {
            for (byte[] k : head) {
              table.deleteWithBatch(b, k);
            }
            b.commit();
          }
          purged.addAndGet(head.size());
          w.advance(p, deletedBelow);
        }
      }));
      Thread.sleep(1_500);
      stop.set(true);
      CompletableFuture.allOf(workers.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);

      byte[] mark = w.get();
      List<KeyValue<byte[], byte[]>> below = collect(table, START, mark);
      assertEquals(List.of(), below.stream().map(kv -> Bytes.toDisplayString(kv.getKey())).toList(),
          "live keys below the watermark " + Bytes.toDisplayString(mark));
      assertTrue(purged.get() > 100, "the purger made progress: " + purged.get());
      assertTrue(written.get() > purged.get());
      assertFalse(Bytes.compare(mark, START) == 0, "the watermark moved");
    }
  }

  private static List<KeyValue<byte[], byte[]>> collect(Table<byte[], byte[]> t, byte[] from, byte[] to) {
    List<KeyValue<byte[], byte[]>> out = new ArrayList<>();
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             t.rangeIterator(from, to, IteratorType.KEY_ONLY)) {
      it.forEachRemaining(out::add);
    }
    return out;
  }
}
