package io.sediment.db;

/**
 * A group of writes to any tables of one store, applied atomically by {@link #commit()}: all of
 * them or none. Writes are added with the tables' {@code *WithBatch} methods and are invisible
 * until commit. Single use: committing twice, or adding after commit or close, throws
 * {@link IllegalStateException}. Closing an uncommitted batch discards it. Not thread-safe.
 */
public interface BatchOperation extends AutoCloseable {

  /** Applies every write atomically with the store's write options. */
  void commit();

  /** Number of writes added. */
  int size();

  @Override
  void close();
}
