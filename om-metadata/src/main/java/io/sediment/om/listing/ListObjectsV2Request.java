package io.sediment.om.listing;

import io.sediment.om.core.OmStoreOptions;

/**
 * S3 ListObjectsV2 parameters. {@code null} or empty strings mean "not given".
 *
 * @param continuationToken when given, {@code startAfter} is ignored (as S3 does)
 * @param maxKeys 0 (an empty page, as S3 max-keys=0) or more; values above the store's cap are
 *     clamped to it
 */
public record ListObjectsV2Request(String volume, String bucket, String prefix, String delimiter,
    String startAfter, int maxKeys, String continuationToken) {

  public static ListObjectsV2Request of(String volume, String bucket) {
    return new ListObjectsV2Request(volume, bucket, null, null, null,
        OmStoreOptions.DEFAULT_MAX_LIST_SIZE, null);
  }

  public ListObjectsV2Request withPrefix(String p) {
    return new ListObjectsV2Request(volume, bucket, p, delimiter, startAfter, maxKeys,
        continuationToken);
  }

  public ListObjectsV2Request withDelimiter(String d) {
    return new ListObjectsV2Request(volume, bucket, prefix, d, startAfter, maxKeys,
        continuationToken);
  }

  public ListObjectsV2Request withStartAfter(String s) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, s, maxKeys,
        continuationToken);
  }

  public ListObjectsV2Request withMaxKeys(int m) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, startAfter, m,
        continuationToken);
  }

  public ListObjectsV2Request withContinuationToken(String t) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, startAfter, maxKeys, t);
  }
}
