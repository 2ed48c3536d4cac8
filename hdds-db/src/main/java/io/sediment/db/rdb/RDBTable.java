package io.sediment.db.rdb;

import io.sediment.db.BatchOperation;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.StoreClosedException;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.ManagedSnapshot;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.tombstone.TombstoneTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The raw table: encoded keys and values over one column family. Besides the {@link Table}
 * methods on {@code byte[]} it offers {@link CodecBuffer} overloads that pass pooled direct
 * memory to RocksDB without copying; {@link TypedTable} uses those. Arguments are validated
 * before anything is written. Thread-safe.
 */
public class RDBTable implements Table<byte[], byte[]> {

  /**
   * Key limits below which a prefix without successor is deleted up to {@code maxKeyBytes + 1}
   * bytes of 0xFF (see {@link #deletePrefixWithBatch}).
   */
  private static final int MAX_OPEN_PREFIX_END = 1 << 20;

  private final RocksDatabase db;
  private final ColumnFamily family;
  private final int maxKeyBytes;
  private final TombstoneTracker tracker;
  /** Non-null for a read-only view pinned to a snapshot. */
  private final ManagedSnapshot snapshot;

  RDBTable(RocksDatabase db, ColumnFamily family, int maxKeyBytes, TombstoneTracker tracker) {
    this(db, family, maxKeyBytes, tracker, null);
  }

  private RDBTable(RocksDatabase db, ColumnFamily family, int maxKeyBytes,
      TombstoneTracker tracker, ManagedSnapshot snapshot) {
    this.db = db;
    this.family = family;
    this.maxKeyBytes = maxKeyBytes;
    this.tracker = tracker;
    this.snapshot = snapshot;
  }

  /**
   * A read-only view of this table as {@code snapshot} sees it: reads and iterators see the
   * snapshot, writes throw {@link UnsupportedOperationException}.
   */
  RDBTable view(ManagedSnapshot snapshot) {
    return new RDBTable(db, family, maxKeyBytes, tracker, snapshot);
  }

  private void checkWritable() {
    if (snapshot != null) {
      if (db.isClosed()) {
        // After the store closed every call says so, a view's refused writes too.
        throw new StoreClosedException("store " + db.name() + " is closed");
      }
      throw new UnsupportedOperationException("Table " + getName()
          + " is a read-only view of a snapshot");
    }
  }

  /** Where this table's iterators report tombstone-heavy ranges. */
  public TombstoneTracker tombstoneTracker() {
    return tracker;
  }

  private boolean sample() {
    return tracker != null && tracker.sampleNextIterator();
  }

  @Override
  public String getName() {
    return family.name();
  }

  /** The longest key, in bytes, this table accepts. */
  public int maxKeyBytes() {
    return maxKeyBytes;
  }

  private byte[] checkKey(byte[] key, String what) {
    Objects.requireNonNull(key, what);
    if (key.length > maxKeyBytes) {
      throw new IllegalArgumentException(what + " of " + key.length + " bytes exceeds the limit of "
          + maxKeyBytes + " bytes in table " + getName());
    }
    return key;
  }

  private CodecBuffer checkKey(CodecBuffer key) {
    Objects.requireNonNull(key, "key");
    if (key.readableBytes() > maxKeyBytes) {
      throw new IllegalArgumentException("key of " + key.readableBytes()
          + " bytes exceeds the limit of " + maxKeyBytes + " bytes in table " + getName());
    }
    return key;
  }

  private void checkRange(byte[] from, byte[] to) {
    checkKey(from, "from");
    checkKey(to, "to");
    if (Bytes.compare(from, to) > 0) {
      throw new IllegalArgumentException("Range start " + Bytes.toDisplayString(from)
          + " sorts after its end " + Bytes.toDisplayString(to) + " in table " + getName());
    }
  }

  /** Checks each non-null bound's length, and their order when both are given. */
  private void checkBounds(byte[] from, byte[] to) {
    if (from != null && to != null) {
      checkRange(from, to);
    } else if (from != null) {
      checkKey(from, "from");
    } else if (to != null) {
      checkKey(to, "to");
    }
  }

  // ---- byte[] ------------------------------------------------------------------------------

