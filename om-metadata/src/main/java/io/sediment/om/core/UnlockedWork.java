package io.sediment.om.core;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What work that reads much before a short write needs from the store ({@link OmContext#unlocked}):
 * a lock per purge step, so two runs of one step never interleave; the {@link UnlockedPhase}
 * marks, which fail if the write lock is held and tell an observer tests set; and the time a write
 * would record. Foreground writes never take the step locks. Thread-safe.
 */
public final class UnlockedWork {

  private final ReentrantLock writeLock;
  private final LongSupplier now;
  private final Map<String, ReentrantLock> stepLocks = new ConcurrentHashMap<>();
  private volatile UnlockedPhase.Observer observer;

  UnlockedWork(ReentrantLock writeLock, LongSupplier now) {
    this.writeLock = writeLock;
    this.now = now;
  }

  /**
   * Runs {@code body} while no other run of the purge step {@code step} runs on this store (a
   * lock per step name, not the write lock): a step reads its batch without the write lock and
   * applies it under it, and two runs of one step interleaving would both read the same rows.
   */
  public <T> T serializedStep(String step, Supplier<T> body) {
    ReentrantLock lock = stepLocks.computeIfAbsent(step, s -> new ReentrantLock());
    lock.lock();
    try {
      return body.get();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reports that the current thread reached {@code phase} of {@code step}, outside the write lock.
   *
   * @throws IllegalStateException if the current thread holds the write lock: the phase would
   *     block every foreground write for its whole length
   */
  public void reached(UnlockedPhase phase, String step) {
    if (writeLock.isHeldByCurrentThread()) {
      throw new IllegalStateException(phase + " of " + step + " under the write lock");
    }
    UnlockedPhase.Observer o = observer;
    if (o != null) {
      o.reached(phase, step);
    }
  }

  /**
   * Sets who is told of each {@link UnlockedPhase} ({@code null}: nobody), for tests that run
   * writes while a purge scans or a snapshot's checkpoint is taken.
   */
  public void observe(UnlockedPhase.Observer o) {
    this.observer = o;
  }

  /** Whether some thread holds the write lock now (a momentary answer, for tests). */
  public boolean isWriteLocked() {
    return writeLock.isLocked();
  }

  /**
   * The time a write would record now (the log entry's while one is applied, else the store's
   * clock), for rows prepared outside the write lock that a write then records.
   */
  public long nowMillis() {
    return now.getAsLong();
  }
}
