package io.sediment.om.core;

import io.sediment.db.DBStore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Group commit of the write-ahead log: writers apply their batches unsynced (under the write lock,
 * in order) and take a ticket; {@link #awaitDurable} returns once a WAL fsync issued after the
 * ticket has completed. The first waiter with no sync in flight becomes the leader and syncs for
 * every ticket issued so far; the others wait for it, so N concurrent writers cost one fsync, not
 * N. A failed sync is reported to its leader; the waiters retry with a new leader.
 *
 * <p>Readers may see a write before it is acknowledged (it is in the memtable); a machine crash can
 * lose only writes that were never acknowledged.
 *
 * <p>Thread-safe.
 */
public final class GroupCommitter {

  private final DBStore store;
  private final SyncPolicy policy;
  private final AtomicLong syncs = new AtomicLong();

  /** Tickets handed out; guarded by {@code this}. */
  private long written;
  /** Every ticket up to this one is durable; guarded by {@code this}. */
  private long durable;
  /** A leader is syncing; guarded by {@code this}. */
  private boolean syncing;

  GroupCommitter(DBStore store, SyncPolicy policy) {
    this.store = store;
    this.policy = policy;
  }

  SyncPolicy policy() {
    return policy;
  }

  /** Called right after a batch is applied, in apply order; returns its ticket. */
  synchronized long applied() {
    return ++written;
  }

  /**
   * Blocks until {@code ticket}'s write is durable (at once under a policy other than DURABLE).
   * Not interruptible: the write is already applied, and its caller must not be told otherwise
   * before it is durable; an interrupt that arrives meanwhile is kept (the thread's flag is set
   * again on return).
   *
   * @throws RuntimeException if this thread led a WAL sync and it failed
   */
  void awaitDurable(long ticket) {
    if (policy != SyncPolicy.DURABLE || ticket <= 0) {
      return;
    }
    boolean interrupted = false;
    try {
      long upTo;
      synchronized (this) {
        while (true) {
          if (durable >= ticket) {
            return;
          }
          if (!syncing) {
            syncing = true;
            upTo = written;
            break;
          }
          try {
            wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      boolean ok = false;
      try {
        store.syncWal();
        syncs.incrementAndGet();
        ok = true;
      } finally {
        synchronized (this) {
          syncing = false;
          if (ok) {
            durable = Math.max(durable, upTo);
          }
          notifyAll();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** WAL fsyncs done so far. */
  public long syncCount() {
    return syncs.get();
  }

  /** Batches applied so far. */
  public synchronized long writeCount() {
    return written;
  }
}
