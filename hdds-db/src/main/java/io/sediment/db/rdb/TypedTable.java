package io.sediment.db.rdb;

import io.sediment.db.BatchOperation;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyFilter;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.Codec;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.codec.CodecException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Table} of typed keys and values over a {@link RDBTable}. {@code put}, {@code get} and
 * {@code delete} (with or without a batch) and the entries of iterators move keys and values
 * through pooled direct {@link CodecBuffer}s, released before each call returns (a codec that
 * overrides {@link Codec#encodeInto} writes straight into them). The other calls encode to
 * {@code byte[]}: {@code getIfExist}, {@code isExist}, range and prefix deletes, iterator bounds,
 * and {@code getRangeKVs}/{@code getSequentialRangeKVs}, whose results are decoded from
 * {@code byte[]} entries. Bytes a codec cannot decode throw {@link CodecException} naming the
 * table and the key. Thread-safe.
 */
public final class TypedTable<K, V> implements Table<K, V> {

  private static final int MAX_VALUE_HINT = 1 << 20;

  private final RDBTable raw;
  private final Codec<K> keyCodec;
  private final Codec<V> valueCodec;
  private final AtomicInteger valueCapacityHint = new AtomicInteger(256);

  TypedTable(RDBTable raw, TableDefinition<K, V> definition) {
    this.raw = raw;
    this.keyCodec = definition.keyCodec();
    this.valueCodec = definition.valueCodec();
  }

  @Override
  public String getName() {
    return raw.getName();
  }

  /** The raw table underneath. */
  public RDBTable rawTable() {
    return raw;
  }

  CodecBuffer encodeKey(K key, String what) {
    return keyCodec.toCodecBuffer(Objects.requireNonNull(key, what));
  }

  private byte[] keyBytes(K key, String what) {
    return key == null ? null : keyCodec.toPersistedFormat(key);
  }

  K decodeKey(CodecBuffer key) {
    try {
      return keyCodec.decode(key);
    } catch (CodecException | IllegalArgumentException e) {
      throw decodeError("key " + Bytes.toDisplayString(key.getArray()), e);
    }
  }

  V decodeValue(CodecBuffer value, Object key) {
    try {
      return valueCodec.decode(value);
    } catch (CodecException | IllegalArgumentException e) {
      throw decodeError("the value of key " + key, e);
    }
  }

  private K decodeKey(byte[] key) {
    try {
      return keyCodec.fromPersistedFormat(key);
    } catch (CodecException | IllegalArgumentException e) {
      throw decodeError("key " + Bytes.toDisplayString(key), e);
    }
  }

  private V decodeValue(byte[] value, Object key) {
    try {
      return valueCodec.fromPersistedFormat(value);
    } catch (CodecException | IllegalArgumentException e) {
      throw decodeError("the value of key " + key, e);
    }
  }

  /** A failed decode as a {@link CodecException} naming this table and {@code what}. */
  private CodecException decodeError(String what, RuntimeException cause) {
    return new CodecException("Table " + getName() + ": cannot decode " + what + ": "
        + cause.getMessage(), cause);
  }

  @Override
  public void put(K key, V value) {
    Objects.requireNonNull(value, "value");
    try (CodecBuffer k = encodeKey(key, "key"); CodecBuffer v = valueCodec.toCodecBuffer(value)) {
      raw.put(k, v);
    }
  }

  @Override
  public void putWithBatch(BatchOperation batch, K key, V value) {
    Objects.requireNonNull(value, "value");
    try (CodecBuffer k = encodeKey(key, "key"); CodecBuffer v = valueCodec.toCodecBuffer(value)) {
      raw.putWithBatch(batch, k, v);
    }
  }

  @Override
  public V get(K key) {
    try (CodecBuffer k = encodeKey(key, "key");
        CodecBuffer v = CodecBuffer.allocateDirect(valueCapacityHint.get())) {
      if (!raw.get(k, v)) {
        return null;
      }
      int size = v.readableBytes();
      if (size > valueCapacityHint.get() && size <= MAX_VALUE_HINT) {
        valueCapacityHint.accumulateAndGet(Integer.highestOneBit(size - 1) << 1, Math::max);
      }
      return decodeValue(v, key);
    }
  }

  @Override
  public List<V> getAll(List<K> keys) {
    List<byte[]> encoded = new ArrayList<>(keys.size());
    for (K key : keys) {
      encoded.add(keyBytes(Objects.requireNonNull(key, "key"), "key"));
    }
    List<byte[]> values = raw.getAll(encoded);
    List<V> out = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      byte[] value = values.get(i);
      out.add(value == null ? null : decodeValue(value, keys.get(i)));
    }
    return out;
  }

  @Override
  public V getIfExist(K key) {
    byte[] value = raw.getIfExist(keyBytes(Objects.requireNonNull(key, "key"), "key"));
    return value == null ? null : decodeValue(value, key);
  }

  @Override
  public boolean isExist(K key) {
    return raw.isExist(keyBytes(Objects.requireNonNull(key, "key"), "key"));
  }

  @Override
  public void delete(K key) {
    try (CodecBuffer k = encodeKey(key, "key")) {
      raw.delete(k);
    }
  }

  @Override
  public void deleteWithBatch(BatchOperation batch, K key) {
    try (CodecBuffer k = encodeKey(key, "key")) {
      raw.deleteWithBatch(batch, k);
    }
  }

  @Override
  public void deleteRange(K from, K to) {
    raw.deleteRange(keyBytes(Objects.requireNonNull(from, "from"), "from"),
        keyBytes(Objects.requireNonNull(to, "to"), "to"));
  }

  @Override
  public void deleteRangeWithBatch(BatchOperation batch, K from, K to) {
    raw.deleteRangeWithBatch(batch, keyBytes(Objects.requireNonNull(from, "from"), "from"),
        keyBytes(Objects.requireNonNull(to, "to"), "to"));
  }

  @Override
  public void deletePrefix(K prefix) {
    raw.deletePrefix(keyBytes(Objects.requireNonNull(prefix, "prefix"), "prefix"));
  }

  @Override
  public void deletePrefixWithBatch(BatchOperation batch, K prefix) {
    raw.deletePrefixWithBatch(batch, keyBytes(Objects.requireNonNull(prefix, "prefix"), "prefix"));
  }

  @Override
  public boolean isEmpty() {
    return raw.isEmpty();
  }

  @Override
  public long getEstimatedKeyCount() {
    return raw.getEstimatedKeyCount();
  }

  @Override
  public TableIterator<K, KeyValue<K, V>> iterator(K prefix, IteratorType type) {
    byte[] p = keyBytes(prefix, "prefix");
    byte[] lower = p == null || p.length == 0 ? null : p;
    return new TypedTableIterator<>(this,
        raw.codecBufferIterator(lower, lower == null ? null : Bytes.prefixSuccessor(lower), type));
  }

  @Override
  public TableIterator<K, KeyValue<K, V>> rangeIterator(K from, K to, IteratorType type) {
    return new TypedTableIterator<>(this,
        raw.codecBufferIterator(keyBytes(from, "from"), keyBytes(to, "to"), type));
  }

  @Override
  public List<KeyValue<K, V>> getRangeKVs(K startKey, int count, K prefix, KeyFilter... filters) {
    return decode(raw.getRangeKVs(keyBytes(startKey, "startKey"), count,
        keyBytes(prefix, "prefix"), filters));
  }

  @Override
  public List<KeyValue<K, V>> getSequentialRangeKVs(K startKey, int count, K prefix,
      KeyFilter... filters) {
    return decode(raw.getSequentialRangeKVs(keyBytes(startKey, "startKey"), count,
        keyBytes(prefix, "prefix"), filters));
  }

  private List<KeyValue<K, V>> decode(List<KeyValue<byte[], byte[]>> rawEntries) {
    List<KeyValue<K, V>> out = new ArrayList<>(rawEntries.size());
    for (KeyValue<byte[], byte[]> e : rawEntries) {
      K key = decodeKey(e.getKey());
      out.add(KeyValue.of(key, e.getValue() == null ? null : decodeValue(e.getValue(), key)));
    }
    return out;
  }

  @Override
  public String toString() {
    return "TypedTable[" + getName() + "]";
  }
}
