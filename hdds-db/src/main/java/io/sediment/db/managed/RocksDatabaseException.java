package io.sediment.db.managed;

/**
 * A RocksDB operation failed. The message names the store, the operation and RocksDB's status
 * (for example {@code IOError} or {@code Corruption}); the cause is the native exception.
 */
public class RocksDatabaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RocksDatabaseException(String message, Throwable cause) {
    super(message, cause);
  }

  public RocksDatabaseException(String message) {
    super(message);
  }
}
