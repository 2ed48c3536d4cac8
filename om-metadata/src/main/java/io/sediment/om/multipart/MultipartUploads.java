package io.sediment.om.multipart;

import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_PARTS_TABLE;

import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.om.acl.DefaultAcls;
import io.sediment.om.aclstore.PrefixAcls;
import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.listing.Page;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.ReplicationConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * S3 multipart uploads of OBJECT_STORE and LEGACY buckets (FSO buckets: UNIMPLEMENTED).
 *
 * <p><b>Rows.</b> An upload is one multipartInfoTable row, key {@link OmKeys#multipartKey}, value a
 * {@link MultipartUploadInfo}, plus one multipartPartsTable row per part, key
 * {@link OmKeys#multipartPartKey} ({@code <uploadId>/<partNumber>}), value a {@link PartInfo}. A
 * part commit writes its row and the small upload row (the update id), whatever the number of
 * parts before it (Ozone's split parts table; inline parts cost O(parts) per commit). Completion
 * and abort read the upload's parts with one bounded iterator and delete them with point deletes,
 * or one range delete from {@value CursorSweep#RANGE_DELETE_MIN_ROWS} parts on, as the purges
 * ({@link CursorSweep#delete}).
 *
 * <p><b>Upload ids</b> are a fresh store object id as {@value OmKeys#ID_WIDTH} lowercase hex
 * digits ({@link OmKeys#id}): unique in the store, never reused, and increasing with initiation
 * time, so the uploads of one key sort in initiation order as S3 lists them. They are not secret
 * (anyone may guess one); access control is the caller's job. The upload's object id is the same
 * number and becomes the completed key's object id.
 *
 * <p><b>Part data.</b> A part is recorded by its size and ETag (the data itself lives in the data
 * nodes, outside this store). Part data that can no longer become part of a key is handed to the
 * key purge: a part replaced by a re-upload of its number, every part of an aborted upload, and
 * every part a completion leaves out each become a deletedTable row
 * {@code /volume/bucket/key/<partObjectId>} (metadata {@code multipartUploadId} and
 * {@code partNumber}), counted in DELETED_KEYS and DELETED_KEY_BYTES, in the same batch.
 *
 * <p>Every write is one {@link OmContext#write} transaction; a rejected call changes nothing.
 * Thread-safe.
 */
public final class MultipartUploads {

  /** The smallest part number. */
  static final int MIN_PART_NUMBER = 1;
  /** The largest part number (S3's limit). */
  public static final int MAX_PART_NUMBER = 10_000;
  /** The smallest size of every part but the last of a completed upload: 5 MiB, as in S3. */
  public static final long MIN_PART_SIZE = 5L << 20;
  /** keyTable metadata of a completed upload: the S3 multipart ETag. */
  static final String META_ETAG = "ETag";

  private final OmContext ctx;
  private final MultipartParts uploadParts;
  private final MultipartListings listings;
  private final Table<String, MultipartUploadInfo> uploads;
  private final Table<String, PartInfo> partsTable;
  private final Table<String, KeyInfo> keyTable;
  private final PrefixAcls prefixes;

  /** The multipart uploads of the store behind {@code ctx}, whose part rows {@code parts} keeps. */
  public MultipartUploads(OmContext ctx, MultipartParts parts) {
    this.ctx = ctx;
    this.uploadParts = parts;
    this.listings = new MultipartListings(ctx);
    this.prefixes = new PrefixAcls(ctx);
    this.uploads = ctx.table(MULTIPART_INFO_TABLE);
    this.partsTable = ctx.table(MULTIPART_PARTS_TABLE);
    this.keyTable = ctx.table(KEY_TABLE);
  }


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
  public String initiate(String volume, String bucket, String key, String owner) {
    return initiate(volume, bucket, key, owner, null);
  }

  /**
   * {@link #initiate(String, String, String, String)} with the completed key's replication
   * config, which the upload row records and {@link #complete} gives the key.
   *
   * @param replication null for the bucket's default, else the store's
   *     ({@link ReplicationConfigs#resolve}, from the bucket row the write reads)
   * @throws OmException as that method, and INVALID_ARGUMENT for a config
   *     {@link ReplicationConfigs#check} refuses
   */
  public String initiate(String volume, String bucket, String key, String owner,
      ReplicationConfig replication) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    OmValidation.checkOwner(owner);
    ReplicationConfig requested = replication == null ? null : ReplicationConfigs.check(replication);
    return ctx.write(txn -> {
      BucketInfo info = ctx.requireObjectStoreBucket(null, volume, bucket);
      ReplicationConfig config = ReplicationConfigs.resolve(requested, info,
          ctx.options().defaultReplication());
      long id = txn.allocateId();
      String uploadId = OmKeys.id(id);
      MultipartUploadInfo upload = MultipartRows.upload(volume, bucket, key, id,
          owner == null || owner.isEmpty() ? info.getOwner() : owner, txn.now(), config);
      uploads.putWithBatch(txn.batch(), OmKeys.multipartKey(volume, bucket, key, uploadId), upload);
      txn.count(info.getObjectId(), OmCounter.MULTIPART_UPLOADS, 1);
      return uploadId;
    });
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
  public PartInfo commitPart(String volume, String bucket, String key, String uploadId, int partNumber,
      long size, String etag) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    MultipartArgs.checkUploadId(uploadId);
    MultipartArgs.checkPartNumber(partNumber);
    OmValidation.checkDataSize("Part size", size, OmValidation.MAX_PART_BYTES);
    MultipartArgs.checkEtag(etag);
    return ctx.write(txn -> {
      long bucketId = ctx.requireObjectStoreBucket(null, volume, bucket).getObjectId();
      String dbKey = OmKeys.multipartKey(volume, bucket, key, uploadId);
      MultipartUploadInfo upload = requireUpload(dbKey, volume, bucket, key, uploadId);
      long partId = txn.allocateId();
      PartInfo part = MultipartRows.part(partNumber, size, etag, partId, txn.now());
      String partKey = OmKeys.multipartPartKey(uploadId, partNumber);
      PartInfo replaced = partsTable.get(partKey);
      if (replaced != null) {
        ctx.moveToDeleted(txn, bucketId, MultipartParts.asDeletedVersion(upload, replaced));
      }
      partsTable.putWithBatch(txn.batch(), partKey, part);
      uploads.putWithBatch(txn.batch(), dbKey, MultipartRows.withPart(upload, partId));
      return part;
    });
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
    return listings.parts(volume, bucket, key, uploadId, partNumberMarker, maxParts);
  }

  /**
   * Completes an upload: the listed parts, which must be in strictly ascending part number order,
   * have been uploaded, carry the given ETags and, all but the last, be at least
   * {@link #MIN_PART_SIZE} bytes, become the key (size = their sum, ETag in metadata
   * {@code ETag}, object id = the upload's). In one batch: the key's previous version moves to
   * deletedTable, parts left out move to deletedTable, the upload row is deleted, and the counters
   * follow. A rejected completion changes nothing and leaves the upload in progress.
   *
   * @return the committed keyTable row
   * @throws OmException INVALID_ARGUMENT (names, upload id, an empty, unordered or duplicate part
   *     list, a missing part, an ETag mismatch, a part too small), NOT_FOUND (volume, bucket or
   *     upload), UNIMPLEMENTED for FSO buckets
   */
  public KeyInfo complete(String volume, String bucket, String key, String uploadId,
      List<CompletedPart> requested) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    MultipartArgs.checkUploadId(uploadId);
    MultipartArgs.checkCompletedParts(requested);
    return ctx.write(txn -> {
      BucketInfo bucketInfo = ctx.requireObjectStoreBucket(null, volume, bucket);
      long bucketId = bucketInfo.getObjectId();
      String dbKey = OmKeys.multipartKey(volume, bucket, key, uploadId);
      MultipartUploadInfo upload = requireUpload(dbKey, volume, bucket, key, uploadId);
      List<KeyValue<String, PartInfo>> rows = uploadParts.rowsOf(uploadId);
      List<PartInfo> parts = rows.stream().map(KeyValue::getValue).toList();
      boolean[] used = new boolean[parts.size()];
      long total = 0;
      List<String> etags = new ArrayList<>(requested.size());
      for (int i = 0; i < requested.size(); i++) {
        CompletedPart want = requested.get(i);
        int at = find(parts, want.partNumber());
        if (at < 0) {
          throw OmException.invalid("Part " + want.partNumber() + " of upload '" + uploadId
              + "' was never uploaded (S3 InvalidPart)");
        }
        PartInfo have = parts.get(at);
        if (!MultipartArgs.unquote(have.getEtag()).equals(MultipartArgs.unquote(want.etag()))) {
          throw OmException.invalid("Part " + want.partNumber() + " of upload '" + uploadId
              + "' has ETag '" + have.getEtag() + "', not '" + want.etag() + "' (S3 InvalidPart)");
        }
        if (i < requested.size() - 1 && have.getSize() < MIN_PART_SIZE) {
          throw OmException.invalid("Part " + want.partNumber() + " of upload '" + uploadId
              + "' is " + have.getSize() + " bytes; every part but the last must be at least "
              + MIN_PART_SIZE + " bytes (S3 EntityTooSmall)");
        }
        used[at] = true;
        total += have.getSize();
        if (total > OmValidation.MAX_OBJECT_BYTES) {
          throw OmException.invalid("The parts of upload '" + uploadId + "' add up to more than "
              + OmValidation.MAX_OBJECT_BYTES + " bytes, the largest object (S3 EntityTooLarge)");
        }
        etags.add(MultipartArgs.unquote(have.getEtag()));
      }
      long now = txn.now();
      KeyInfo committed = KeyInfo.newBuilder()
          .setVolumeName(volume)
          .setBucketName(bucket)
          .setKeyName(key)
          .setDataSize(total)
          .setObjectId(upload.getObjectId())
          .setUpdateId(upload.getUpdateId())
          .setCreationTime(upload.getCreationTime())
          .setModificationTime(now)
          .setOwner(upload.getOwner())
          .addAllAcls(DefaultAcls.forKey(upload.getOwner(), prefixes.inheritedBy(bucketInfo, key)))
          .putMetadata(META_ETAG, MultipartArgs.multipartEtag(etags))
          .setReplicationConfig(ReplicationConfigs.ofUpload(upload))
          .build();
      String objectKey = OmKeys.objectKey(volume, bucket, key);
      KeyInfo previous = keyTable.get(objectKey);
      if (previous != null) {
        ctx.retire(txn, bucketId, OmCounter.KEYS, OmCounter.KEY_BYTES, previous);
      }
      keyTable.putWithBatch(txn.batch(), objectKey, committed);
      txn.count(bucketId, OmCounter.KEYS, 1);
      txn.count(bucketId, OmCounter.KEY_BYTES, total);
      for (int i = 0; i < parts.size(); i++) {
        if (!used[i]) {
          ctx.moveToDeleted(txn, bucketId, MultipartParts.asDeletedVersion(upload, parts.get(i)));
        }
      }
      CursorSweep.delete(partsTable, txn.batch(), rows);
      uploads.deleteWithBatch(txn.batch(), dbKey);
      txn.count(bucketId, OmCounter.MULTIPART_UPLOADS, -1);
      return committed;
    });
  }

  /**
   * Aborts an upload: its parts move to deletedTable and its row is deleted, in one batch.
   *
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND (volume, bucket or upload), UNIMPLEMENTED for
   *     FSO buckets
   */
  public void abort(String volume, String bucket, String key, String uploadId) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    MultipartArgs.checkUploadId(uploadId);
    ctx.write(txn -> {
      long bucketId = ctx.requireObjectStoreBucket(null, volume, bucket).getObjectId();
      String dbKey = OmKeys.multipartKey(volume, bucket, key, uploadId);
      uploadParts.discard(txn, bucketId, requireUpload(dbKey, volume, bucket, key, uploadId));
      uploads.deleteWithBatch(txn.batch(), dbKey);
      return null;
    });
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
  public MultipartUploadListing list(String volume, String bucket, String prefix, String keyMarker,
      String uploadIdMarker, int maxUploads) {
    return listings.uploads(volume, bucket, prefix, keyMarker, uploadIdMarker, maxUploads);
  }

  // ---- helpers ----

  private MultipartUploadInfo requireUpload(String dbKey, String volume, String bucket,
      String key, String uploadId) {
    MultipartUploadInfo upload = uploads.get(dbKey);
    if (upload == null) {
      throw noSuchUpload(volume, bucket, key, uploadId);
    }
    return upload;
  }

  static OmException noSuchUpload(String volume, String bucket, String key,
      String uploadId) {
    return OmException.notFound("No multipart upload '" + uploadId + "' of key '" + key
        + "' in '" + volume + "/" + bucket + "' (never initiated, completed or aborted)");
  }


  /** Binary search by part number: the index, or {@code -(insertion point) - 1}. */
  private static int find(List<PartInfo> parts, int partNumber) {
    int lo = 0;
    int hi = parts.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int n = parts.get(mid).getPartNumber();
      if (n < partNumber) {
        lo = mid + 1;
      } else if (n > partNumber) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -lo - 1;
  }
}
