package io.sediment.db.codec;

import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool of direct byte buffers in power-of-two size classes from 64 B to 1 MiB; larger requests
 * are allocated and dropped without pooling. Each class keeps at most
 * {@link #RETAINED_BYTES_PER_CLASS} bytes of idle buffers. Thread-safe and lock-free.
 */
final class CodecBufferPool {

  static final int MIN_SHIFT = 6;
  static final int MAX_SHIFT = 20;
  static final int RETAINED_BYTES_PER_CLASS = 4 << 20;

  static final CodecBufferPool DIRECT = new CodecBufferPool();

  private final Queue<ByteBuffer>[] free;
  private final AtomicInteger[] idle;

  @SuppressWarnings("unchecked")
  private CodecBufferPool() {
    int classes = MAX_SHIFT - MIN_SHIFT + 1;
    free = new Queue[classes];
    idle = new AtomicInteger[classes];
    for (int i = 0; i < classes; i++) {
      free[i] = new ConcurrentLinkedQueue<>();
      idle[i] = new AtomicInteger();
    }
  }

  /** A cleared direct buffer of at least {@code capacity} bytes. */
  ByteBuffer acquire(int capacity) {
    int cls = sizeClass(capacity);
    if (cls < 0) {
      return ByteBuffer.allocateDirect(capacity);
    }
    ByteBuffer b = free[cls].poll();
    if (b == null) {
      return ByteBuffer.allocateDirect(1 << (cls + MIN_SHIFT));
    }
    idle[cls].decrementAndGet();
    return b.clear();
  }

  /** Returns {@code b}, which the caller must no longer use, to its size class. */
  void release(ByteBuffer b) {
    int cls = sizeClass(b.capacity());
    if (cls < 0 || b.capacity() != 1 << (cls + MIN_SHIFT)) {
      return;
    }
    int maxIdle = Math.max(1, RETAINED_BYTES_PER_CLASS >> (cls + MIN_SHIFT));
    if (idle[cls].incrementAndGet() <= maxIdle) {
      free[cls].offer(b);
    } else {
      idle[cls].decrementAndGet();
    }
  }

  /** Index of the smallest class holding {@code capacity} bytes, or -1 above the largest. */
  static int sizeClass(int capacity) {
    if (capacity > 1 << MAX_SHIFT) {
      return -1;
    }
    int shift = Math.max(MIN_SHIFT, 32 - Integer.numberOfLeadingZeros(Math.max(1, capacity) - 1));
    return shift - MIN_SHIFT;
  }
}
