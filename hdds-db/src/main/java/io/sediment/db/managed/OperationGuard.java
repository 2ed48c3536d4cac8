package io.sediment.db.managed;

import io.sediment.db.StoreClosedException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts operations in flight on a native object so that it is freed only when none runs.
 *
 * <p>{@link #enter()} admits an operation unless closing has begun, in which case it throws: a
 * {@link StoreClosedException} for a store's guard ({@link #forStore}), an
 * {@link IllegalStateException} for one its owner closes ({@link #forResource}); every admitted operation must call {@link #exit()}.
 * {@link #beginClose()} stops admissions, and {@link #awaitIdle(Duration)} waits until every
 * admitted operation has exited. The check-after-increment in {@code enter} guarantees that an
 * operation either sees the close and backs out, or is counted before the closer looks.
 * Thread-safe; costs one atomic increment and decrement per operation.
 */
final class OperationGuard {

  private final String name;
  private final boolean store;
  private final AtomicLong inFlight = new AtomicLong();
  private volatile boolean closing;

  private OperationGuard(String name, boolean store) {
    this.name = name;
    this.store = store;
  }

  /** The guard of a store: a call after its close began is a {@link StoreClosedException}. */
  static OperationGuard forStore(String name) {
    return new OperationGuard(name, true);
  }

  /**
   * The guard of a resource its owner closes (a snapshot of a view): a call after that close
   * began is the owner's bug, an {@link IllegalStateException}.
   */
  static OperationGuard forResource(String name) {
    return new OperationGuard(name, false);
  }

  void enter() {
    inFlight.incrementAndGet();
    if (closing) {
      inFlight.decrementAndGet();
      throw closed();
    }
  }

  /** Throws as {@link #enter()} would once closing has begun; admits nothing. */
  void checkOpen() {
    if (closing) {
      throw closed();
    }
  }

  private RuntimeException closed() {
    return store ? new StoreClosedException(name + " is closed")
        : new IllegalStateException(name + " is closed");
  }

  void exit() {
    inFlight.decrementAndGet();
  }

  boolean isClosing() {
    return closing;
  }

  void beginClose() {
    closing = true;
  }

  long inFlight() {
    return inFlight.get();
  }

  /** Waits until no operation is in flight; returns false if {@code timeout} passed first. */
  boolean awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (inFlight.get() > 0) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(100_000L);
    }
    return true;
  }
}
