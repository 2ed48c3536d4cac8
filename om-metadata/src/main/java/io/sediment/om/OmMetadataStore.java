package io.sediment.om;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.om.bucket.Buckets;
import io.sediment.om.bucket.PropertyPatch;
import io.sediment.om.bucket.Volumes;
import io.sediment.om.core.AppliedLog;
import io.sediment.om.core.CounterScan;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.DirectoryPurge;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoDirectories;
import io.sediment.om.fso.FsoFiles;
import io.sediment.om.fso.FsoListing;
import io.sediment.om.fso.FsoResolver;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.keys.ObjectKeys;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.listing.ObjectListings;
import io.sediment.om.listing.Pager;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.multipart.PartListing;
import io.sediment.om.openfiles.OpenFiles;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.om.purge.LifecycleScans;
import io.sediment.om.purge.LifecycleStep;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.VolumeInfo;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The object-store namespace over one hdds-db store ({@link OmDBDefinition}): the public facade.
 * Every method delegates to the feature class its Javadoc names, where the contract (arguments,
 * order, error codes) is stated: volumes and buckets ({@code io.sediment.om.bucket}), OBJECT_STORE
 * and LEGACY keys ({@code keys}), FSO directories and files ({@code fso}), multipart uploads
 * ({@code multipart}), snapshots ({@code snapshot}), open files ({@code openfiles}), purges and
 * lifecycle scans ({@code purge}), insight ({@code insight}) and every paged listing
 * ({@code listing}). The feature classes share one {@link OmContext}: the write path, the id
 * sequence and the counters.
 *
 * <p>Writes: each checks its arguments and preconditions, then applies ONE atomic batch; a rejected
 * call throws {@link io.sediment.om.core.OmException} and changes nothing. Writes are serialized by
 * one lock (each check-then-write is atomic with its batch) and return once durable under the
 * store's {@link io.sediment.om.core.SyncPolicy}.
 *
 * <p>Listings: one natively bounded iterator per page, on one consistent view, positioned once
 * after the cursor; {@code truncated} is exact; a page size of 0 is an empty page after every
 * check. Continuation tokens are opaque, MACed with a per-store secret and bound to their request
 * ({@link Pager}).
 *
 * <p>Thread-safe.
 */
public final class OmMetadataStore implements AutoCloseable {

  /** The smallest size of every part but the last of a completed multipart upload (5 MiB). */
  public static final long MULTIPART_MIN_PART_SIZE = MultipartUploads.MIN_PART_SIZE;
  /** The largest multipart part number (10,000). */
  public static final int MULTIPART_MAX_PART_NUMBER = MultipartUploads.MAX_PART_NUMBER;

  private final OmContext ctx;
  private final DBStore store;
  private final OmStoreOptions options;
  private final Volumes volumes;
  private final Buckets buckets;
  private final ObjectKeys objectKeys;
  private final ObjectListings listings;
  private final Snapshots snapshots;
  private final MultipartUploads multipartUploads;
  private final OpenFiles openFiles;
  private final OmPurges purges;
  private final LifecycleScans lifecycleScans;
  private final FsoResolver fsoResolver;
  private final FsoDirectories fsoDirectories;
  private final FsoFiles fsoFiles;
  private final Pager pager;
  private final AppliedLog appliedLog;

  private OmMetadataStore(DBStore store, OmStoreOptions options) {
    this.store = store;
    this.options = options;
    this.ctx = new OmContext(store, options);
    this.pager = Pager.forStore(ctx);
    this.appliedLog = new AppliedLog(ctx);
    this.volumes = new Volumes(ctx);
    this.snapshots = new Snapshots(ctx, pager);
    this.buckets = new Buckets(ctx, snapshots);
    this.objectKeys = new ObjectKeys(ctx);
    this.listings = new ObjectListings(ctx, pager);
    this.multipartUploads = new MultipartUploads(ctx);
    multipartUploads.moveInlineParts();
    this.openFiles = new OpenFiles(ctx, pager);
    this.purges = new OmPurges(ctx, multipartUploads);
    this.lifecycleScans = new LifecycleScans(ctx);
    this.fsoResolver = new FsoResolver(ctx);
    this.fsoDirectories = new FsoDirectories(ctx);
    this.fsoFiles = new FsoFiles(ctx, fsoDirectories);
  }

  /** Opens (creating if missing) the store in {@code dir} with default options. */
  public static OmMetadataStore open(Path dir) {
    return open(dir, OmStoreOptions.defaults());
  }

  /** Opens (creating if missing) the store in {@code dir}. */
  public static OmMetadataStore open(Path dir, OmStoreOptions options) {
    Objects.requireNonNull(options, "options");
    DBStore store = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(dir).build();
    try {
      return new OmMetadataStore(store, options);
    } catch (RuntimeException | Error e) {
      store.close();
      throw e;
    }
  }

