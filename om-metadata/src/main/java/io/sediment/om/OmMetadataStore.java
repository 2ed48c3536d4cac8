package io.sediment.om;

import static io.sediment.om.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_KEY_TABLE;
import static io.sediment.om.OmDBDefinition.VOLUME_TABLE;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.Codec;
import io.sediment.om.OmException.Code;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKind;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.VolumeInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The object-store namespace over one hdds-db store ({@link OmDBDefinition}): volumes, buckets,
 * OBJECT_STORE/LEGACY keys with their open, committed and deleted versions, FSO directories and
 * files ({@link FsoNamespace}), multipart uploads ({@link MultipartUploads}), open-file listings,
 * snapshots ({@link Snapshots}), the purge steps the background services run ({@link OmPurges},
 * {@link #purgeDeletedDirectories}), read-only insight ({@link OmInsight}) and every paged listing
 * of them. This class is the public facade; the feature classes share one {@link OmContext}.
 *
 * <h2>Writes</h2>
 * Every write checks its arguments and preconditions first and then applies ONE atomic write batch;
 * a rejected call throws {@link OmException} and changes nothing. Writes are serialized by one
 * lock, so each check-then-write (exists? empty? open session?) is atomic with its batch. Object and
 * client ids come from one persisted counter, advanced in the same batch that uses them; the
 * namespace counters ({@link OmCounter}) change in the same batch too. A write returns once it is
 * durable under the store's {@link SyncPolicy} (default: after a group-committed WAL sync).
 *
 * <h2>Listings</h2>
 * A page is read with one natively bounded iterator over {@code base + prefix} (so it never walks
 * entries or tombstones outside the listing), which sees one consistent view of the table. It is
 * positioned once with {@code seek(cursor)} (the start-after or token key; the seek is inclusive,
 * so an exact match of the cursor is skipped) and read lazily, one entry per item returned. With a
 * delimiter, a common prefix is skipped with one seek to its successor instead of walking its keys.
 * When the page is full, one {@code hasNext()} decides {@code truncated} exactly. A cursor whose key
 * was deleted meanwhile resumes at the next live key. Page sizes are capped by
 * {@link OmStoreOptions#maxListSize()}. A page size of 0 asks for an empty page: every argument,
 * the volume and bucket, the upload and the token are checked as for any page, then no entry is
 * read and the page is not truncated and carries no token or next marker (S3 answers max-keys=0,
 * max-uploads=0 and max-parts=0 so; Ozone's listKeys, listStatus and listSnapshot of 0 entries
 * return an empty list). {@code truncated} is exact for every page of at least one entry.
 *
 * <p>Continuation tokens are opaque, MACed with a random per-store secret kept in the meta table
 * (so tokens survive a restart), and bound to their request; see {@link ListTokens}.
 *
 * <p>Thread-safe.
 */
public final class OmMetadataStore implements AutoCloseable {

  private static final Codec<KeyInfo> KEY_INFO = KEY_TABLE.valueCodec();
  private static final Codec<VolumeInfo> VOLUME_INFO = VOLUME_TABLE.valueCodec();
  private static final Codec<BucketInfo> BUCKET_INFO = BUCKET_TABLE.valueCodec();
  private static final String ROOT = String.valueOf(OmKeys.SEPARATOR);

  private final OmContext ctx;
  private final DBStore store;
  private final OmStoreOptions options;
  private final ListTokens tokens;

  private final Table<String, VolumeInfo> volumeTable;
  private final Table<String, BucketInfo> bucketTable;
  private final Table<String, KeyInfo> keyTable;
  private final Table<String, KeyInfo> openKeyTable;
  private final Table<byte[], byte[]> rawVolumeTable;
  private final Snapshots snapshots;
  private final LifecycleScans lifecycleScans;

  private OmMetadataStore(DBStore store, OmStoreOptions options) {
    this.ctx = new OmContext(store, options);
    this.store = store;
    this.options = options;
    this.tokens = ctx.tokens();
    this.volumeTable = store.getTable(VOLUME_TABLE);
    this.bucketTable = store.getTable(BUCKET_TABLE);
    this.keyTable = store.getTable(KEY_TABLE);
    this.openKeyTable = store.getTable(OPEN_KEY_TABLE);
    this.rawVolumeTable = store.getTable(VOLUME_TABLE.name());
    this.snapshots = new Snapshots(ctx);
    this.lifecycleScans = new LifecycleScans(ctx);
    this.multipartUploads = new MultipartUploads(ctx);
    multipartUploads.moveInlineParts();
    this.openFiles = new OpenFiles(ctx);
    this.purges = new OmPurges(ctx, multipartUploads);
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

  /** The shared context, for the other parts of this package. */
  OmContext context() {
    return ctx;
  }

  /** The namespace counters (exact, maintained by every write; no scan). */
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
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    return ctx.bucketCountersOf(requireBucket(volume, bucket).getObjectId());
  }

  /**
   * Counts every counted table with a full scan of one consistent view, without changing the
   * maintained counters: for checks and for {@link #recount()}.
   */
  public Map<OmCounter, Long> countFromScan() {
    return CounterScan.count(store);
  }

  /**
   * Rebuilds the maintained counters, store-wide and per bucket, from a full scan, under the
   * write lock (writes wait), and returns the new store-wide values. For recovery after an external change to the tables.
   */
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

  /**
   * Creates a volume.
   *
   * @throws OmException INVALID_ARGUMENT for a bad name or owner, ALREADY_EXISTS if it exists
   */
  public VolumeInfo createVolume(String volume, String owner) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkOwner(owner);
    return ctx.write(txn -> {
      String key = OmKeys.volumeKey(volume);
      if (volumeTable.isExist(key)) {
        throw new OmException(Code.ALREADY_EXISTS, "Volume '" + volume + "' already exists");
      }
      long id = txn.allocateId();
      long now = txn.now();
      VolumeInfo info = VolumeInfo.newBuilder()
          .setName(volume)
          .setOwner(nz(owner))
          .setAdmin(nz(owner))
          .setObjectId(id)
          .setUpdateId(id)
          .setCreationTime(now)
          .setModificationTime(now)
          .build();
      volumeTable.putWithBatch(txn.batch(), key, info);
      txn.count(OmCounter.VOLUMES, 1);
      return info;
    });
  }

  /**
   * Sets a volume's owner (when {@code owner} is not {@code null}) and quotas (when not
   * {@code null}; 0 = unlimited).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, owner or negative quota, NOT_FOUND if
   *     absent
   */
  public VolumeInfo setVolumeProperties(String volume, String owner, Long quotaInBytes,
      Long quotaInNamespace) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkOwner(owner);
    checkQuota(quotaInBytes);
    checkQuota(quotaInNamespace);
    return ctx.write(txn -> {
      VolumeInfo.Builder b = requireVolume(volume).toBuilder().setModificationTime(txn.now());
      if (owner != null) {
        b.setOwner(owner);
      }
      if (quotaInBytes != null) {
        b.setQuotaInBytes(quotaInBytes);
      }
      if (quotaInNamespace != null) {
        b.setQuotaInNamespace(quotaInNamespace);
      }
      VolumeInfo info = b.build();
      volumeTable.putWithBatch(txn.batch(), OmKeys.volumeKey(volume), info);
      return info;
    });
  }

  /** @throws OmException INVALID_ARGUMENT for a bad name, NOT_FOUND if absent */
  public VolumeInfo getVolumeInfo(String volume) {
    OmValidation.checkResourceName("Volume", volume);
    return requireVolume(volume);
  }

  /**
   * Deletes an empty volume (no live bucket; tombstones of deleted buckets do not count).
   *
   * @throws OmException NOT_FOUND if absent, FAILED_PRECONDITION if it has buckets
   */
  public void deleteVolume(String volume) {
    OmValidation.checkResourceName("Volume", volume);
    ctx.write(txn -> {
      requireVolume(volume);
      if (hasLiveKey(bucketTable, OmKeys.volumePrefix(volume))) {
        throw new OmException(Code.FAILED_PRECONDITION,
            "Volume '" + volume + "' is not empty: delete its buckets first");
      }
      volumeTable.deleteWithBatch(txn.batch(), OmKeys.volumeKey(volume));
      txn.count(OmCounter.VOLUMES, -1);
      return null;
    });
  }

  /**
   * One page of volumes whose names start with {@code prefix}, after {@code startAfter}
   * (exclusive; it need not exist). Page with the last name returned as the next
   * {@code startAfter}.
   *
   * @throws OmException INVALID_ARGUMENT if {@code maxResults} is not in {@code [0, cap]}
   */
  public ListPage<VolumeInfo> listVolumes(String prefix, String startAfter, int maxResults) {
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = checkPageSize("maxResults", maxResults);
    PageScan scan = PageScan.read(rawVolumeTable, ROOT, nz(prefix), null, PageScan.cursorOf(startAfter), max);
    return new ListPage<>(scan.values(VOLUME_INFO::fromPersistedFormat), scan.truncated(), null);
  }

  // ------------------------------------------------------------------------------------------
  // Buckets

  /**
   * Creates a bucket in an existing volume.
   *
   * @param owner the owner; {@code null} or empty for the volume's owner
   * @param quotaInBytes 0 for unlimited
   * @throws OmException INVALID_ARGUMENT for a bad name, layout, owner or quota, NOT_FOUND if the
   *     volume is absent, ALREADY_EXISTS if the bucket exists
   */
  public BucketInfo createBucket(String volume, String bucket, BucketLayout layout, String owner,
      long quotaInBytes) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    OmValidation.checkOwner(owner);
    if (layout == null || layout == BucketLayout.BUCKET_LAYOUT_UNSPECIFIED
        || layout == BucketLayout.UNRECOGNIZED) {
      throw OmException.invalid("Bucket layout must be OBJECT_STORE, LEGACY or "
          + "FILE_SYSTEM_OPTIMIZED, not " + layout);
    }
    if (quotaInBytes < 0) {
      throw OmException.invalid("Bucket quota must not be negative: " + quotaInBytes);
    }
    return ctx.write(txn -> {
      VolumeInfo vol = requireVolume(volume);
      String key = OmKeys.bucketKey(volume, bucket);
      if (bucketTable.isExist(key)) {
        throw new OmException(Code.ALREADY_EXISTS,
            "Bucket '" + bucket + "' already exists in volume '" + volume + "'");
      }
      long id = txn.allocateId();
      long now = txn.now();
      BucketInfo info = BucketInfo.newBuilder()
          .setVolumeName(volume)
          .setBucketName(bucket)
          .setLayout(layout)
          .setObjectId(id)
          .setVolumeId(vol.getObjectId())
          .setUpdateId(id)
          .setOwner(owner == null || owner.isEmpty() ? vol.getOwner() : owner)
          .setQuotaInBytes(quotaInBytes)
          .setCreationTime(now)
          .setModificationTime(now)
          .build();
      bucketTable.putWithBatch(txn.batch(), key, info);
      txn.count(OmCounter.BUCKETS, 1);
      return info;
    });
  }

  /**
   * Sets a bucket's owner (when {@code owner} is not {@code null}) and quotas (when not
   * {@code null}; 0 = unlimited).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, owner or negative quota, NOT_FOUND if the
   *     volume or bucket is absent
   */
  public BucketInfo setBucketProperties(String volume, String bucket, String owner,
      Long quotaInBytes, Long quotaInNamespace) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    OmValidation.checkOwner(owner);
    checkQuota(quotaInBytes);
    checkQuota(quotaInNamespace);
    return ctx.write(txn -> {
      BucketInfo.Builder b = requireBucket(volume, bucket).toBuilder().setModificationTime(txn.now());
      if (owner != null) {
        b.setOwner(owner);
      }
      if (quotaInBytes != null) {
        b.setQuotaInBytes(quotaInBytes);
      }
      if (quotaInNamespace != null) {
        b.setQuotaInNamespace(quotaInNamespace);
      }
      BucketInfo info = b.build();
      bucketTable.putWithBatch(txn.batch(), OmKeys.bucketKey(volume, bucket), info);
      return info;
    });
  }

  /** @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if the volume or bucket is absent */
  public BucketInfo getBucketInfo(String volume, String bucket) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    return requireBucket(volume, bucket);
  }

  /**
   * Deletes a bucket that has no live key (OBS/LEGACY: keyTable; FSO: no row in fileTable or
   * directoryTable, so rows under recursively deleted directories block it until the directory
   * purge has removed them), no multipart upload in progress and no active snapshot, each checked
   * with one bounded iterator that sees live rows only (tombstones of deleted keys do not count). Keys still open in the
   * bucket are discarded in the same batch (their commits then fail with NOT_FOUND); deleted
   * versions stay in deletedTable for the purge service.
   *
   * @throws OmException NOT_FOUND if absent, FAILED_PRECONDITION if not empty
   */
  public void deleteBucket(String volume, String bucket) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    ctx.write(txn -> {
      BucketInfo info = requireBucket(volume, bucket);
      String names = OmKeys.bucketPrefix(volume, bucket);
      String ids = OmKeys.fsoBucketPrefix(info.getVolumeId(), info.getObjectId());
      boolean fso = info.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
      if (fso ? hasLiveKey(store.getTable(FILE_TABLE), ids)
              || hasLiveKey(store.getTable(DIRECTORY_TABLE), ids)
          : hasLiveKey(keyTable, names)) {
        throw new OmException(Code.FAILED_PRECONDITION,
            "Bucket '" + volume + "/" + bucket + "' is not empty: delete its keys first");
      }
      if (hasLiveKey(store.getTable(MULTIPART_INFO_TABLE), names)) {
        throw new OmException(Code.FAILED_PRECONDITION, "Bucket '" + volume + "/" + bucket
            + "' has multipart uploads in progress: complete or abort them first");
      }
      if (snapshots.hasActive(volume, bucket)) {
        throw new OmException(Code.FAILED_PRECONDITION, "Bucket '" + volume + "/" + bucket
            + "' has snapshots: delete them first");
      }
      BatchOperation batch = txn.batch();
      bucketTable.deleteWithBatch(batch, OmKeys.bucketKey(volume, bucket));
      txn.count(OmCounter.BUCKETS, -1);
      Table<String, KeyInfo> open = fso ? store.getTable(OPEN_FILE_TABLE) : openKeyTable;
      String openPrefix = fso ? ids : names;
      long discarded = countRows(open, openPrefix);
      if (discarded > 0) {
        open.deletePrefixWithBatch(batch, openPrefix);
        txn.count(fso ? OmCounter.OPEN_FILES : OmCounter.OPEN_KEYS, -discarded);
      }
      snapshots.forgetBucket(txn, volume, bucket, info.getObjectId());
      LifecycleScans.forgetBucket(txn, store.getTable(OmDBDefinition.META_TABLE),
          info.getObjectId());
      txn.dropBucketCounters(info.getObjectId());
      return null;
    });
  }

  /**
   * One page of the buckets of {@code volume} whose names start with {@code prefix}, after
   * {@code startAfter} (exclusive).
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument, NOT_FOUND if the volume is absent
   */
  public ListPage<BucketInfo> listBuckets(String volume, String prefix, String startAfter,
      int maxResults) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = checkPageSize("maxResults", maxResults);
    try (ReadView view = store.openReadView()) {
      requireVolume(view, volume);
      PageScan scan = PageScan.read(view.getTable(BUCKET_TABLE.name()), OmKeys.volumePrefix(volume), nz(prefix),
          null, PageScan.cursorOf(startAfter), max);
      return new ListPage<>(scan.values(BUCKET_INFO::fromPersistedFormat), scan.truncated(), null);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Keys (OBJECT_STORE and LEGACY)

  /**
   * Opens a key for writing: an openKeyTable row under a new client id, which
   * {@link #commitKey} must present.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume/bucket), UNIMPLEMENTED for FSO buckets
   */
  public OpenKeySession openKey(String volume, String bucket, String key, String owner) {
    checkKeyArgs(volume, bucket, key);
    OmValidation.checkOwner(owner);
    return ctx.write(txn -> {
      BucketInfo info = requireObjectStoreBucket(volume, bucket);
      long objectId = txn.allocateId();
      long clientId = txn.allocateId();
      long now = txn.now();
      KeyInfo open = KeyInfo.newBuilder()
          .setVolumeName(volume)
          .setBucketName(bucket)
          .setKeyName(key)
          .setObjectId(objectId)
          .setUpdateId(objectId)
          .setClientId(clientId)
          .setOwner(owner == null || owner.isEmpty() ? info.getOwner() : owner)
          .setCreationTime(now)
          .setModificationTime(now)
          .build();
      openKeyTable.putWithBatch(txn.batch(), OmKeys.openKey(volume, bucket, key, clientId), open);
      txn.count(info.getObjectId(), OmCounter.OPEN_KEYS, 1);
      return new OpenKeySession(clientId, open);
    });
  }

  /**
   * Commits an open key: its openKeyTable row becomes the keyTable row, and the version it
   * overwrites, if any, moves to deletedTable under its object id. One batch.
   *
   * @throws OmException FAILED_PRECONDITION if the key is open only under other client ids,
   *     NOT_FOUND if the bucket is absent or the key has no open session (already committed, or
   *     discarded), INVALID_ARGUMENT for bad names or a negative size
   */
  public KeyInfo commitKey(String volume, String bucket, String key, long clientId,
      long dataSize) {
    checkKeyArgs(volume, bucket, key);
    OmValidation.checkDataSize("Data size", dataSize, OmValidation.MAX_OBJECT_BYTES);
    return ctx.write(txn -> {
      long bucketId = requireObjectStoreBucket(volume, bucket).getObjectId();
      String openKey = OmKeys.openKey(volume, bucket, key, clientId);
      KeyInfo open = openKeyTable.get(openKey);
      if (open == null) {
        if (OmContext.hasOpenSession(openKeyTable, OmKeys.objectKey(volume, bucket, key))) {
          throw new OmException(Code.FAILED_PRECONDITION, "Key '" + key + "' in '" + volume + "/"
              + bucket + "' is open under another client id, not " + clientId
              + ": commit with the client id openKey returned");
        }
        throw OmException.notFound("No open key '" + key + "' in '" + volume + "/" + bucket
            + "' for client id " + clientId + " (already committed, or discarded)");
      }
      String objectKey = OmKeys.objectKey(volume, bucket, key);
      KeyInfo previous = keyTable.get(objectKey);
      long now = txn.now();
      KeyInfo committed = open.toBuilder()
          .setClientId(0)
          .setDataSize(dataSize)
          .setModificationTime(now)
          .build();
      openKeyTable.deleteWithBatch(txn.batch(), openKey);
      txn.count(bucketId, OmCounter.OPEN_KEYS, -1);
      keyTable.putWithBatch(txn.batch(), objectKey, committed);
      txn.count(bucketId, OmCounter.KEYS, 1);
      txn.count(bucketId, OmCounter.KEY_BYTES, dataSize);
      if (previous != null) {
        ctx.retire(txn, bucketId, OmCounter.KEYS, OmCounter.KEY_BYTES, previous);
      }
      return committed;
    });
  }

  /** @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or key) */
  public KeyInfo lookupKey(String volume, String bucket, String key) {
    checkKeyArgs(volume, bucket, key);
    requireObjectStoreBucket(volume, bucket);
    KeyInfo info = keyTable.get(OmKeys.objectKey(volume, bucket, key));
    if (info == null) {
      throw OmException.notFound("Key '" + key + "' does not exist in '" + volume + "/" + bucket + "'");
    }
    return info;
  }

  /**
   * Deletes a key: its keyTable row moves to deletedTable under its object id. One batch.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or key)
   */
  public void deleteKey(String volume, String bucket, String key) {
    checkKeyArgs(volume, bucket, key);
    ctx.write(txn -> {
      long bucketId = requireObjectStoreBucket(volume, bucket).getObjectId();
      String objectKey = OmKeys.objectKey(volume, bucket, key);
      KeyInfo existing = keyTable.get(objectKey);
      if (existing == null) {
        throw OmException.notFound("Key '" + key + "' does not exist in '" + volume + "/" + bucket + "'");
      }
      keyTable.deleteWithBatch(txn.batch(), objectKey);
      ctx.retire(txn, bucketId, OmCounter.KEYS, OmCounter.KEY_BYTES, existing);
      return null;
    });
  }

  /**
   * One page of the keys of an OBJECT_STORE or LEGACY bucket that start with {@code prefix}, in
   * key (UTF-8 byte) order. The page starts after the token's last key when {@code token} is
   * given, else after {@code startAfter} (exclusive; it need not exist), else at the start.
   *
   * @param maxKeys page size, 0 (an empty page) to the store's cap
   * @throws OmException INVALID_ARGUMENT for a bad argument or token, NOT_FOUND if the volume or
   *     bucket is absent, UNIMPLEMENTED for FSO buckets
   */
  public ListPage<KeyInfo> listKeys(String volume, String bucket, String prefix,
      String startAfter, int maxKeys, String token) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Start-after", startAfter);
    int max = checkPageSize("maxKeys", maxKeys);
    try (ReadView view = store.openReadView()) {
      BucketInfo info = requireObjectStoreBucket(view, volume, bucket);
      byte[] hash = ListTokens.requestHash(ListKind.LIST_KEYS, volume, bucket, info.getObjectId(),
          prefix, null);
      ListTokens.Cursor cursor = token == null || token.isEmpty()
          ? PageScan.cursorOf(startAfter) : tokens.verify(token, ListKind.LIST_KEYS, hash);
      PageScan scan = PageScan.read(view.getTable(KEY_TABLE.name()), OmKeys.bucketPrefix(volume, bucket),
          nz(prefix), null, cursor, max);
      String next = scan.truncated()
          ? tokens.issue(ListKind.LIST_KEYS, hash, scan.last().name(), false) : null;
      return new ListPage<>(scan.values(KEY_INFO::fromPersistedFormat), scan.truncated(), next);
    }
  }

  /**
   * S3 ListObjectsV2 over an OBJECT_STORE or LEGACY bucket: keys starting with the prefix, after
   * the continuation token's position or else after start-after; with a delimiter, every key whose
   * remainder after the prefix contains it is rolled up into the common prefix ending at its first
   * occurrence, which is returned once and counts toward max-keys like a key. {@code maxKeys}
   * above the cap is clamped to it; 0 is the empty page S3 answers to max-keys=0 (no keys, no
   * common prefixes, not truncated, no token).
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument or token (including maxKeys &lt; 0),
   *     NOT_FOUND if the volume or bucket is absent, UNIMPLEMENTED for FSO buckets
   */
  public ListObjectsV2Result listObjectsV2(ListObjectsV2Request request) {
    Objects.requireNonNull(request, "request");
    OmValidation.checkResourceName("Volume", request.volume());
    OmValidation.checkResourceName("Bucket", request.bucket());
    OmValidation.checkOptionalText("Prefix", request.prefix());
    OmValidation.checkOptionalText("Delimiter", request.delimiter());
    OmValidation.checkOptionalText("Start-after", request.startAfter());
    int max = ctx.clampPageSize("max-keys", request.maxKeys());
    try (ReadView view = store.openReadView()) {
      return listObjectsV2(view, request, max);
    }
  }

  private ListObjectsV2Result listObjectsV2(ReadView view, ListObjectsV2Request request, int max) {
    BucketInfo info = requireObjectStoreBucket(view, request.volume(), request.bucket());
    String prefix = nz(request.prefix());
    String delimiter = request.delimiter() == null || request.delimiter().isEmpty()
        ? null : request.delimiter();
    byte[] hash = ListTokens.requestHash(ListKind.LIST_OBJECTS_V2, request.volume(),
        request.bucket(), info.getObjectId(), prefix, delimiter);
    String token = request.continuationToken();
    ListTokens.Cursor cursor = token == null || token.isEmpty()
        ? PageScan.cursorOf(request.startAfter()) : tokens.verify(token, ListKind.LIST_OBJECTS_V2, hash);
    PageScan scan = PageScan.read(view.getTable(KEY_TABLE.name()),
        OmKeys.bucketPrefix(request.volume(), request.bucket()), prefix, delimiter, cursor, max);
    List<KeyInfo> contents = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    for (PageScan.Entry e : scan.entries()) {
      if (e.isPrefix()) {
        prefixes.add(e.name());
      } else {
        contents.add(KEY_INFO.fromPersistedFormat(e.value()));
      }
    }
    String next = scan.truncated()
        ? tokens.issue(ListKind.LIST_OBJECTS_V2, hash, scan.last().name(), scan.last().isPrefix())
        : null;
    return new ListObjectsV2Result(contents, prefixes, scan.entries().size(), scan.truncated(),
        next);
  }

  /**
   * Renames a key of an OBJECT_STORE or LEGACY bucket: its keyTable row moves from
   * {@code fromKey} to {@code toKey} in one batch, keeping its object id, size and creation time,
   * with the new key name, a new update id and the modification time set to now. As Ozone's OBS
   * rename, an existing destination is refused (checked first, so renaming a key onto itself is
   * ALREADY_EXISTS) rather than overwritten. Counters are unchanged. Only committed keys move: a
   * key still open under {@code fromKey} commits under {@code fromKey}, and one open under
   * {@code toKey} that commits later overwrites the renamed key as any commit does.
   *
   * @return the row now at {@code toKey}
   * @throws OmException INVALID_ARGUMENT for bad names, NOT_FOUND if the volume, bucket or
   *     {@code fromKey} is absent, ALREADY_EXISTS if {@code toKey} exists, UNIMPLEMENTED for FSO
   *     buckets
   */
  public KeyInfo renameKey(String volume, String bucket, String fromKey, String toKey) {
    checkKeyArgs(volume, bucket, fromKey);
    OmValidation.checkKeyName(toKey);
    return ctx.write(txn -> {
      requireObjectStoreBucket(volume, bucket);
      String from = OmKeys.objectKey(volume, bucket, fromKey);
      String to = OmKeys.objectKey(volume, bucket, toKey);
      if (keyTable.isExist(to)) {
        throw new OmException(Code.ALREADY_EXISTS, "Cannot rename '" + fromKey + "' to '"
            + toKey + "' in '" + volume + "/" + bucket + "': the destination exists");
      }
      KeyInfo source = keyTable.get(from);
      if (source == null) {
        throw OmException.notFound("Cannot rename '" + fromKey + "' in '" + volume + "/"
            + bucket + "': the key does not exist");
      }
      KeyInfo renamed = source.toBuilder()
          .setKeyName(toKey)
          .setUpdateId(txn.allocateId())
          .setModificationTime(txn.now())
          .build();
      keyTable.deleteWithBatch(txn.batch(), from);
      keyTable.putWithBatch(txn.batch(), to, renamed);
      return renamed;
    });
  }

  /**
   * S3 ListObjects (version 1) over an OBJECT_STORE or LEGACY bucket: keys starting with the
   * prefix that sort after the marker (exclusive); with a delimiter, every key whose remainder
   * after the prefix contains it is rolled up into the common prefix ending at its first
   * occurrence, returned once and counted toward max-keys like a key. An item (key or common
   * prefix) is listed only if it sorts after the marker, so a marker that lies in a common prefix
   * (or is one, as {@code NextMarker} may be) skips every key under it: the page is read with one
   * bounded iterator seeked once past that whole prefix ({@link PageScan}). {@code NextMarker}
   * follows S3: set only when truncated and a delimiter was given. Paging with
   * {@code NextMarker} (or, without a delimiter, the last key) to the end lists every item once.
   * {@code maxKeys} above the cap is clamped to it; 0 is the empty page S3 answers to
   * max-keys=0 (no keys, no common prefixes, not truncated, no {@code NextMarker}).
   *
   * @throws OmException INVALID_ARGUMENT for a bad argument (including maxKeys &lt; 0),
   *     NOT_FOUND if the volume or bucket is absent, UNIMPLEMENTED for FSO buckets
   */
  public ListObjectsV1Result listObjectsV1(ListObjectsV1Request request) {
    Objects.requireNonNull(request, "request");
    OmValidation.checkResourceName("Volume", request.volume());
    OmValidation.checkResourceName("Bucket", request.bucket());
    OmValidation.checkOptionalText("Prefix", request.prefix());
    OmValidation.checkOptionalText("Delimiter", request.delimiter());
    OmValidation.checkOptionalText("Marker", request.marker());
    int max = ctx.clampPageSize("max-keys", request.maxKeys());
    String prefix = nz(request.prefix());
    String delimiter = request.delimiter() == null || request.delimiter().isEmpty()
        ? null : request.delimiter();
    try (ReadView view = store.openReadView()) {
      requireObjectStoreBucket(view, request.volume(), request.bucket());
      PageScan scan = PageScan.read(view.getTable(KEY_TABLE.name()),
          OmKeys.bucketPrefix(request.volume(), request.bucket()), prefix, delimiter,
          markerCursor(prefix, delimiter, request.marker()), max);
      List<KeyInfo> contents = new ArrayList<>();
      List<String> prefixes = new ArrayList<>();
      for (PageScan.Entry e : scan.entries()) {
        if (e.isPrefix()) {
          prefixes.add(e.name());
        } else {
          contents.add(KEY_INFO.fromPersistedFormat(e.value()));
        }
      }
      String nextMarker = scan.truncated() && delimiter != null ? scan.last().name() : null;
      return new ListObjectsV1Result(contents, prefixes, scan.truncated(), nextMarker);
    }
  }

  /**
   * The cursor of a V1 marker: the common prefix the marker rolls up into (with a delimiter,
   * when the marker starts with the prefix and its remainder contains the delimiter), skipped
   * whole because it sorts at or before the marker; otherwise the marker itself, exclusive.
   */
  private static ListTokens.Cursor markerCursor(String prefix, String delimiter, String marker) {
    if (marker == null || marker.isEmpty()) {
      return null;
    }
    if (delimiter != null && marker.startsWith(prefix)) {
      int at = marker.indexOf(delimiter, prefix.length());
      if (at >= 0) {
        return new ListTokens.Cursor(marker.substring(0, at + delimiter.length()), true);
      }
    }
    return new ListTokens.Cursor(marker, false);
  }

  // ------------------------------------------------------------------------------------------
  // Snapshots

  /**
   * Creates snapshot {@code name} of a bucket: a RocksDB checkpoint of the whole store under
   * {@code <store dir>/snapshots/<snapshotId>} holding every write applied before the call, then
   * the ACTIVE snapshotInfo row. Snapshot names follow the S3 bucket naming rules. A snapshot
   * does not hold tombstones of the live store (see {@link Snapshots}).
   *
   * @throws OmException INVALID_ARGUMENT for a bad name, NOT_FOUND if the volume or bucket is
   *     absent, ALREADY_EXISTS if an ACTIVE snapshot of that name exists, INTERNAL if the
   *     checkpoint cannot be written (then nothing is written)
   */
  public SnapshotInfo createSnapshot(String volume, String bucket, String name) {
    return snapshots.create(volume, bucket, name);
  }

  /**
   * Deletes an ACTIVE snapshot: the row is kept with status DELETED and its deletion time, its
   * store (if open) is closed and its checkpoint removed. Its name may then be used again.
   *
   * @return the DELETED row
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket, or no ACTIVE snapshot)
   */
  public SnapshotInfo deleteSnapshot(String volume, String bucket, String name) {
    return snapshots.delete(volume, bucket, name);
  }

  /** @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or snapshot row) */
  public SnapshotInfo getSnapshotInfo(String volume, String bucket, String name) {
    return snapshots.info(volume, bucket, name);
  }

  /**
   * One page of a bucket's ACTIVE snapshots whose names start with {@code prefix}, in name
   * order, after {@code prevSnapshot} (exclusive); {@code truncated} is exact. Page with the
   * last name as the next {@code prevSnapshot}.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume or bucket)
   */
  public ListPage<SnapshotInfo> listSnapshots(String volume, String bucket, String prefix,
      String prevSnapshot, int maxEntries) {
    return snapshots.list(volume, bucket, prefix, prevSnapshot, maxEntries, null, false);
  }

  /**
   * As {@link #listSnapshots(String, String, String, String, int)}, continuing after
   * {@code token} when given (it wins over {@code prevSnapshot}); {@code nextToken} is set when
   * truncated. A token is bound to the bucket (by object id), the prefix and
   * {@code includeDeleted}.
   *
   * @param includeDeleted list DELETED snapshots too
   * @throws OmException INVALID_ARGUMENT (also for a token of another listing), NOT_FOUND
   */
  public ListPage<SnapshotInfo> listSnapshots(String volume, String bucket, String prefix,
      String prevSnapshot, int maxEntries, String token, boolean includeDeleted) {
    return snapshots.list(volume, bucket, prefix, prevSnapshot, maxEntries, token,
        includeDeleted);
  }

  /**
   * Key {@code key} as ACTIVE snapshot {@code snapshotName} of an OBJECT_STORE or LEGACY bucket
   * holds it, whatever happened to it in the live store since.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket, snapshot, or the key in the
   *     snapshot), UNIMPLEMENTED if the bucket was FSO
   */
  public KeyInfo lookupKeyInSnapshot(String volume, String bucket, String snapshotName,
      String key) {
    return snapshots.lookupKey(volume, bucket, snapshotName, key);
  }

  /**
   * One page of the keys of ACTIVE snapshot {@code snapshotName} of an OBJECT_STORE or LEGACY
   * bucket starting with {@code prefix}, after {@code startAfter} (exclusive), in key order, with
   * exact {@code truncated}; page with the last key as the next {@code startAfter}.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket, snapshot), UNIMPLEMENTED if
   *     the bucket was FSO
   */
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

  private final MultipartUploads multipartUploads;
  private final OpenFiles openFiles;
  private final OmPurges purges;

  /** The smallest size of every part but the last of a completed multipart upload (5 MiB). */
  public static final long MULTIPART_MIN_PART_SIZE = MultipartUploads.MIN_PART_SIZE;
  /** The largest multipart part number (10,000). */
  public static final int MULTIPART_MAX_PART_NUMBER = MultipartUploads.MAX_PART_NUMBER;

  /**
   * Starts an S3 multipart upload of {@code key}: a multipartInfoTable row under a new upload id,
   * counted in MULTIPART_UPLOADS. Upload ids are 16 lowercase hex digits, unique in the store and
   * increasing with initiation time (see {@link MultipartUploads}); several uploads of one key may
   * be in progress.
   *
   * @param owner the owner; {@code null} or empty for the bucket's owner
   * @return the upload id
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume/bucket), UNIMPLEMENTED for FSO buckets
   */
  public String initiateMultipartUpload(String volume, String bucket, String key, String owner) {
    return multipartUploads.initiate(volume, bucket, key, owner);
  }

  /**
   * Records part {@code partNumber} of an upload (its size and ETag; the data lives outside this
   * store). Uploading a number again replaces the part; the replaced part becomes a deletedTable
   * row ({@code /volume/bucket/key/<partObjectId>}) so the key purge reclaims its data.
   *
   * @param partNumber 1 to {@value MultipartUploads#MAX_PART_NUMBER}
   * @param etag the part's ETag, non-empty
   * @return the recorded part
   * @throws OmException INVALID_ARGUMENT (names, upload id, part number, negative size, ETag),
   *     NOT_FOUND (volume, bucket or upload), UNIMPLEMENTED for FSO buckets
   */
  public PartInfo commitPart(String volume, String bucket, String key,
      String uploadId, int partNumber, long size, String etag) {
    return multipartUploads.commitPart(volume, bucket, key, uploadId, partNumber, size, etag);
  }

  /**
   * One page of an upload's parts with numbers above {@code partNumberMarker} (exclusive; 0 for
   * the first page), ascending. {@code maxParts} above the store's page cap is clamped to it, as
   * S3 does; 0 answers no parts, not truncated, next marker 0 (once the upload is found).
   *
   * @throws OmException INVALID_ARGUMENT (names, upload id, marker not in {@code [0, 10000]},
   *     maxParts &lt; 0), NOT_FOUND (volume, bucket or upload), UNIMPLEMENTED for FSO buckets
   */
  public PartListing listParts(String volume, String bucket, String key, String uploadId,
      int partNumberMarker, int maxParts) {
    return multipartUploads.listParts(volume, bucket, key, uploadId, partNumberMarker, maxParts);
  }

  /**
   * Completes an upload: the listed parts, which must be in strictly ascending part number order,
   * have been uploaded, carry the given ETags and, all but the last, be at least
   * {@link #MULTIPART_MIN_PART_SIZE} bytes, become the key (size = their sum, ETag in metadata
   * {@code ETag}, object id = the upload's). In one batch: the key's previous version moves to
   * deletedTable, parts left out move to deletedTable, the upload row is deleted, and the counters
   * follow. A rejected completion changes nothing and leaves the upload in progress.
   *
   * @return the committed keyTable row
   * @throws OmException INVALID_ARGUMENT (names, upload id, an empty, unordered or duplicate part
   *     list, a missing part, an ETag mismatch, a part too small), NOT_FOUND (volume, bucket or
   *     upload), UNIMPLEMENTED for FSO buckets
   */
  public KeyInfo completeMultipartUpload(String volume, String bucket, String key,
      String uploadId, List<CompletedPart> parts) {
    return multipartUploads.complete(volume, bucket, key, uploadId, parts);
  }

  /**
   * Aborts an upload: its parts move to deletedTable and its row is deleted, in one batch.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or upload), UNIMPLEMENTED for
   *     FSO buckets
   */
  public void abortMultipartUpload(String volume, String bucket, String key, String uploadId) {
    multipartUploads.abort(volume, bucket, key, uploadId);
  }

  /**
   * S3 ListMultipartUploads: the uploads in progress of keys starting with {@code prefix}, ordered
   * by key (UTF-8 bytes) and, within a key, by upload id (initiation order). With only
   * {@code keyMarker}, the page starts with the uploads of the first key strictly after it
   * ({@code key10} follows {@code key1}); with {@code keyMarker} and {@code uploadIdMarker}, with the
   * uploads of {@code keyMarker} after that upload id (exclusive), then later keys. Without
   * {@code keyMarker}, {@code uploadIdMarker} is ignored, as in S3. Markers need not exist. Page on
   * with the returned {@code nextKeyMarker}/{@code nextUploadIdMarker}. One consistent view, one
   * bounded iterator positioned once; {@code truncated} is exact. {@code maxUploads} above the
   * store's page cap is clamped to it; 0 answers no uploads, not truncated, no next markers.
   *
   * @throws OmException INVALID_ARGUMENT (names, prefix, markers, maxUploads &lt; 0), NOT_FOUND
   *     (volume or bucket), UNIMPLEMENTED for FSO buckets
   */
  public MultipartUploadListing listMultipartUploads(String volume, String bucket, String prefix,
      String keyMarker, String uploadIdMarker, int maxUploads) {
    return multipartUploads.list(volume, bucket, prefix, keyMarker, uploadIdMarker, maxUploads);
  }

  /**
   * One page of the keys (OBJECT_STORE/LEGACY: openKeyTable) or files (FSO: openFileTable) open
   * for writing in one bucket, in table key order, after the token's position. The token is bound
   * to this bucket (by object id). {@code totalOpenKeyCount} is the bucket's maintained OPEN_KEYS
   * or OPEN_FILES counter, never a recount.
   *
   * @param maxKeys page size, 0 (no entries: the total alone) to the store's cap
   * @throws OmException INVALID_ARGUMENT (names, page size, token), NOT_FOUND (volume or bucket)
   */
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
  //
  // Directories, files, rename, listStatus and the directory purge step of FILE_SYSTEM_OPTIMIZED
  // buckets; the contracts (paths, order, cursors, error codes) are on FsoNamespace, FsoPath,
  // FsoListing and DirectoryPurge. Every method here only delegates.

  /** Created on first use, so that the rest of this class stays as it was; stateless. */
  private volatile FsoNamespace fso;

  private FsoNamespace fso() {
    FsoNamespace f = fso;
    if (f == null) {
      f = new FsoNamespace(ctx);
      fso = f;
    }
    return f;
  }

  /**
   * Creates a directory and its missing ancestors ({@code mkdir -p}) in one batch; idempotent for
   * an existing directory. Paths are relative to the bucket root; see {@link FsoNamespace}.
   *
   * @return the directory's status
   * @throws OmException INVALID_ARGUMENT (bad path, the root), NOT_FOUND (volume/bucket),
   *     ALREADY_EXISTS (a file is at {@code path}), FAILED_PRECONDITION (an ancestor is a file),
   *     UNIMPLEMENTED (not an FSO bucket)
   */
  public FileStatus createDirectory(String volume, String bucket, String path) {
    return fso().createDirectory(volume, bucket, path);
  }

  /**
   * Opens a file for writing (missing ancestors are created now); commit it with
   * {@link #commitFile} and the returned client id.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume/bucket), ALREADY_EXISTS (a directory
   *     is at {@code path}), FAILED_PRECONDITION (an ancestor is a file), UNIMPLEMENTED
   */
  public OpenKeySession createFile(String volume, String bucket, String path, String owner) {
    return fso().createFile(volume, bucket, path, owner);
  }

  /**
   * Commits an open file; a replaced version moves to deletedTable.
   *
   * @return the file, {@code key_name} holding its full path
   * @throws OmException NOT_FOUND (no open file for this client id at this path, or a missing
   *     ancestor), FAILED_PRECONDITION (a directory is now at {@code path}), INVALID_ARGUMENT
   */
  public KeyInfo commitFile(String volume, String bucket, String path, long clientId,
      long size) {
    return fso().commitFile(volume, bucket, path, clientId, size);
  }

  /**
   * The committed file at {@code path}, {@code key_name} holding its full path.
   *
   * @throws OmException NOT_FOUND, FAILED_PRECONDITION (a directory), INVALID_ARGUMENT
   */
  public KeyInfo lookupFile(String volume, String bucket, String path) {
    return fso().lookupFile(volume, bucket, path);
  }

  /**
   * The file or directory at {@code path} ({@code ""} or {@code "/"}: the bucket root).
   *
   * @throws OmException NOT_FOUND, INVALID_ARGUMENT
   */
  public FileStatus getFileStatus(String volume, String bucket, String path) {
    return fso().getFileStatus(volume, bucket, path);
  }

  /**
   * Deletes a file (it moves to deletedTable).
   *
   * @throws OmException NOT_FOUND, FAILED_PRECONDITION (a directory), INVALID_ARGUMENT
   */
  public void deleteFile(String volume, String bucket, String path) {
    fso().deleteFile(volume, bucket, path);
  }

  /**
   * Deletes a directory: an empty one at once; a non-empty one only with {@code recursive}, by
   * moving its one row to deletedDirectoryTable (its subtree vanishes from listings at once and is
   * removed by {@link #purgeDeletedDirectories}).
   *
   * @throws OmException NOT_FOUND, FAILED_PRECONDITION (a file, or not empty without
   *     {@code recursive}), INVALID_ARGUMENT (the root)
   */
  public void deleteDirectory(String volume, String bucket, String path, boolean recursive) {
    fso().deleteDirectory(volume, bucket, path, recursive);
  }

  /**
   * Renames a file or directory to the full path {@code to} (one row moves).
   *
   * @return the status at {@code to}
   * @throws OmException NOT_FOUND (source or destination parent), ALREADY_EXISTS (destination),
   *     INVALID_ARGUMENT (root, or a directory into its own subtree), FAILED_PRECONDITION
   */
  public FileStatus rename(String volume, String bucket, String from, String to) {
    return fso().rename(volume, bucket, from, to);
  }

  /**
   * One page of the entries below {@code path} (children, or with {@code recursive} the whole
   * subtree depth first), in {@link FsoListing listing order}, after {@code startKey} (exclusive)
   * or the token's position.
   *
   * @throws OmException INVALID_ARGUMENT (bad path, start key outside {@code path}, page size
   *     not in {@code [0, cap]}, bad token), NOT_FOUND, UNIMPLEMENTED
   */
  public ListPage<FileStatus> listStatus(String volume, String bucket, String path,
      boolean recursive, String startKey, int numEntries, String token) {
    return fso().listStatus(volume, bucket, path, recursive, startKey, numEntries, token);
  }

  /**
   * One bounded step of the directory purge (see {@link DirectoryPurge}): removes the subtrees of
   * recursively deleted directories with range deletes, moving their files to deletedTable.
   *
   * @param maxEntries the most rows to remove in this step, at least 1
   * @return the rows removed; 0 if and only if nothing was queued
   */
  public int purgeDeletedDirectories(int maxEntries) {
    return fso().purgeDeletedDirectories(maxEntries);
  }

  // ------------------------------------------------------------------------------------------
  // Lifecycle scans

  /**
   * One step of the named lifecycle scan of a bucket (see {@link LifecycleScans}): examines at
   * most {@code maxExamined} committed keys after the scan's persisted cursor (under
   * {@code prefix}; OBS/LEGACY only, an FSO bucket is scanned whole) and returns those
   * {@code rule} matches; the cursor advances in metaTable, and is cleared when the pass is
   * complete.
   *
   * @throws OmException INVALID_ARGUMENT for a bad scan name, names or budget (1 to the page cap),
   *     or a prefix on an FSO bucket; NOT_FOUND if the volume or bucket is absent
   */
  public LifecycleStep lifecycleScanStep(String scanName, String volume, String bucket,
      String prefix, java.util.function.Predicate<KeyInfo> rule, int maxExamined) {
    return lifecycleScans.step(scanName, volume, bucket, prefix, rule, maxExamined);
  }

  // ------------------------------------------------------------------------------------------
  // Helpers

  private static void checkKeyArgs(String volume, String bucket, String key) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
    OmValidation.checkKeyName(key);
  }

  private static void checkQuota(Long quota) {
    if (quota != null && quota < 0) {
      throw OmException.invalid("Quota must not be negative (0 = unlimited): " + quota);
    }
  }

  private int checkPageSize(String what, int max) {
    return ctx.checkPageSize(what, max);
  }

  private VolumeInfo requireVolume(String volume) {
    return ctx.requireVolume(null, volume);
  }

  private VolumeInfo requireVolume(ReadView view, String volume) {
    return ctx.requireVolume(view, volume);
  }

  private BucketInfo requireBucket(String volume, String bucket) {
    return ctx.requireBucket(null, volume, bucket);
  }

  private BucketInfo requireObjectStoreBucket(String volume, String bucket) {
    return ctx.requireObjectStoreBucket(null, volume, bucket);
  }

  private BucketInfo requireObjectStoreBucket(ReadView view, String volume, String bucket) {
    return ctx.requireObjectStoreBucket(view, volume, bucket);
  }

  private static boolean hasLiveKey(Table<String, ?> table, String prefix) {
    return OmContext.hasLiveKey(table, prefix);
  }

  private static String nz(String s) {
    return OmContext.nz(s);
  }

  /** Rows under {@code prefix}, counted with one bounded key-only iterator. */
  private static long countRows(Table<String, ?> table, String prefix) {
    long n = 0;
    try (TableIterator<String, ? extends KeyValue<String, ?>> it =
             table.iterator(prefix, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }
}
