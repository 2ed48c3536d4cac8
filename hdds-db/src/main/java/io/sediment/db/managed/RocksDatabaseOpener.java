package io.sediment.db.managed;

import io.sediment.db.DBProfile;
import io.sediment.db.PinningDecision;
import io.sediment.db.StoreException;
import io.sediment.db.WalRecovery;
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
public final class RocksDatabaseOpener {

  private static final Logger LOG = LoggerFactory.getLogger(RocksDatabase.class);
  private static final String DEFAULT_FAMILY = "default";

  private RocksDatabaseOpener() {
  }

  /**
   * Opens the database at {@code path} with the given column families (the {@code default}
   * family is always opened too); the families named in {@code deleteHeavy} get
   * deletion-triggered compaction (see {@link DBProfile}). A new store is created only where the
   * directory is missing or holds no RocksDB data file ({@link io.sediment.db.StoreDirectory}); a
   * damaged write-ahead log fails the open unless only its tail is torn
   * ({@link WalRecovery#STRICT}); {@link WalRecovery#ACCEPT_LOSS_AFTER_DAMAGE} is for an explicit
   * repair, which must first copy the logs aside and report what the open drops.
   *
   * @throws io.sediment.db.DamagedStoreException if a file of the store is missing or damaged (its
   *     CURRENT, an SST, the MANIFEST, a write-ahead log before its tail); nothing in the
   *     directory is changed
   * @throws io.sediment.db.StoreInUseException if another process, or this one, has the store open
   * @throws StoreException if RocksDB cannot open it for another reason
   */
  public static RocksDatabase openPrimary(String name, Path path, DBProfile profile,
      List<String> familyNames, Set<String> deleteHeavy, Duration closeTimeout,
      WalRecovery walRecovery) {
    return open(name, path, profile, familyNames, deleteHeavy, closeTimeout, null, walRecovery);
  }

  /**
   * Opens the database at {@code path}, which another process (the primary) may own and keep
   * writing, as a read-only RocksDB <em>secondary</em> instance that keeps its own info log under
   * {@code secondaryPath} (created if missing). It sees the primary's data as of opening and
   * then as of each {@link RocksDatabase#catchUpWithPrimary()}. Every write, flush, compaction,
   * WAL sync and checkpoint on it throws {@link UnsupportedOperationException}. Every family in
   * {@code familyNames} must exist in the primary.
   *
   * <p>A secondary alone would open a store with a missing or truncated SST and show it without
   * that file's rows; so a read-only open that loads every live file and replays the logs
   * ({@link WalRecovery#STRICT}) checks the store first, and any damage fails this open as it
   * fails a primary's. Neither writes anything in {@code path}.
   *
   * @throws io.sediment.db.DamagedStoreException if a file of the store is missing or damaged
   * @throws StoreException if RocksDB cannot open it (no database at {@code path}, or a family
   *     missing)
   */
  public static RocksDatabase openSecondary(String name, Path path, Path secondaryPath,
      DBProfile profile, List<String> familyNames, Set<String> deleteHeavy,
      Duration closeTimeout) {
    if (!Files.isRegularFile(path.resolve("CURRENT"))) {
      OpenChecks.refuseDamaged(name, path);
      throw new StoreException("Cannot open store " + name + " at " + path
          + " as a secondary: no store there (no CURRENT file)");
    }
    return open(name, path, profile, familyNames, deleteHeavy, closeTimeout,
        java.util.Objects.requireNonNull(secondaryPath, "secondaryPath"), WalRecovery.STRICT);
  }

  /**
   * Opens the store at {@code path} with {@code familyNames} and the {@code default} family; as a
   * read-only secondary keeping its own files in {@code secondaryPath} when that is not null.
   */
  private static RocksDatabase open(String name, Path path, DBProfile profile,
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
      PinningDecision pinning = MetadataFootprint.decidePinning(profile, path);
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
      if (e instanceof StoreException r) {
        throw r;
      }
      throw OpenChecks.explain(name, path, e);
    }
  }
}