  public OmStoreOptions options() {
    return options;
  }

  /** The underlying store, for tools and tests; writing through it bypasses every check. */
  public DBStore dbStore() {
    return store;
  }

  /** Applying a replicated log's entries to this store; see {@link AppliedLog}. */
  public AppliedLog appliedLog() {
    return appliedLog;
  }

  /** The shared context (write path, ids, counters), for tests of this package. */
  OmContext context() {
    return ctx;
  }

  /** See {@link OmContext#counters}. */
  public Map<OmCounter, Long> counters() {
    return ctx.counters();
  }

  /**
   * The counters of one bucket: what it holds now (exact, maintained by every write). Deleted
   * versions stay counted against the bucket until purged; a deleted bucket's counters are dropped
   * (its pending deletes still count store-wide).
   *
   * @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if absent
   */
  public Map<OmCounter, Long> bucketCounters(String volume, String bucket) {
    OmValidation.checkBucketArgs(volume, bucket);
    return ctx.bucketCountersOf(requireBucket(volume, bucket).getObjectId());
  }

  /**
   * Counts every counted table with a full scan of one consistent view, without changing the
   * maintained counters: for checks and for {@link #recount()}.
   */
  public Map<OmCounter, Long> countFromScan() {
    return CounterScan.count(store);
  }

  /** See {@link OmContext#underWriteLock}. */
  public Map<OmCounter, Long> recount() {
    return ctx.underWriteLock(() -> {
      CounterScan.Result scan = CounterScan.countAll(store);
      ctx.resetCounters(scan.totals(), scan.buckets());
      return scan.totals();
    });
  }

  @Override
  public void close() {
    try {
      snapshots.close();
    } finally {
      store.close();
    }
  }

  // ------------------------------------------------------------------------------------------
  // Volumes

  /** Creates a volume. See {@link Volumes#create}. */
  public VolumeInfo createVolume(String volume, String owner) {
    return volumes.create(volume, owner);
  }

  /** Sets a volume's owner and quotas. See {@link Volumes#setProperties}. */
  public VolumeInfo setVolumeProperties(String volume, String owner, Long quotaInBytes,
      Long quotaInNamespace) {
    return volumes.setProperties(volume,
        new PropertyPatch(owner, quotaInBytes, quotaInNamespace));
  }

  /** A volume. See {@link Volumes#get}. */
  public VolumeInfo getVolumeInfo(String volume) {
    return volumes.get(volume);
  }

  /** Deletes an empty volume. See {@link Volumes#delete}. */
  public void deleteVolume(String volume) {
    volumes.delete(volume);
  }

  /** One page of volumes. See {@link ObjectListings#listVolumes}. */
  public ListPage<VolumeInfo> listVolumes(String prefix, String startAfter, int maxResults) {
    return listings.listVolumes(prefix, startAfter, maxResults);
  }

  // ------------------------------------------------------------------------------------------
  // Buckets

  /** Creates a bucket. See {@link Buckets#create}. */
  public BucketInfo createBucket(String volume, String bucket, BucketLayout layout, String owner,
      long quotaInBytes) {
    return buckets.create(volume, bucket, layout, owner, quotaInBytes);
  }

  /** Sets a bucket's owner and quotas. See {@link Buckets#setProperties}. */
  public BucketInfo setBucketProperties(String volume, String bucket, String owner,
      Long quotaInBytes, Long quotaInNamespace) {
    return buckets.setProperties(volume, bucket,
        new PropertyPatch(owner, quotaInBytes, quotaInNamespace));
  }

  /** A bucket. See {@link Buckets#get}. */
  public BucketInfo getBucketInfo(String volume, String bucket) {
    return buckets.get(volume, bucket);
  }

  /** Deletes an empty bucket. See {@link Buckets#delete}. */
  public void deleteBucket(String volume, String bucket) {
    buckets.delete(volume, bucket);
  }

  /** One page of a volume's buckets. See {@link ObjectListings#listBuckets}. */
  public ListPage<BucketInfo> listBuckets(String volume, String prefix, String startAfter,
      int maxResults) {
    return listings.listBuckets(volume, prefix, startAfter, maxResults);
  }

  // ------------------------------------------------------------------------------------------
  // Keys (OBJECT_STORE and LEGACY)

  /** Opens a key for writing. See {@link ObjectKeys#open}. */
  public OpenKeySession openKey(String volume, String bucket, String key, String owner) {
    return objectKeys.open(volume, bucket, key, owner);
  }

  /** Commits an open key. See {@link ObjectKeys#commit}. */
  public KeyInfo commitKey(String volume, String bucket, String key, long clientId,
      long dataSize) {
    return objectKeys.commit(volume, bucket, key, clientId, dataSize);
  }

