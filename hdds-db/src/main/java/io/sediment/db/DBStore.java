package io.sediment.db;

import java.nio.file.Path;
import java.util.List;

/**
 * An open store: one RocksDB database whose column families are the tables of its
 * {@link DBDefinition}. Owns every native object and frees them in {@link #close()}.
 * Thread-safe.
 */
public interface DBStore extends AutoCloseable {

  String getName();

  /** The data directory. */
  Path getPath();

  /** The table names, in definition order. */
  List<String> listTables();

  /** The raw table called {@code name}: encoded keys and values. */
  Table<byte[], byte[]> getTable(String name);

  /** The typed table of {@code definition}, which must be one of this store's tables. */
  <K, V> Table<K, V> getTable(TableDefinition<K, V> definition);

  /**
   * Opens a consistent read-only view of every table at this moment (a RocksDB snapshot); the
   * caller closes it.
   */
  ReadView openReadView();

  /** A new, empty batch for this store's tables. */
  BatchOperation initBatchOperation();

  /**
   * Same as {@code batch.commit()}, after checking that {@code batch} belongs to this store
   * ({@link IllegalArgumentException} otherwise).
   */
  void commitBatchOperation(BatchOperation batch);

  /**
   * Starts a bulk load of {@code table} (one of this store's, with its codecs): rows added in
   * increasing key order go to new SST files of about the table's target file size
   * ({@link DBProfile#targetFileSizeBase()}), ingested atomically by {@link TableBulkLoad#ingest}.
   * The caller closes it.
   *
   * @throws IllegalArgumentException if {@code table} is not this store's
   * @throws UnsupportedOperationException on a secondary
   * @throws StoreException if its work directory cannot be created
   */
  <K, V> TableBulkLoad<K, V> bulkLoad(TableDefinition<K, V> table);

  /**
   * As {@link #bulkLoad(TableDefinition)}, finishing each file at about {@code targetFileBytes}.
   *
   * @throws IllegalArgumentException also if {@code targetFileBytes} is not positive
   */
  <K, V> TableBulkLoad<K, V> bulkLoad(TableDefinition<K, V> table, long targetFileBytes);

  /** Flushes every table's memtable to SST files and waits. */
  void flush();

  /**
   * Flushes one table's memtable and waits; a store without a WAL ({@link DBProfile#disableWal()})
   * flushes every table's, together, since a flush of some would persist part of a batch.
   */
  void flush(String table);

  /**
   * Makes every write acknowledged so far durable: one fsync of the write-ahead log. Writes made
   * with {@code sync=false} are visible to readers as soon as they are applied but survive a
   * machine crash only after a later sync; callers that group-commit write unsynced and call this
   * once for the whole group.
   */
  void syncWal();

  /**
   * Compacts the encoded keys of {@code table} in {@code [begin, end]} down to the bottommost
   * level, dropping the tombstones no snapshot still needs. A {@code null} end is open. The
   * compaction is kept in the store's compaction history ({@link #tombstoneStats}) with
   * trigger MANUAL and the tombstones the table held before and after.
   */
  void compactRange(String table, byte[] begin, byte[] end);

  /**
   * Writes a consistent checkpoint of every table into {@code dir}, which must not exist; it
   * opens as a store with the same contents.
   *
   * @throws IllegalArgumentException if {@code dir} exists
   * @throws StoreException if RocksDB fails
   */
  void createCheckpoint(Path dir);

  /**
   * Checks every file of the store: each live SST present, of the size its MANIFEST records and
   * with every block checksum matching; each write-ahead log readable up to a torn tail; SSTs the
   * MANIFEST does not list (reported, not failed). Reads every byte: for checks, not requests.
   */
  List<FileCheck> verifyFiles();

  /**
   * Per table: live-key estimate, point and range deletions in memtables and SST files, ranges where
   * scans keep skipping tombstones; and the targeted compactions scheduled, done and skipped.
   */
  io.sediment.db.stats.TombstoneStats tombstoneStats();

  /**
   * Whether this store pins its index and filter partitions in the block cache, as decided when
   * it opened ({@code DBProfile.PartitionPinning}). Tables whose options come from an OPTIONS ini
   * file pin as that file says instead.
   */
  io.sediment.db.PinningDecision partitionPinning();

  /** A RocksDB statistics ticker by {@code TickerType} name, e.g. {@code NUMBER_DB_SEEK}. */
  long getTickerCount(String ticker);

  /** Every RocksDB statistics ticker of this store, by {@code TickerType} name. */
  java.util.Map<String, Long> getTickerCounts();

  /**
   * A numeric RocksDB property of one table, e.g. {@code rocksdb.total-sst-files-size},
   * {@code rocksdb.estimate-live-data-size} or {@code rocksdb.cur-size-all-mem-tables}.
   *
   * @throws IllegalArgumentException if the store has no such table
   * @throws StoreException if RocksDB does not know the property
   */
  long getLongProperty(String table, String property);

  /**
   * Whether this store is a read-only secondary instance over a directory another process owns
   * ({@link DBStoreBuilder#setSecondary}). Its writes, flushes, compactions, WAL syncs and
   * checkpoints throw {@link UnsupportedOperationException}.
   */
  boolean isSecondary();

  /**
   * Secondary stores only: makes later reads see what the primary has written since the store
   * was opened or last caught up. Open views and iterators keep the view they had.
   *
   * @throws IllegalStateException if this store is not a secondary
   * @throws StoreException if RocksDB fails
   */
  void catchUpWithPrimary();

  /**
   * Whether writes are refused because the file system holding the store is full: from the first
   * write refused with {@link io.sediment.db.StoreOutOfSpaceException} until RocksDB has
   * recovered by itself, which it does (polling every 5 s, no reopen) once the free space there
   * reaches the exception's {@code requiredFreeBytes()}: the largest memtable size
   * ({@code DBProfile.writeBufferBytes}, 64 MiB by default). Reads keep working meanwhile, and no
   * acknowledged write is lost. Always false on a secondary.
   */
  boolean isOutOfSpace();

  /**
   * Runs {@code listener} after each change of {@link #isOutOfSpace()}, on the thread that saw
   * it (a writer, or RocksDB's recovery thread): it must return quickly and must not call into
   * the store other than {@link #isOutOfSpace()}.
   *
   * @return what unregisters the listener (idempotent)
   */
  Runnable addOutOfSpaceListener(Runnable listener);

  /**
   * Stops admitting operations, waits up to the close timeout
   * ({@link DBStoreBuilder#setCloseTimeout}) for operations in flight to finish, then frees every
   * native object. Iterators whose owners have not closed them get a short grace (100 ms) and are
   * then closed by the store, native objects and pooled buffers alike, and recorded as abandoned
   * (the test leak check fails on them): once the close has begun an iterator can only be closed, so waiting longer for an idle one would
   * only delay the close. Idempotent. Later calls on the store, its tables or its iterators
   * (except their idempotent {@code close()}) throw {@link StoreClosedException}.
   *
   * @throws StoreException if operations are still running after the close timeout; native memory is then left allocated rather than freed under them
   */
  @Override
  void close();
}
