package io.sediment.db.managed;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Slice;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open RocksDB database with its column families: the only owner of the {@code RocksDB}
 * handle. Every method is one guarded operation: it fails with {@link IllegalStateException}
 * once {@link #close()} has begun, and close frees native memory only after every admitted
 * operation has finished, so a use after close is an exception and never a crash.
 *
 * <p>Iterators from {@link #newIterator} are tracked; {@link #close()} gives their owners a short
 * grace ({@link #ITERATOR_CLOSE_GRACE}) to close them, then closes the rest itself (their later use
 * throws) and records each in {@link AbandonedIterators}.
 * Native failures surface as {@link RocksDatabaseException} naming the store and the operation.
 * Thread-safe.
 */
public final class RocksDatabase implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RocksDatabase.class);
  /**
   * How long close waits, at most, for owners to close their iterators (never longer than the close
   * timeout). Once close has begun every iterator call but {@code close()} throws, so an owner
   * can do nothing more with an iterator than close it: the grace only lets an owner whose last
   * call just failed reach its {@code finally}. An owner that lost track of its iterator never
   * closes it, and waiting for it would only delay the close.
   */
  public static final Duration ITERATOR_CLOSE_GRACE = Duration.ofMillis(100);
  private static final String DEFAULT_FAMILY = "default";

  private final String name;
  private final Path path;
  private final RocksOptions options;
  private final Managed<RocksDB> db;
  private final Map<String, ColumnFamily> families;
  private final List<Managed<ColumnFamilyHandle>> handles;
  private final OperationGuard guard;
  private final Duration closeTimeout;
  private final Set<ManagedRocksIterator> openIterators = ConcurrentHashMap.newKeySet();
  /** {@code openIterators.size()}, kept alongside so the peak costs no set traversal. */
  private final AtomicInteger iteratorsOpen = new AtomicInteger();
  private final AtomicInteger iteratorPeak = new AtomicInteger();
  private final Consumer<ManagedRocksIterator> iteratorClosed = it -> {
    if (openIterators.remove(it)) {
      iteratorsOpen.decrementAndGet();
    }
  };
  private final Set<ManagedSnapshot> openSnapshots = ConcurrentHashMap.newKeySet();
  /** Manual compactions running, to cancel at close; guarded by itself. */
  private final Set<CompactRangeOptions> runningCompactions = new HashSet<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Where this instance keeps its own files when it is a read-only secondary; else null. */
  private final Path secondaryPath;
  private final PinningDecision pinning;
  /** This JVM's claim on a primary store's directory, released at close; null for a secondary. */
  private final OpenChecks.Claim claim;

  /** Takes ownership of an opened database; use the static {@code open} methods. */
  RocksDatabase(String name, Path path, RocksOptions options, Managed<RocksDB> db,
      Map<String, ColumnFamilyHandle> familyHandles, List<Managed<ColumnFamilyHandle>> handles,
      Duration closeTimeout, Path secondaryPath, PinningDecision pinning, OpenChecks.Claim claim) {
    this.claim = claim;
    this.secondaryPath = secondaryPath;
    this.pinning = pinning;
    this.name = name;
    this.path = path;
    this.options = options;
    this.db = db;
    Map<String, ColumnFamily> families = new LinkedHashMap<>();
    familyHandles.forEach((family, h) -> families.put(family, new ColumnFamily(family, h, this)));
    this.families = Collections.unmodifiableMap(families);
    this.handles = handles;
    this.closeTimeout = closeTimeout;
    this.guard = new OperationGuard("store " + name);
  }

  /**
   * Opens the database at {@code path} with the given column families (the {@code default}
   * family is always opened too). A new store is created only where the directory is missing or
   * holds no RocksDB data file ({@link StoreDirectory}); a damaged write-ahead log fails the open
   * unless only its tail is torn ({@link WalRecovery#STRICT}).
   *
   * @throws DamagedStoreException if a file of the store is missing or damaged (its CURRENT, an
   *     SST, the MANIFEST, a write-ahead log before its tail); nothing in the directory is changed
   * @throws StoreInUseException if another process, or this one, has the store open
   * @throws RocksDatabaseException if RocksDB cannot open it for another reason
   */
  public static RocksDatabase open(String name, Path path, DBProfile profile,
      List<String> familyNames, Duration closeTimeout) {
    return open(name, path, profile, familyNames, Set.of(), closeTimeout);
  }

  /**
   * As {@link #open(String, Path, DBProfile, List, Duration)}; the families named in
   * {@code deleteHeavy} get deletion-triggered compaction (see {@link DBProfile}).
   */
  public static RocksDatabase open(String name, Path path, DBProfile profile,
      List<String> familyNames, Set<String> deleteHeavy, Duration closeTimeout) {
    return RocksDatabaseOpener.open(name, path, profile, familyNames, deleteHeavy, closeTimeout,
        null, WalRecovery.STRICT);
  }

  /**
   * As {@link #open(String, Path, DBProfile, List, Set, Duration)}, choosing how a damaged
   * write-ahead log is treated: {@link WalRecovery#ACCEPT_LOSS_AFTER_DAMAGE} is for an explicit
   * repair, which must first copy the logs aside and report what the open drops.
   */
  public static RocksDatabase open(String name, Path path, DBProfile profile,
      List<String> familyNames, Set<String> deleteHeavy, Duration closeTimeout,
      WalRecovery walRecovery) {
    return RocksDatabaseOpener.open(name, path, profile, familyNames, deleteHeavy, closeTimeout,
        null, walRecovery);
  }

  /**
   * Opens the database at {@code path}, which another process (the primary) may own and keep
   * writing, as a read-only RocksDB <em>secondary</em> instance that keeps its own info log under
   * {@code secondaryPath} (created if missing). It sees the primary's data as of opening and
   * then as of each {@link #catchUpWithPrimary()}. Every write, flush, compaction, WAL sync and
   * checkpoint on it throws {@link UnsupportedOperationException}. Every family in
   * {@code familyNames} must exist in the primary.
   *
   * <p>A secondary alone would open a store with a missing or truncated SST and show it without
   * that file's rows; so a read-only open that loads every live file and replays the logs
   * ({@link WalRecovery#STRICT}) checks the store first, and any damage fails this open as it
   * fails a primary's. Neither writes anything in {@code path}.
   *
   * @throws DamagedStoreException if a file of the store is missing or damaged
   * @throws RocksDatabaseException if RocksDB cannot open it (no database at {@code path}, or a
   *     family missing)
   */
  public static RocksDatabase openSecondary(String name, Path path, Path secondaryPath,
      DBProfile profile, List<String> familyNames, Set<String> deleteHeavy,
      Duration closeTimeout) {
    if (!Files.isRegularFile(path.resolve("CURRENT"))) {
      OpenChecks.refuseDamaged(name, path);
      throw new RocksDatabaseException("Cannot open store " + name + " at " + path
          + " as a secondary: no store there (no CURRENT file)");
    }
    return RocksDatabaseOpener.open(name, path, profile, familyNames, deleteHeavy, closeTimeout,
        java.util.Objects.requireNonNull(secondaryPath, "secondaryPath"), WalRecovery.STRICT);
  }

  public String name() {
    return name;
  }

  public Path path() {
    return path;
  }

  /** The open column family called {@code family}. */
  public ColumnFamily columnFamily(String family) {
    ColumnFamily cf = families.get(family);
    if (cf == null) {
      throw new IllegalArgumentException("Store " + name + " has no table " + family);
    }
    return cf;
  }

  public boolean isClosed() {
    return guard.isClosing();
  }

  /**
   * Whether this store pins its index and filter partitions while open, as decided when it
   * opened ({@link DBProfile.PartitionPinning}). A table whose options came from an OPTIONS ini
   * file pins as that file says instead.
   */
  public PinningDecision pinning() {
    return pinning;
  }

  /** Whether pinned cache usage has passed half the cache since this store opened ({@link PinnedUsageWatch}). */
  boolean pinnedUsageWarned() {
    PinnedUsageWatch watch = options.pinnedUsageWatch();
    return watch != null && watch.tripped();
  }

  /** Whether this is a read-only secondary instance ({@link #openSecondary}). */
  public boolean isSecondary() {
    return secondaryPath != null;
  }

  /**
   * Secondary instances only: replays what the primary has written since the last catch-up (its
   * new MANIFEST entries and WAL), so later reads see it. Views and iterators opened before keep
   * their view.
   *
   * @throws IllegalStateException on a primary instance
   * @throws RocksDatabaseException if RocksDB fails
   */
  public void catchUpWithPrimary() {
    if (secondaryPath == null) {
      throw new IllegalStateException("Store " + name + " is not a secondary instance");
    }
    guard.enter();
    try {
      db.get().tryCatchUpWithPrimary();
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(status(e) + ": store " + name
          + ": catching up with the primary failed: " + e.getMessage(), e);
    } finally {
      guard.exit();
    }
  }

  /** The sequence number of the last write this instance sees. */
  public long latestSequenceNumber() {
    guard.enter();
    try {
      return db.get().getLatestSequenceNumber();
    } finally {
      guard.exit();
    }
  }

  /** The native handle of {@code cf}, which must be one of this database's column families. */
  private ColumnFamilyHandle handle(ColumnFamily cf) {
    return cf.handle(this);
  }

  private void checkWritable(String op) {
    if (secondaryPath != null) {
      throw new UnsupportedOperationException("Store " + name + " at " + path
          + " is a read-only secondary instance: " + op + " is not allowed");
    }
  }

  /**
   * The read options of a read as {@code snapshot} sees it (now when {@code null}); a snapshot
   * read is admitted by the snapshot, so it cannot be released under the read, and must be ended
   * with {@link #endRead(ManagedSnapshot)}.
   */
  private ReadOptions beginRead(ManagedSnapshot snapshot) {
    if (snapshot == null) {
      return options.readOptions();
    }
    if (!snapshot.of(db)) {
      throw new IllegalArgumentException("A snapshot of another store cannot be read through "
          + describe());
    }
    return snapshot.enter();
  }

  /** The store's name and path, for messages. */
  String describe() {
    return name + " at " + path;
  }

  private static void endRead(ManagedSnapshot snapshot) {
    if (snapshot != null) {
      snapshot.exit();
    }
  }

  // ---- point reads and writes ------------------------------------------------------------

  /** The value of {@code key}, or {@code null} if absent. */
  public byte[] get(ColumnFamily cf, byte[] key) {
    return get(cf, key, null);
  }

  /** The value of {@code key} as {@code snapshot} sees it (now when {@code null}), or {@code null}. */
  public byte[] get(ColumnFamily cf, byte[] key, ManagedSnapshot snapshot) {
    guard.enter();
    try {
      ReadOptions ro = beginRead(snapshot);
      try {
        return db.get().get(handle(cf), ro, key);
      } finally {
        endRead(snapshot);
      }
    } catch (RocksDBException e) {
      throw failure("get", cf, e);
    } finally {
      guard.exit();
    }
  }

  /**
   * Reads the value of {@code key} into {@code value} from its position; returns the value's
   * full size (which may exceed the space given: then only a prefix was copied), or {@code -1}
   * if the key is absent. The key buffer's position is not changed.
   */
  public int get(ColumnFamily cf, ByteBuffer key, ByteBuffer value) {
    return get(cf, key, value, null);
  }

  /** As {@link #get(ColumnFamily, ByteBuffer, ByteBuffer)}, as {@code snapshot} sees it. */
  public int get(ColumnFamily cf, ByteBuffer key, ByteBuffer value, ManagedSnapshot snapshot) {
    guard.enter();
    try {
      ReadOptions ro = beginRead(snapshot);
      try {
        return db.get().get(handle(cf), ro, key.duplicate(), value);
      } finally {
        endRead(snapshot);
      }
    } catch (RocksDBException e) {
      throw failure("get", cf, e);
    } finally {
      guard.exit();
    }
  }

  /** False only when {@code key} is certainly absent (Bloom filter and memtable check). */
  public boolean keyMayExist(ColumnFamily cf, byte[] key) {
    return keyMayExist(cf, key, null);
  }

  /** As {@link #keyMayExist(ColumnFamily, byte[])}, as {@code snapshot} sees it. */
  public boolean keyMayExist(ColumnFamily cf, byte[] key, ManagedSnapshot snapshot) {
    guard.enter();
    try {
      ReadOptions ro = beginRead(snapshot);
      try {
        return db.get().keyMayExist(handle(cf), ro, key, null);
      } finally {
        endRead(snapshot);
      }
    } finally {
      guard.exit();
    }
  }

  public void put(ColumnFamily cf, byte[] key, byte[] value) {
    checkWritable("put");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().put(handle(cf), options.writeOptions(), key, value);
    } catch (RocksDBException e) {
      throw writeFailure("put", cf, e, epoch);
    } finally {
      guard.exit();
    }
  }

  public void put(ColumnFamily cf, ByteBuffer key, ByteBuffer value) {
    checkWritable("put");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().put(handle(cf), options.writeOptions(), key.duplicate(), value.duplicate());
    } catch (RocksDBException e) {
      throw writeFailure("put", cf, e, epoch);
    } finally {
      guard.exit();
    }
  }

  public void delete(ColumnFamily cf, byte[] key) {
    checkWritable("delete");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().delete(handle(cf), options.writeOptions(), key);
    } catch (RocksDBException e) {
      throw writeFailure("delete", cf, e, epoch);
    } finally {
      guard.exit();
    }
  }

  public void delete(ColumnFamily cf, ByteBuffer key) {
    checkWritable("delete");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().delete(handle(cf), options.writeOptions(), key.duplicate());
    } catch (RocksDBException e) {
      throw writeFailure("delete", cf, e, epoch);
    } finally {
      guard.exit();
    }
  }

  /** Writes one range tombstone covering {@code [from, to)}. */
  public void deleteRange(ColumnFamily cf, byte[] from, byte[] to) {
    checkWritable("deleteRange");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().deleteRange(handle(cf), options.writeOptions(), from, to);
      options.rangeDeletions().recorded(cf.name(), 1, db.get().getLatestSequenceNumber());
    } catch (RocksDBException e) {
      throw writeFailure("deleteRange", cf, e, epoch);
    } finally {
      guard.exit();
    }
  }

  /**
   * Range deletions {@code cf} holds in its memtables (see {@link MemtableRangeDeletions}: an
   * upper bound, exact when writes and flushes do not interleave); 0 on a secondary instance.
   */
  public long memtableRangeDeletions(ColumnFamily cf) {
    return options.rangeDeletions().count(cf.name());
  }

  /** A new, empty write batch for this database; the caller closes it. */
  public ManagedWriteBatch newBatch() {
    guard.enter();
    try {
      return new ManagedWriteBatch(this, guard);
    } finally {
      guard.exit();
    }
  }

  /** Applies {@code batch} atomically with the store's write options. */
  public void write(ManagedWriteBatch batch) {
    checkWritable("a batch commit");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().write(options.writeOptions(), batch.batchFor(this));
      if (!batch.rangeDeletions().isEmpty()) {
        long seq = db.get().getLatestSequenceNumber();
        batch.rangeDeletions().forEach((family, n) -> options.rangeDeletions().recorded(family, n, seq));
      }
    } catch (RocksDBException e) {
      throw writeFailure(status(e) + ": store " + name + ": cannot commit batch", e, epoch);
    } finally {
      guard.exit();
    }
  }

  // ---- iteration --------------------------------------------------------------------------

  /**
   * A new, unpositioned iterator over {@code cf}, natively bounded to
   * {@code [lowerInclusive, upperExclusive)} where a bound is not {@code null}. A bounded iterator
   * owns its read options and bound slices and frees them when closed; an unbounded one shares
   * the store's (or its snapshot's) read options. It pins this database's view at creation.
   */
  public ManagedRocksIterator newIterator(ColumnFamily cf, byte[] lowerInclusive,
      byte[] upperExclusive) {
    return newIterator(cf, lowerInclusive, upperExclusive, false);
  }

  /**
   * As {@link #newIterator(ColumnFamily, byte[], byte[])}; when {@code countSkips} is true the
   * iterator counts, for every positioning and advance, the tombstones and entries RocksDB skipped
   * (through the thread-local {@code PerfContext}, a few JNI calls per operation).
   */
  public ManagedRocksIterator newIterator(ColumnFamily cf, byte[] lowerInclusive,
      byte[] upperExclusive, boolean countSkips) {
    return newIterator(cf, lowerInclusive, upperExclusive, countSkips, null);
  }

  /** As {@link #newIterator(ColumnFamily, byte[], byte[], boolean)}, reading {@code snapshot}. */
  public ManagedRocksIterator newIterator(ColumnFamily cf, byte[] lowerInclusive,
      byte[] upperExclusive, boolean countSkips, ManagedSnapshot snapshot) {
    guard.enter();
    List<Managed<?>> owned = List.of();
    Managed<org.rocksdb.RocksIterator> it = null;
    boolean admitted = false;
    try {
      ReadOptions ro = beginRead(snapshot);
      admitted = true;
      // Unbounded: nothing per iterator to point at, so it shares the store's (or the snapshot's)
      // read options, which nothing mutates. RocksDB copies them into the iterator and reads the
      // snapshot's sequence number at creation, so a snapshot closed before its iterators frees
      // nothing they still read.
      if (lowerInclusive != null || upperExclusive != null) {
        owned = new ArrayList<>(4);
        ro = new ReadOptions();
        owned.add(Managed.of(ro, name));
        if (snapshot != null) {
          ro.setSnapshot(snapshot.nativeSnapshot());
        }
        if (lowerInclusive != null) {
          Slice lower = new Slice(lowerInclusive);
          owned.add(Managed.of(lower, name));
          ro.setIterateLowerBound(lower);
        }
        if (upperExclusive != null) {
          Slice upper = new Slice(upperExclusive);
          owned.add(Managed.of(upper, name));
          ro.setIterateUpperBound(upper);
        }
      }
      it = Managed.of(db.get().newIterator(handle(cf), ro), name);
      // Close order: the iterator first, then its read options, then the slices they point to.
      List<Managed<?>> closeOrder = List.of(it);
      if (!owned.isEmpty()) {
        owned.add(0, it);
        closeOrder = owned;
      }
      ManagedRocksIterator iterator =
          new ManagedRocksIterator(it, closeOrder, guard, iteratorClosed,
              lowerInclusive == null ? null : lowerInclusive.clone(),
              upperExclusive == null ? null : upperExclusive.clone(), countSkips ? db : null);
      openIterators.add(iterator);
      iteratorPeak.accumulateAndGet(iteratorsOpen.incrementAndGet(), Math::max);
      return iterator;
    } catch (RuntimeException e) {
      if (it != null) {
        it.close();
      }
      for (Managed<?> m : owned) {
        m.close();
      }
      throw e;
    } finally {
      if (admitted) {
        endRead(snapshot);
      }
      guard.exit();
    }
  }

  /** Number of iterators created and not yet closed. */
  public int openIteratorCount() {
    return openIterators.size();
  }

  /**
   * The most iterators that were open at once since the database opened or since the last
   * {@link #resetOpenIteratorPeak()}: what a caller checks to prove that an operation holds a
   * bounded number of native iterators.
   */
  public int openIteratorPeak() {
    return iteratorPeak.get();
  }

  /** Restarts {@link #openIteratorPeak()} from the number of iterators open now. */
  public void resetOpenIteratorPeak() {
    iteratorPeak.set(iteratorsOpen.get());
  }

  // ---- maintenance ------------------------------------------------------------------------

  /** Flushes the memtables of the given families (all when none given) and waits. */
  /** One fsync of the write-ahead log: every write applied before the call is durable after it. */
  public void syncWal() {
    checkWritable("syncWal");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      db.get().syncWal();
    } catch (RocksDBException e) {
      throw writeFailure(status(e) + ": store " + name + ": WAL sync failed", e, epoch);
    } finally {
      guard.exit();
    }
  }

  public void flush(ColumnFamily... cfs) {
    checkWritable("flush");
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      List<ColumnFamilyHandle> list = new ArrayList<>();
      for (ColumnFamily cf : cfs.length == 0 ? families.values().toArray(new ColumnFamily[0]) : cfs) {
        list.add(handle(cf));
      }
      db.get().flush(options.flushOptions(), list);
    } catch (RocksDBException e) {
      throw writeFailure(status(e) + ": store " + name + ": flush failed", e, epoch);
    } finally {
      guard.exit();
    }
  }

  /**
   * Compacts the keys of {@code cf} in {@code [begin, end]} (a {@code null} end is open) down to
   * the bottommost level, rewriting bottommost files too so their tombstones are dropped.
   *
   * @throws RocksDatabaseException if it fails, or if the store's close cancelled it (status
   *     {@code Incomplete})
   */
  public void compactRange(ColumnFamily cf, byte[] begin, byte[] end) {
    checkWritable("compactRange");
    guard.enter();
    try (Managed<CompactRangeOptions> cro = Managed.of(new CompactRangeOptions(), name)) {
      cro.get().setBottommostLevelCompaction(
          CompactRangeOptions.BottommostLevelCompaction.kForceOptimized);
      cro.get().setExclusiveManualCompaction(false);
      // Registered and removed under the set's lock, which close cancels under: close never
      // cancels options already freed, and a compaction registered after close's cancel loop
      // sees the close begun and cancels itself.
      synchronized (runningCompactions) {
        runningCompactions.add(cro.get());
        if (guard.isClosing()) {
          cro.get().setCanceled(true);
        }
      }
      try {
        db.get().compactRange(handle(cf), begin, end, cro.get());
      } finally {
        synchronized (runningCompactions) {
          runningCompactions.remove(cro.get());
        }
      }
    } catch (RocksDBException e) {
      throw failure("compactRange", cf, e);
    } finally {
      guard.exit();
    }
  }

  /** A numeric RocksDB property of {@code cf}, e.g. {@code rocksdb.estimate-num-keys}. */
  public long getLongProperty(ColumnFamily cf, String property) {
    guard.enter();
    try {
      return db.get().getLongProperty(handle(cf), property);
    } catch (RocksDBException e) {
      throw failure("getLongProperty " + property, cf, e);
    } finally {
      guard.exit();
    }
  }

  /** A RocksDB property of {@code cf} as text. */
  public String getProperty(ColumnFamily cf, String property) {
    guard.enter();
    try {
      return db.get().getProperty(handle(cf), property);
    } catch (RocksDBException e) {
      throw failure("getProperty " + property, cf, e);
    } finally {
      guard.exit();
    }
  }

  /** The value of a RocksDB statistics ticker, by {@code TickerType} name. */
  public long tickerCount(String ticker) {
    guard.enter();
    try {
      return options.statistics().getTickerCount(TickerType.valueOf(ticker));
    } finally {
      guard.exit();
    }
  }

  /** Every RocksDB statistics ticker by {@code TickerType} name, in the enum's order. */
  public Map<String, Long> tickerCounts() {
    guard.enter();
    try {
      Map<String, Long> out = new LinkedHashMap<>();
      for (TickerType t : TickerType.values()) {
        if (t != TickerType.TICKER_ENUM_MAX) {
          out.put(t.name(), options.statistics().getTickerCount(t));
        }
      }
      return out;
    } finally {
      guard.exit();
    }
  }

  /** Table properties of every live SST file of {@code cf}. */
  public List<SstFileProperties> sstFileProperties(ColumnFamily cf) {
    guard.enter();
    try {
      Map<String, TableProperties> all = db.get().getPropertiesOfAllTables(handle(cf));
      List<SstFileProperties> out = new ArrayList<>();
      for (Map.Entry<String, TableProperties> e : all.entrySet()) {
        TableProperties p = e.getValue();
        // JNI cuts the fixed32 value at its first zero byte: empty means type 0 (binary search).
        String indexType = p.getUserCollectedProperties().get("rocksdb.block.based.table.index.type");
        out.add(new SstFileProperties(e.getKey(), p.getNumEntries(), p.getNumDeletions(),
            p.getNumRangeDeletions(), p.getNumDataBlocks(), p.getIndexSize(), p.getIndexPartitions(),
            p.getTopLevelIndexSize(),
            indexType == null ? -1 : indexType.isEmpty() ? 0 : indexType.charAt(0),
            p.getFilterPolicyName(), p.getFilterSize(),
            SstMetaIndex.hasPartitionedFilter(Path.of(e.getKey())),
            p.getPropertyCollectorsNames()));
      }
      return out;
    } catch (RocksDBException e) {
      throw failure("getPropertiesOfAllTables", cf, e);
    } finally {
      guard.exit();
    }
  }

  /** Number of live SST files per level of {@code cf}. */
  public Map<Integer, Integer> filesPerLevel(ColumnFamily cf) {
    guard.enter();
    try {
      Map<Integer, Integer> out = new LinkedHashMap<>();
      for (LiveFileMetaData f : db.get().getLiveFilesMetaData()) {
        if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(cf.name())) {
          out.merge(f.level(), 1, Integer::sum);
        }
      }
      return out;
    } finally {
      guard.exit();
    }
  }

  /**
   * Checks every file of the store ({@link FileVerifier}): each live SST present, of its recorded
   * size and with matching block checksums; each write-ahead log readable up to a torn tail; SSTs
   * the MANIFEST does not list. A secondary first catches up, and an SST it finds missing counts
   * only if it is still live after another catch-up (the primary may have compacted it away).
   * Reads every byte of every file: minutes for a large store.
   */
  public List<io.sediment.db.FileCheck> verifyFiles() {
    guard.enter();
    try {
      if (secondaryPath != null) {
        db.get().tryCatchUpWithPrimary();
      }
      List<io.sediment.db.FileCheck> checks =
          FileVerifier.verify(path, db.get().getLiveFilesMetaData());
      if (secondaryPath != null && checks.stream().anyMatch(c -> c.bytes() < 0)) {
        db.get().tryCatchUpWithPrimary();
        checks = FileVerifier.verify(path, db.get().getLiveFilesMetaData());
      }
      return checks;
    } catch (RocksDBException e) {
      throw new RocksDatabaseException(status(e) + ": store " + name + ": verify failed: "
          + e.getMessage(), e);
    } catch (IOException e) {
      throw new RocksDatabaseException("store " + name + ": verify failed: " + e.getMessage(), e);
    } finally {
      guard.exit();
    }
  }

  /**
   * Writes a consistent checkpoint of every column family into {@code dir}, which must not exist
   * yet: RocksDB flushes the memtables and hard-links the SST files.
   *
   * @throws RocksDatabaseException if RocksDB cannot create it; never returns silently on failure
   */
  public void createCheckpoint(Path dir) {
    checkWritable("createCheckpoint");
    if (Files.exists(dir)) {
      throw new IllegalArgumentException("Checkpoint directory already exists: " + dir);
    }
    guard.enter();
    try (Managed<Checkpoint> cp = Managed.of(Checkpoint.create(db.get()), name)) {
      cp.get().createCheckpoint(dir.toString());
    } catch (RocksDBException e) {
      // Not a StoreOutOfSpaceException: the full file system may be the target's, not the store's.
      throw new RocksDatabaseException(status(e) + ": store " + name
          + ": cannot create checkpoint at " + dir, e);
    } finally {
      guard.exit();
    }
  }

  /**
   * Tombstones one positioning at the start of {@code [from, to)} skips now: 0 when the range
   * starts with a live key or holds no tombstones before its first live key.
   */
  public long probeTombstones(ColumnFamily cf, byte[] from, byte[] to) {
    try (ManagedRocksIterator it = newIterator(cf, from, to, true)) {
      it.seekToFirst();
      return it.lastTombstonesSkipped();
    }
  }

  /** Number of open snapshots ({@code rocksdb.num-snapshots}). */
  public long openSnapshots() {
    return getLongProperty(columnFamily(DEFAULT_FAMILY), "rocksdb.num-snapshots");
  }

  /**
   * Takes a snapshot of the whole database. While it is open, compaction keeps every entry and
   * tombstone it can see. The caller must close it; the database releases any left open when it
   * closes.
   */
  public ManagedSnapshot newSnapshot() {
    guard.enter();
    try {
      ManagedSnapshot snapshot = new ManagedSnapshot(db, name, closeTimeout, openSnapshots::remove);
      openSnapshots.add(snapshot);
      return snapshot;
    } finally {
      guard.exit();
    }
  }

  // ---- lifecycle --------------------------------------------------------------------------

  /**
   * Stops admitting operations and cancels running manual compactions; waits up to the close
   * timeout for operations in flight to finish (each one, an iterator's seek or next included,
   * uses native memory that must not be freed under it), and at most
   * {@link #ITERATOR_CLOSE_GRACE} from the start of the close for owners to close their open
   * iterators; closes every iterator still open, with what its owner's table iterator holds
   * (native objects and pooled buffers), recording each in {@link AbandonedIterators}; releases
   * any snapshot still open; then frees every native object in dependency order: column family
   * handles, the database, the options. So a close with idle iterators left open takes about the
   * grace, not the close timeout. Idempotent.
   *
   * @throws RocksDatabaseException if operations are still running after the timeout; the
   *     native objects are then left allocated rather than freed under a running operation
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long start = System.nanoTime();
    guard.beginClose();
    synchronized (runningCompactions) {
      for (CompactRangeOptions running : runningCompactions) {
        running.setCanceled(true);
      }
    }
    if (!guard.awaitIdle(closeTimeout)) {
      throw new RocksDatabaseException("Store " + name + ": " + guard.inFlight()
          + " operations still running after " + closeTimeout + "; native memory not freed");
    }
    long graceEnd = start
        + Math.min(closeTimeout.toNanos(), ITERATOR_CLOSE_GRACE.toNanos());
    while (!openIterators.isEmpty() && System.nanoTime() - graceEnd < 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
    }
    if (!openIterators.isEmpty()) {
      LOG.warn("Store {}: closing {} iterators left open by their owners", name,
          openIterators.size());
      for (ManagedRocksIterator it : new ArrayList<>(openIterators)) {
        try {
          it.abandon(name);
        } catch (RuntimeException e) {
          // The native iterator is closed by then; what failed is its owner's release, which
          // must not keep the store's own objects from being freed.
          LOG.warn("Store {}: releasing an abandoned iterator's resources failed", name, e);
        }
      }
    }
    for (ManagedSnapshot s : new ArrayList<>(openSnapshots)) {
      s.close();
    }
    // Order matters: handles before the database, the database before its options.
    for (Managed<ColumnFamilyHandle> h : handles) {
      h.close();
    }
    db.close();
    options.close();
    if (claim != null) {
      claim.close();
    }
  }

  private RocksDatabaseException failure(String op, ColumnFamily cf, RocksDBException e) {
    return error(status(e) + ": store " + name + ", table " + cf.name() + ": " + op + " failed", e);
  }

  private RocksDatabaseException writeFailure(String op, ColumnFamily cf, RocksDBException e,
      long epoch) {
    return writeFailure(status(e) + ": store " + name + ", table " + cf.name() + ": " + op
        + " failed", e, epoch);
  }

  /**
   * As {@link #error}, for a write that began at {@code epoch} ({@link OutOfSpaceWatch#epoch()}):
   * a refusal for lack of space marks the store out of space.
   */
  private RocksDatabaseException writeFailure(String what, RocksDBException e, long epoch) {
    RocksDatabaseException failure = error(what, e);
    if (failure instanceof StoreOutOfSpaceException full) {
      options.outOfSpaceWatch().writeRefused(epoch, full);
    }
    return failure;
  }

  /**
   * The exception for {@code e}, {@code what} naming the store and the operation: a
   * {@link StoreOutOfSpaceException} when the file system is full, else a
   * {@link RocksDatabaseException} with RocksDB's message.
   */
  private RocksDatabaseException error(String what, RocksDBException e) {
    if (OutOfSpaceWatch.isNoSpace(e)) {
      return new StoreOutOfSpaceException(what, path, options.resumeFreeBytes(), usableSpace(), e);
    }
    return new RocksDatabaseException(what + ": " + e.getMessage(), e);
  }

  /** The usable space on the file system of the store's directory; -1 if it cannot be read. */
  private long usableSpace() {
    try {
      return Files.getFileStore(path).getUsableSpace();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Whether writes are refused because the store's file system is full, from the first write
   * refused for it until RocksDB recovered ({@link OutOfSpaceWatch}); always false on a secondary.
   */
  public boolean isOutOfSpace() {
    return options.outOfSpaceWatch().outOfSpace();
  }

  /**
   * Runs {@code listener} after each change of {@link #isOutOfSpace()}, on the thread that saw it
   * (a writer, or RocksDB's recovery thread): it must return quickly and must not call into the
   * store other than {@link #isOutOfSpace()}.
   *
   * @return what unregisters the listener
   */
  public Runnable addOutOfSpaceListener(Runnable listener) {
    return options.outOfSpaceWatch().addListener(java.util.Objects.requireNonNull(listener, "listener"));
  }

  private static String status(RocksDBException e) {
    return e.getStatus() != null ? e.getStatus().getCodeString() : "Unknown";
  }
}
