package io.sediment.db.managed;

import io.sediment.db.StoreException;
import io.sediment.db.diagnostics.LeakRegistry;
import java.time.Duration;
import java.util.function.Consumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * An open RocksDB snapshot: a consistent view of every column family at one sequence number.
 *
 * <p>Every native use of the snapshot runs between {@link #enter()} and {@link #exit()}, so that
 * {@link #close()} (idempotent, thread-safe) never frees it under a running read: it stops admitting
 * reads, waits for the admitted ones to exit, then releases the snapshot. A read that starts after
 * the close has begun gets an {@link IllegalStateException}. A snapshot still open when its
 * database closes is released by the database, after the database's own operations have finished.
 */
public final class ManagedSnapshot implements AutoCloseable {

  private final Managed<RocksDB> db;
  private final Snapshot snapshot;
  private final Managed<ReadOptions> readOptions;
  private final LeakRegistry.Registration registration;
  private final Consumer<ManagedSnapshot> onClose;
  private final OperationGuard guard = OperationGuard.forResource("Snapshot");
  private final Duration closeTimeout;
  private boolean closed;

  ManagedSnapshot(Managed<RocksDB> db, String owner, Duration closeTimeout,
      Consumer<ManagedSnapshot> onClose) {
    this.db = db;
    this.snapshot = db.get().getSnapshot();
    this.registration = NativeTracker.register(snapshot, owner);
    this.readOptions = Managed.of(new ReadOptions().setSnapshot(snapshot), owner);
    this.closeTimeout = closeTimeout;
    this.onClose = onClose;
  }

  /**
   * Admits one read of the snapshot and returns read options pinned to it; they stay valid until
   * the matching {@link #exit()}, which the caller must make whatever happens.
   *
   * @throws IllegalStateException if the snapshot is closed or closing; then nothing is admitted
   */
  ReadOptions enter() {
    guard.enter();
    return readOptions.get();
  }

  /** The native snapshot; only between {@link #enter()} and {@link #exit()}. */
  Snapshot nativeSnapshot() {
    return snapshot;
  }

  /** Whether this is a snapshot of {@code database}. */
  boolean of(Managed<RocksDB> database) {
    return db == database;
  }

  /** Ends a read admitted by {@link #enter()}. */
  void exit() {
    guard.exit();
  }

  /** The sequence number the snapshot sees. */
  public long sequenceNumber() {
    enter();
    try {
      return snapshot.getSequenceNumber();
    } finally {
      exit();
    }
  }

  /**
   * Releases the snapshot once no admitted read is running. New reads are refused from the start
   * of the first call.
   *
   * @throws StoreException if reads are still running after the database's close
   *     timeout; the snapshot is then left allocated rather than freed under them, and a later
   *     call releases it
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    guard.beginClose();
    if (!guard.awaitIdle(closeTimeout)) {
      // Not marked closed: a later close (the caller's, or the store's once its own operations
      // have finished) releases it.
      throw new StoreException("Snapshot: " + guard.inFlight() + " reads still running after "
          + closeTimeout + "; not released yet");
    }
    closed = true;
    try {
      readOptions.close();
      db.get().releaseSnapshot(snapshot);
    } finally {
      registration.close();
      onClose.accept(this);
    }
  }
}
