package io.sediment.db;

import java.nio.file.Path;

/**
 * A store was not opened because a file of it is missing or damaged. Nothing in the store's
 * directory was changed by the refused open. {@link #file()} names the file at fault where it is
 * known.
 */
public class DamagedStoreException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  public DamagedStoreException(String message, Path file, Throwable cause) {
    super(message, cause);
    this.file = file;
  }

  /** The missing or damaged file, or {@code null} if RocksDB did not say which. */
  public Path file() {
    return file;
  }
}
