package io.sediment.db;

/**
 * Which parts of each entry an iterator copies out of RocksDB. A value-only iterator reads the
 * key of an entry only when asked ({@link TableIterator#currentKey()}), for callers that need the
 * key of few of the entries they read (e.g. the last one of a page).
 */
public enum IteratorType {
  /** Keys only; entries carry a {@code null} value. */
  KEY_ONLY,
  /** Keys and values. */
  KEY_AND_VALUE,
  /**
   * Values only; entries carry a {@code null} key, and such an iterator cannot
   * {@link TableIterator#removeFromDB()}.
   */
  VALUE_ONLY;

  /** Whether entries carry their values. */
  public boolean readValue() {
    return this != KEY_ONLY;
  }

  /** Whether entries carry their keys. */
  public boolean readKey() {
    return this != VALUE_ONLY;
  }
}
