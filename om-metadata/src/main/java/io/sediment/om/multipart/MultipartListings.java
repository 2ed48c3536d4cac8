package io.sediment.om.multipart;

import static io.sediment.om.core.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_PARTS_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.codec.Codec;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.TableScan;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;

/**
 * The two paged reads of multipart uploads, S3 ListParts and ListMultipartUploads, with the
 * contracts {@link MultipartUploads#listParts} and {@link MultipartUploads#list} state: argument
 * checks, then one page read on one consistent view with one bounded iterator positioned once.
 * Thread-safe.
 */
final class MultipartListings {

  private static final Codec<MultipartUploadInfo> UPLOAD_INFO = MULTIPART_INFO_TABLE.valueCodec();
  private static final Codec<PartInfo> PART_INFO = MULTIPART_PARTS_TABLE.valueCodec();

  private final OmContext ctx;

  MultipartListings(OmContext ctx) {
    this.ctx = ctx;
  }

  /** One page of an upload's parts; see {@link MultipartUploads#listParts}. */
  PartListing parts(String volume, String bucket, String key, String uploadId,
      int partNumberMarker, int maxParts) {
    OmValidation.checkKeyArgs(volume, bucket, key);
    MultipartArgs.checkUploadId(uploadId);
    if (partNumberMarker < 0 || partNumberMarker > MultipartUploads.MAX_PART_NUMBER) {
      throw OmException.invalid("Part number marker must be 0 (from the first part) to "
          + MultipartUploads.MAX_PART_NUMBER + ": " + partNumberMarker);
    }
    int max = ctx.clampPageSize("max-parts", maxParts);
    Page<PartInfo> page;
    long stamp = ctx.parsedRows().stamp();
    try (ReadView view = ctx.store().openReadView()) {
      ctx.requireObjectStoreBucket(view, stamp, volume, bucket);
      if (view.getTable(MULTIPART_INFO_TABLE)
          .get(OmKeys.multipartKey(volume, bucket, key, uploadId)) == null) {
        throw MultipartUploads.noSuchUpload(volume, bucket, key, uploadId);
      }
      // Part keys are fixed-width numbers, so "after the marker's key" is "from marker + 1".
      page = Pager.read(TableScan.source(view.getTable(MULTIPART_PARTS_TABLE.name()), "",
              OmKeys.multipartPartsPrefix(uploadId), null,
              row -> PART_INFO.fromPersistedFormat(row.value())),
          partNumberMarker >= MultipartUploads.MIN_PART_NUMBER
              ? new Cursor(OmKeys.multipartPartKey(uploadId, partNumberMarker), false) : null,
          max);
    }
    return new PartListing(page.items(), page.truncated(),
        page.truncated() ? page.last().getPartNumber() : 0);
  }

  /**
   * One page of the uploads in progress after the markers; see {@link MultipartUploads#list}.
   * {@code uploadIdMarker} is ignored without {@code keyMarker}.
   */
  MultipartUploadListing uploads(String volume, String bucket, String prefix, String keyMarker,
      String uploadIdMarker, int maxUploads) {
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkOptionalText("Prefix", prefix);
    OmValidation.checkOptionalText("Key marker", keyMarker);
    boolean hasKeyMarker = keyMarker != null && !keyMarker.isEmpty();
    // As in S3, the upload-id marker means nothing without a key marker.
    boolean hasUploadMarker = hasKeyMarker && uploadIdMarker != null && !uploadIdMarker.isEmpty();
    if (hasUploadMarker) {
      MultipartArgs.checkUploadId(uploadIdMarker);
    }
    int max = ctx.clampPageSize("max-uploads", maxUploads);
    Page<MultipartUploadInfo> page;
    long stamp = ctx.parsedRows().stamp();
    try (ReadView view = ctx.store().openReadView()) {
      ctx.requireObjectStoreBucket(view, stamp, volume, bucket);
      // Upload rows are named keyName + UPLOAD_SEPARATOR + uploadId after the bucket prefix: a
      // key marker alone resumes after every upload of that key, with an upload-id marker after
      // that one upload.
      String markerName = OmKeys.multipartKeyName(OmContext.nz(keyMarker)) + OmKeys.UPLOAD_SEPARATOR;
      Cursor after = hasUploadMarker ? new Cursor(markerName + uploadIdMarker, false)
          : hasKeyMarker ? new Cursor(markerName, true) : null;
      page = Pager.read(TableScan.source(view.getTable(MULTIPART_INFO_TABLE.name()),
          OmKeys.bucketPrefix(volume, bucket), OmKeys.multipartKeyName(OmContext.nz(prefix)), null,
          row -> UPLOAD_INFO.fromPersistedFormat(row.value())), after, max);
    }
    MultipartUploadInfo last = page.truncated() ? page.last() : null;
    return new MultipartUploadListing(page.items(), page.truncated(),
        last == null ? null : last.getKeyName(), last == null ? null : last.getUploadId());
  }
}
