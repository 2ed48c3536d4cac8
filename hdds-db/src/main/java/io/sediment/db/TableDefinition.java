package io.sediment.db;

import io.sediment.db.codec.Codec;
import java.util.Objects;

/**
 * A table of a {@link DBDefinition}: its column family name and the codecs of its keys and
 * values.
 *
 * @param name column family name; non-empty, at most 255 bytes, not {@code default}
 * @param keyCodec encodes keys; its byte order is the table order
 * @param valueCodec encodes values
 */
public record TableDefinition<K, V>(String name, Codec<K> keyCodec, Codec<V> valueCodec) {

  public TableDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keyCodec, "keyCodec");
    Objects.requireNonNull(valueCodec, "valueCodec");
    if (name.isEmpty() || name.length() > 255 || name.equals("default")) {
      throw new IllegalArgumentException("Invalid table name '" + name + "'");
    }
  }

  public static <K, V> TableDefinition<K, V> of(String name, Codec<K> keyCodec, Codec<V> valueCodec) {
    return new TableDefinition<>(name, keyCodec, valueCodec);
  }
}
