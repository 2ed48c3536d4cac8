package io.sediment.om.core;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.sediment.db.Table;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Volume and bucket rows kept parsed in memory, so that a request that names a bucket does not
 * read and decode its volume and bucket rows from RocksDB each time.
 *
 * <p>Contract:
 * <ul>
 *   <li>A read returns what the table holds now, or what it held at some moment since the read
 *       began: never a row that a write acknowledged before the read began has replaced or
 *       deleted. Writes {@linkplain #invalidate invalidate} the rows they change after their
 *       batch is applied and before they are acknowledged (inside {@link OmContext#write}, under
 *       its lock), so a write that reads a bucket under the lock sees every earlier write.</li>
 *   <li>A miss reads the table and installs the row only if no write changing volume or bucket
 *       rows was being applied when the miss began and none began since (a store-wide change
 *       count, compared atomically with the install), so a slow reader never puts back a row a
 *       concurrent write has just replaced.</li>
 *   <li>Absent rows are not cached: a missing bucket costs its reads every time.</li>
 *   <li>Bounded: at most {@code capacity} volumes and {@code capacity} buckets; beyond that the
 *       least useful are evicted (Caffeine's W-TinyLFU). Capacity 0 disables the cache: every read
 *       goes to the table.</li>
 * </ul>
 *
 * <p>Volume and bucket rows are written only through {@link #putVolume}, {@link #deleteVolume},
 * {@link #putBucket} and {@link #deleteBucket}, which record the key in the write's
 * {@link WriteTxn}; {@link OmContext#write} invalidates those keys once the batch is applied.
 *
 * <p>Every read of a volume or bucket row of the live store goes through it. A read in a
 * {@link io.sediment.db.ReadView} (a point in time) may use it only for a row the cache vouches
 * the view sees ({@link #bucketAsOf}): one no write changed between a {@link #stamp()} taken
 * before the view opened and the read. Thread-safe.
 */
public final class VolumeBucketCache {

  private final Table<String, VolumeInfo> volumeTable;
  private final Table<String, BucketInfo> bucketTable;
  private final Cache<String, VolumeInfo> volumes;
  private final Cache<String, BucketInfo> buckets;
  /**
   * A sequence lock over the rows: made odd by {@link #beginChange} before a write that changes
   * volume or bucket rows is applied, made even again by {@link #invalidate} once the changed
   * rows are forgotten (so every invalidation moves it). A miss installs only if it was even when
   * the miss began and is unchanged at the install.
   */
  private final AtomicLong invalidations = new AtomicLong();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final boolean enabled;

  /**
   * A cache of at most {@code capacity} volumes and as many buckets (0 disables it) over the
   * store's volumeTable and bucketTable.
   */
  VolumeBucketCache(int capacity, Table<String, VolumeInfo> volumeTable,
      Table<String, BucketInfo> bucketTable) {
    this.volumeTable = volumeTable;
    this.bucketTable = bucketTable;
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative: " + capacity);
    }
    this.enabled = capacity > 0;
    // Maintenance (eviction) runs on the calling thread: no background pool to own or close.
    this.volumes = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
    this.buckets = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
  }

  /**
   * Volume {@code volume} now, or null if it is absent or the name is empty. The name is not
   * checked: a name the store would refuse is simply absent.
   */
  public VolumeInfo volume(String volume) {
    return volume.isEmpty() ? null : read(volumes, volumeTable, OmKeys.volumeKey(volume));
  }

  /** As {@link #volume}, for bucket {@code volume/bucket}. */
  public BucketInfo bucket(String volume, String bucket) {
    return volume.isEmpty() || bucket.isEmpty() ? null
        : read(buckets, bucketTable, OmKeys.bucketKey(volume, bucket));
  }

  /**
   * A stamp of the rows' state for {@link #bucketAsOf}: taken before opening a view whose
   * reads of bucket rows the cache may then answer.
   */
  public long stamp() {
    return invalidations.get();
  }

  /**
   * Bucket {@code volume/bucket} as a view opened after {@code stamp} was taken sees it, from
   * memory, or {@code null} when the cache cannot vouch for that (the bucket is absent, the cache
   * is disabled, or a write was changing volume or bucket rows when the stamp was taken or has
   * changed one since): the caller then reads the view. A row is vouched for only if no such
   * write was applied from before the stamp to after the read, so the row read is the one the
   * view holds.
   */
  public BucketInfo bucketAsOf(long stamp, String volume, String bucket) {
    if (!enabled || (stamp & 1) != 0) {
      return null;
    }
    BucketInfo info = bucket(volume, bucket);
    return info != null && invalidations.get() == stamp ? info : null;
  }

  private <V> V read(Cache<String, V> cache, Table<String, V> table, String key) {
    if (!enabled) {
      return table.get(key);
    }
    V cached = cache.getIfPresent(key);
    if (cached != null) {
      hits.increment();
      return cached;
    }
    misses.increment();
    long seen = invalidations.get();
    V loaded = table.get(key);
    // Installed only if no write was changing rows when the miss began (`seen` even) and none
    // began since (unchanged, checked atomically with invalidate's remove of the same key): a row
    // read while a write was applied may predate it, and the write's remove may already have
    // run, so it is returned but not kept.
    if (loaded != null && (seen & 1) == 0) {
      cache.asMap().compute(key, (k, current) -> invalidations.get() == seen ? loaded : current);
    }
    return loaded;
  }

  /** Writes volume row {@code info} in {@code txn}'s batch; forgotten here once it commits. */
  public void putVolume(WriteTxn txn, VolumeInfo info) {
    String key = OmKeys.volumeKey(info.getName());
    volumeTable.putWithBatch(txn.batch(), key, info);
    txn.changedVolume(key);
  }

  /** Deletes volume {@code volume}'s row in {@code txn}'s batch; forgotten here once it commits. */
  public void deleteVolume(WriteTxn txn, String volume) {
    String key = OmKeys.volumeKey(volume);
    volumeTable.deleteWithBatch(txn.batch(), key);
    txn.changedVolume(key);
  }

  /** Writes bucket row {@code info} in {@code txn}'s batch; forgotten here once it commits. */
  public void putBucket(WriteTxn txn, BucketInfo info) {
    String key = OmKeys.bucketKey(info.getVolumeName(), info.getBucketName());
    bucketTable.putWithBatch(txn.batch(), key, info);
    txn.changedBucket(key);
  }

  /** Deletes bucket {@code volume/bucket}'s row in {@code txn}'s batch; see {@link #putBucket}. */
  public void deleteBucket(WriteTxn txn, String volume, String bucket) {
    String key = OmKeys.bucketKey(volume, bucket);
    bucketTable.deleteWithBatch(txn.batch(), key);
    txn.changedBucket(key);
  }

  /**
   * Marks a write that changes the rows under {@code volumeKeys} and {@code bucketKeys} as being
   * applied; called under the write lock before its batch is applied, and always followed by
   * {@link #invalidate} with the same keys (also when the apply fails).
   */
  void beginChange(Collection<String> volumeKeys, Collection<String> bucketKeys) {
    if (!volumeKeys.isEmpty() || !bucketKeys.isEmpty()) {
      invalidations.incrementAndGet();
    }
  }

  /**
   * Forgets the rows under {@code volumeKeys} and {@code bucketKeys}; called by a write after
   * its batch is applied (or failed to apply), before it is acknowledged, to end what
   * {@link #beginChange} began.
   */
  void invalidate(Collection<String> volumeKeys, Collection<String> bucketKeys) {
    if (volumeKeys.isEmpty() && bucketKeys.isEmpty()) {
      return;
    }
    if ((invalidations.get() & 1) == 0) {
      throw new IllegalStateException("invalidate without beginChange");
    }
    volumeKeys.forEach(k -> volumes.asMap().remove(k));
    bucketKeys.forEach(k -> buckets.asMap().remove(k));
    invalidations.incrementAndGet();
  }

  /** Reads answered from memory since the cache was built. */
  public long hits() {
    return hits.sum();
  }

  /** Reads that went to the table since the cache was built (none when disabled). */
  public long misses() {
    return misses.sum();
  }

  /** Rows held now (volumes and buckets), after pending evictions. */
  public long size() {
    volumes.cleanUp();
    buckets.cleanUp();
    return volumes.estimatedSize() + buckets.estimatedSize();
  }
}
