package io.sediment.db.managed;

import io.sediment.db.StoreException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A native write batch: puts, deletes and range deletes on any column family of one database,
 * applied atomically by {@link RocksDatabase#write}. Not thread-safe. Use after close throws
 * {@link IllegalStateException}.
 */
public final class ManagedWriteBatch implements AutoCloseable {

  private final Managed<WriteBatch> batch;
  private final RocksDatabase db;
  private final String owner;
  private final OperationGuard guard;
  /** Range deletions per family name; {@code null} until the first one (most batches have none). */
  private Map<String, Long> rangeDeletions;

  /**
   * @param db the database whose column families the batch takes and which applies it
   * @param guard that database's guard: adding to a batch passes a column family handle to
   *     native code, which must not happen once the database has freed its handles
   */
  ManagedWriteBatch(RocksDatabase db, OperationGuard guard) {
    this.db = db;
    this.owner = db.name();
    this.guard = guard;
    this.batch = Managed.of(new WriteBatch(), owner);
  }

  private WriteBatch enter() {
    guard.enter();
    try {
      return batch.get();
    } catch (RuntimeException e) {
      guard.exit();
      throw e;
    }
  }

  /** The native batch, for {@code target} to apply; a batch of another database is refused. */
  WriteBatch batchFor(RocksDatabase target) {
    if (target != db) {
      throw new IllegalArgumentException("A batch of store " + db.describe()
          + " cannot be written to " + target.describe());
    }
    return batch.get();
  }

  public void put(ColumnFamily cf, byte[] key, byte[] value) {
    WriteBatch b = enter();
    try {
      b.put(cf.handle(db), key, value);
    } catch (RocksDBException e) {
      throw new StoreException(owner + ": batch put on " + cf.name() + " failed", e);
    } finally {
      guard.exit();
    }
  }

  /** Adds a put of the bytes between each buffer's position and limit; the buffers are not moved. */
  public void put(ColumnFamily cf, ByteBuffer key, ByteBuffer value) {
    WriteBatch b = enter();
    try {
      b.put(cf.handle(db), key.duplicate(), value.duplicate());
    } catch (RocksDBException e) {
      throw new StoreException(owner + ": batch put on " + cf.name() + " failed", e);
    } finally {
      guard.exit();
    }
  }

  public void delete(ColumnFamily cf, byte[] key) {
    WriteBatch b = enter();
    try {
      b.delete(cf.handle(db), key);
    } catch (RocksDBException e) {
      throw new StoreException(owner + ": batch delete on " + cf.name() + " failed", e);
    } finally {
      guard.exit();
    }
  }

  public void delete(ColumnFamily cf, ByteBuffer key) {
    WriteBatch b = enter();
    try {
      b.delete(cf.handle(db), key.duplicate());
    } catch (RocksDBException e) {
      throw new StoreException(owner + ": batch delete on " + cf.name() + " failed", e);
    } finally {
      guard.exit();
    }
  }

  /** Adds one range tombstone covering {@code [from, to)}. */
  public void deleteRange(ColumnFamily cf, byte[] from, byte[] to) {
    WriteBatch b = enter();
    try {
      b.deleteRange(cf.handle(db), from, to);
      if (rangeDeletions == null) {
        rangeDeletions = new HashMap<>(2);
      }
      rangeDeletions.merge(cf.name(), 1L, Long::sum);
    } catch (RocksDBException e) {
      throw new StoreException(owner + ": batch deleteRange on " + cf.name() + " failed", e);
    } finally {
      guard.exit();
    }
  }

  /** Range deletions added so far, per family name. */
  Map<String, Long> rangeDeletions() {
    return rangeDeletions == null ? Map.of() : rangeDeletions;
  }

  /** Number of operations added so far. */
  public int count() {
    return batch.get().count();
  }

  public boolean isClosed() {
    return batch.isClosed();
  }

  @Override
  public void close() {
    batch.close();
  }
}
