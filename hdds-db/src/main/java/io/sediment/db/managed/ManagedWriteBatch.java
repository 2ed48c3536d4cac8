package io.sediment.db.managed;

import java.nio.ByteBuffer;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A native write batch: puts, deletes and range deletes on any column family of one database,
 * applied atomically by {@link RocksDatabase#write}. Not thread-safe. Use after close throws
 * {@link IllegalStateException}.
 */
public final class ManagedWriteBatch implements AutoCloseable {

  private final Managed<WriteBatch> batch;
  private final String owner;

  ManagedWriteBatch(String owner) {
    this.owner = owner;
    this.batch = Managed.of(new WriteBatch(), owner);
  }

  WriteBatch batch() {
    return batch.get();
  }

  public void put(ColumnFamily cf, byte[] key, byte[] value) {
    try {
      batch.get().put(cf.handle(), key, value);
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(owner + ": batch put on " + cf.name() + " failed", e);
    }
  }

  /** Adds a put of the bytes between each buffer's position and limit; the buffers are not moved. */
  public void put(ColumnFamily cf, ByteBuffer key, ByteBuffer value) {
    try {
      batch.get().put(cf.handle(), key.duplicate(), value.duplicate());
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(owner + ": batch put on " + cf.name() + " failed", e);
    }
  }

  public void delete(ColumnFamily cf, byte[] key) {
    try {
      batch.get().delete(cf.handle(), key);
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(owner + ": batch delete on " + cf.name() + " failed", e);
    }
  }

  public void delete(ColumnFamily cf, ByteBuffer key) {
    try {
      batch.get().delete(cf.handle(), key.duplicate());
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(owner + ": batch delete on " + cf.name() + " failed", e);
    }
  }

  /** Adds one range tombstone covering {@code [from, to)}. */
  public void deleteRange(ColumnFamily cf, byte[] from, byte[] to) {
    try {
      batch.get().deleteRange(cf.handle(), from, to);
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(owner + ": batch deleteRange on " + cf.name() + " failed", e);
    }
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
