package io.sediment.db.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sediment.db.diagnostics.LeakRegistry;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The {@link CodecBuffer} contract: appending writes that grow the buffer and keep its content;
 * copies and read-only views of exactly the readable bytes; equality and hash by content; the
 * RocksDB {@code ByteBuffer} read protocol of {@link CodecBuffer#readFrom} (a re-read after
 * growing whenever a read did not fit); reference counting where a second release, or any
 * use after the last release, throws {@link IllegalStateException}; and the leak registry that
 * lists a buffer until its last release.
 */
class CodecBufferTest {

  private static byte[] seq(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  /** A RocksDB-style source: copies what fits from the destination's position, returns the full size. */
  private static ToIntFunction<ByteBuffer> source(byte[] content, AtomicInteger calls) {
    return dest -> {
      calls.incrementAndGet();
      int n = Math.min(dest.remaining(), content.length);
      dest.put(dest.position(), content, 0, n);
      dest.limit(dest.position() + n);
      return content.length;
    };
  }

  @Test
  void writesAppendAndGrowPastTheInitialCapacityKeepingContent() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(1)) {
      assertEquals(0, b.readableBytes());
      int initial = b.capacity();
      byte[] big = seq(5_000);
      b.put((byte) 1);
      b.put(big);
      assertTrue(b.capacity() >= 5_001, "capacity " + b.capacity());
      assertTrue(b.capacity() > initial);
      assertEquals(5_001, b.readableBytes());
      byte[] all = b.getArray();
      assertEquals(1, all[0]);
      assertArrayEquals(big, java.util.Arrays.copyOfRange(all, 1, all.length));
      b.ensureWritable(2_000_000); // beyond the largest pooled class
      assertTrue(b.capacity() >= 2_005_001);
      assertArrayEquals(all, b.getArray(), "growing keeps content");
    }
  }

  @Test
  void putIntPutLongAndPutByteBufferAreBigEndianAppends() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(2)) {
      ByteBuffer src = ByteBuffer.wrap(new byte[] {9, 10, 11, 12}).position(1).limit(3);
      b.putInt(0x01020304).putLong(0x05060708090A0B0CL).put((byte) 0x0D).put(src);
      assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 10, 11},
          b.getArray());
      assertEquals(1, src.position(), "put(ByteBuffer) does not move the source");
      assertEquals(3, src.limit());
      assertEquals(5, b.get(4));
      assertThrows(IndexOutOfBoundsException.class, () -> b.get(15));
      assertThrows(IndexOutOfBoundsException.class, () -> b.get(-1));
    }
  }

  @Test
  void getArrayIsACopy() {
    try (CodecBuffer b = CodecBuffer.copyOf(new byte[] {1, 2, 3})) {
      byte[] copy = b.getArray();
      copy[0] = 99;
      assertArrayEquals(new byte[] {1, 2, 3}, b.getArray());
    }
  }

  @Test
  void readOnlyViewCoversExactlyTheReadableBytes() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(64)) {
      b.put(new byte[] {4, 5, 6});
      ByteBuffer view = b.asReadOnlyByteBuffer();
      assertTrue(view.isReadOnly());
      assertTrue(view.isDirect());
      assertEquals(0, view.position());
      assertEquals(3, view.limit());
      assertEquals(3, view.remaining());
      byte[] read = new byte[3];
      view.get(read);
      assertArrayEquals(new byte[] {4, 5, 6}, read);
      assertThrows(ReadOnlyBufferException.class, () -> b.asReadOnlyByteBuffer().put((byte) 1));
      b.clear();
      assertEquals(0, b.readableBytes());
      assertEquals(0, b.asReadOnlyByteBuffer().remaining());
      assertTrue(b.capacity() >= 64, "clear keeps capacity");
    }
  }

  @Test
  void startsWithComparesReadableBytesOnly() {
    try (CodecBuffer b = CodecBuffer.copyOf(new byte[] {1, 2, 3, 4});
        CodecBuffer p = CodecBuffer.copyOf(new byte[] {1, 2});
        CodecBuffer q = CodecBuffer.copyOf(new byte[] {1, 3});
        CodecBuffer longer = CodecBuffer.copyOf(new byte[] {1, 2, 3, 4, 5});
        CodecBuffer empty = CodecBuffer.allocateDirect(16)) {
      assertTrue(b.startsWith(p));
      assertTrue(b.startsWith(b));
      assertTrue(b.startsWith(empty));
      assertFalse(b.startsWith(q));
      assertFalse(b.startsWith(longer));
      assertFalse(empty.startsWith(p));
      longer.clear().put(new byte[] {1, 2});
      assertTrue(b.startsWith(longer), "stale bytes beyond the readable ones are ignored");
    }
  }

  @Test
  void equalityAndHashAreByContentNotCapacity() {
    try (CodecBuffer small = CodecBuffer.allocateDirect(1);
        CodecBuffer large = CodecBuffer.allocateDirect(100_000);
        CodecBuffer other = CodecBuffer.copyOf(new byte[] {1, 2, 4})) {
      small.put(new byte[] {1, 2, 3});
      large.put(new byte[] {1, 2, 3, 9}).clear().put(new byte[] {1, 2, 3});
      assertEquals(small, large);
      assertEquals(small.hashCode(), large.hashCode());
      assertNotEquals(small, other);
      assertNotEquals(small, new Object());
      large.put((byte) 0);
      assertNotEquals(small, large, "a longer content differs");
    }
  }

  @Test
  void readFromReadsOnceWhenTheContentFits() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(64)) {
      AtomicInteger calls = new AtomicInteger();
      assertEquals(10, b.readFrom(source(seq(10), calls)));
      assertEquals(1, calls.get());
      assertArrayEquals(seq(10), b.getArray());
    }
  }

  @Test
  void readFromGrowsAndReReadsWhenTheFirstReadWasTooSmall() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(64)) {
      b.put(new byte[] {9, 9, 9});
      AtomicInteger calls = new AtomicInteger();
      byte[] content = seq(1_000);
      assertEquals(1_000, b.readFrom(source(content, calls)));
      assertEquals(2, calls.get(), "one short read, one full re-read");
      assertEquals(1_000, b.readableBytes());
      assertArrayEquals(content, b.getArray(), "content replaced, not appended");
      assertTrue(b.capacity() >= 1_000);
    }
  }

  @Test
  void readFromEachCallSeesAClearedDestination() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(64)) {
      List<int[]> seen = new ArrayList<>();
      b.readFrom(dest -> {
        seen.add(new int[] {dest.position(), dest.limit(), dest.capacity()});
        return 500;
      });
      assertEquals(2, seen.size());
      for (int[] s : seen) {
        assertEquals(0, s[0], "position 0");
        assertEquals(s[2], s[1], "limit is the capacity");
      }
      assertTrue(seen.get(1)[2] >= 500);
    }
  }

  @Test
  void readFromKeepsGrowingWhileTheValueGrowsBetweenReads() {
    try (CodecBuffer b = CodecBuffer.allocateDirect(64)) {
      int[] sizes = {100, 5_000, 70_000, 300}; // another writer replaces the value between reads
      AtomicInteger calls = new AtomicInteger();
      int size = b.readFrom(dest -> {
        byte[] content = seq(sizes[calls.getAndIncrement()]);
        dest.put(content, 0, Math.min(content.length, dest.remaining()));
        return content.length;
      });
      assertEquals(4, calls.get(), "three reads too large for the buffer, then one that fits");
      assertEquals(300, size);
      assertArrayEquals(seq(300), b.getArray());
    }
  }

  @Test
  void readFromOfAnAbsentValueLeavesTheBufferEmpty() {
    try (CodecBuffer b = CodecBuffer.copyOf(new byte[] {1, 2, 3})) {
      assertEquals(-1, b.readFrom(dest -> -1));
      assertEquals(0, b.readableBytes());
    }
  }

  @Test
  void readFromGivesUpWhenTheSourceKeepsGrowingBetweenReads() {
    try (CodecBuffer b = CodecBuffer.copyOf(new byte[] {1, 2, 3})) {
      AtomicInteger calls = new AtomicInteger();
      assertThrows(java.util.ConcurrentModificationException.class, () -> b.readFrom(dest -> {
        calls.incrementAndGet();
        return dest.capacity() + 1; // always one byte more than the buffer it is given
      }));
      assertEquals(CodecBuffer.MAX_READS, calls.get());
      assertEquals(0, b.readableBytes());
    }
  }

  @Test
  void retainAddsAReferenceThatNeedsItsOwnRelease() {
    CodecBuffer b = CodecBuffer.copyOf(new byte[] {1});
    assertSame(b, b.retain());
    b.retain();
    b.release();
    b.release();
    assertFalse(b.isReleased());
    assertArrayEquals(new byte[] {1}, b.getArray(), "still usable with one reference");
    b.release();
    assertTrue(b.isReleased());
  }

  @Test
  void releasingTwiceThrowsIllegalState() {
    CodecBuffer b = CodecBuffer.allocateDirect(8);
    b.release();
    assertThrows(IllegalStateException.class, b::release);
    assertThrows(IllegalStateException.class, b::close);
    assertThrows(IllegalStateException.class, b::retain);
    assertTrue(b.isReleased());
  }

  @Test
  void everyUseAfterReleaseThrowsIllegalState() {
    CodecBuffer b = CodecBuffer.copyOf(new byte[] {1, 2, 3});
    b.release();
    try (CodecBuffer live = CodecBuffer.copyOf(new byte[] {1})) {
      List<Executable> uses = List.of(
          b::readableBytes, b::capacity, () -> b.ensureWritable(1), () -> b.put((byte) 1),
          () -> b.putInt(1), () -> b.putLong(1), () -> b.put(new byte[] {1}),
          () -> b.put(ByteBuffer.allocate(2)), b::getArray, () -> b.get(0), b::clear,
          b::asReadOnlyByteBuffer, () -> b.startsWith(live), () -> live.startsWith(b),
          () -> b.readFrom(dest -> 0), b::hashCode, () -> b.equals(live), b::retain);
      for (int i = 0; i < uses.size(); i++) {
        assertThrows(IllegalStateException.class, uses.get(i), "use #" + i + " after release");
      }
      assertEquals("CodecBuffer[released]", b.toString());
    }
  }

  @Test
  void anUnreleasedBufferIsListedAsALeakUntilReleased() {
    assumeTrue(LeakRegistry.detailed(), "needs -Dsediment.leakDetection=true");
    Set<Long> before = CodecBuffer.LEAKS.snapshot();
    CodecBuffer b = CodecBuffer.allocateDirect(32);
    try {
      assertEquals(1, CodecBuffer.LEAKS.leakedSince(before).size());
      assertNotNull(CodecBuffer.LEAKS.leakedSince(before).get(0).type());
      b.retain();
      b.release();
      assertEquals(1, CodecBuffer.LEAKS.leakedSince(before).size(), "still referenced");
    } finally {
      b.release();
    }
    assertEquals(List.of(), CodecBuffer.LEAKS.leakedSince(before));
  }

  @Test
  void discardDropsEveryReferenceAtOnceAndKeepsTheBytesForAReaderStillHoldingThem() {
    int live = CodecBuffer.LEAKS.liveCount();
    CodecBuffer b = CodecBuffer.allocateDirect(64).put(seq(10));
    b.retain();
    ByteBuffer view = b.asReadOnlyByteBuffer();
    b.discard();
    assertTrue(b.isReleased());
    assertEquals(live, CodecBuffer.LEAKS.liveCount(), "no longer counted, though retained twice");
    assertThrows(IllegalStateException.class, b::readableBytes);
    assertThrows(IllegalStateException.class, b::release, "nothing left to release");
    b.discard();
    assertEquals(live, CodecBuffer.LEAKS.liveCount(), "idempotent");
    // Not pooled: whatever is acquired next, the holder of the old view still reads its bytes.
    List<CodecBuffer> next = new ArrayList<>();
    for (int i = 0; i <= CodecBufferPool.RETAINED_BYTES_PER_CLASS / 64; i++) {
      next.add(CodecBuffer.allocateDirect(64).put(new byte[64]));
    }
    next.forEach(CodecBuffer::release);
    byte[] read = new byte[view.remaining()];
    view.get(read);
    assertArrayEquals(seq(10), read);
  }

  @Test
  void negativeCapacityIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> CodecBuffer.allocateDirect(-1));
  }
}
