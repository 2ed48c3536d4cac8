package io.sediment.om.core;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;
import static io.sediment.om.core.OmDBDefinition.PREFIX_TABLE;
import static io.sediment.om.core.OmDBDefinition.VOLUME_TABLE;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.db.StoreOutOfSpaceException;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What every part of the namespace shares: the store and its tables, the options, the token secret
 * (and its token signer), the object-id sequence, the namespace counters and the one write path
 * ({@link #write}). Package-internal; the public surface is {@link io.sediment.om.OmMetadataStore}.
 *
 * <p>Thread-safe: writes are serialized by one lock, so every check-then-write is atomic with
 * its batch; reads use {@link DBStore#openReadView()} or single gets and take no lock.
 */
public final class OmContext {

  private final DBStore store;
  private final OmStoreOptions options;
  private volatile byte[] tokenSecret;
  private final GroupCommitter committer;
  /** The replicated log entry the current thread is applying, if any ({@link #applying}). */
  private final ThreadLocal<Applying> applying = new ThreadLocal<>();

  private record Applying(LogPosition position, long timeMillis) {}

  private final ReentrantLock writeLock = new ReentrantLock();
  private final UnlockedWork unlocked = new UnlockedWork(writeLock, this::now);
  /** The next unused object id; guarded by {@link #writeLock}. */
  private long nextObjectId;
  /** The maintained counters; staged and reset under {@link #writeLock}. */
  private final NamespaceCounters counters;
  private final VolumeBucketCache parsedRows;
  private final Table<String, VolumeInfo> volumeTable;
  private final Table<String, BucketInfo> bucketTable;
  /**
   * False only while prefixTable is known to hold no row (read at open; set before any batch
   * that writes one commits, never cleared), so the common case of no prefix ACLs at all costs
   * no iterator per key creation.
   */
  private volatile boolean prefixesMayExist;

  public OmContext(DBStore store, OmStoreOptions options) {
    this.store = store;
    this.options = options;
    Table<String, byte[]> meta = store.getTable(META_TABLE);
    byte[] secret = meta.get(OmDBDefinition.META_TOKEN_SECRET);
    if (secret == null) {
      secret = new byte[32];
      new SecureRandom().nextBytes(secret);
      meta.put(OmDBDefinition.META_TOKEN_SECRET, secret);
    }
    this.tokenSecret = secret;
    byte[] next = meta.get(OmDBDefinition.META_NEXT_OBJECT_ID);
    this.nextObjectId = next == null ? 1 : decodeLong(next);
    this.counters = new NamespaceCounters(meta);
    this.committer = new GroupCommitter(store, options.syncPolicy());
    this.volumeTable = store.getTable(VOLUME_TABLE);
    this.bucketTable = store.getTable(BUCKET_TABLE);
    this.parsedRows = new VolumeBucketCache(options.metadataCacheSize(), volumeTable, bucketTable);
    this.prefixesMayExist = store.getTable(PREFIX_TABLE).hasLiveKey(null);
  }

  /** Whether prefixTable may hold a row: when false it holds none (see {@link #prefixWritten}). */
  public boolean prefixesMayExist() {
    return prefixesMayExist;
  }

  /** Called by a write that puts a prefixTable row, before its batch commits. */
  public void prefixWritten() {
    prefixesMayExist = true;
  }

  public DBStore store() {
    return store;
  }

  public OmStoreOptions options() {
    return options;
  }

  /**
   * The store's continuation-token secret (random, kept in the meta table, so tokens survive a
   * restart; a replica adopts its group's, see {@link AppliedLog#adoptTokenSecret}), for the
   * listing package's signer. Callers must not change the array.
   */
  public byte[] tokenSecret() {
    return tokenSecret;
  }

  /**
   * Runs {@code body} (one write of the namespace, or none if it rejects) as the application of
   * the replicated log entry at {@code position}: the write's timestamp is {@code timeMillis}
   * (decided by the leader, so every replica writes the same rows) instead of the clock, and its
   * batch also records {@code position} as the last applied entry
   * ({@link AppliedLog#lastApplied}), so the change and the position are durable together. A body
   * that rejects writes nothing, the position included: replaying it rejects again.
   */
  public <T> T applying(LogPosition position, long timeMillis, Supplier<T> body) {
    Objects.requireNonNull(position, "position");
    if (applying.get() != null) {
      throw new IllegalStateException("Already applying " + applying.get().position());
    }
    applying.set(new Applying(position, timeMillis));
    try {
      return body.get();
    } finally {
      applying.remove();
    }
  }

  /** Uses {@code secret} (already stored) for tokens from now on; see {@link AppliedLog}. */
  void useTokenSecret(byte[] secret) {
    tokenSecret = secret;
  }

  public GroupCommitter committer() {
    return committer;
  }

  public <K, V> Table<K, V> table(TableDefinition<K, V> def) {
    return store.getTable(def);
  }

  long now() {
    Applying a = applying.get();
    return a != null ? a.timeMillis() : options.clock().millis();
  }

  /**
   * Runs one write: {@code body} validates (throwing {@link OmException} to reject, which applies
   * nothing) and fills the transaction's batch; then the batch, the advanced id sequence and the
   * counter changes commit atomically (a counter that would overflow rejects the write with
   * RESOURCE_EXHAUSTED, applying nothing), and this returns once the write is durable under the
   * store's {@link SyncPolicy} (inside {@link #deferringDurability}: once applied). Writes are
   * serialized; the durability wait happens after the lock is released, so concurrent writers
   * share one WAL sync.
   */
  public <T> T write(Function<WriteTxn, T> body) {
    long ticket = 0;
    T result;
    writeLock.lock();
    try (BatchOperation batch = store.initBatchOperation()) {
      WriteTxn txn = new WriteTxn(batch, nextObjectId, now());
      result = body.apply(txn);
      Table<String, byte[]> meta = store.getTable(META_TABLE);
      Applying entry = applying.get();
      if (entry != null) {
        meta.putWithBatch(batch, OmDBDefinition.META_LAST_APPLIED, entry.position().encode());
      }
      if (txn.nextObjectId() != nextObjectId) {
        meta.putWithBatch(batch, OmDBDefinition.META_NEXT_OBJECT_ID, encodeLong(txn.nextObjectId()));
      }
      NamespaceCounters.Staged staged = counters.stage(txn, batch);
      if (batch.size() > 0) {
        parsedRows.beginChange(txn.changedVolumes(), txn.changedBuckets());
        try {
          commit(batch);
        } finally {
          parsedRows.invalidate(txn.changedVolumes(), txn.changedBuckets());
        }
        ticket = committer.applied();
      } else {
        // Nothing written, but the result may report what another writer applied and has not
        // synced yet (an idempotent createDirectory): wait for everything applied so far.
        ticket = committer.writeCount();
      }
      nextObjectId = txn.nextObjectId();
      staged.publish();
    } finally {
      writeLock.unlock();
    }
    committer.awaitDurable(ticket);
    return result;
  }

  /**
   * Runs {@code body} on this thread, its {@link #write}s returning once applied instead of once
   * durable, and returns a future of what it returns (or of the exception it throws) that
   * completes once every write it made is durable under the store's {@link SyncPolicy}: an
   * acknowledgement that holds no thread while the WAL syncs. The future is completed on the
   * syncing thread (see {@link GroupCommitter#whenDurable}), so what depends on it must be short
   * and must not wait for a write.
   *
   * @throws IllegalStateException if this thread is already inside one
   */
  public <T> CompletableFuture<T> deferringDurability(Supplier<T> body) {
    return committer.deferring(body);
  }

  /**
   * Commits {@code batch} atomically.
   *
   * @throws OmException RESOURCE_EXHAUSTED if the store's disk is full: nothing was applied, reads
   *     keep working, and writes resume by themselves once there is room again
   */
  static void commit(BatchOperation batch) {
    try {
      batch.commit();
    } catch (StoreOutOfSpaceException e) {
      throw new OmException(Code.RESOURCE_EXHAUSTED, e.getMessage(), e);
    }
  }

  /**
   * Runs {@code body} under the write lock (writes wait meanwhile) and returns what it returns;
   * for work that must see no concurrent write, such as rebuilding the counters from a scan.
   */
  public <T> T underWriteLock(java.util.function.Supplier<T> body) {
    writeLock.lock();
    try {
      return body.get();
    } finally {
      writeLock.unlock();
    }
  }

  /** For work that reads without the write lock before a short write: step locks, phases. */
  public UnlockedWork unlocked() {
    return unlocked;
  }

  /** The namespace counters (exact, maintained by every write; no scan). */
  public Map<OmCounter, Long> counters() {
    return counters.values();
  }

  /**
   * The counters of one bucket (by object id; zeros for none). A read does not fill the cache,
   * which only writes do (under the write lock), so a bucket deleted meanwhile leaves no entry.
   */
  public Map<OmCounter, Long> bucketCountersOf(long bucketId) {
    return counters.ofBucket(bucketId);
  }

  /** Replaces every counter (after a recount); caller holds the write lock. */
  public void resetCounters(Map<OmCounter, Long> values) {
    resetCounters(values, null);
  }

  /**
   * Replaces every store-wide counter and, when {@code buckets} is not null, every per-bucket
   * counter (those of buckets absent from it are dropped), in one batch; caller holds the write
   * lock.
   */
  public void resetCounters(Map<OmCounter, Long> values, Map<Long, Map<OmCounter, Long>> buckets) {
    try (BatchOperation batch = store.initBatchOperation()) {
      counters.stageReset(batch, values, buckets);
      commit(batch);
    }
    long ticket = committer.applied();
    // The batch is applied: memory follows before anything can fail, as in write().
    counters.publishReset(values, buckets != null);
    committer.awaitDurable(ticket);
  }

  // ---- shared checks ----

  /**
   * A listing's page size: 0 (an empty page, see {@link io.sediment.om.OmMetadataStore}) to the page cap.
   *
   * @throws OmException INVALID_ARGUMENT if negative or above the cap
   */
  public int checkPageSize(String what, int max) {
    if (max < 0) {
      throw OmException.invalid(what + " must not be negative (0 asks for an empty page): "
          + max);
    }
    return atMostCap(what, max);
  }

  /**
   * An S3 listing's page size (max-keys, max-parts, max-uploads): 0 (an empty page) or more,
   * clamped to the page cap as S3 does.
   *
   * @throws OmException INVALID_ARGUMENT if negative
   */
  public int clampPageSize(String what, int max) {
    if (max < 0) {
      throw OmException.invalid(what + " must not be negative (0 asks for an empty page): "
          + max);
    }
    return Math.min(max, options.maxListSize());
  }

  /**
   * The work budget of one step of a background scan: 1 to the page cap (0 would make no
   * progress).
   *
   * @throws OmException INVALID_ARGUMENT if below 1 or above the cap
   */
  public int checkBudget(String what, int max) {
    if (max <= 0) {
      throw OmException.invalid(what + " must be at least 1: " + max);
    }
    return atMostCap(what, max);
  }

  private int atMostCap(String what, int max) {
    if (max > options.maxListSize()) {
      throw OmException.invalid(what + " " + max + " exceeds the page size cap "
          + options.maxListSize());
    }
    return max;
  }

  /**
   * The volume as {@code view} sees it ({@code null}: now, from the parsed-row cache).
   *
   * @throws OmException NOT_FOUND if absent
   */
  public VolumeInfo requireVolume(ReadView view, String volume) {
    VolumeInfo info = view == null ? volumeIfExists(volume)
        : view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(volume));
    if (info == null) {
      throw OmException.volumeNotFound(volume);
    }
    return info;
  }

  /**
   * The bucket as {@code view} sees it ({@code null}: now, from the parsed-row cache).
   *
   * @throws OmException NOT_FOUND naming the volume if it is absent, else the bucket
   */
  public BucketInfo requireBucket(ReadView view, String volume, String bucket) {
    BucketInfo info = view == null ? bucketIfExists(volume, bucket)
        : view.getTable(BUCKET_TABLE).get(OmKeys.bucketKey(volume, bucket));
    if (info == null) {
      requireVolume(view, volume);
      throw OmException.bucketNotFound(volume, bucket);
    }
    return info;
  }

  /** The volume now (the parsed-row cache, see {@link VolumeBucketCache}), or null if absent. */
  public VolumeInfo volumeIfExists(String volume) {
    return parsedRows.volume(volume);
  }

  /** The bucket now (the parsed-row cache, see {@link VolumeBucketCache}), or null if absent. */
  public BucketInfo bucketIfExists(String volume, String bucket) {
    return parsedRows.bucket(volume, bucket);
  }

  /**
   * The volume and bucket rows kept parsed in memory; volume and bucket rows change only through
   * its {@code put}/{@code delete} methods, which keep it in step with the tables.
   */
  public VolumeBucketCache parsedRows() {
    return parsedRows;
  }

  /** An OBJECT_STORE or LEGACY bucket, else UNIMPLEMENTED/INVALID for FSO. */
  public BucketInfo requireObjectStoreBucket(ReadView view, String volume, String bucket) {
    return objectStoreBucket(requireBucket(view, volume, bucket), volume, bucket);
  }

  /**
   * As {@link #requireObjectStoreBucket(ReadView, String, String)} in {@code view}, opened after
   * {@code stamp} was taken ({@link VolumeBucketCache#stamp()}): the bucket's parsed row when
   * the cache vouches that the view holds it, else the view's.
   */
  public BucketInfo requireObjectStoreBucket(ReadView view, long stamp, String volume,
      String bucket) {
    BucketInfo info = parsedRows.bucketAsOf(stamp, volume, bucket);
    return objectStoreBucket(info != null ? info : requireBucket(view, volume, bucket), volume,
        bucket);
  }

  private static BucketInfo objectStoreBucket(BucketInfo info, String volume, String bucket) {
    if (info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      throw new OmException(Code.UNIMPLEMENTED, "Bucket '" + volume + "/" + bucket
          + "' is FILE_SYSTEM_OPTIMIZED; use the file-system operations for its keys");
    }
    return info;
  }


  /**
   * Takes a committed version out of the live counts ({@code live} one fewer, {@code liveBytes}
   * its size fewer) and moves it to deletedTable. The caller removes or replaces its live row.
   */
  public void retire(WriteTxn txn, long bucketId, OmCounter live, OmCounter liveBytes, KeyInfo version) {
    txn.count(bucketId, live, -1);
    txn.count(bucketId, liveBytes, -version.getDataSize());
    moveToDeleted(txn, bucketId, version);
  }

  /**
   * Moves a version to deletedTable under its object id, counting it against {@code bucketId}, or
   * store-wide only when null (a version whose bucket is gone).
   */
  public void moveToDeleted(WriteTxn txn, Long bucketId, KeyInfo version) {
    store.getTable(DELETED_TABLE).putWithBatch(txn.batch(),
        OmKeys.deletedKey(version.getVolumeName(), version.getBucketName(), version.getKeyName(),
            version.getObjectId()),
        version.toBuilder().setDeletionTime(txn.now()).build());
    txn.countIn(bucketId, OmCounter.DELETED_KEYS, 1);
    txn.countIn(bucketId, OmCounter.DELETED_KEY_BYTES, version.getDataSize());
  }

  public static long decodeLong(byte[] b) {
    return ByteBuffer.wrap(b).getLong();
  }

  public static byte[] encodeLong(long v) {
    return ByteBuffer.allocate(Long.BYTES).putLong(v).array();
  }

  public static String nz(String s) {
    return s == null ? "" : s;
  }
}
