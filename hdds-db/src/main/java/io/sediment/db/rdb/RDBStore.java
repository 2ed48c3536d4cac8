package io.sediment.db.rdb;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBDefinition;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.StoreClosedException;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.WalRecovery;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.managed.RocksDatabaseOpener;
import io.sediment.db.managed.SstFileProperties;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.KeyRange;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.stats.TombstoneStats;
import io.sediment.db.tombstone.CompactionScheduler;
import io.sediment.db.tombstone.TombstoneTracker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@link DBStore} over one {@link RocksDatabase}. Tables are created once at open and shared;
 * their lifetime is the store's. Thread-safe.
 */
public final class RDBStore implements DBStore {

  private final DBDefinition definition;
  private final RocksDatabase db;
  private final CompactionScheduler scheduler;
  private final Duration closeTimeout;
  private final int maxKeyBytes;
  private final long targetFileBytes;
  private final Map<String, RDBTable> rawTables = new LinkedHashMap<>();
  private final Map<String, TypedTable<?, ?>> typedTables = new LinkedHashMap<>();
  /** Secondary stores: open views hold it for reading, a catch-up for writing. */
  private final java.util.concurrent.locks.StampedLock catchUpLock =
      new java.util.concurrent.locks.StampedLock();

  /** Opens the store; use {@link io.sediment.db.DBStoreBuilder}. */
  public RDBStore(DBDefinition definition, Path path, DBProfile profile, int maxKeyBytes,
      Duration closeTimeout, TombstonePolicy tombstonePolicy) {
    this(definition, path, null, profile, maxKeyBytes, closeTimeout, tombstonePolicy,
        WalRecovery.STRICT);
  }

  /**
   * Opens the store, as a read-only secondary instance keeping its own files under
   * {@code secondaryPath} when that is not {@code null}; use {@link io.sediment.db.DBStoreBuilder}.
   */
  public RDBStore(DBDefinition definition, Path path, Path secondaryPath, DBProfile profile,
      int maxKeyBytes, Duration closeTimeout, TombstonePolicy tombstonePolicy,
      WalRecovery walRecovery) {
    this.definition = definition;
    this.closeTimeout = closeTimeout;
    this.maxKeyBytes = maxKeyBytes;
    this.targetFileBytes = profile.targetFileSizeBase();
    List<String> names = new ArrayList<>();
    java.util.Set<String> deleteHeavy = new java.util.HashSet<>();
    for (TableDefinition<?, ?> t : definition.tables()) {
      names.add(t.name());
      if (t.deleteHeavy()) {
        deleteHeavy.add(t.name());
      }
    }
    this.db = secondaryPath == null
        ? RocksDatabaseOpener.openPrimary(definition.name(), path, profile, names, deleteHeavy, closeTimeout,
            walRecovery)
        : RocksDatabaseOpener.openSecondary(definition.name(), path, secondaryPath, profile, names,
            deleteHeavy, closeTimeout);
    this.scheduler = new CompactionScheduler(db, tombstonePolicy, event -> {
      RDBTable table = rawTables.get(event.table());
      if (table != null) {
        TombstoneTracker tracker = table.tombstoneTracker();
        if (tracker != null) {
          tracker.onCompactionEnded(event.range());
        }
      }
    });
    db.deletionCompactions().deliverTo(scheduler::recordElsewhere);
    for (TableDefinition<?, ?> t : definition.tables()) {
      // A secondary cannot compact: its trackers still watch hot ranges but request nothing.
      TombstoneTracker tracker = new TombstoneTracker(t.name(), tombstonePolicy,
          secondaryPath == null ? scheduler::request : (table, hot) -> false);
      RDBTable raw = new RDBTable(db, db.columnFamily(t.name()), maxKeyBytes, tracker);
      rawTables.put(t.name(), raw);
      typedTables.put(t.name(), typed(raw, t));
    }
  }

