package io.sediment.db.managed;

import io.sediment.db.util.LeakRegistry;
import java.util.function.Consumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * An open RocksDB snapshot: a consistent view of every column family at one sequence number.
 * Closing releases it (idempotent, thread-safe). A snapshot still open when its database closes
 * is released by the database first.
 */
public final class ManagedSnapshot implements AutoCloseable {

  private final Managed<RocksDB> db;
  private final Snapshot snapshot;
  private final Managed<ReadOptions> readOptions;
  private final LeakRegistry.Registration registration;
  private final Consumer<ManagedSnapshot> onClose;
  private boolean closed;

  ManagedSnapshot(Managed<RocksDB> db, String owner, Consumer<ManagedSnapshot> onClose) {
    this.db = db;
    this.snapshot = db.get().getSnapshot();
    this.registration = NativeTracker.register(snapshot, owner);
    this.readOptions = Managed.of(new ReadOptions().setSnapshot(snapshot), owner);
    this.onClose = onClose;
  }

  synchronized Snapshot snapshot() {
    if (closed) {
      throw new IllegalStateException("Snapshot is closed");
    }
    return snapshot;
  }

  /** Read options pinned to this snapshot, for point reads. */
  synchronized ReadOptions readOptions() {
    snapshot();
    return readOptions.get();
  }

  /** The sequence number the snapshot sees. */
  public long sequenceNumber() {
    return snapshot().getSequenceNumber();
  }

  /** Releases the snapshot. Called by the database before it closes, so it never races it. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
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
