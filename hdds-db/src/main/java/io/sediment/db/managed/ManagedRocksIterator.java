package io.sediment.db.managed;

import io.sediment.db.StoreException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A native RocksDB iterator together with the read options and bound slices it points to.
 *
 * <p>Every call is a guarded operation on the owning database, so it throws
 * {@link io.sediment.db.StoreClosedException} after its database is closed and
 * {@link IllegalStateException} after the iterator is, never touching
 * freed memory; the calls inside a {@link #begin()}/{@link #end()} bracket share one guarded
 * operation. The methods mirror {@code RocksIterator} one to one; the positioning contract
 * (lazy positioning, bounds) is the business of the table iterators above. Not thread-safe,
 * except that {@link #close()} may race with the database's own close.
 */
public final class ManagedRocksIterator implements AutoCloseable {

  private static final OperationGuard UNGUARDED = OperationGuard.forResource("detached iterator");

  private final Managed<RocksIterator> iterator;
  private final List<Managed<?>> closeOrder;
  private final OperationGuard guard;
  private final Consumer<ManagedRocksIterator> onClose;
  private final byte[] lowerBound;
  private final byte[] upperBound;
  /** Counts each positioning and advance; null when this iterator does not count. */
  private final SkipProbe probe;
  private long lastTombstonesSkipped;
  private long totalTombstonesSkipped;
  private long totalMoveNanos;
  private long moveStart;
  private volatile boolean closed;
  /** Whether the database's close closed this iterator for its owner; guarded by this. */
  private boolean abandoned;
  /** What {@link #abandon(String)} also releases; guarded by this. */
  private Runnable releaseOnAbandon;
  /** Depth of open {@link #begin()} brackets; the guard is entered only at depth 0 -> 1. */
  private int depth;

  ManagedRocksIterator(Managed<RocksIterator> iterator, List<Managed<?>> closeOrder,
      OperationGuard guard, Consumer<ManagedRocksIterator> onClose, byte[] lowerBound,
      byte[] upperBound, Managed<RocksDB> counting) {
    this.iterator = iterator;
    this.closeOrder = closeOrder;
    this.guard = guard;
    this.onClose = onClose;
    this.lowerBound = lowerBound;
    this.upperBound = upperBound;
    this.probe = counting == null ? null : new SkipProbe(counting.get());
  }

  /**
   * Wraps a bare {@code RocksIterator} with no database guard and no bounds: for tests that
   * drive a mocked native iterator.
   */
  public static ManagedRocksIterator wrap(RocksIterator iterator) {
    Managed<RocksIterator> m = Managed.of(iterator, "detached");
    return new ManagedRocksIterator(m, List.of(m), UNGUARDED, it -> { }, null, null, null);
  }

  /** The inclusive lower bound, or {@code null}; callers must not modify it. */
  public byte[] lowerBound() {
    return lowerBound;
  }

  /** The exclusive upper bound, or {@code null}; callers must not modify it. */
  public byte[] upperBound() {
    return upperBound;
  }

  /** Whether this iterator counts skipped entries ({@link #lastTombstonesSkipped()}). */
  public boolean isCounting() {
    return probe != null;
  }

  /** Tombstones the last positioning or {@code next()} skipped; 0 when not counting. */
  public long lastTombstonesSkipped() {
    return lastTombstonesSkipped;
  }

  /** Time spent in counted positionings and advances, in nanoseconds. */
  public long totalMoveNanos() {
    return totalMoveNanos;
  }

  /** Tombstones skipped by every counted operation of this iterator. */
  public long totalTombstonesSkipped() {
    return totalTombstonesSkipped;
  }

  private void beginCount() {
    if (probe != null) {
      probe.start();
      moveStart = System.nanoTime();
    }
  }

  /** Safe to call even when {@link #beginCount()} did not run or threw: it then counts zero. */
  private void endCount() {
    if (probe != null) {
      totalMoveNanos += System.nanoTime() - moveStart;
      lastTombstonesSkipped = probe.stop();
      totalTombstonesSkipped += lastTombstonesSkipped;
    }
  }

  /**
   * Opens a bracket: the native calls made until the matching {@link #end()} share one guarded
   * operation on the database instead of entering it once each. Brackets nest; every successful
   * {@code begin} needs its {@code end} (in a {@code finally}). Throws
   * {@link io.sediment.db.StoreClosedException} if the database is closed (checked first), else
   * {@link IllegalStateException} if the iterator is.
   */
  public void begin() {
    if (depth == 0) {
      guard.enter();
      if (closed) {
        guard.exit();
        throw new IllegalStateException("Iterator is closed");
      }
    } else if (closed) {
      throw new IllegalStateException("Iterator is closed");
    }
    depth++;
  }

  /** Closes the bracket {@link #begin()} opened. */
  public void end() {
    if (--depth == 0) {
      guard.exit();
    }
  }

  private RocksIterator enter() {
    begin();
    try {
      return iterator.get();
    } catch (RuntimeException e) {
      end();
      throw e;
    }
  }

  public void seekToFirst() {
    RocksIterator it = enter();
    try {
      beginCount();
      it.seekToFirst();
    } finally {
      endCount();
      end();
    }
  }

  public void seekToLast() {
    RocksIterator it = enter();
    try {
      beginCount();
      it.seekToLast();
    } finally {
      endCount();
      end();
    }
  }

  public void seek(byte[] target) {
    RocksIterator it = enter();
    try {
      beginCount();
      it.seek(target);
    } finally {
      endCount();
      end();
    }
  }

  /** Seeks to the bytes between {@code target}'s position and limit; the buffer is not moved. */
  public void seek(ByteBuffer target) {
    RocksIterator it = enter();
    try {
      beginCount();
      it.seek(target.duplicate());
    } finally {
      endCount();
      end();
    }
  }

  public void next() {
    RocksIterator it = enter();
    try {
      beginCount();
      it.next();
    } finally {
      endCount();
      end();
    }
  }

  public boolean isValid() {
    RocksIterator it = enter();
    try {
      return it.isValid();
    } finally {
      end();
    }
  }

  /** The current key as a new array. Requires {@link #isValid()}. */
  public byte[] key() {
    RocksIterator it = enter();
    try {
      return it.key();
    } finally {
      end();
    }
  }

  /** The current value as a new array. Requires {@link #isValid()}. */
  public byte[] value() {
    RocksIterator it = enter();
    try {
      return it.value();
    } finally {
      end();
    }
  }

  /**
   * Copies the current key into {@code dest} from index 0 and returns the key's full size, which
   * exceeds {@code dest.length} when the key did not fit (then only its first bytes are copied).
   * Requires {@link #isValid()}.
   */
  public int key(byte[] dest) {
    RocksIterator it = enter();
    try {
      return it.key(dest);
    } finally {
      end();
    }
  }

  /** As {@link #key(byte[])}, for the current value. */
  public int value(byte[] dest) {
    RocksIterator it = enter();
    try {
      return it.value(dest);
    } finally {
      end();
    }
  }

  /**
   * Copies the current key into {@code dest} from its position, sets its limit, and returns the
   * key's full size, which exceeds the space given when the key did not fit.
   */
  public int key(ByteBuffer dest) {
    RocksIterator it = enter();
    try {
      return it.key(dest);
    } finally {
      end();
    }
  }

  /** As {@link #key(ByteBuffer)}, for the current value. */
  public int value(ByteBuffer dest) {
    RocksIterator it = enter();
    try {
      return it.value(dest);
    } finally {
      end();
    }
  }

  /** Throws if the iterator stopped on an error rather than at the end of its range. */
  public void checkStatus() {
    RocksIterator it = enter();
    try {
      it.status();
    } catch (RocksDBException e) {
      throw new StoreException("Iterator failed: " + e.getMessage(), e);
    } finally {
      end();
    }
  }

  public boolean isClosed() {
    return closed;
  }

  /**
   * Throws as {@link #begin()} does if this iterator or its database is closed, without a
   * native call: for callers that answer from what they already read.
   */
  public void checkUsable() {
    guard.checkOpen();
    if (closed) {
      throw new IllegalStateException("Iterator is closed");
    }
  }

  /**
   * Sets what the database's close must also release when it closes this iterator for an owner who
   * left it open: what the owner's table iterator holds besides the native one (pooled buffers).
   * It runs at most once, in the closing thread, possibly while the owner still reads an entry, so
   * it must be thread-safe and must not hand memory the owner may still read to anyone else. If
   * the database already closed this iterator, it runs at once, in the caller's thread. Call it
   * once, after the resources exist.
   */
  public void onAbandoned(Runnable release) {
    boolean runNow;
    synchronized (this) {
      runNow = abandoned;
      if (!runNow) {
        releaseOnAbandon = release;
      }
    }
    if (runNow) {
      release.run();
    }
  }

  /**
   * Frees the native iterator, then the read options and bound slices it owns (a bounded iterator;
   * an unbounded one shares the store's read options). Idempotent; safe to
   * call after the database is closed (it is then a no-op, the database having closed it).
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    releaseOnAbandon = null;
    try {
      for (Managed<?> m : closeOrder) {
        m.close();
      }
    } finally {
      onClose.accept(this);
    }
  }

  /**
   * The database's close of an iterator its owner left open: closes it as {@link #close()} does,
   * records it in {@link AbandonedIterators} with where it was created, and runs what
   * {@link #onAbandoned} set. Does nothing if the iterator is already closed. Only once no
   * operation is in flight on the database, so no call of the owner is running on it.
   */
  void abandon(String store) {
    Runnable release;
    synchronized (this) {
      if (closed) {
        return;
      }
      abandoned = true;
      release = releaseOnAbandon;
      releaseOnAbandon = null;
      AbandonedIterators.record(store, iterator.site());
      close();
    }
    if (release != null) {
      release.run();
    }
  }
}
