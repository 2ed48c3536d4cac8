package io.sediment.om.multipart;

import static io.sediment.om.core.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_PARTS_TABLE;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.WriteTxn;
import io.sediment.om.core.OmKeys;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The part rows of multipart uploads (multipartPartsTable, {@code <uploadId>/<partNumber>}) as the
 * writes that are not an upload call need them: discarding an upload's parts inside a purge's
 * write, and moving the parts older stores kept inline to their own rows when the store opens. A
 * discarded part becomes a deletedTable row (metadata {@value #META_UPLOAD_ID} and
 * {@value #META_PART_NUMBER}) so the key purge reclaims its data. Thread-safe.
 */
public final class MultipartParts {

  /** deletedTable metadata of a part row: the upload it belonged to. */
  static final String META_UPLOAD_ID = "multipartUploadId";
  /** deletedTable metadata of a part row: its part number. */
  static final String META_PART_NUMBER = "partNumber";

  private final OmContext ctx;
  private final Table<String, MultipartUploadInfo> uploads;
  private final Table<String, PartInfo> partsTable;

  public MultipartParts(OmContext ctx) {
    this.ctx = ctx;
    this.uploads = ctx.table(MULTIPART_INFO_TABLE);
    this.partsTable = ctx.table(MULTIPART_PARTS_TABLE);
  }

  /**
   * Moves the parts that stores written before multipartPartsTable kept inline
   * ({@code MultipartUploadInfo.legacy_parts}) to their own rows, in one write; a store without
   * any writes nothing. Called once when the store opens, before any other write.
   *
   * @return the number of uploads whose parts moved
   */
  @SuppressWarnings("deprecation")
  public int moveInlineParts() {
    if (ctx.counters().get(OmCounter.MULTIPART_UPLOADS) == 0) {
      return 0;
    }
    List<KeyValue<String, MultipartUploadInfo>> legacy = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, MultipartUploadInfo>> it =
             uploads.iterator(null, IteratorType.KEY_AND_VALUE)) {
      while (it.hasNext()) {
        KeyValue<String, MultipartUploadInfo> kv = it.next();
        if (kv.getValue().getLegacyPartsCount() > 0) {
          legacy.add(kv);
        }
      }
    }
    if (legacy.isEmpty()) {
      return 0;
    }
    return ctx.write(txn -> {
      for (KeyValue<String, MultipartUploadInfo> kv : legacy) {
        MultipartUploadInfo upload = kv.getValue();
        for (PartInfo p : upload.getLegacyPartsList()) {
          partsTable.putWithBatch(txn.batch(),
              OmKeys.multipartPartKey(upload.getUploadId(), p.getPartNumber()), p);
        }
        uploads.putWithBatch(txn.batch(), kv.getKey(),
            upload.toBuilder().clearLegacyParts().build());
      }
      return legacy.size();
    });
  }

  /**
   * The bookkeeping of aborting {@code upload} inside a write: its parts go to deletedTable (their
   * rows are deleted) and MULTIPART_UPLOADS is counted down, against {@code bucketId} or, if null
   * (the bucket is gone), store-wide. The caller deletes the upload's row (alone, or as part of a
   * range). Returns the bytes of the parts.
   */
  public long discard(WriteTxn txn, Long bucketId, MultipartUploadInfo upload) {
    long bytes = 0;
    List<KeyValue<String, PartInfo>> rows = rowsOf(upload.getUploadId());
    for (KeyValue<String, PartInfo> row : rows) {
      ctx.moveToDeleted(txn, bucketId, asDeletedVersion(upload, row.getValue()));
      bytes += row.getValue().getSize();
    }
    CursorSweep.delete(partsTable, txn.batch(), rows);
    txn.countIn(bucketId, OmCounter.MULTIPART_UPLOADS, -1);
    return bytes;
  }

  /** The part rows of an upload in part-number order, as the store holds them now (in a write). */
  List<KeyValue<String, PartInfo>> rowsOf(String uploadId) {
    List<KeyValue<String, PartInfo>> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, PartInfo>> it = partsTable.iterator(
        OmKeys.multipartPartsPrefix(uploadId), IteratorType.KEY_AND_VALUE)) {
      while (it.hasNext()) {
        out.add(it.next());
      }
    }
    return out;
  }

  /** A part as the deletedTable row that hands its data to the key purge. */
  static KeyInfo asDeletedVersion(MultipartUploadInfo upload, PartInfo part) {
    return KeyInfo.newBuilder()
        .setVolumeName(upload.getVolumeName())
        .setBucketName(upload.getBucketName())
        .setKeyName(upload.getKeyName())
        .setDataSize(part.getSize())
        .setObjectId(part.getObjectId())
        .setUpdateId(part.getObjectId())
        .setCreationTime(part.getModificationTime())
        .setModificationTime(part.getModificationTime())
        .setOwner(upload.getOwner())
        .putMetadata(META_UPLOAD_ID, upload.getUploadId())
        .putMetadata(META_PART_NUMBER, Integer.toString(part.getPartNumber()))
        .build();
  }
}
