package io.sediment.db;

import io.sediment.db.managed.StoreRepairs;
import io.sediment.db.managed.WalScanner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What can be done to a store's directory without opening it: check its files, scan its logs,
 * copy them aside, rebuild a lost {@code CURRENT}. For operators' tools (verify, repair); nothing
 * here is used by a running store. Stateless.
 */
public final class StoreMaintenance {

  private StoreMaintenance() {
  }

  /**
   * Checks every SST in {@code dir} (block checksums; no MANIFEST says which are live or how
   * large they should be) and every write-ahead log: for a store that cannot be opened.
   */
  public static List<FileCheck> verifyFilesUnopened(Path dir) throws IOException {
    return StoreRepairs.verifyUnopened(dir);
  }

  /** Scans every write-ahead log in {@code dir}, oldest first. */
  public static List<WalReport> scanLogs(Path dir) throws IOException {
    return WalScanner.scanDirectory(dir);
  }

  /**
   * Copies every file of the store at {@code dir} except its SSTs (which RocksDB never rewrites:
   * write-ahead logs, MANIFESTs, CURRENT, OPTIONS, IDENTITY) into {@code aside}, which must not
   * exist. Returns the files copied.
   */
  public static List<Path> copyMetadataAside(Path dir, Path aside) throws IOException {
    return StoreRepairs.copyAside(dir, aside);
  }

  /**
   * Writes a {@code CURRENT} that names the newest MANIFEST in {@code dir}, for a store that lost
   * its CURRENT; returns that MANIFEST's name. The caller should then open the store to prove the
   * MANIFEST good, and remove the CURRENT again if it is not.
   *
   * @throws IOException if {@code dir} already has a CURRENT or holds no MANIFEST
   */
  public static String rebuildCurrent(Path dir) throws IOException {
    return StoreRepairs.rebuildCurrent(dir);
  }
}
