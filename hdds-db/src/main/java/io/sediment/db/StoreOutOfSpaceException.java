package io.sediment.db;

import java.nio.file.Path;

/**
 * RocksDB refused an operation because the file system holding the store is full (status
 * {@code IOError} with sub-code {@code NoSpace}, or {@code ENOSPC}: "No space left on device").
 * Nothing of the refused operation was applied. The message names the store's directory, the
 * free space RocksDB needs before it accepts writes again ({@link #requiredFreeBytes()}) and the
 * free space there now.
 *
 * <p>Such a failure is transient: reads keep working, and RocksDB resumes writes by itself once
 * {@link #requiredFreeBytes()} are free, without a reopen (see {@link DBStore#isOutOfSpace()}).
 */
public final class StoreOutOfSpaceException extends StoreException {
  private static final long serialVersionUID = 1L;

  private final transient Path directory;
  private final long requiredFreeBytes;
  private final long freeBytes;

  /**
   * @param what the store and the operation, e.g. {@code "store om: cannot commit batch"}
   * @param freeBytes the usable space left on {@code directory}'s file system, -1 if unknown
   */
  public StoreOutOfSpaceException(String what, Path directory, long requiredFreeBytes, long freeBytes,
      Throwable cause) {
    super(what + ": out of disk space in " + directory + ": writes are refused until at least "
        + bytes(requiredFreeBytes) + " are free there (" + (freeBytes < 0 ? "unknown"
        : bytes(freeBytes)) + " free now); they resume by themselves then, and reads keep"
        + " working (" + cause.getMessage() + ")", cause);
    this.directory = directory;
    this.requiredFreeBytes = requiredFreeBytes;
    this.freeBytes = freeBytes;
  }

  /** The store's directory, on the full file system. */
  public Path directory() {
    return directory;
  }

  /** The free space at which RocksDB resumes writes: its largest memtable size. */
  public long requiredFreeBytes() {
    return requiredFreeBytes;
  }

  /** The usable space on the directory's file system when this was thrown; -1 if unknown. */
  public long freeBytes() {
    return freeBytes;
  }

  /** {@code n} in bytes and, from 1 KiB, in the largest binary unit that keeps it at least 1. */
  static String bytes(long n) {
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) {
      return n + " bytes";
    }
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(java.util.Locale.ROOT, "%d bytes (%.1f %s)", n, v, units[u]);
  }
}
