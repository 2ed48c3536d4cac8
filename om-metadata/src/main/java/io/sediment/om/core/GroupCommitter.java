package io.sediment.om.core;

import io.sediment.db.DBStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Group commit of the write-ahead log: writers apply their batches unsynced (under the write lock,
 * in order) and take a ticket; a ticket is durable once a WAL fsync issued after it has completed.
 * One sync runs at a time and covers every ticket issued before it started, so N concurrent
 * writers cost one fsync, not N.
 *
 * <p>Two ways to wait. {@link #awaitDurable} blocks: the first waiter with no sync in flight
 * leads one and the others wait for it; a failed sync is reported to its leader, and the waiters
 * retry with a new leader. {@link #whenDurable} does not block: it returns a future that the
 * syncing thread completes (so a caller's thread is free meanwhile, and a group's wake-ups are
 * one hand-off to the syncer instead of one a waiter); when no sync is in flight a thread of the
 * committer's own ("wal-sync", started on demand, ended after a second idle) leads, and it keeps
 * syncing while such futures wait. A failed sync completes every waiting future exceptionally
 * with its exception. A blocking leader whose own ticket is durable hands any futures still
 * waiting to that thread rather than syncing for them itself.
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
  /** Runs {@link #leadForFutures} when futures wait and no sync is in flight. */
  private final ThreadPoolExecutor syncer;

  /** Tickets handed out; guarded by {@code this}. */
  private long written;
  /** Every ticket up to this one is durable; guarded by {@code this}. */
  private long durable;
  /** A leader is syncing (or the syncer is about to); guarded by {@code this}. */
  private boolean syncing;
  /** Futures of {@link #whenDurable} not yet completed; guarded by {@code this}. */
  private List<Waiter> waiting = new ArrayList<>();

  private record Waiter(long ticket, CompletableFuture<Void> durable) {}

  /**
   * The highest ticket the current thread waited for inside {@link #deferring}, in element 0;
   * null outside one.
   */
  private final ThreadLocal<long[]> deferred = new ThreadLocal<>();

  GroupCommitter(DBStore store, SyncPolicy policy) {
    this.store = store;
    this.policy = policy;
    this.syncer = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        r -> {
          Thread t = new Thread(r, "wal-sync");
          t.setDaemon(true);
          return t;
        });
    syncer.allowCoreThreadTimeOut(true);
  }

  SyncPolicy policy() {
    return policy;
  }

  /** Called right after a batch is applied, in apply order; returns its ticket. */
  synchronized long applied() {
    return ++written;
  }

  /**
   * Blocks until {@code ticket}'s write is durable (at once under a policy other than DURABLE;
   * inside {@link #deferring}, returns at once and the deferral's future waits instead).
   * Not interruptible: the write is already applied, and its caller must not be told otherwise
   * before it is durable; an interrupt that arrives meanwhile is kept (the thread's flag is set
   * again on return).
   *
   * @throws RuntimeException if this thread led a WAL sync and it failed
   */
  void awaitDurable(long ticket) {
    long[] deferredTo = deferred.get();
    if (deferredTo != null) {
      deferredTo[0] = Math.max(deferredTo[0], ticket);
      return;
    }
    if (policy != SyncPolicy.DURABLE || ticket <= 0) {
      return;
    }
    boolean interrupted = false;
    try {
      synchronized (this) {
        while (true) {
          if (durable >= ticket) {
            return;
          }
          if (!syncing) {
            syncing = true;
            break;
          }
          try {
            wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      RuntimeException failure = syncOnce();
      if (failure != null) {
        throw failure;
      }
      synchronized (this) {
        if (waiting.isEmpty()) {
          syncing = false;
          notifyAll();
          return;
        }
      }
      // Still leading: the syncer takes over for the futures that arrived meanwhile.
      syncer.execute(this::leadForFutures);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * A future completed once {@code ticket}'s write is durable (already completed under a policy
   * other than DURABLE, or if it is), or completed exceptionally with the exception of the WAL
   * sync that was to cover it. Never blocks; the future is completed on the syncing thread, so
   * what depends on it must be short and must not wait for a write.
   */
  CompletableFuture<Void> whenDurable(long ticket) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (policy != SyncPolicy.DURABLE || ticket <= 0) {
      done.complete(null);
      return done;
    }
    synchronized (this) {
      if (durable >= ticket) {
        done.complete(null);
        return done;
      }
      waiting.add(new Waiter(ticket, done));
      if (syncing) {
        return done;
      }
      syncing = true;
    }
    syncer.execute(this::leadForFutures);
    return done;
  }

  /**
   * Runs {@code body} on this thread, every {@link #awaitDurable} in it returning at once, and
   * returns a future of what it returns (or of the exception it throws) completed once every
   * ticket it waited for is durable ({@link #whenDurable}, so on the syncing thread).
   *
   * @throws IllegalStateException if this thread is already inside one
   */
  <T> CompletableFuture<T> deferring(Supplier<T> body) {
    if (deferred.get() != null) {
      throw new IllegalStateException("Already deferring durability");
    }
    long[] deferredTo = new long[1];
    deferred.set(deferredTo);
    T result;
    try {
      result = body.get();
    } catch (RuntimeException e) {
      return whenDurable(deferredTo[0]).thenCompose(v -> CompletableFuture.failedFuture(e));
    } finally {
      deferred.remove();
    }
    return whenDurable(deferredTo[0]).thenApply(v -> result);
  }

  /** Runs on the syncer while it leads: syncs until no future waits, or a sync fails. */
  private void leadForFutures() {
    while (true) {
      if (syncOnce() != null) {
        return;
      }
      synchronized (this) {
        if (waiting.isEmpty()) {
          syncing = false;
          notifyAll();
          return;
        }
      }
    }
  }

  /**
   * One WAL sync by the current leader (the caller, which set {@link #syncing}): on success every
   * ticket issued before it is durable and the futures of those complete; on failure every
   * waiting future fails with the exception, which is returned, and leadership ends.
   */
  private RuntimeException syncOnce() {
    long upTo;
    synchronized (this) {
      upTo = written;
    }
    RuntimeException failure = null;
    try {
      store.syncWal();
      syncs.incrementAndGet();
    } catch (RuntimeException e) {
      failure = e;
    }
    List<Waiter> settled = new ArrayList<>();
    synchronized (this) {
      if (failure == null) {
        durable = Math.max(durable, upTo);
        List<Waiter> later = new ArrayList<>();
        for (Waiter w : waiting) {
          (w.ticket() <= durable ? settled : later).add(w);
        }
        waiting = later;
      } else {
        settled = waiting;
        waiting = new ArrayList<>();
        syncing = false;
      }
      notifyAll();
    }
    for (Waiter w : settled) {
      if (failure == null) {
        w.durable().complete(null);
      } else {
        w.durable().completeExceptionally(failure);
      }
    }
    return failure;
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
