package io.sediment.db.rdb;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.StoreClosedException;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.diagnostics.LeakRegistry;
import io.sediment.db.managed.AbandonedIterators;
import io.sediment.db.managed.NativeTracker;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.testing.LeakCheck;
import io.sediment.db.testing.TestStores;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's close and the iterators its owners left open: the close does not wait the close
 * timeout for idle iterators but only {@link RocksDatabase#ITERATOR_CLOSE_GRACE}; it frees every
 * native object and every pooled buffer of the iterators it closes (byte-array, zero-copy and
 * typed alike) before their owners close them, dropping the buffers rather than pooling them so
 * that an owner still reading an entry never sees another user's bytes; each iterator it closes is
 * recorded in {@link AbandonedIterators}, which the test leak check reports even when the owner
 * closes the iterator afterwards; an owner that closes its iterator within the grace is waited
 * for and not recorded.
 */
class AbandonedIteratorsTest {

  /** The default close timeout, which a close with idle iterators used to wait out in full. */
  private static final Duration TIMEOUT = DBStoreBuilder.DEFAULT_CLOSE_TIMEOUT;

  @TempDir
  Path dir;
  private RDBStore store;
  private RDBTable bytes;
  private TypedTable<String, String> strings;
  private long mark;
  private int nativesBefore;
  private int buffersBefore;

  @BeforeEach
  void open() {
    mark = AbandonedIterators.mark();
    nativesBefore = NativeTracker.REGISTRY.liveCount();
    buffersBefore = CodecBuffer.LEAKS.liveCount();
    store = (RDBStore) DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir)
        .setProfile(TestStores.smallProfile()).setCloseTimeout(TIMEOUT).build();
    bytes = store.getTable(TestStores.BYTES.name());
    strings = store.getTable(TestStores.STRINGS);
    for (int i = 0; i < 10; i++) {
      bytes.put(b("k" + i), b("v" + i));
      strings.put("s" + i, "v" + i);
    }
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** One iterator of each kind, positioned and with an entry read, as a caller leaves them. */
  private List<TableIterator<?, ?>> leaveOneOfEachOpen() {
    RDBStoreByteArrayIterator raw = bytes.iterator(null, IteratorType.KEY_AND_VALUE);
    raw.next();
    RDBStoreCodecBufferIterator zeroCopy =
        bytes.codecBufferIterator(null, null, IteratorType.KEY_AND_VALUE);
    zeroCopy.next();
    TableIterator<String, KeyValue<String, String>> typed = strings.iterator("s");
    typed.seek("s3");
    TableIterator<String, KeyValue<String, String>> typedKeys =
        strings.iterator(null, IteratorType.KEY_ONLY);
    typedKeys.next();
    return List.of(raw, zeroCopy, typed, typedKeys);
  }

  @Test
  void closeWithIdleIteratorsLeftOpenTakesTheGraceNotTheCloseTimeout() {
    List<TableIterator<?, ?>> left = leaveOneOfEachOpen();
    long t0 = System.nanoTime();
    store.close();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(ms >= RocksDatabase.ITERATOR_CLOSE_GRACE.toMillis() - 20,
        "close gave owners no grace: " + ms + " ms");
    assertTrue(ms < 2_000, "close waited " + ms + " ms for idle iterators (timeout " + TIMEOUT + ")");
    assertEquals(left.size(), AbandonedIterators.acknowledgeSince(mark));
    left.forEach(TableIterator::close);
  }

  @Test
  void closeFreesEveryNativeObjectAndPooledBufferOfTheIteratorsItClosesBeforeTheirOwnersDo() {
    List<TableIterator<?, ?>> left = leaveOneOfEachOpen();
    assertTrue(CodecBuffer.LEAKS.liveCount() > buffersBefore, "the iterators hold pooled buffers");
    store.close();
    assertEquals(0, store.database().openIteratorCount());
    assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount(), "natives of the iterators");
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount(),
        "the zero-copy and typed iterators' pooled buffers, before their owners close them");
    for (TableIterator<?, ?> it : left) {
      assertThrows(StoreClosedException.class, it::hasNext);
      it.close();
      it.close();
    }
    assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount(), "no double free");
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount(), "no double release");
    assertEquals(left.size(), AbandonedIterators.acknowledgeSince(mark));
  }

  @Test
  void anEntryAnOwnerStillHoldsIsNeitherReusedNorReadableAfterTheStoreClosedItsIterator() {
    RDBStoreCodecBufferIterator it =
        bytes.codecBufferIterator(null, null, IteratorType.KEY_AND_VALUE);
    KeyValue<CodecBuffer, CodecBuffer> entry = it.next();
    // What an owner decoding the entry in another thread may be reading when the close runs.
    ByteBuffer keyView = entry.getKey().asReadOnlyByteBuffer();
    ByteBuffer valueView = entry.getValue().asReadOnlyByteBuffer();
    store.close();
    assertThrows(IllegalStateException.class, () -> entry.getKey().getArray());
    assertThrows(IllegalStateException.class, () -> entry.getValue().readableBytes());

    // Drain the pool's size classes of both buffers (at most 4 MiB idle each) and overwrite
    // everything it hands out: had the close pooled the buffers, one of these would be them.
    List<CodecBuffer> others = new ArrayList<>();
    try {
      for (int capacity : new int[] {256, 4096}) {
        for (int i = 0; i <= (4 << 20) / capacity; i++) {
          CodecBuffer o = CodecBuffer.allocateDirect(capacity);
          others.add(o);
          o.put(new byte[capacity]);
        }
      }
      assertArrayEquals(b("k0"), copy(keyView), "the key the owner was reading");
      assertArrayEquals(b("v0"), copy(valueView), "the value the owner was reading");
    } finally {
      others.forEach(CodecBuffer::release);
    }
    it.close();
    assertEquals(1, AbandonedIterators.acknowledgeSince(mark));
  }

  private static byte[] copy(ByteBuffer view) {
    byte[] out = new byte[view.remaining()];
    view.duplicate().get(out);
    return out;
  }

  @Test
  void theLeakCheckReportsAnIteratorTheStoreClosedEvenIfItsOwnerClosesItLater() {
    LeakCheck check = LeakCheck.begin();
    RDBStoreByteArrayIterator closedInTime = bytes.iterator(null, IteratorType.KEY_AND_VALUE);
    closedInTime.next();
    closedInTime.close();
    RDBStoreByteArrayIterator leftOpen = bytes.iterator(null, IteratorType.KEY_AND_VALUE);
    leftOpen.next();
    TableIterator<String, KeyValue<String, String>> typedLeftOpen = strings.iterator();
    typedLeftOpen.next();
    assertEquals(0, count(check.report(), "leaked " + AbandonedIterators.REGISTRY.kind()),
        "no iterator is abandoned while the store is open");

    store.close();
    leftOpen.close();
    typedLeftOpen.close();
    String report = check.report();
    assertEquals(2, count(report, "leaked " + AbandonedIterators.REGISTRY.kind()), report);
    assertEquals(0, count(report, "leaked " + NativeTracker.REGISTRY.kind()), report);
    assertEquals(0, count(report, "leaked " + CodecBuffer.LEAKS.kind()), report);
    if (LeakRegistry.detailed()) {
      assertTrue(report.contains("theLeakCheckReportsAnIteratorTheStoreClosedEvenIfItsOwner"),
          "the report names where each iterator was created: " + report);
    }
    assertEquals(2, AbandonedIterators.acknowledgeSince(mark));
    assertEquals("", check.report(), "acknowledged iterators are no longer reported");
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void anOwnerWhoseCallFailsOnTheCloseAndThenClosesItsIteratorIsWaitedForAndNotRecorded()
      throws Exception {
    TableIterator<String, KeyValue<String, String>> it = strings.iterator();
    CountDownLatch iterating = new CountDownLatch(1);
    AtomicLong ownerClosedAt = new AtomicLong();
    AtomicReference<Throwable> ended = new AtomicReference<>();
    Thread owner = new Thread(() -> {
      try {
        while (true) {
          it.seekToFirst();
          while (it.hasNext()) {
            it.next();
          }
          iterating.countDown();
        }
      } catch (Throwable e) {
        ended.set(e);
      } finally {
        ownerClosedAt.set(System.nanoTime());
        it.close();
      }
    }, "iterator-owner");
    owner.start();
    assertTrue(iterating.await(30, TimeUnit.SECONDS));

    store.close();
    long closedAt = System.nanoTime();
    owner.join(5_000);
    assertTrue(ended.get() instanceof StoreClosedException, "owner ended with " + ended.get());
    assertTrue(ownerClosedAt.get() != 0 && closedAt > ownerClosedAt.get(),
        "close returned before the owner closed its iterator");
    assertEquals(0, AbandonedIterators.acknowledgeSince(mark), "closed by its owner in time");
    assertEquals(nativesBefore, NativeTracker.REGISTRY.liveCount());
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount());
  }

  @Test
  void anIteratorCreatedAsTheStoreClosesReleasesItsBuffersToo() {
    // The native iterator exists before the table iterator allocates its buffers: a store close
    // in between must still release them (at once, when the table iterator registers them).
    var nativeIt = store.database().newIterator(
        store.database().columnFamily(TestStores.BYTES.name()), null, null);
    store.close();
    RDBStoreCodecBufferIterator late =
        new RDBStoreCodecBufferIterator(nativeIt, bytes, IteratorType.KEY_AND_VALUE);
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount(), "released as soon as allocated");
    assertThrows(StoreClosedException.class, late::hasNext);
    late.close();
    assertEquals(buffersBefore, CodecBuffer.LEAKS.liveCount());
    assertEquals(1, AbandonedIterators.acknowledgeSince(mark));
  }
}