  /** A committed key. See {@link ObjectKeys#lookup}. */
  public KeyInfo lookupKey(String volume, String bucket, String key) {
    return objectKeys.lookup(volume, bucket, key);
  }

  /** Deletes a key. See {@link ObjectKeys#delete}. */
  public void deleteKey(String volume, String bucket, String key) {
    objectKeys.delete(volume, bucket, key);
  }

  /** One page of a bucket's keys. See {@link ObjectListings#listKeys}. */
  public ListPage<KeyInfo> listKeys(String volume, String bucket, String prefix,
      String startAfter, int maxKeys, String token) {
    return listings.listKeys(volume, bucket, prefix, startAfter, maxKeys, token);
  }

  /** S3 ListObjectsV2. See {@link ObjectListings#listObjectsV2}. */
  public ListObjectsV2Result listObjectsV2(ListObjectsV2Request request) {
    return listings.listObjectsV2(request);
  }

  /** Renames a key. See {@link ObjectKeys#rename}. */
  public KeyInfo renameKey(String volume, String bucket, String fromKey, String toKey) {
    return objectKeys.rename(volume, bucket, fromKey, toKey);
  }

  /** S3 ListObjects (version 1). See {@link ObjectListings#listObjectsV1}. */
  public ListObjectsV1Result listObjectsV1(ListObjectsV1Request request) {
    return listings.listObjectsV1(request);
  }

  // ------------------------------------------------------------------------------------------
  // Snapshots

  /** Creates a snapshot of a bucket. See {@link Snapshots#create}. */
  public SnapshotInfo createSnapshot(String volume, String bucket, String name) {
    return snapshots.create(volume, bucket, name);
  }

  /** Deletes a snapshot. See {@link Snapshots#delete}. */
  public SnapshotInfo deleteSnapshot(String volume, String bucket, String name) {
    return snapshots.delete(volume, bucket, name);
  }

  /** A snapshot. See {@link Snapshots#info}. */
  public SnapshotInfo getSnapshotInfo(String volume, String bucket, String name) {
    return snapshots.info(volume, bucket, name);
  }

  /** One page of a bucket's snapshots. See {@link Snapshots#list}. */
  public ListPage<SnapshotInfo> listSnapshots(String volume, String bucket, String prefix,
      String prevSnapshot, int maxEntries) {
    return snapshots.list(volume, bucket, prefix, prevSnapshot, maxEntries, null, false);
  }

  /** One page of a bucket's snapshots. See {@link Snapshots#list}. */
  public ListPage<SnapshotInfo> listSnapshots(String volume, String bucket, String prefix,
      String prevSnapshot, int maxEntries, String token, boolean includeDeleted) {
    return snapshots.list(volume, bucket, prefix, prevSnapshot, maxEntries, token,
        includeDeleted);
  }

  /** A key as a snapshot holds it. See {@link Snapshots#lookupKey}. */
  public KeyInfo lookupKeyInSnapshot(String volume, String bucket, String snapshotName,
      String key) {
    return snapshots.lookupKey(volume, bucket, snapshotName, key);
  }

  /** One page of a snapshot's keys. See {@link Snapshots#listKeys}. */
  public ListPage<KeyInfo> listKeysInSnapshot(String volume, String bucket, String snapshotName,
      String prefix, String startAfter, int maxKeys) {
    return snapshots.listKeys(volume, bucket, snapshotName, prefix, startAfter, maxKeys);
  }

  /** The snapshot part of this store, for tests in this package. */
  Snapshots snapshots() {
    return snapshots;
  }

  // ------------------------------------------------------------------------------------------
  // Multipart uploads and open files

  /** Starts a multipart upload. See {@link MultipartUploads#initiate}. */
  public String initiateMultipartUpload(String volume, String bucket, String key, String owner) {
    return multipartUploads.initiate(volume, bucket, key, owner);
  }

  /** Records a part of an upload. See {@link MultipartUploads#commitPart}. */
  public PartInfo commitPart(String volume, String bucket, String key,
      String uploadId, int partNumber, long size, String etag) {
    return multipartUploads.commitPart(volume, bucket, key, uploadId, partNumber, size, etag);
  }

  /** One page of an upload's parts. See {@link MultipartUploads#listParts}. */
  public PartListing listParts(String volume, String bucket, String key, String uploadId,
      int partNumberMarker, int maxParts) {
    return multipartUploads.listParts(volume, bucket, key, uploadId, partNumberMarker, maxParts);
  }

