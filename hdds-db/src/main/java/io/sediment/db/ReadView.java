package io.sediment.db;

import io.sediment.db.codec.Codec;

/**
 * A consistent read-only view of every table of a store at one moment (one RocksDB snapshot), for
 * reads that must agree across tables, such as a listing page that merges two tables.
 *
 * <p>Tables from a view answer reads, iterators and {@code getRangeKVs} as of the moment the view
 * was opened; their writes throw {@link UnsupportedOperationException};
 * {@code getEstimatedKeyCount} is the store's current estimate. While a view is open, compaction
 * keeps every entry and tombstone it can see, so close views promptly. Closing is idempotent; the
 * store releases views left open when it closes. Thread-safe; its iterators are not.
 */
public interface ReadView extends AutoCloseable {

  /** The raw table called {@code name}, as of this view. */
  Table<byte[], byte[]> getTable(String name);

  /** The typed table of {@code definition}, as of this view. */
  <K, V> Table<K, V> getTable(TableDefinition<K, V> definition);

  /**
   * The table of {@code definition}, as of this view, its values decoded by {@code readAs}
   * instead of the definition's value codec: for reads that want part of each stored value
   * ({@code readAs} decodes the same bytes). Writes fail and change nothing, as on any view's
   * table; {@code readAs} may be asked to encode a written value first, and may refuse to.
   *
   * @throws IllegalArgumentException if the store defines the table with other codecs
   */
  <K, V> Table<K, V> getTable(TableDefinition<K, ?> definition, Codec<V> readAs);

  /** The RocksDB sequence number the view reads at. */
  long sequenceNumber();

  /**
   * Releases the view's snapshot once reads running through it have finished; reads that start
   * after the close began throw {@link IllegalStateException}, and iterators opened before it
   * keep reading the view's moment. Idempotent.
   *
   * @throws StoreException if reads are still running after the store's close timeout; the view then stays open and a later close retries
   */
  @Override
  void close();
}
