package io.sediment.db.managed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a {@link RocksDatabase}: claims the directory ({@link OpenChecks}), decides partition
 * pinning, builds the options and column family descriptors, opens RocksDB as a primary or, after
 * a read-only probe, as a secondary, and on failure frees what it built, releases the claim and
 * explains the failure. Stateless.
 */
final class RocksDatabaseOpener {

  private static final Logger LOG = LoggerFactory.getLogger(RocksDatabase.class);
  private static final String DEFAULT_FAMILY = "default";

  private RocksDatabaseOpener() {
  }

  /**
   * Opens the store at {@code path} with {@code familyNames} and the {@code default} family; as a
   * read-only secondary keeping its own files in {@code secondaryPath} when that is not null.
   */
  static RocksDatabase open(String name, Path path, DBProfile profile,
      List<String> familyNames, Set<String> deleteHeavy, Duration closeTimeout,
      Path secondaryPath, WalRecovery walRecovery) {
    List<String> all = new ArrayList<>();
    all.add(DEFAULT_FAMILY);
    for (String f : familyNames) {
      if (!all.contains(f)) {
        all.add(f);
      }
    }
    OpenChecks.Claim claim = secondaryPath == null ? OpenChecks.claimPrimary(name, path) : null;
    RocksOptions options = null;
    List<ColumnFamilyHandle> rawHandles = new ArrayList<>();
    try {
      PinningDecision pinning = PinningDecision.decide(profile, path);
      if (pinning.budgetBytes() >= 0) {
        LOG.info("Store {}: index and filters on disk {} bytes (-1: unknown), auto-pinning"
                + " allows {}: partitions {}", name, pinning.estimatedMetadataBytes(),
            pinning.budgetBytes(), pinning.pinned() ? "pinned" : "not pinned");
      }
      options = RocksOptions.create(profile, pinning.pinned(), all, deleteHeavy, name,
          claim != null && claim.create(), walRecovery);
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      for (String f : all) {
        descriptors.add(new ColumnFamilyDescriptor(f.getBytes(StandardCharsets.UTF_8),
            options.columnFamilyOptions(f)));
      }
      RocksDB rocks;
      if (secondaryPath == null) {
        rocks = RocksDB.open(options.dbOptions(), path.toString(), descriptors, rawHandles);
      } else {
        Files.createDirectories(secondaryPath);
        // A secondary keeps every table file open: the primary may delete them at any time. Its
        // info log, and the probe's, go to its own directory, never the primary's.
        options.dbOptions().setMaxOpenFiles(-1);
        options.dbOptions().setDbLogDir(secondaryPath.toString());
        OpenChecks.probeReadOnly(options.dbOptions(), path, descriptors);
        rocks = RocksDB.openAsSecondary(options.dbOptions(), path.toString(),
            secondaryPath.toString(), descriptors, rawHandles);
      }
      Managed<RocksDB> db = Managed.of(rocks, name);
      Map<String, ColumnFamilyHandle> families = new LinkedHashMap<>();
      List<Managed<ColumnFamilyHandle>> handles = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        handles.add(Managed.of(rawHandles.get(i), name));
        families.put(all.get(i), rawHandles.get(i));
      }
      return new RocksDatabase(name, path, options, db, families, handles, closeTimeout,
          secondaryPath, pinning, claim);
    } catch (RocksDBException | IOException | RuntimeException e) {
      for (ColumnFamilyHandle h : rawHandles) {
        h.close();
      }
      if (options != null) {
        options.close();
      }
      if (claim != null) {
        claim.close();
      }
      if (e instanceof RocksDatabaseException r) {
        throw r;
      }
      throw OpenChecks.explain(name, path, e);
    }
  }
}
