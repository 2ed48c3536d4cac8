package io.sediment.db.tombstone;

import io.sediment.db.codec.Bytes;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The lowest key that may still be live in a queue-like key range {@code [scopeStart, scopeEnd)}
 * whose head is purged: scans of the range start here instead of at {@code scopeStart}, so they do
 * not walk the band of tombstones the purges left (a lower bound past the band costs about one
 * microsecond whatever the LSM state).
 *
 * <p>Contract: at every moment, every live key of the scope is at or above {@link #get()}.
 * Writers keep it by wrapping each write into the scope in {@link #beforeWrite} (closed once the
 * write is applied): a key below the watermark lowers it before it becomes visible. A purger keeps it
 * by calling {@link #beginPurge()} <em>before</em> it scans, deleting what it found below some key
 * {@code w}, and then {@link #advance}: the watermark moves to {@code w}, or to the lowest key written
 * into the scope since the purge began if that is lower. {@code beginPurge} waits for writes already
 * in flight, so every write is either seen by the purger's scan or recorded for its advance.
 * The watermark never moves outside the scope. Thread-safe; a write costs one read-lock round trip.
 */
public final class LowWatermark {

  private final byte[] scopeStart;
  private final byte[] scopeEnd;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private volatile byte[] watermark;
  /** Lowest key written since the current purge began; null when none (guarded by the lock). */
  private byte[] lowestSincePurge;
  private long purgeGeneration;

  /**
   * @param scopeStart inclusive start of the range
   * @param scopeEnd exclusive end, or {@code null} for the end of the table
   */
  public LowWatermark(byte[] scopeStart, byte[] scopeEnd) {
    this.scopeStart = Objects.requireNonNull(scopeStart, "scopeStart").clone();
    this.scopeEnd = scopeEnd == null ? null : scopeEnd.clone();
    if (this.scopeEnd != null && Bytes.compare(this.scopeStart, this.scopeEnd) > 0) {
      throw new IllegalArgumentException("scopeStart sorts after scopeEnd");
    }
    this.watermark = this.scopeStart;
  }

  /** The lower bound to scan the scope from: no live key of the scope sorts below it. */
  public byte[] get() {
    return watermark.clone();
  }

  public byte[] scopeStart() {
    return scopeStart.clone();
  }

  /** The exclusive end of the scope, or {@code null}. */
  public byte[] scopeEnd() {
    return scopeEnd == null ? null : scopeEnd.clone();
  }

  private boolean inScope(byte[] key) {
    return Bytes.compare(key, scopeStart) >= 0
        && (scopeEnd == null || Bytes.compare(key, scopeEnd) < 0);
  }

  /** An open write: close it once the write has been applied (or has failed). */
  public interface Write extends AutoCloseable {
    @Override
    void close();
  }

  /** A purge in progress; see {@link LowWatermark}. */
  public final class Purge {
    private final long generation;

    private Purge(long generation) {
      this.generation = generation;
    }
  }

  /**
   * Call before writing {@code key}; close the result after the write is applied. Keys outside the
   * scope are ignored.
   */
  public Write beforeWrite(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (!inScope(key)) {
      return () -> { };
    }
    ReentrantReadWriteLock.ReadLock read = lock.readLock();
    read.lock();
    try {
      synchronized (this) {
        if (Bytes.compare(key, watermark) < 0) {
          watermark = key.clone();
        }
        if (lowestSincePurge == null || Bytes.compare(key, lowestSincePurge) < 0) {
          lowestSincePurge = key.clone();
        }
      }
    } catch (RuntimeException e) {
      read.unlock();
      throw e;
    }
    return read::unlock;
  }

  /**
   * Starts a purge; call before the purger scans. Waits for writes in flight to be applied. A later
   * {@code beginPurge} supersedes this one: its {@link #advance} then does nothing.
   */
  public Purge beginPurge() {
    ReentrantReadWriteLock.WriteLock write = lock.writeLock();
    write.lock();
    try {
      synchronized (this) {
        lowestSincePurge = null;
        return new Purge(++purgeGeneration);
      }
    } finally {
      write.unlock();
    }
  }

  /**
   * Records that every key of the scope below {@code deletedBelow} that the purger's scan saw is
   * deleted (the deletes are applied). Moves the watermark up to {@code deletedBelow}, but not past
   * a key written since {@code purge} began, never past the scope's end, and never down.
   *
   * @return the watermark after the call
   */
  public byte[] advance(Purge purge, byte[] deletedBelow) {
    Objects.requireNonNull(purge, "purge");
    Objects.requireNonNull(deletedBelow, "deletedBelow");
    synchronized (this) {
      if (purge.generation == purgeGeneration) {
        byte[] target = deletedBelow;
        if (scopeEnd != null && Bytes.compare(target, scopeEnd) > 0) {
          target = scopeEnd;
        }
        if (lowestSincePurge != null && Bytes.compare(lowestSincePurge, target) < 0) {
          target = lowestSincePurge;
        }
        if (Bytes.compare(target, watermark) > 0) {
          watermark = target.clone();
        }
      }
      return watermark.clone();
    }
  }
}
