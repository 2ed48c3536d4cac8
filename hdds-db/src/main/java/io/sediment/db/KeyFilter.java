package io.sediment.db;

import io.sediment.db.codec.Bytes;
import java.util.Objects;

/**
 * A test on an encoded key, used by {@link Table#getRangeKVs} to keep only matching entries.
 * Implementations must be stateless or thread-safe.
 */
@FunctionalInterface
public interface KeyFilter {

  /** Whether the entry with this encoded key is kept. */
  boolean accept(byte[] key);

  /** Keeps keys starting with {@code prefix}. */
  static KeyFilter prefix(byte[] prefix) {
    byte[] p = Objects.requireNonNull(prefix, "prefix").clone();
    return key -> Bytes.startsWith(key, p);
  }

  /** Keeps keys not starting with {@code prefix}. */
  static KeyFilter notPrefix(byte[] prefix) {
    byte[] p = Objects.requireNonNull(prefix, "prefix").clone();
    return key -> !Bytes.startsWith(key, p);
  }
}
