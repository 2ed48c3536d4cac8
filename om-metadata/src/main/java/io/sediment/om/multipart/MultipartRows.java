package io.sediment.om.multipart;

import io.sediment.om.core.OmKeys;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.ReplicationConfig;

/**
 * The rows of a multipart upload in progress as {@link MultipartUploads} writes them: the upload
 * row {@code initiate} writes and rewrites at each part commit, and a part's row. A bulk load
 * builds its rows with them too, so both write the same bytes. Stateless.
 */
public final class MultipartRows {

  private MultipartRows() {
  }

  /**
   * The multipartInfoTable row of a new upload of {@code key} with id {@code id} (its upload id
   * is {@code OmKeys.id(id)}) by {@code owner} (already resolved) at {@code now}.
   */
  public static MultipartUploadInfo upload(String volume, String bucket, String key, long id,
      String owner, long now, ReplicationConfig replication) {
    return MultipartUploadInfo.newBuilder()
        .setVolumeName(volume)
        .setBucketName(bucket)
        .setKeyName(key)
        .setUploadId(OmKeys.id(id))
        .setCreationTime(now)
        .setOwner(owner)
        .setObjectId(id)
        .setUpdateId(id)
        .setReplicationConfig(replication)
        .build();
  }

  /** The upload row after committing the part with id {@code partId}: its update id. */
  public static MultipartUploadInfo withPart(MultipartUploadInfo upload, long partId) {
    return upload.toBuilder().setUpdateId(partId).build();
  }

  /** The multipartPartsTable row of part {@code partNumber}, with id {@code partId}. */
  public static PartInfo part(int partNumber, long size, String etag, long partId, long now) {
    return PartInfo.newBuilder()
        .setPartNumber(partNumber)
        .setSize(size)
        .setEtag(etag)
        .setModificationTime(now)
        .setObjectId(partId)
        .build();
  }
}
