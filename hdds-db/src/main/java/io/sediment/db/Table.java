package io.sediment.db;

import java.util.List;

/**
 * A sorted key-value table: one RocksDB column family. Keys are ordered by their encoded bytes
 * (unsigned lexicographic).
 *
 * <p>Arguments: a {@code null} key, value, prefix element or batch throws
 * {@link NullPointerException}; an encoded key longer than the store's key limit throws
 * {@link IllegalArgumentException}. A rejected call changes nothing. Native failures throw
 * {@link StoreException}; undecodable bytes throw
 * {@link io.sediment.db.codec.CodecException} naming the table and key. Every call after the store
 * closed throws {@link StoreClosedException}. Thread-safe; writes use the store's one configured
 * {@code WriteOptions}.
 *
 * @param <K> key type
 * @param <V> value type
 */
public interface Table<K, V> {

  /** The column family name. */
  String getName();

  void put(K key, V value);

  /** Adds a put to {@code batch}; nothing is written until the batch commits. */
  void putWithBatch(BatchOperation batch, K key, V value);

  /** The value of {@code key}, or {@code null} if absent. */
  V get(K key);

  /**
   * As {@link #get}, but first asks the Bloom filters and memtables whether the key may exist,
   * which answers "absent" without reading a data block for most missing keys.
   */
  V getIfExist(K key);

  /**
   * The values of {@code keys}, one per key in their order ({@code null} where absent), read with
   * one RocksDB MultiGet: all as one moment sees them (a view's snapshot, else the moment of the
   * read), in one native call however many keys. Keys may repeat; an empty list reads nothing.
   * Each key is checked as {@link #get} checks it, before anything is read.
   */
  List<V> getAll(List<K> keys);

  /** Whether {@code key} is present; definitive. */
  boolean isExist(K key);

  /** Deletes {@code key} (a point tombstone); deleting an absent key is not an error. */
  void delete(K key);

  /** Adds a point delete to {@code batch}. */
  void deleteWithBatch(BatchOperation batch, K key);

  /**
   * Deletes every key in {@code [from, to)} with one range tombstone.
   *
   * @throws IllegalArgumentException if {@code from} sorts after {@code to}
   */
  void deleteRange(K from, K to);

  /** Adds a range delete of {@code [from, to)} to {@code batch}. */
  void deleteRangeWithBatch(BatchOperation batch, K from, K to);

  /**
   * Deletes every key starting with {@code prefix} with one range tombstone
   * ({@code [prefix, successor(prefix))}). Use it only when every key under the prefix must go,
   * whoever wrote it: unlike deleting the keys one listed, it also removes keys written under the
   * prefix after the caller looked. One wide range is cheap for readers (one reseek); many small adjacent ranges cost about as much
   * as point deletes, so delete a subtree once, not per child. For an empty or all-{@code 0xFF}
   * prefix (no successor) the range ends past the longest key the table accepts (see
   * {@code RDBTable#deletePrefixWithBatch} for key limits of 1 MiB and more).
   */
  void deletePrefix(K prefix);

  /** Adds {@link #deletePrefix} to {@code batch}. */
  void deletePrefixWithBatch(BatchOperation batch, K prefix);

  /** Whether the table has no live entry. */
  boolean isEmpty();

  /** RocksDB's estimate of the number of live keys ({@code rocksdb.estimate-num-keys}). */
  long getEstimatedKeyCount();

  /** An iterator over the whole table. */
  default TableIterator<K, KeyValue<K, V>> iterator() {
    return iterator(null, IteratorType.KEY_AND_VALUE);
  }

  /** An iterator over the keys starting with {@code prefix} (the whole table if {@code null}). */
  default TableIterator<K, KeyValue<K, V>> iterator(K prefix) {
    return iterator(prefix, IteratorType.KEY_AND_VALUE);
  }

  /**
   * An iterator over the keys starting with {@code prefix}, natively bounded to
   * {@code [prefix, successor(prefix))} so that neither positioning nor advancing walks entries
   * or tombstones outside it. A {@code null} or empty prefix means the whole table.
   */
  TableIterator<K, KeyValue<K, V>> iterator(K prefix, IteratorType type);

  /**
   * Whether a live key starts with {@code prefix} (any key if {@code null}): deleted keys do not
   * count. One bounded key-only iterator, positioned once; no value is read.
   */
  default boolean hasLiveKey(K prefix) {
    try (TableIterator<K, KeyValue<K, V>> it = iterator(prefix, IteratorType.KEY_ONLY)) {
      return it.hasNext();
    }
  }

  /**
   * The number of live keys starting with {@code prefix} (all keys if {@code null}), counted
   * exactly with one bounded key-only iterator: it walks every such key, so it costs as much as
   * listing them (use {@link #getEstimatedKeyCount()} for a cheap estimate of the whole table).
   */
  default long countRows(K prefix) {
    long n = 0;
    try (TableIterator<K, KeyValue<K, V>> it = iterator(prefix, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  /**
   * An iterator over {@code [fromInclusive, toExclusive)}, natively bounded; a {@code null} end is
   * open.
   *
   * @throws IllegalArgumentException if {@code fromInclusive} sorts after {@code toExclusive}
   */
  TableIterator<K, KeyValue<K, V>> rangeIterator(K fromInclusive, K toExclusive, IteratorType type);

  /**
   * Up to {@code count} entries in key order that pass every filter, starting at
   * {@code startKey} inclusive or, when it is {@code null}, at the start of {@code prefix} (the
   * table start when {@code prefix} is {@code null}).
   *
   * <ul>
   *   <li>{@code count < 0}: {@link IllegalArgumentException}; {@code count == 0}: empty.
   *   <li>A {@code startKey} longer than {@code prefix} (or any {@code startKey} without a prefix)
   *       must exist: if it does not, the answer is empty. A {@code startKey} equal to the prefix
   *       is the start of the range and need not exist.
   *   <li>With a prefix, a {@code startKey} that does not start with it (whether it sorts before
   *       or after the prefix's keys, and whether it exists or not) starts no range within the
   *       prefix: the answer is empty, as in Ozone. An empty prefix is no prefix.
   *   <li>When {@code startKey != null}, {@code count == 1}, no filters are given and
   *       {@code startKey} is strictly longer than and inside the prefix (or there is no prefix),
   *       the answer is one point read: no iterator is created.
   * </ul>
   * Otherwise one bounded iterator is positioned once and read lazily: no entry after the last
   * one returned is visited.
   */
  List<KeyValue<K, V>> getRangeKVs(K startKey, int count, K prefix, KeyFilter... filters);

  /**
   * As {@link #getRangeKVs}, except that after the first entry that passes the filters, the first
   * entry that fails them ends the result: a sequential run of matches.
   */
  List<KeyValue<K, V>> getSequentialRangeKVs(K startKey, int count, K prefix, KeyFilter... filters);
}
