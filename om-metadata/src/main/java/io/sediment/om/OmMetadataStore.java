package io.sediment.om;

import com.google.protobuf.ByteString;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.om.bucket.Buckets;
import io.sediment.om.bucket.PropertyPatch;
import io.sediment.om.bucket.Volumes;
import io.sediment.om.bulk.NamespaceBulkLoader;
import io.sediment.om.core.AppliedLog;
import io.sediment.om.core.CounterScan;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.VolumeBucketCache;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FsoNamespace;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.keys.ObjectKeys;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.listing.ObjectListings;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.openfiles.OpenFiles;
import io.sediment.om.purge.LifecycleScans;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.VolumeInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The object-store namespace over one hdds-db store ({@link OmDBDefinition}): the public facade.
 * Volumes, buckets and OBJECT_STORE/LEGACY keys are methods here, each delegating to the class its
 * Javadoc names, which states the contract (arguments, order, error codes). Other areas are
 * objects whose methods state theirs: {@link #snapshots()}, {@link #multipart()}, {@link #fso()},
 * {@link #openFiles()}, {@link #lifecycle()}, {@link #purges()}, {@link #insight()}.
 *
 * <p>Writes: each checks its arguments and preconditions, then applies ONE atomic batch (a rejected
 * call throws {@link OmException}, changing nothing), serialized by one lock, durable under the
 * store's {@link io.sediment.om.core.SyncPolicy} when it returns. Listings: one bounded iterator
 * per page on one consistent view; {@code truncated} is exact; a page size of 0 is an empty page
 * after every check; tokens are opaque, MACed and bound to their request
 * ({@link io.sediment.om.listing.Pager}). Thread-safe.
 */
public final class OmMetadataStore implements AutoCloseable {

  private final OmStoreOptions options;
  private final DBProfile profile;
  /** The areas over the store's current files; replaced whole by {@link StoreReplacement}. */
  private volatile OmAreas areas;
  private final List<Runnable> spaceListeners = new CopyOnWriteArrayList<>();

  private OmMetadataStore(OmAreas areas, OmStoreOptions options, DBProfile profile) {
    this.options = options;
    this.profile = profile;
    this.areas = areas;
    areas.store.addOutOfSpaceListener(this::outOfSpaceChanged);
  }

  /** Opens (creating if missing) the store in {@code dir} with default options. */
  public static OmMetadataStore open(Path dir) {
    return open(dir, OmStoreOptions.defaults());
  }

  /**
   * Opens (creating if missing) the store in {@code dir}, first finishing or undoing a replacement
   * of its files that a crash interrupted ({@link ReplicaFiles#installIncoming}).
   */
  public static OmMetadataStore open(Path dir, OmStoreOptions options) {
    return open(dir, options, DBProfile.defaults());
  }

  /**
   * Opens (creating if missing) the store in {@code dir} with {@code options} and the RocksDB
   * tuning {@code profile} (block cache, partition pinning, an OPTIONS file, ...), first finishing
   * or undoing an interrupted replacement of its files as {@link #open(Path, OmStoreOptions)}
   * does. Files opened again after a replacement use the same profile ({@code SyncPolicy#profile}).
   */
  public static OmMetadataStore open(Path dir, OmStoreOptions options, DBProfile profile) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(profile, "profile");
    profile = options.syncPolicy().profile(profile);
    ReplacementDirs.recover(dir);
    return new OmMetadataStore(OmAreas.open(dir, options, profile), options, profile);
  }

  /** The options the store was opened with. */
  public OmStoreOptions options() {
    return options;
  }

  /** The RocksDB tuning the store was opened with ({@link DBProfile#defaults()} unless given). */
  public DBProfile profile() {
    return profile;
  }

  /** The underlying store, for tools and tests; writing through it bypasses every check. */
  public DBStore dbStore() {
    return areas.store;
  }

  /** Applying a replicated log's entries to this store; see {@link AppliedLog}. */
  public AppliedLog appliedLog() {
    return new AppliedLog(areas.ctx);
  }

  /** Builds a large namespace from SST files, {@code threads} tables at once; no one else writes. */
  public NamespaceBulkLoader bulkLoader(int threads) {
    return new NamespaceBulkLoader(areas.ctx, threads);
  }

  /** Whole copies of this store moving between replicas; see {@link ReplicaFiles}. */
  public ReplicaFiles replicaFiles() {
    return new ReplicaFiles(this);
  }

  OmAreas areas() {
    return areas;
  }

  void areas(OmAreas replacement) {
    areas = replacement;
    replacement.store.addOutOfSpaceListener(this::outOfSpaceChanged);
    outOfSpaceChanged();
  }

  /** Volume and bucket rows kept parsed in memory, for lookups that only look. */
  public VolumeBucketCache parsedRows() {
    return areas.ctx.parsedRows();
  }

  /** Runs a request's writes, acknowledged later; see {@link OmContext#deferringDurability}. */
  public <T> java.util.concurrent.CompletableFuture<T> deferringDurability(
      java.util.function.Supplier<T> body) {
    return areas.ctx.deferringDurability(body);
  }

  /** Calls {@code listener} whenever out of space may have changed, across file replacements. */
  public Runnable addOutOfSpaceListener(Runnable listener) {
    spaceListeners.add(listener);
    return () -> spaceListeners.remove(listener);
  }

  private void outOfSpaceChanged() {
    spaceListeners.forEach(Runnable::run);
  }

  /** The shared context (write path, ids, counters), for tests of this package. */
  OmContext context() {
    return areas.ctx;
  }

  /** See {@link OmContext#counters}. */
  public Map<OmCounter, Long> counters() {
    return areas.ctx.counters();
  }

  /** The counters of one bucket. See {@link Buckets#counters}. */
  public Map<OmCounter, Long> bucketCounters(String volume, String bucket) {
    return areas.buckets.counters(volume, bucket);
  }

  /** Counts every counted table from a scan, changing nothing. See {@link CounterScan#count}. */
  public Map<OmCounter, Long> countFromScan() {
    return CounterScan.count(areas.store);
  }

  /** Resets the maintained counters to a scan's, under the write lock; returns the totals. */
  public Map<OmCounter, Long> recount() {
    return CounterScan.recount(areas.ctx);
  }

  /** Closes the snapshot stores, then the store. */
  @Override
  public void close() {
    areas.close();
  }
  // ---- Volumes ----
  /** Creates a volume. See {@link Volumes#create}. */
  public VolumeInfo createVolume(String volume, String owner) {
    return areas.volumes.create(volume, owner);
  }

  /** Sets a volume's owner and quotas. See {@link Volumes#setProperties}. */
  public VolumeInfo setVolumeProperties(String volume, String owner, Long quotaInBytes,
      Long quotaInNamespace) {
    return areas.volumes.setProperties(volume,
        new PropertyPatch(owner, quotaInBytes, quotaInNamespace));
  }

  /** A volume. See {@link Volumes#get}. */
  public VolumeInfo getVolumeInfo(String volume) {
    return areas.volumes.get(volume);
  }

  /** Deletes an empty volume. See {@link Volumes#delete}. */
  public void deleteVolume(String volume) {
    areas.volumes.delete(volume);
  }

  /** One page of volumes. See {@link ObjectListings#listVolumes}. */
  public ListPage<VolumeInfo> listVolumes(String prefix, String startAfter, int maxResults) {
    return areas.listings.listVolumes(prefix, startAfter, maxResults);
  }

  // ---- Buckets ----
  /** Creates a bucket. See {@link Buckets#create}. */
  public BucketInfo createBucket(String volume, String bucket, BucketLayout layout, String owner,
      long quotaInBytes) {
    return areas.buckets.create(volume, bucket, layout, owner, quotaInBytes);
  }

  /** Creates a bucket with a default replication config. See {@link Buckets#create}. */
  public BucketInfo createBucket(String volume, String bucket, BucketLayout layout, String owner,
      long quotaInBytes, ReplicationConfig defaultReplication) {
    return areas.buckets.create(volume, bucket, layout, owner, quotaInBytes, defaultReplication);
  }

  /** Sets a bucket's owner and quotas. See {@link Buckets#setProperties}. */
  public BucketInfo setBucketProperties(String volume, String bucket, String owner,
      Long quotaInBytes, Long quotaInNamespace) {
    return areas.buckets.setProperties(volume, bucket,
        new PropertyPatch(owner, quotaInBytes, quotaInNamespace));
  }

  /** Sets a bucket's owner, quotas and default replication. See {@link Buckets#setProperties}. */
  public BucketInfo setBucketProperties(String volume, String bucket, String owner,
      Long quotaInBytes, Long quotaInNamespace, ReplicationConfig defaultReplication) {
    return areas.buckets.setProperties(volume, bucket,
        new PropertyPatch(owner, quotaInBytes, quotaInNamespace), defaultReplication);
  }

  /** A bucket. See {@link Buckets#get}. */
  public BucketInfo getBucketInfo(String volume, String bucket) {
    return areas.buckets.get(volume, bucket);
  }

  /** Deletes an empty bucket. See {@link Buckets#delete}. */
  public void deleteBucket(String volume, String bucket) {
    areas.buckets.delete(volume, bucket);
  }

  /** One page of a volume's buckets. See {@link ObjectListings#listBuckets}. */
  public ListPage<BucketInfo> listBuckets(String volume, String prefix, String startAfter,
      int maxResults) {
    return areas.listings.listBuckets(volume, prefix, startAfter, maxResults);
  }

  // ---- Keys (OBJECT_STORE and LEGACY) ----
  /** Opens a key for writing. See {@link ObjectKeys#open}. */
  public OpenKeySession openKey(String volume, String bucket, String key, String owner) {
    return areas.objectKeys.open(volume, bucket, key, owner);
  }

  /** Opens a key with its replication config. See {@link ObjectKeys#open}. */
  public OpenKeySession openKey(String volume, String bucket, String key, String owner,
      ReplicationConfig replication) {
    return areas.objectKeys.open(volume, bucket, key, owner, replication);
  }

  /** Commits an open key. See {@link ObjectKeys#commit}. */
  public KeyInfo commitKey(String volume, String bucket, String key, long clientId, long dataSize) {
    return areas.objectKeys.commit(volume, bucket, key, clientId, dataSize);
  }

  /** Commits an open key with user metadata. See {@link ObjectKeys#commit}. */
  public KeyInfo commitKey(String volume, String bucket, String key, long clientId, long dataSize,
      Map<String, String> metadata) {
    return areas.objectKeys.commit(volume, bucket, key, clientId, dataSize, metadata);
  }

  /** A committed key. See {@link ObjectKeys#lookup}. */
  public KeyInfo lookupKey(String volume, String bucket, String key) {
    return areas.objectKeys.lookup(volume, bucket, key);
  }

  /** A key as stored, for a server that forwards it. See {@link ObjectKeys#lookupEncoded}. */
  public ByteString lookupKeyEncoded(String volume, String bucket, String key) {
    return areas.objectKeys.lookupEncoded(volume, bucket, key);
  }

  /** Deletes a key. See {@link ObjectKeys#delete}. */
  public void deleteKey(String volume, String bucket, String key) {
    areas.objectKeys.delete(volume, bucket, key);
  }

  /** Deletes up to a page of keys in one batch. See {@link ObjectKeys#deleteAll}. */
  public List<ObjectKeys.Deletion> deleteKeys(String volume, String bucket, List<String> keys,
      java.util.Set<Integer> skip) {
    return areas.objectKeys.deleteAll(volume, bucket, keys, skip);
  }

  /** One page of a bucket's keys. See {@link ObjectListings#listKeys}. */
  public ListPage<KeyInfo> listKeys(String volume, String bucket, String prefix,
      String startAfter, int maxKeys, String token) {
    return areas.listings.listKeys(volume, bucket, prefix, startAfter, maxKeys, token);
  }

  /** S3 ListObjectsV2. See {@link ObjectListings#listObjectsV2}. */
  public ListObjectsV2Result listObjectsV2(ListObjectsV2Request request) {
    return areas.listings.listObjectsV2(request);
  }

  /** Renames a key. See {@link ObjectKeys#rename}. */
  public KeyInfo renameKey(String volume, String bucket, String fromKey, String toKey) {
    return areas.objectKeys.rename(volume, bucket, fromKey, toKey);
  }

  /** S3 ListObjects (version 1). See {@link ObjectListings#listObjectsV1}. */
  public ListObjectsV1Result listObjectsV1(ListObjectsV1Request request) {
    return areas.listings.listObjectsV1(request);
  }

  /** Bucket snapshots: create, delete, read and list them, and read keys as they hold them. */
  public Snapshots snapshots() {
    return areas.snapshots;
  }

  /** S3 multipart uploads of OBJECT_STORE and LEGACY buckets. */
  public MultipartUploads multipart() {
    return areas.multipart;
  }

  /** Directories and files of FILE_SYSTEM_OPTIMIZED buckets. */
  public FsoNamespace fso() {
    return areas.fso;
  }

  /** The keys and files open for writing. */
  public OpenFiles openFiles() {
    return areas.openFiles;
  }

  /** Resumable lifecycle scans of a bucket's committed keys. */
  public LifecycleScans lifecycle() {
    return areas.lifecycle;
  }

  /** The bearer tokens a server accepts (hashes only); ask each time: files may be replaced. */
  public io.sediment.om.credentials.AuthTokens authTokens() {
    return areas.authTokens;
  }

  /** The purge steps the background services run (io.sediment.om.service). */
  public OmPurges purges() {
    return areas.purges;
  }

  /** Read-only insight for Recon, pages capped by {@link OmStoreOptions#maxListSize()}. */
  public OmInsight insight() {
    return OmInsight.over(areas.store, options.maxListSize(), OmInsight.DEFAULT_WALK_BUDGET);
  }
}
