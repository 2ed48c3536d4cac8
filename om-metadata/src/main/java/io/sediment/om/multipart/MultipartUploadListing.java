package io.sediment.om.multipart;

import io.sediment.proto.om.MultipartUploadInfo;
import java.util.List;

/**
 * One page of S3 ListMultipartUploads.
 *
 * @param uploads the uploads in progress, ordered by key (UTF-8 bytes) and, for one key, by upload
 *     id, which is initiation order; each without its parts ({@code parts} is empty)
 * @param truncated exact: whether at least one more upload followed this page when it was read
 * @param nextKeyMarker when {@code truncated}, the key of the last upload of this page (pass it as
 *     the next {@code keyMarker}); else {@code null}
 * @param nextUploadIdMarker when {@code truncated}, the upload id of the last upload of this page
 *     (pass it as the next {@code uploadIdMarker}); else {@code null}
 */
public record MultipartUploadListing(List<MultipartUploadInfo> uploads, boolean truncated,
    String nextKeyMarker, String nextUploadIdMarker) {

  public MultipartUploadListing {
    uploads = List.copyOf(uploads);
  }
}
