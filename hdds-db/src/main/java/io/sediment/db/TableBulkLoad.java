package io.sediment.db;

import java.nio.file.Path;
import java.util.List;

/**
 * Rows written straight into new SST files of one table and then ingested into it in one call,
 * bypassing the memtable and the write-ahead log: the way to build millions of rows in seconds.
 * Opened by {@link DBStore#bulkLoad}.
 *
 * <p><b>Order.</b> Keys are added in strictly increasing order of their encoded bytes (unsigned
 * lexicographic, the order of every table: RocksDB's bytewise comparator). A key equal to or
 * below the previous one is refused with {@link IllegalArgumentException} naming both, before
 * anything is written; the load stays usable and the refused row is simply not part of it. So
 * are a {@code null} key or value ({@link NullPointerException}) and a key longer than the
 * store's key limit ({@link IllegalArgumentException}).
 *
 * <p><b>Files.</b> Rows go to SST files written with the table's own options (its block-based
 * table format, Bloom filter, compression and comparator), in a work directory of their own
 * inside the store's directory (so ingestion moves them instead of copying). A file is finished
 * once it reaches the target size and the next row starts a new one; the files never overlap.
 *
 * <p><b>Ingestion</b> ({@link #ingest}) adds every file to the table in ONE RocksDB call, which
 * is atomic: readers see all of the rows or none, and a failed ingest leaves the table as it was.
 * Ingested rows take a sequence number above every write before the call, so they replace the
 * table's rows under the same keys (point and range tombstones included). They are durable when
 * the call returns (RocksDB syncs the files and records them in its MANIFEST). An iterator or
 * {@link ReadView} opened before the call does not see them.
 *
 * <p><b>Resources.</b> The load owns native writers and its work directory; {@link #close()}
 * frees them and deletes the directory (and whatever was not ingested), so use it with
 * try-with-resources. Not thread-safe: one thread adds, finishes and ingests. Loads of different
 * tables may run in parallel threads.
 *
 * @param <K> key type
 * @param <V> value type
 */
public interface TableBulkLoad<K, V> extends AutoCloseable {

  /** The table the rows go to. */
  String table();

  /**
   * Adds a row after every row added before.
   *
   * @throws IllegalArgumentException if the encoded key does not sort strictly after the previous
   *     one, or is longer than the store's key limit; the row is not added
   * @throws IllegalStateException once the load was finished, ingested, failed or closed
   * @throws StoreException if writing the file fails; the load is then failed
   */
  void add(K key, V value);

  /** Rows added so far. */
  long rowCount();

  /**
   * Finishes the file being written (if any); rows can no longer be added. Idempotent;
   * {@link #ingest} calls it.
   *
   * @throws StoreException if the file cannot be finished; the load is then failed
   */
  void finish();

  /**
   * The files finished so far, in key order (all of them after {@link #finish}), in the work
   * directory until {@link #ingest} moves them into the store.
   */
  List<Path> files();

  /** The bytes of the files finished so far. */
  long fileBytes();

  /**
   * Finishes the last file and ingests every file into the table in one atomic call. With no
   * row added, does nothing. Once.
   *
   * @throws IllegalStateException if already ingested, failed or closed
   * @throws StoreException if RocksDB refuses the files; nothing was ingested and the load is
   *     failed
   * @throws StoreClosedException if the store is closed
   */
  void ingest();

  /** Frees the writers and deletes the work directory with every file not ingested. Idempotent. */
  @Override
  void close();
}
