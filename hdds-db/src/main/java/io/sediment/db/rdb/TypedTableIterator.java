package io.sediment.db.rdb;

import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.CodecBuffer;

/**
 * Decodes the entries of a {@link RDBStoreCodecBufferIterator} for a {@link TypedTable}. Entries it
 * returns are decoded objects the caller may keep. Contract in {@link TableIterator}.
 */
final class TypedTableIterator<K, V> implements TableIterator<K, KeyValue<K, V>> {

  private final TypedTable<K, V> table;
  private final RDBStoreCodecBufferIterator raw;
  /** The raw entry last returned by a seek, and its decoded form, so next() need not decode twice. */
  private KeyValue<CodecBuffer, CodecBuffer> seekRaw;
  private KeyValue<K, V> seekDecoded;

  TypedTableIterator(TypedTable<K, V> table, RDBStoreCodecBufferIterator raw) {
    this.table = table;
    this.raw = raw;
  }

  private KeyValue<K, V> decode(KeyValue<CodecBuffer, CodecBuffer> e) {
    if (e.getKey() == null) {
      return KeyValue.ofValue(
          table.decodeValue(e.getValue(), "(not read: a value-only iterator)"));
    }
    K key = table.decodeKey(e.getKey());
    return KeyValue.of(key, e.getValue() == null ? null : table.decodeValue(e.getValue(), key));
  }

  @Override
  public K currentKey() {
    return table.decodeKey(raw.currentKey());
  }

  @Override
  public boolean hasNext() {
    return raw.hasNext();
  }

  @Override
  public KeyValue<K, V> next() {
    KeyValue<CodecBuffer, CodecBuffer> e = raw.next();
    KeyValue<K, V> out = e == seekRaw ? seekDecoded : decode(e);
    seekRaw = null;
    seekDecoded = null;
    return out;
  }

  @Override
  public void seekToFirst() {
    seekRaw = null;
    raw.seekToFirst();
  }

  @Override
  public void seekToLast() {
    seekRaw = null;
    raw.seekToLast();
  }

  @Override
  public KeyValue<K, V> seek(K key) {
    return position(key, false);
  }

  @Override
  public KeyValue<K, V> seekAfter(K key) {
    return position(key, true);
  }

  private KeyValue<K, V> position(K key, boolean strictlyAfter) {
    KeyValue<CodecBuffer, CodecBuffer> e;
    try (CodecBuffer target = table.encodeKey(key, "key")) {
      e = strictlyAfter ? raw.seekAfter(target) : raw.seek(target);
    }
    // Forget the previous seek first: if decoding this entry throws, next() must decode (and
    // fail on) it again rather than return the previous seek's entry.
    seekRaw = null;
    seekDecoded = null;
    KeyValue<K, V> decoded = e == null ? null : decode(e);
    seekRaw = e;
    seekDecoded = decoded;
    return decoded;
  }

  @Override
  public void removeFromDB() {
    raw.removeFromDB();
  }

  @Override
  public Hold hold() {
    return raw.hold();
  }

  @Override
  public void close() {
    seekRaw = null;
    seekDecoded = null;
    raw.close();
  }
}
