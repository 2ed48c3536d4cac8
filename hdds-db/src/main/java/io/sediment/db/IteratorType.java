package io.sediment.db;

/** Which parts of each entry an iterator copies out of RocksDB. Keys are always read. */
public enum IteratorType {
  /** Keys only; entries carry a {@code null} value. */
  KEY_ONLY,
  /** Keys and values. */
  KEY_AND_VALUE;

  public boolean readValue() {
    return this == KEY_AND_VALUE;
  }
}