  /** Completes an upload. See {@link MultipartUploads#complete}. */
  public KeyInfo completeMultipartUpload(String volume, String bucket, String key,
      String uploadId, List<CompletedPart> parts) {
    return multipartUploads.complete(volume, bucket, key, uploadId, parts);
  }

  /** Aborts an upload. See {@link MultipartUploads#abort}. */
  public void abortMultipartUpload(String volume, String bucket, String key, String uploadId) {
    multipartUploads.abort(volume, bucket, key, uploadId);
  }

  /** S3 ListMultipartUploads. See {@link MultipartUploads#list}. */
  public MultipartUploadListing listMultipartUploads(String volume, String bucket, String prefix,
      String keyMarker, String uploadIdMarker, int maxUploads) {
    return multipartUploads.list(volume, bucket, prefix, keyMarker, uploadIdMarker, maxUploads);
  }

  /** One page of the keys or files open for writing in a bucket. See {@link OpenFiles#list}. */
  public OpenFilesPage listOpenFiles(String volume, String bucket, int maxKeys, String token) {
    return openFiles.list(volume, bucket, maxKeys, token);
  }

  /**
   * The purge steps the background services run (io.sediment.om.service): purging deletedTable,
   * expiring open keys and files, aborting stale uploads; each step one write transaction with a
   * persisted resume cursor.
   */
  public OmPurges purges() {
    return purges;
  }

  // ------------------------------------------------------------------------------------------
  // Insight (read-only)

  /**
   * Read-only insight for Recon: paged listings of open keys, pending deletes and keys, counters
   * and namespace summaries, each read on one consistent view; see {@link OmInsight}. Page sizes
   * are capped by {@link OmStoreOptions#maxListSize()}.
   */
  public OmInsight insight() {
    return OmInsight.over(store, options.maxListSize(), OmInsight.DEFAULT_WALK_BUDGET);
  }

  // ------------------------------------------------------------------------------------------
  // FSO (file-system-optimized buckets)

  /** Creates a directory and its missing ancestors. See {@link FsoDirectories#create}. */
  public FileStatus createDirectory(String volume, String bucket, String path) {
    return fsoDirectories.create(volume, bucket, path);
  }

  /** Opens a file for writing. See {@link FsoFiles#create}. */
  public OpenKeySession createFile(String volume, String bucket, String path, String owner) {
    return fsoFiles.create(volume, bucket, path, owner);
  }

  /** Commits an open file. See {@link FsoFiles#commit}. */
  public KeyInfo commitFile(String volume, String bucket, String path, long clientId,
      long size) {
    return fsoFiles.commit(volume, bucket, path, clientId, size);
  }

  /** A committed file. See {@link FsoResolver#lookupFile}. */
  public KeyInfo lookupFile(String volume, String bucket, String path) {
    return fsoResolver.lookupFile(volume, bucket, path);
  }

  /** A file or directory. See {@link FsoResolver#getFileStatus}. */
  public FileStatus getFileStatus(String volume, String bucket, String path) {
    return fsoResolver.getFileStatus(volume, bucket, path);
  }

  /** Deletes a file. See {@link FsoFiles#delete}. */
  public void deleteFile(String volume, String bucket, String path) {
    fsoFiles.delete(volume, bucket, path);
  }

  /** Deletes a directory. See {@link FsoDirectories#delete}. */
  public void deleteDirectory(String volume, String bucket, String path, boolean recursive) {
    fsoDirectories.delete(volume, bucket, path, recursive);
  }

  /** Renames a file or directory. See {@link FsoFiles#rename}. */
  public FileStatus rename(String volume, String bucket, String from, String to) {
    return fsoFiles.rename(volume, bucket, from, to);
  }

  /** One page of the entries below a path. See {@link FsoListing#listStatus}. */
  public ListPage<FileStatus> listStatus(String volume, String bucket, String path,
      boolean recursive, String startKey, int numEntries, String token) {
    return FsoListing.listStatus(ctx, pager, volume, bucket, path, recursive, startKey, numEntries,
        token);
  }

  /** One step of the directory purge. See {@link DirectoryPurge#run}. */
  public int purgeDeletedDirectories(int maxEntries) {
    return DirectoryPurge.run(ctx, maxEntries);
  }

  // ------------------------------------------------------------------------------------------
  // Lifecycle scans

  /** One step of a lifecycle scan. See {@link LifecycleScans#step}. */
  public LifecycleStep lifecycleScanStep(String scanName, String volume, String bucket,
      String prefix, java.util.function.Predicate<KeyInfo> rule, int maxExamined) {
    return lifecycleScans.step(scanName, volume, bucket, prefix, rule, maxExamined);
  }

  // ------------------------------------------------------------------------------------------
  // Helpers

  private BucketInfo requireBucket(String volume, String bucket) {
    return ctx.requireBucket(null, volume, bucket);
  }
}
