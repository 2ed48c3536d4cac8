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
 * @param deleteHeavy whether most keys are deleted soon after they are written (queues, pending
 *     deletes, open keys): such tables get RocksDB's deletion-triggered compaction
 *     ({@code CompactOnDeletionCollector}), so SST files dense with point tombstones are compacted
 *     away without waiting for size triggers
 */
public record TableDefinition<K, V>(String name, Codec<K> keyCodec, Codec<V> valueCodec,
    boolean deleteHeavy) {

  public TableDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keyCodec, "keyCodec");
    Objects.requireNonNull(valueCodec, "valueCodec");
    if (name.isEmpty() || name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255
        || name.equals("default")) {
      throw new IllegalArgumentException("Invalid table name '" + name + "'");
    }
  }

  public TableDefinition(String name, Codec<K> keyCodec, Codec<V> valueCodec) {
    this(name, keyCodec, valueCodec, false);
  }

  public static <K, V> TableDefinition<K, V> of(String name, Codec<K> keyCodec, Codec<V> valueCodec) {
    return new TableDefinition<>(name, keyCodec, valueCodec, false);
  }

  /** The same table, declared delete-heavy. */
  public TableDefinition<K, V> asDeleteHeavy() {
    return new TableDefinition<>(name, keyCodec, valueCodec, true);
  }
}
