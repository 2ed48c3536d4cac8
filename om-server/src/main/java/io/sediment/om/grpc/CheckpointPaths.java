package io.sediment.om.grpc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks a requested checkpoint directory before RocksDB is asked to write there, so that a path
 * the file system cannot hold is the caller's error (INVALID_ARGUMENT or FAILED_PRECONDITION)
 * rather than an IOError from deep inside RocksDB reported as INTERNAL. Stateless.
 */
final class CheckpointPaths {

  /** Linux's PATH_MAX less room for the names RocksDB adds (a ".tmp" sibling, file names). */
  static final int MAX_PATH_BYTES = 4096 - 64;
  /** Linux's NAME_MAX, less room for RocksDB's ".tmp" suffix. */
  static final int MAX_NAME_BYTES = 255 - 8;

  private CheckpointPaths() {
  }

  /** Why {@code dir} is too long a path, or {@code null} if it is not. */
  static String tooLong(Path dir) {
    int total = dir.toString().getBytes(StandardCharsets.UTF_8).length;
    if (total > MAX_PATH_BYTES) {
      return "it is " + total + " bytes long, at most " + MAX_PATH_BYTES + " are allowed";
    }
    for (Path part : dir) {
      int n = part.toString().getBytes(StandardCharsets.UTF_8).length;
      if (n > MAX_NAME_BYTES) {
        return "a name in it is " + n + " bytes long, at most " + MAX_NAME_BYTES
            + " are allowed";
      }
    }
    return null;
  }

  /**
   * Why {@code dir} (absent, in an existing parent) cannot be created, or {@code null} if it can:
   * creates it and removes it again, so that a parent that is read-only, on a pseudo file system
   * such as /proc, or full is found out by the file system itself.
   */
  static String cannotCreate(Path dir) {
    try {
      Files.createDirectory(dir);
      Files.delete(dir);
      return null;
    } catch (IOException e) {
      return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
  }
}
