package io.sediment.db.managed;

import io.sediment.db.PinningDecision;
import io.sediment.db.StoreException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * One open RocksDB database with its column families: the only owner of the {@code RocksDB}
 * handle ({@link RocksDatabaseOpener} opens it). Every method is one guarded operation
 * ({@link GuardedCalls}): it fails with {@link io.sediment.db.StoreClosedException} once
 * {@link #close()} has begun, and close frees native memory only after every admitted operation
 * has finished, so a use after close is an exception and never a crash. Native failures surface
 * as {@link StoreException} naming the store and the operation. What the database says about
 * itself (properties, tickers, SST metadata) is {@link #introspection()}.
 *
 * <p>Iterators from {@link #newIterator} are tracked; {@link #close()} gives their owners a short
 * grace ({@link #ITERATOR_CLOSE_GRACE}) to close them, then closes the rest itself (their later use
 * throws) and records each in {@link AbandonedIterators}. Thread-safe.
 */
public final class RocksDatabase implements AutoCloseable {

  /**
   * How long close waits, at most, for owners to close their iterators (never longer than the close
   * timeout). Once close has begun every iterator call but {@code close()} throws, so an owner
   * can do nothing more with an iterator than close it: the grace only lets an owner whose last
   * call just failed reach its {@code finally}. An owner that lost track of its iterator never
   * closes it, and waiting for it would only delay the close.
   */
  public static final Duration ITERATOR_CLOSE_GRACE = Duration.ofMillis(100);

  private final String name;
  private final Path path;
  private final RocksOptions options;
  private final Managed<RocksDB> db;
  private final Map<String, ColumnFamily> families;
  private final List<Managed<ColumnFamilyHandle>> handles;
  private final OperationGuard guard;
  private final GuardedCalls calls;
  private final RocksIntrospection introspection;
  private final SstIngestion sstIngestion;
  private final Duration closeTimeout;
  private final OpenIterators openIterators = new OpenIterators();
  private final Set<ManagedSnapshot> openSnapshots = ConcurrentHashMap.newKeySet();
  private final ManualCompactions compactions = new ManualCompactions();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Where this instance keeps its own files when it is a read-only secondary; else null. */
  private final Path secondaryPath;
  private final PinningDecision pinning;
  /** This JVM's claim on a primary store's directory, released at close; null for a secondary. */
  private final OpenChecks.Claim claim;

  /** Takes ownership of an opened database; see {@link RocksDatabaseOpener}. */
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
    this.guard = OperationGuard.forStore("store " + name);
    this.calls = new GuardedCalls(name, path, db, guard, options, secondaryPath != null);
    this.introspection = new RocksIntrospection(this, calls, options, path);
    this.sstIngestion = new SstIngestion(this, calls, options);
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

  /** Properties, tickers, SST metadata and file checks of this database. */
  public RocksIntrospection introspection() {
    return introspection;
  }

  /** SST files written outside the database and ingested into it (bulk loads). */
  public SstIngestion sstIngestion() {
    return sstIngestion;
  }

  /**
   * Whether this store pins its index and filter partitions while open, as decided when it
   * opened ({@link io.sediment.db.DBProfile.PartitionPinning}). A table whose options came from an
   * OPTIONS ini file pins as that file says instead.
   */
  public PinningDecision pinning() {
    return pinning;
  }

  /** Whether this is a read-only secondary instance ({@link RocksDatabaseOpener#openSecondary}). */
  public boolean isSecondary() {
    return secondaryPath != null;
  }

  /**
   * Secondary instances only: replays what the primary has written since the last catch-up (its
   * new MANIFEST entries and WAL), so later reads see it. Views and iterators opened before keep
   * their view.
   *
   * @throws IllegalStateException on a primary instance
   * @throws StoreException if RocksDB fails
   */
  public void catchUpWithPrimary() {
    if (secondaryPath == null) {
      throw new IllegalStateException("Store " + name + " is not a secondary instance");
    }
    calls.run(null, "catching up with the primary failed", RocksDB::tryCatchUpWithPrimary);
  }

  /** The sequence number of the last write this instance sees. */
  public long latestSequenceNumber() {
    return calls.call(null, "getLatestSequenceNumber", RocksDB::getLatestSequenceNumber);
  }

  /** The native handle of {@code cf}, which must be one of this database's column families. */
  ColumnFamilyHandle handle(ColumnFamily cf) {
    return cf.handle(this);
  }

  /** The store's name and path, for messages. */
  String describe() {
    return name + " at " + path;
  }

  // ---- point reads and writes ------------------------------------------------------------

  /** The value of {@code key}, or {@code null} if absent. */
  public byte[] get(ColumnFamily cf, byte[] key) {
    return get(cf, key, null);
  }

  /** The value of {@code key} as {@code snapshot} sees it (now when {@code null}), or {@code null}. */
  public byte[] get(ColumnFamily cf, byte[] key, ManagedSnapshot snapshot) {
    return calls.read(cf, snapshot, "get", (rocks, ro) -> rocks.get(handle(cf), ro, key));
  }

  /**
   * The values of {@code keys} in one RocksDB MultiGet, in their order ({@code null} for each
   * absent key), all as one moment sees them: {@code snapshot}'s, or now when {@code null}.
   */
  public List<byte[]> multiGet(ColumnFamily cf, List<byte[]> keys, ManagedSnapshot snapshot) {
    if (keys.isEmpty()) {
      return List.of();
    }
    return calls.read(cf, snapshot, "multiGet", (rocks, ro) ->
        rocks.multiGetAsList(ro, Collections.nCopies(keys.size(), handle(cf)), keys));
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
    return calls.read(cf, snapshot, "get",
        (rocks, ro) -> rocks.get(handle(cf), ro, key.duplicate(), value));
  }

  /** False only when {@code key} is certainly absent (Bloom filter and memtable check). */
  public boolean keyMayExist(ColumnFamily cf, byte[] key) {
    return keyMayExist(cf, key, null);
  }

  /** As {@link #keyMayExist(ColumnFamily, byte[])}, as {@code snapshot} sees it. */
  public boolean keyMayExist(ColumnFamily cf, byte[] key, ManagedSnapshot snapshot) {
    return calls.read(cf, snapshot, "keyMayExist",
        (rocks, ro) -> rocks.keyMayExist(handle(cf), ro, key, null));
  }

  public void put(ColumnFamily cf, byte[] key, byte[] value) {
    calls.write(cf, "put", rocks -> rocks.put(handle(cf), options.writeOptions(), key, value));
  }

  public void put(ColumnFamily cf, ByteBuffer key, ByteBuffer value) {
    calls.write(cf, "put", rocks ->
        rocks.put(handle(cf), options.writeOptions(), key.duplicate(), value.duplicate()));
  }

  public void delete(ColumnFamily cf, byte[] key) {
    calls.write(cf, "delete", rocks -> rocks.delete(handle(cf), options.writeOptions(), key));
  }

  public void delete(ColumnFamily cf, ByteBuffer key) {
    calls.write(cf, "delete",
        rocks -> rocks.delete(handle(cf), options.writeOptions(), key.duplicate()));
  }

  /** Writes one range tombstone covering {@code [from, to)}. */
  public void deleteRange(ColumnFamily cf, byte[] from, byte[] to) {
    calls.write(cf, "deleteRange", rocks -> {
      rocks.deleteRange(handle(cf), options.writeOptions(), from, to);
      options.rangeDeletions().recorded(cf.name(), 1, rocks.getLatestSequenceNumber());
    });
  }

  /** A new, empty write batch for this database; the caller closes it. */
  public ManagedWriteBatch newBatch() {
    return calls.call(null, "newBatch", rocks -> new ManagedWriteBatch(this, guard));
  }

  /** Applies {@code batch} atomically with the store's write options. */
  public void write(ManagedWriteBatch batch) {
    calls.write("a batch commit", "cannot commit batch", rocks -> {
      rocks.write(options.writeOptions(), batch.batchFor(this));
      if (!batch.rangeDeletions().isEmpty()) {
        long seq = rocks.getLatestSequenceNumber();
        batch.rangeDeletions().forEach((family, n) -> options.rangeDeletions().recorded(family, n, seq));
      }
    });
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
    return calls.call(cf, "newIterator", rocks -> {
      ReadOptions ro = calls.beginRead(snapshot);
      try {
        return openIterators.open(rocks, handle(cf), ro, lowerInclusive, upperExclusive,
            countSkips ? db : null, snapshot, guard, name);
      } finally {
        GuardedCalls.endRead(snapshot);
      }
    });
  }

  /** Number of iterators created and not yet closed. */
  public int openIteratorCount() {
    return openIterators.count();
  }

  /**
   * The most iterators that were open at once since the database opened or since the last
   * {@link #resetOpenIteratorPeak()}: what a caller checks to prove that an operation holds a
   * bounded number of native iterators.
   */
  public int openIteratorPeak() {
    return openIterators.peak();
  }

  /** Restarts {@link #openIteratorPeak()} from the number of iterators open now. */
  public void resetOpenIteratorPeak() {
    openIterators.resetPeak();
  }

  // ---- maintenance ------------------------------------------------------------------------

  /** One fsync of the write-ahead log: every write applied before the call is durable after it. */
  public void syncWal() {
    calls.write("syncWal", "WAL sync failed", RocksDB::syncWal);
  }

  /**
   * Flushes the memtables of the given families (all when none given) and waits. A store without
   * a WAL always flushes all of them, together: flushing some would persist part of a batch.
   */
  public void flush(ColumnFamily... cfs) {
    boolean all = cfs.length == 0 || options.writeOptions().disableWAL();
    calls.write("flush", "flush failed", rocks -> {
      List<ColumnFamilyHandle> list = new ArrayList<>();
      for (ColumnFamily cf : all ? families.values().toArray(new ColumnFamily[0]) : cfs) {
        list.add(handle(cf));
      }
      rocks.flush(options.flushOptions(), list);
    });
  }

  /**
   * Compacts the keys of {@code cf} in {@code [begin, end]} (a {@code null} end is open) down to
   * the bottommost level, rewriting bottommost files too so their tombstones are dropped.
   *
   * @throws StoreException if it fails, or if the store's close cancelled it (status
   *     {@code Incomplete})
   */
  public void compactRange(ColumnFamily cf, byte[] begin, byte[] end) {
    calls.checkWritable("compactRange");
    calls.run(cf, "compactRange",
        rocks -> compactions.compact(rocks, handle(cf), begin, end, name));
  }

  /**
   * Writes a consistent checkpoint of every column family into {@code dir}, which must not exist
   * yet: RocksDB flushes the memtables and hard-links the SST files.
   *
   * @throws StoreException if RocksDB cannot create it; never returns silently on failure
   */
  public void createCheckpoint(Path dir) {
    calls.checkWritable("createCheckpoint");
    if (Files.exists(dir)) {
      throw new IllegalArgumentException("Checkpoint directory already exists: " + dir);
    }
    calls.run(null, "checkpoint", rocks -> {
      try (Managed<Checkpoint> cp = Managed.of(Checkpoint.create(rocks), name)) {
        cp.get().createCheckpoint(dir.toString());
      } catch (RocksDBException e) {
        // Not a StoreOutOfSpaceException: the full file system may be the target's, not the store's.
        throw new StoreException(GuardedCalls.status(e) + ": store " + name
            + ": cannot create checkpoint at " + dir, e);
      }
    });
  }

  /**
   * Takes a snapshot of the whole database. While it is open, compaction keeps every entry and
   * tombstone it can see. The caller must close it; the database releases any left open when it
   * closes.
   */
  public ManagedSnapshot newSnapshot() {
    return calls.call(null, "newSnapshot", rocks -> {
      ManagedSnapshot snapshot = new ManagedSnapshot(db, name, closeTimeout, openSnapshots::remove);
      openSnapshots.add(snapshot);
      return snapshot;
    });
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
    return options.outOfSpaceWatch().addListener(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * The compactions RocksDB runs by itself on files a deletion collector marked, as compaction
   * events ({@link DeletionCompactions#deliverTo}).
   */
  public DeletionCompactions deletionCompactions() {
    return options.deletionCompactions();
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
   * @throws StoreException if operations are still running after the timeout; the native
   *     objects are then left allocated rather than freed under a running operation
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long start = System.nanoTime();
    guard.beginClose();
    compactions.cancelAll();
    if (!guard.awaitIdle(closeTimeout)) {
      throw new StoreException("Store " + name + ": " + guard.inFlight()
          + " operations still running after " + closeTimeout + "; native memory not freed");
    }
    openIterators.closeLeftOpen(name,
        start + Math.min(closeTimeout.toNanos(), ITERATOR_CLOSE_GRACE.toNanos()));
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
}
