package io.sediment.db.managed;

import io.sediment.db.DamagedStoreException;
import io.sediment.db.StoreDirectory;
import io.sediment.db.StoreException;
import io.sediment.db.StoreInUseException;
import io.sediment.db.WalReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * The checks around opening a store that keep a refused open from changing anything, and the
 * translation of RocksDB's open failures into {@link DamagedStoreException} and
 * {@link StoreInUseException} naming the file at fault. Thread-safe.
 */
final class OpenChecks {

  /** Primary stores open in this JVM, by real path. */
  private static final Set<Path> OPEN_HERE = ConcurrentHashMap.newKeySet();
  private static final Pattern STORE_FILE =
      Pattern.compile("(/\\S*?)?(\\d+\\.(?:sst|log|blob)|MANIFEST-\\d+|CURRENT|OPTIONS-\\d+)");
  /** How often the read-only probe of a secondary open is tried: a live primary may delete a
   * file between the probe reading the MANIFEST and opening that file. */
  private static final int PROBE_TRIES = 3;

  private OpenChecks() {
  }

  /**
   * This JVM's hold on a primary store's directory, from before RocksDB touches it until the
   * store closes. {@link #create()} says whether RocksDB may create the store.
   */
  static final class Claim implements AutoCloseable {
    private final Path real;
    private final boolean create;

    private Claim(Path real, boolean create) {
      this.real = real;
      this.create = create;
    }

    boolean create() {
      return create;
    }

    @Override
    public void close() {
      OPEN_HERE.remove(real);
    }
  }

  /**
   * Checks {@code path} for a primary open and claims it: a new store is created only in a
   * directory with no RocksDB data file; a store already open in this JVM or locked by another
   * process, or one with data but no CURRENT, is refused before RocksDB opens (and so rotates
   * the info log of) anything. Creates the directory if it is missing.
   */
  static Claim claimPrimary(String name, Path path) {
    try {
      StoreDirectory dir = StoreDirectory.inspect(path);
      Files.createDirectories(path);
      Path real = path.toRealPath();
      if (!OPEN_HERE.add(real)) {
        throw new StoreInUseException("Cannot open store " + name + " at " + path
            + ": it is already open in this process (lock hold by current process)");
      }
      boolean claimed = false;
      try {
        String refusal = dir.refusal();
        if (refusal != null) {
          String message = "Cannot open store " + name + " at " + path + ": " + refusal;
          throw dir.state() == StoreDirectory.State.NO_CURRENT
              ? new DamagedStoreException(message, path.resolve("CURRENT"), null)
              : new StoreInUseException(message);
        }
        claimed = true;
        return new Claim(real, dir.state() == StoreDirectory.State.NEW);
      } finally {
        if (!claimed) {
          OPEN_HERE.remove(real);
        }
      }
    } catch (IOException e) {
      throw new StoreException("Cannot open store " + name + " at " + path + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * Throws the {@link DamagedStoreException} a primary open would if {@code path} holds data but
   * no CURRENT; returns if it does not.
   */
  static void refuseDamaged(String name, Path path) {
    try {
      StoreDirectory dir = StoreDirectory.inspect(path);
      if (dir.state() == StoreDirectory.State.NO_CURRENT) {
        throw new DamagedStoreException("Cannot open store " + name + " at " + path + ": "
            + dir.refusal(), path.resolve("CURRENT"), null);
      }
    } catch (IOException e) {
      throw new StoreException("Cannot open store " + name + " at " + path + ": "
          + e.getMessage(), e);
    }
  }

  /**
   * Opens {@code path} read-only with every live file loaded (the options must say
   * {@code max_open_files=-1}) and its logs replayed, then closes it: a missing, truncated or
   * unreadable SST, a missing MANIFEST or a damaged log fails here. Writes nothing in
   * {@code path} if the options send the info log elsewhere.
   */
  static void probeReadOnly(DBOptions options, Path path, List<ColumnFamilyDescriptor> families)
      throws RocksDBException {
    for (int attempt = 1; ; attempt++) {
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (RocksDB ro = RocksDB.openReadOnly(options, path.toString(), families, handles)) {
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
        return;
      } catch (RocksDBException e) {
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
        if (attempt >= PROBE_TRIES || isCorruption(e)) {
          throw e;
        }
      }
    }
  }

  /**
   * The exception for an open of {@code path} that failed with {@code e}: damage (RocksDB's
   * Corruption, a missing file) becomes a {@link DamagedStoreException} naming the file, with the
   * damaged write-ahead log and byte offset found by {@link WalScanner} where RocksDB gives
   * none; a held lock becomes a {@link StoreInUseException}.
   */
  static StoreException explain(String name, Path path, Exception e) {
    String prefix = "Cannot open store " + name + " at " + path + ": ";
    String message = String.valueOf(e.getMessage());
    if (message.contains("LOCK") || message.contains("lock hold")) {
      return new StoreInUseException(prefix + message + " (is another process using this data"
          + " directory?)");
    }
    if (!(e instanceof RocksDBException r) || !(isCorruption(r) || isMissingFile(r))) {
      return new StoreException(prefix + message, e);
    }
    WalReport wal = firstDamagedLog(path);
    if (wal != null && !message.contains(".sst")) {
      return new DamagedStoreException(prefix + "the write-ahead log " + wal.file() + " is"
          + " damaged: " + wal.describe() + ". The store was not opened and nothing in it was"
          + " changed; RocksDB said: " + message, wal.file(), e);
    }
    Path file = namedFile(path, message);
    return new DamagedStoreException(prefix + (file == null ? "it is damaged" : file
        + " is missing or damaged") + ". The store was not opened and nothing in it was changed;"
        + " RocksDB said: " + message, file, e);
  }

  private static WalReport firstDamagedLog(Path path) {
    try {
      for (WalReport r : WalScanner.scanDirectory(path)) {
        if (r.damaged()) {
          return r;
        }
      }
    } catch (IOException ignored) {
      // the log cannot be read: RocksDB's own message will have to do
    }
    return null;
  }

  /** The first store file RocksDB's message names, resolved in {@code path}. */
  static Path namedFile(Path path, String message) {
    Matcher m = STORE_FILE.matcher(message);
    // Prefer the file the message is about over the MANIFEST it says "may be corrupted".
    Path manifest = null;
    while (m.find()) {
      Path p = path.resolve(m.group(2));
      if (!m.group(2).startsWith("MANIFEST-")) {
        return p;
      }
      if (manifest == null) {
        manifest = p;
      }
    }
    return manifest;
  }

  private static boolean isCorruption(RocksDBException e) {
    return e.getStatus() != null && e.getStatus().getCode() == Status.Code.Corruption;
  }

  private static boolean isMissingFile(RocksDBException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("No such file") || m.contains("does not exist")
        || m.contains("non-existent");
  }
}
