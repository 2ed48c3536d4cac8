package io.sediment.om.multipart;

/**
 * One part named in a complete-multipart-upload request.
 *
 * @param partNumber 1 to {@value MultipartUploads#MAX_PART_NUMBER}
 * @param etag the ETag returned when the part was uploaded; one pair of surrounding double quotes
 *     is ignored on both sides of the comparison, as S3 clients send them quoted
 */
public record CompletedPart(int partNumber, String etag) {
}
