package io.sediment.cli;

import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.DamagedStoreException;
import io.sediment.db.StoreDirectory;
import io.sediment.db.StoreException;
import io.sediment.db.StoreInUseException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmStoreOptions;
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

  /** The default checkpoint root: the only place {@code sediment checkpoint} writes. */
  static Path checkpoints(Path data) {
    return data.resolve("checkpoints");
  }

  /** Where a replica keeps its Raft log (Apache Ratis), beside its store. */
  static Path ratis(Path data) {
    return data.resolve("ratis");
  }

  /**
   * Opens the store under {@code data}; a store another process (or this one) holds fails with
   * a message that says so.
   */
  static OmMetadataStore open(Path data, OmStoreOptions options) {
    return open(data, options, DBProfile.defaults());
  }

  /** {@link #open(Path, OmStoreOptions)} with the RocksDB tuning {@code profile}. */
  static OmMetadataStore open(Path data, OmStoreOptions options, DBProfile profile) {
    Path dir = store(data).toAbsolutePath().normalize();
    try {
      return OmMetadataStore.open(dir, options, profile);
    } catch (StoreException e) {
      throw failure(dir, data, e);
    }
  }

  /**
   * The operator's message for a store that would not open: in use, damaged (with what to do
   * about it), or RocksDB's own reason.
   */
  static CliFailure failure(Path dir, Path data, StoreException e) {
    if (e instanceof StoreInUseException) {
      return new CliFailure("The data directory " + dir + " is in use by another sediment "
          + "process (RocksDB LOCK is held): stop that process, or pass another --data", e);
    }
    if (e instanceof DamagedStoreException) {
      return new CliFailure(e.getMessage() + ". To look closer: `sediment verify --data " + data
          + "`; to repair: restore a checkpoint, or see `sediment repair --data " + data + "`", e);
    }
    return new CliFailure("Cannot open the store at " + dir + ": " + e.getMessage(), e);
  }

  /**
   * Opens the store under {@code data} read-only, as a RocksDB secondary instance whose own files
   * go to a temporary directory removed at close: opening a stopped store for writing would
   * rewrite its files (flush the WAL, new MANIFEST and OPTIONS). A damaged store is refused.
   */
  static ReadOnlyStore openReadOnly(Path data) throws IOException {
    Path dir = store(data).toAbsolutePath().normalize();
    if (StoreDirectory.inspect(dir).state() == StoreDirectory.State.NEW) {
      throw new CliFailure("No store at " + dir + " (expected the --data directory of a "
          + "`sediment serve`)");
    }
    Path secondary = Files.createTempDirectory("sediment-ro-");
    try {
      return new ReadOnlyStore(DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(dir)
          .setSecondary(secondary).build(), secondary);
    } catch (StoreException e) {
      deleteTree(secondary);
      throw failure(dir, data, e);
    } catch (RuntimeException e) {
      deleteTree(secondary);
      throw e;
    }
  }

  /** A read-only store and the temporary directory of its secondary instance. */
  record ReadOnlyStore(DBStore store, Path secondary) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      try {
        store.close();
      } finally {
        deleteTree(secondary);
      }
    }
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