  private static <K, V> TypedTable<K, V> typed(RDBTable raw, TableDefinition<K, V> t) {
    return new TypedTable<>(raw, t);
  }

  @Override
  public io.sediment.db.PinningDecision partitionPinning() {
    return db.pinning();
  }

  /** The native database, for the layers of hdds-db that account and compact. */
  public RocksDatabase database() {
    return db;
  }

  @Override
  public String getName() {
    return definition.name();
  }

  @Override
  public Path getPath() {
    return db.path();
  }

  @Override
  public List<String> listTables() {
    return List.copyOf(rawTables.keySet());
  }

  @Override
  public RDBTable getTable(String name) {
    checkOpen();
    RDBTable t = rawTables.get(Objects.requireNonNull(name, "name"));
    if (t == null) {
      throw new IllegalArgumentException("Store " + getName() + " has no table " + name);
    }
    return t;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <K, V> TypedTable<K, V> getTable(TableDefinition<K, V> table) {
    checkOpen();
    TableDefinition<?, ?> own = definition.table(table.name());
    if (!own.equals(table)) {
      throw new IllegalArgumentException("Table " + table.name() + " of store " + getName()
          + " is defined with other codecs");
    }
    return (TypedTable<K, V>) typedTables.get(table.name());
  }

  @Override
  public io.sediment.db.ReadView openReadView() {
    checkOpen();
    if (db.isSecondary()) {
      // RocksDB secondaries ignore snapshots; a view holds off catch-ups instead.
      long stamp = catchUpLock.readLock();
      try {
        return new RDBReadView(this, null, db.latestSequenceNumber(),
            () -> catchUpLock.unlockRead(stamp));
      } catch (RuntimeException e) {
        catchUpLock.unlockRead(stamp);
        throw e;
      }
    }
    return new RDBReadView(this, db.newSnapshot());
  }

  @Override
  public BatchOperation initBatchOperation() {
    return new RDBBatchOperation(db);
  }

  @Override
  public void commitBatchOperation(BatchOperation batch) {
    RDBBatchOperation.writable(batch, db);
    batch.commit();
  }

  @Override
  public <K, V> io.sediment.db.TableBulkLoad<K, V> bulkLoad(TableDefinition<K, V> table) {
    return bulkLoad(table, targetFileBytes);
  }

  @Override
  public <K, V> io.sediment.db.TableBulkLoad<K, V> bulkLoad(TableDefinition<K, V> table,
      long targetFileBytes) {
    if (targetFileBytes <= 0) {
      throw new IllegalArgumentException("targetFileBytes must be positive: " + targetFileBytes);
    }
    TypedTable<K, V> typed = getTable(table);
    if (db.isSecondary()) {
      throw new UnsupportedOperationException("Store " + getName() + " at " + getPath()
          + " is a read-only secondary instance: bulk load is not allowed");
    }
    return new RDBTableBulkLoad<>(db, db.columnFamily(typed.getName()), table.keyCodec(),
        table.valueCodec(), maxKeyBytes, targetFileBytes);
  }

  @Override
  public void flush() {
    db.flush();
  }

  @Override
  public void flush(String table) {
    db.flush(db.columnFamily(table));
  }

  @Override
  public List<io.sediment.db.FileCheck> verifyFiles() {
    checkOpen();
    return db.introspection().verifyFiles();
  }

  @Override
  public void syncWal() {
    db.syncWal();
  }

  @Override
  public void compactRange(String table, byte[] begin, byte[] end) {
    ColumnFamily cf = db.columnFamily(table);
    long before = tombstonesHeld(cf);
    long start = System.nanoTime();
    db.compactRange(cf, begin, end);
    long after = tombstonesHeld(cf);
    scheduler.recordElsewhere(new CompactionEvent(table, new KeyRange(begin, end),
        CompactionEvent.Outcome.COMPLETED, "manual compaction: the table held " + before
            + " tombstone(s) before, " + after + " after", before, after,
        (System.nanoTime() - start) / 1_000_000, System.currentTimeMillis(),
        CompactionEvent.Trigger.MANUAL));
  }

  /** Point and range tombstones {@code cf} holds: its SST files' properties and its memtables. */
  private long tombstonesHeld(ColumnFamily cf) {
    long n = db.introspection().getLongProperty(cf, "rocksdb.num-deletes-active-mem-table")
        + db.introspection().getLongProperty(cf, "rocksdb.num-deletes-imm-mem-tables")
        + db.introspection().memtableRangeDeletions(cf);
    for (SstFileProperties f : db.introspection().sstFileProperties(cf)) {
      n += f.deletions() + f.rangeDeletions();
    }
    return n;
  }

  @Override
  public void createCheckpoint(Path dir) {
    db.createCheckpoint(Objects.requireNonNull(dir, "dir"));
  }

  @Override
  public long getTickerCount(String ticker) {
    return db.introspection().tickerCount(ticker);
  }

  @Override
  public Map<String, Long> getTickerCounts() {
    return db.introspection().tickerCounts();
  }

  @Override
  public long getLongProperty(String table, String property) {
    return db.introspection().getLongProperty(db.columnFamily(table), property);
  }

  @Override
  public boolean isOutOfSpace() {
    return db.isOutOfSpace();
  }

  @Override
  public Runnable addOutOfSpaceListener(Runnable listener) {
    return db.addOutOfSpaceListener(listener);
  }

  @Override
  public boolean isSecondary() {
    return db.isSecondary();
  }

  /**
   * Waits up to the close timeout for open views to close (a view must not see a catch-up), then
   * catches up.
   *
   * @throws IllegalStateException if views stay open that long, or this is not a secondary
   */
  @Override
  public void catchUpWithPrimary() {
    checkOpen();
    if (!db.isSecondary()) {
      db.catchUpWithPrimary();
    }
    long stamp;
    try {
      stamp = catchUpLock.tryWriteLock(closeTimeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for open views", e);
    }
    if (stamp == 0) {
      throw new IllegalStateException("Store " + getName() + ": read views still open after "
          + closeTimeout + "; not caught up with the primary");
    }
    try {
      db.catchUpWithPrimary();
    } finally {
      catchUpLock.unlockWrite(stamp);
    }
  }

  @Override
  public TombstoneStats tombstoneStats() {
    checkOpen();
    List<TableTombstoneStats> tables = new ArrayList<>();
    for (RDBTable t : rawTables.values()) {
      var cf = db.columnFamily(t.getName());
      long entries = 0;
      long deletions = 0;
      long rangeDeletions = 0;
      List<SstFileProperties> files = db.introspection().sstFileProperties(cf);
      for (SstFileProperties f : files) {
        entries += f.entries();
        deletions += f.deletions();
        rangeDeletions += f.rangeDeletions();
      }
      TombstoneTracker tracker = t.tombstoneTracker();
      tables.add(new TableTombstoneStats(t.getName(), t.getEstimatedKeyCount(),
          db.introspection().getLongProperty(cf, "rocksdb.num-deletes-active-mem-table")
              + db.introspection().getLongProperty(cf, "rocksdb.num-deletes-imm-mem-tables"),
          db.introspection().memtableRangeDeletions(cf),
          files.size(), entries, deletions, rangeDeletions, tracker.slowPasses(),
          tracker.tombstonesSkipped(), tracker.hotRanges(), scheduler.pending(t.getName()),
          tracker.sampledScans()));
    }
    return new TombstoneStats(tables, scheduler.stats());
  }

  private void checkOpen() {
    if (db.isClosed()) {
      throw new StoreClosedException("Store " + getName() + " is closed");
    }
  }

  @Override
  public void close() {
    scheduler.close(Duration.ZERO);
    try {
      db.close();
    } finally {
      scheduler.close(closeTimeout);
    }
  }

  @Override
  public String toString() {
    return "RDBStore[" + getName() + " at " + getPath() + "]";
  }
}