  @Override
  public void put(byte[] key, byte[] value) {
    checkWritable();
    checkKey(key, "key");
    db.put(family, key, Objects.requireNonNull(value, "value"));
  }

  @Override
  public void putWithBatch(BatchOperation batch, byte[] key, byte[] value) {
    checkWritable();
    checkKey(key, "key");
    Objects.requireNonNull(value, "value");
    RDBBatchOperation.writable(batch, db).put(family, key, value);
  }

  @Override
  public byte[] get(byte[] key) {
    return db.get(family, checkKey(key, "key"), snapshot);
  }

  @Override
  public List<byte[]> getAll(List<byte[]> keys) {
    List<byte[]> checked = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      checked.add(checkKey(key, "key"));
    }
    return db.multiGet(family, checked, snapshot);
  }

  @Override
  public byte[] getIfExist(byte[] key) {
    checkKey(key, "key");
    return db.keyMayExist(family, key, snapshot) ? db.get(family, key, snapshot) : null;
  }

  @Override
  public boolean isExist(byte[] key) {
    return getIfExist(key) != null;
  }

  @Override
  public void delete(byte[] key) {
    checkWritable();
    db.delete(family, checkKey(key, "key"));
  }

  @Override
  public void deleteWithBatch(BatchOperation batch, byte[] key) {
    checkWritable();
    checkKey(key, "key");
    RDBBatchOperation.writable(batch, db).delete(family, key);
  }

  @Override
  public void deleteRange(byte[] from, byte[] to) {
    checkWritable();
    checkRange(from, to);
    db.deleteRange(family, from, to);
  }

  @Override
  public void deleteRangeWithBatch(BatchOperation batch, byte[] from, byte[] to) {
    checkWritable();
    checkRange(from, to);
    RDBBatchOperation.writable(batch, db).deleteRange(family, from, to);
  }

  @Override
  public void deletePrefix(byte[] prefix) {
    checkWritable();
    try (BatchOperation batch = new RDBBatchOperation(db)) {
      deletePrefixWithBatch(batch, prefix);
      batch.commit();
    }
  }

  /**
   * Adds one range tombstone over {@code [prefix, successor(prefix))}. With no successor (an empty
   * or all-0xFF prefix) the range ends at {@code maxKeyBytes + 1} bytes of 0xFF, which sorts after
   * every key this table accepts, so that, as for any other prefix, keys put earlier in the same
   * batch or by other writers before the commit go too. Only for a key limit of 1 MiB or more
   * (where that end would be too large) does the range end at the last existing key instead, which
   * gets its own point delete.
   */
  @Override
  public void deletePrefixWithBatch(BatchOperation batch, byte[] prefix) {
    checkWritable();
    checkKey(prefix, "prefix");
    var writable = RDBBatchOperation.writable(batch, db);
    byte[] from = prefix.clone();
    byte[] to = Bytes.prefixSuccessor(from);
    if (to == null && maxKeyBytes < MAX_OPEN_PREFIX_END) {
      to = new byte[maxKeyBytes + 1];
      java.util.Arrays.fill(to, (byte) 0xFF);
    }
    if (to != null) {
      writable.deleteRange(family, from, to);
      return;
    }
    try (RDBStoreByteArrayIterator it = rangeIterator(from, null, IteratorType.KEY_ONLY)) {
      it.seekToLast();
      if (it.hasNext()) {
        byte[] last = it.next().getKey();
        writable.deleteRange(family, from, last);
        writable.delete(family, last);
      }
    }
  }

  @Override
  public boolean isEmpty() {
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = iterator(null, IteratorType.KEY_ONLY)) {
      return !it.hasNext();
    }
  }

  @Override
  public long getEstimatedKeyCount() {
    return db.introspection().getLongProperty(family, "rocksdb.estimate-num-keys");
  }

  @Override
  public RDBStoreByteArrayIterator iterator(byte[] prefix, IteratorType type) {
    byte[] lower = prefix == null || prefix.length == 0 ? null : checkKey(prefix, "prefix").clone();
    return new RDBStoreByteArrayIterator(
        db.newIterator(family, lower, lower == null ? null : Bytes.prefixSuccessor(lower), sample(),
            snapshot),
        this, type);
  }

  @Override
  public RDBStoreByteArrayIterator rangeIterator(byte[] from, byte[] to, IteratorType type) {
    checkBounds(from, to);
    return new RDBStoreByteArrayIterator(db.newIterator(family, from, to, sample(), snapshot), this,
        type);
  }

  @Override
  public List<KeyValue<byte[], byte[]>> getRangeKVs(byte[] startKey, int count, byte[] prefix,
      KeyFilter... filters) {
    return rangeKVs(startKey, count, prefix, false, filters);
  }

  @Override
  public List<KeyValue<byte[], byte[]>> getSequentialRangeKVs(byte[] startKey, int count,
      byte[] prefix, KeyFilter... filters) {
    return rangeKVs(startKey, count, prefix, true, filters);
  }

  private List<KeyValue<byte[], byte[]>> rangeKVs(byte[] startKey, int count, byte[] prefix,
      boolean sequential, KeyFilter[] filters) {
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative: " + count);
    }
    Objects.requireNonNull(filters, "filters");
    for (KeyFilter f : filters) {
      Objects.requireNonNull(f, "filter");
    }
    byte[] p = prefix == null || prefix.length == 0 ? null : checkKey(prefix, "prefix");
    if (startKey != null) {
      checkKey(startKey, "startKey");
    }
    // A start key outside the prefix (before or after it) starts no range within it. Checked
    // before the fast path, which would otherwise return the start key itself.
    if (count == 0 || (startKey != null && p != null && !Bytes.startsWith(startKey, p))) {
      return List.of();
    }
    boolean startMustExist = startKey != null && (p == null || startKey.length > p.length);
    if (startMustExist && count == 1 && filters.length == 0) {
      byte[] value = db.get(family, startKey, snapshot);
      return value == null ? List.of() : List.of(KeyValue.of(startKey.clone(), value));
    }
    try (RDBStoreByteArrayIterator it = iterator(p, IteratorType.KEY_AND_VALUE)) {
      return RangeCollector.collect(it, startKey, startMustExist, count, sequential, filters);
    }
  }

  // ---- CodecBuffer -------------------------------------------------------------------------

  /** Puts the readable bytes of {@code key} and {@code value}; the buffers are not released. */
  public void put(CodecBuffer key, CodecBuffer value) {
    checkWritable();
    checkKey(key);
    db.put(family, key.asReadOnlyByteBuffer(), value.asReadOnlyByteBuffer());
  }

  /**
   * Reads the value of {@code key} into {@code value}, growing it as needed.
   *
   * @return whether the key exists; when not, {@code value} is left empty
   * @throws java.util.ConcurrentModificationException if other writers kept replacing the value
   *     with a larger one through {@link CodecBuffer#MAX_READS} reads
   */
  public boolean get(CodecBuffer key, CodecBuffer value) {
    checkKey(key);
    var k = key.asReadOnlyByteBuffer();
    return value.readFrom(dest -> db.get(family, k, dest, snapshot)) >= 0;
  }

  public void delete(CodecBuffer key) {
    checkWritable();
    checkKey(key);
    db.delete(family, key.asReadOnlyByteBuffer());
  }

  public void putWithBatch(BatchOperation batch, CodecBuffer key, CodecBuffer value) {
    checkWritable();
    checkKey(key);
    RDBBatchOperation.writable(batch, db)
        .put(family, key.asReadOnlyByteBuffer(), value.asReadOnlyByteBuffer());
  }

  public void deleteWithBatch(BatchOperation batch, CodecBuffer key) {
    checkWritable();
    checkKey(key);
    RDBBatchOperation.writable(batch, db).delete(family, key.asReadOnlyByteBuffer());
  }

  /**
   * A zero-copy iterator natively bounded to {@code [lower, upper)} ({@code null} = open);
   * see {@link RDBStoreCodecBufferIterator} for the lifetime of the entries it returns.
   */
  public RDBStoreCodecBufferIterator codecBufferIterator(byte[] lower, byte[] upper,
      IteratorType type) {
    checkBounds(lower, upper);
    return new RDBStoreCodecBufferIterator(db.newIterator(family, lower, upper, sample(), snapshot),
        this,
        type);
  }
}
