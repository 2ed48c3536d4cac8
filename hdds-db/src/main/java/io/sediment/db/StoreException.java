package io.sediment.db;

/**
 * A store operation failed in the storage engine, or a store could not be opened: the root of the
 * exceptions a store throws besides argument and programming errors. Unchecked. The message names
 * the store, the operation and, for an engine failure, RocksDB's status (for example
 * {@code IOError} or {@code Corruption}); the cause is the engine's exception.
 *
 * <p>Subclasses say what a caller can do about it: {@link StoreClosedException} (the store is
 * closing or closed: retry elsewhere), {@link StoreOutOfSpaceException} (transient: writes resume
 * by themselves), {@link DamagedStoreException} and {@link StoreInUseException} (an open refused
 * with nothing changed).
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public StoreException(String message) {
    super(message);
  }
}
