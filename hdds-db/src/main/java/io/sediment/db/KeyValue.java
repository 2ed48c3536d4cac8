package io.sediment.db;

import io.sediment.db.codec.Bytes;
import java.util.Arrays;
import java.util.Objects;

/**
 * One table entry. Equality and hash are by content: two entries are equal when their keys and
 * values are equal, comparing {@code byte[]} by their bytes. The value is {@code null} when the
 * entry came from a key-only iterator, the key when it came from a value-only one.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class KeyValue<K, V> {

  private final K key;
  private final V value;

  private KeyValue(K key, V value) {
    this.key = key;
    this.value = value;
  }

  public static <K, V> KeyValue<K, V> of(K key, V value) {
    return new KeyValue<>(Objects.requireNonNull(key, "key"), value);
  }

  /** An entry of a value-only iterator: a value without its key. */
  public static <K, V> KeyValue<K, V> ofValue(V value) {
    return new KeyValue<>(null, value);
  }

  /** The key, or {@code null} for an entry read by a value-only iterator. */
  public K getKey() {
    return key;
  }

  /** The value, or {@code null} for an entry read by a key-only iterator. */
  public V getValue() {
    return value;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof KeyValue<?, ?> other)) {
      return false;
    }
    return Arrays.deepEquals(new Object[] {key, value}, new Object[] {other.key, other.value});
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(new Object[] {key, value});
  }

  @Override
  public String toString() {
    return "KeyValue[" + render(key) + " -> " + render(value) + "]";
  }

  private static String render(Object o) {
    return o instanceof byte[] b ? Bytes.toDisplayString(b) : String.valueOf(o);
  }
}
