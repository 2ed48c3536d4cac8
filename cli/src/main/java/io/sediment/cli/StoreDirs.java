package io.sediment.cli;

import io.sediment.db.managed.RocksDatabaseException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.OmStoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where things live under a data directory: the OM store in {@code om/}, logs in {@code logs/}.
 */
final class StoreDirs {

  private StoreDirs() {
  }

  static Path store(Path data) {
    return data.resolve("om");
  }

  static Path logs(Path data) {
    return data.resolve("logs");
  }

  /**
   * Opens the store under {@code data}; a store another process (or this one) holds fails with
   * a message that says so.
   */
  static OmMetadataStore open(Path data, OmStoreOptions options) {
    Path dir = store(data).toAbsolutePath().normalize();
    try {
      return OmMetadataStore.open(dir, options);
    } catch (RocksDatabaseException e) {
      throw new CliFailure(inUse(e)
          ? "The data directory " + dir + " is in use by another sediment process (RocksDB LOCK "
              + "is held): stop that process, or pass another --data"
          : "Cannot open the store at " + dir + ": " + e.getMessage(), e);
    }
  }

  static boolean inUse(RocksDatabaseException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("LOCK") || m.contains("lock hold");
  }

  /** Deletes {@code dir} and everything below it. */
  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
