package io.sediment.db.codec;

import io.sediment.db.diagnostics.LeakRegistry;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * A growable byte buffer, normally pooled direct memory, that codecs write into and RocksDB's
 * {@code ByteBuffer} APIs read from without copying through a {@code byte[]}.
 *
 * <p>The readable content is bytes {@code [0, readableBytes())}. Writes append. A buffer is
 * reference-counted: it starts at one, {@link #retain()} adds one, {@link #release()} (or
 * {@link #close()}) removes one and returns pooled memory at zero. Releasing a buffer whose
 * count is already zero throws {@link IllegalStateException}, as does any use after that. A buffer
 * never released is reported by {@link #LEAKS}, which tests check. Equality is by content.
 * Not thread-safe.
 */
public final class CodecBuffer implements AutoCloseable {

  /** Buffers acquired and not yet released. */
  public static final LeakRegistry LEAKS = new LeakRegistry("CodecBuffer");

  /** Reads {@link #readFrom} makes at most when the value keeps growing under it. */
  public static final int MAX_READS = 8;

  private ByteBuffer buf;
  private int writerIndex;
  private final AtomicInteger refCnt = new AtomicInteger(1);
  private final LeakRegistry.Registration registration;

  private CodecBuffer(ByteBuffer buf, String owner) {
    this.buf = buf;
    this.registration = LEAKS.register("CodecBuffer", owner);
  }

  /** A pooled direct buffer with room for at least {@code capacity} bytes, empty. */
  public static CodecBuffer allocateDirect(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("Negative capacity " + capacity);
    }
    return new CodecBuffer(CodecBufferPool.DIRECT.acquire(capacity), "direct");
  }

  /** A pooled direct buffer holding a copy of {@code bytes}. */
  public static CodecBuffer copyOf(byte[] bytes) {
    CodecBuffer b = allocateDirect(bytes.length);
    b.put(bytes);
    return b;
  }

  private void checkLive() {
    if (refCnt.get() <= 0) {
      throw new IllegalStateException("CodecBuffer already released");
    }
  }

  /** Number of readable bytes. */
  public int readableBytes() {
    checkLive();
    return writerIndex;
  }

  public int capacity() {
    checkLive();
    return buf.capacity();
  }

  /** Makes room for {@code more} further bytes, moving to a larger pooled buffer if needed. */
  public CodecBuffer ensureWritable(int more) {
    checkLive();
    long needed = (long) writerIndex + more;
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("CodecBuffer cannot grow to " + needed + " bytes");
    }
    if (needed > buf.capacity()) {
      int cap = (int) Math.max(needed, Math.min(Integer.MAX_VALUE - 8, 2L * buf.capacity()));
      ByteBuffer bigger = CodecBufferPool.DIRECT.acquire(cap);
      bigger.put(0, buf, 0, writerIndex);
      CodecBufferPool.DIRECT.release(buf);
      buf = bigger;
    }
    return this;
  }

  public CodecBuffer put(byte b) {
    ensureWritable(1);
    buf.put(writerIndex++, b);
    return this;
  }

  public CodecBuffer putInt(int v) {
    ensureWritable(4);
    buf.putInt(writerIndex, v);
    writerIndex += 4;
    return this;
  }

  public CodecBuffer putLong(long v) {
    ensureWritable(8);
    buf.putLong(writerIndex, v);
    writerIndex += 8;
    return this;
  }

  public CodecBuffer put(byte[] bytes) {
    return put(bytes, 0, bytes.length);
  }

  /** Appends {@code bytes[offset, offset + length)}. */
  public CodecBuffer put(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    ensureWritable(length);
    buf.put(writerIndex, bytes, offset, length);
    writerIndex += length;
    return this;
  }

  /** Appends the bytes between {@code src}'s position and limit; {@code src} is not moved. */
  public CodecBuffer put(ByteBuffer src) {
    int n = src.remaining();
    ensureWritable(n);
    buf.put(writerIndex, src, src.position(), n);
    writerIndex += n;
    return this;
  }

  /** A writable view of the next {@code n} bytes after the readable ones; see {@link #advanceWriter}. */
  ByteBuffer writableTail(int n) {
    ensureWritable(n);
    return buf.duplicate().position(writerIndex).limit(writerIndex + n).slice();
  }

  /** Makes {@code n} bytes written through {@link #writableTail} readable. */
  void advanceWriter(int n) {
    checkLive();
    if (n < 0 || writerIndex + n > buf.capacity()) {
      throw new IndexOutOfBoundsException("advance by " + n);
    }
    writerIndex += n;
  }

  /**
   * Replaces the content with what {@code source} writes into a buffer whose position is 0 and
   * whose limit is the capacity. {@code source} returns the full size it wanted to write (the
   * RocksDB {@code ByteBuffer} read protocol); when that exceeds the capacity the buffer grows
   * and {@code source} is called again, until what it writes fits: a value that another thread
   * replaces with a larger one between two reads costs one more read, up to
   * {@link #MAX_READS} reads in all. A negative size (nothing to read) leaves the buffer empty.
   *
   * @return the size read
   * @throws ConcurrentModificationException if the value was still larger than the
   *     buffer after {@link #MAX_READS} reads; the buffer is then empty
   */
  public int readFrom(ToIntFunction<ByteBuffer> source) {
    checkLive();
    int size = source.applyAsInt(buf.duplicate().clear());
    for (int reads = 1; size > buf.capacity(); reads++) {
      writerIndex = 0;
      if (reads == MAX_READS) {
        throw new ConcurrentModificationException("The value grew between each of "
            + MAX_READS + " reads, to " + size + " bytes");
      }
      ensureWritable(size);
      size = source.applyAsInt(buf.duplicate().clear());
    }
    writerIndex = Math.max(0, size);
    return size;
  }

  /** Empties the buffer; capacity is kept. */
  public CodecBuffer clear() {
    checkLive();
    writerIndex = 0;
    return this;
  }

  /** A read-only view of the readable bytes, position 0; valid until this buffer changes. */
  public ByteBuffer asReadOnlyByteBuffer() {
    checkLive();
    return buf.duplicate().position(0).limit(writerIndex).slice().asReadOnlyBuffer();
  }

  /** A copy of the readable bytes. */
  public byte[] getArray() {
    checkLive();
    byte[] out = new byte[writerIndex];
    buf.get(0, out);
    return out;
  }

  public byte get(int index) {
    checkLive();
    if (index < 0 || index >= writerIndex) {
      throw new IndexOutOfBoundsException(index);
    }
    return buf.get(index);
  }

  /** Whether the readable bytes start with {@code prefix}'s readable bytes. */
  public boolean startsWith(CodecBuffer prefix) {
    checkLive();
    int n = prefix.readableBytes();
    return n <= writerIndex && buf.slice(0, n).equals(prefix.buf.slice(0, n));
  }

  public CodecBuffer retain() {
    int old = refCnt.getAndIncrement();
    if (old <= 0) {
      refCnt.getAndDecrement();
      throw new IllegalStateException("CodecBuffer already released");
    }
    return this;
  }

  /**
   * Removes one reference; at zero the memory returns to the pool.
   *
   * @throws IllegalStateException if the buffer was already fully released
   */
  public void release() {
    int now = refCnt.decrementAndGet();
    if (now < 0) {
      refCnt.incrementAndGet();
      throw new IllegalStateException("CodecBuffer released twice");
    }
    if (now == 0) {
      CodecBufferPool.DIRECT.release(buf);
      buf = null;
      registration.close();
    }
  }

  /**
   * Gives up every reference at once without returning the memory to the pool: for a holder
   * other than the buffer's user (a store closing an iterator its owner left open), which cannot
   * know whether the user, in another thread, still reads it. Pooled memory would be handed to the
   * next acquirer and overwritten under such a reader; dropped memory stays as it was until the
   * garbage collector frees it. Later uses throw as after {@link #release()}; idempotent.
   */
  public void discard() {
    if (refCnt.getAndSet(0) > 0) {
      registration.close();
    }
  }

  /** Whether every reference was released. */
  public boolean isReleased() {
    return refCnt.get() <= 0;
  }

  /** Same as {@link #release()}. */
  @Override
  public void close() {
    release();
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof CodecBuffer other)) {
      return false;
    }
    return asReadOnlyByteBuffer().equals(other.asReadOnlyByteBuffer());
  }

  @Override
  public int hashCode() {
    return asReadOnlyByteBuffer().hashCode();
  }

  @Override
  public String toString() {
    if (isReleased()) {
      return "CodecBuffer[released]";
    }
    byte[] bytes = getArray();
    return "CodecBuffer[" + writerIndex + "]" + Arrays.toString(Arrays.copyOf(bytes, Math.min(16, bytes.length)));
  }
}
