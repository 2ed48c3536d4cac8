package io.sediment.db;

import io.sediment.db.rdb.RDBStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Opens a {@link DBStore}: a data directory, a {@link DBDefinition}, a {@link DBProfile} (the
 * DESIGN §2 defaults unless set) and the store's limits. Not thread-safe; each {@link #build()}
 * opens a new store.
 */
public final class DBStoreBuilder {

  /** Default longest key: 64 KiB. */
  public static final int DEFAULT_MAX_KEY_BYTES = 64 << 10;
  /**
   * Default time {@code close()} waits for operations in flight (a long seek over tombstones, a
   * large batch commit) before it gives up without freeing native memory. Idle open iterators are
   * not waited for this long: see {@link DBStore#close()}.
   */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final DBDefinition definition;
  private Path path;
  private DBProfile profile = DBProfile.defaults();
  private int maxKeyBytes = DEFAULT_MAX_KEY_BYTES;
  private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
  private TombstonePolicy tombstonePolicy = TombstonePolicy.defaults();
  private Path secondaryPath;
  private WalRecovery walRecovery = WalRecovery.STRICT;

  private DBStoreBuilder(DBDefinition definition) {
    this.definition = Objects.requireNonNull(definition, "definition");
  }

  public static DBStoreBuilder newBuilder(DBDefinition definition) {
    return new DBStoreBuilder(definition);
  }

  /** The data directory; created if missing. Required. */
  public DBStoreBuilder setPath(Path path) {
    this.path = Objects.requireNonNull(path, "path");
    return this;
  }

  public DBStoreBuilder setProfile(DBProfile profile) {
    this.profile = Objects.requireNonNull(profile, "profile");
    return this;
  }

  /** Keys (and prefixes and range ends) longer than this many bytes are rejected. */
  public DBStoreBuilder setMaxKeyBytes(int maxKeyBytes) {
    if (maxKeyBytes <= 0) {
      throw new IllegalArgumentException("maxKeyBytes must be positive: " + maxKeyBytes);
    }
    this.maxKeyBytes = maxKeyBytes;
    return this;
  }

  /**
   * How long {@link DBStore#close()} waits for operations in flight to finish (default
   * {@link #DEFAULT_CLOSE_TIMEOUT}); it also caps the grace open iterators get.
   *
   * @throws IllegalArgumentException if negative
   */
  public DBStoreBuilder setCloseTimeout(Duration closeTimeout) {
    if (closeTimeout.isNegative()) {
      throw new IllegalArgumentException("closeTimeout must not be negative");
    }
    this.closeTimeout = closeTimeout;
    return this;
  }

  /** How scans are sampled for tombstones and hot ranges compacted; {@link TombstonePolicy#defaults()}. */
  public DBStoreBuilder setTombstonePolicy(TombstonePolicy tombstonePolicy) {
    this.tombstonePolicy = Objects.requireNonNull(tombstonePolicy, "tombstonePolicy");
    return this;
  }

  /**
   * Opens the store at {@link #setPath path} (which must exist, and may be owned and written by
   * another process) as a read-only RocksDB secondary instance that keeps its own info log in
   * {@code secondaryDir} (created if missing; use one per instance). See
   * {@link DBStore#isSecondary()} and {@link DBStore#catchUpWithPrimary()}.
   */
  public DBStoreBuilder setSecondary(Path secondaryDir) {
    this.secondaryPath = Objects.requireNonNull(secondaryDir, "secondaryDir");
    return this;
  }

  /**
   * How a damaged write-ahead log is treated at open; {@link WalRecovery#STRICT} (the default)
   * refuses it. {@link WalRecovery#ACCEPT_LOSS_AFTER_DAMAGE} is for an explicit repair only.
   */
  public DBStoreBuilder setWalRecovery(WalRecovery walRecovery) {
    this.walRecovery = Objects.requireNonNull(walRecovery, "walRecovery");
    return this;
  }

  /**
   * Opens the store, creating it only where the directory is missing or holds no RocksDB data.
   *
   * @throws DamagedStoreException if a file of the store is missing or damaged; nothing in its
   *     directory was changed
   * @throws StoreInUseException if another process, or this one, has the store open
   * @throws StoreException if RocksDB cannot open it otherwise
   */
  public DBStore build() {
    if (path == null) {
      throw new IllegalStateException("DBStoreBuilder needs a path");
    }
    if (secondaryPath != null && walRecovery != WalRecovery.STRICT) {
      throw new IllegalStateException("a secondary store is read-only: it cannot accept WAL loss");
    }
    return new RDBStore(definition, path, secondaryPath, profile, maxKeyBytes, closeTimeout,
        tombstonePolicy, walRecovery);
  }
}
