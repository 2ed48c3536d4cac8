package io.sediment.om.listing;

import io.sediment.om.core.OmStoreOptions;

/**
 * S3 ListObjects (version 1) parameters. {@code null} or empty strings mean "not given".
 *
 * @param marker list after this key (exclusive; it need not exist). With a delimiter, a marker
 *     that lies in a common prefix (for example the common prefix {@code photos/} itself, as
 *     returned in {@code NextMarker}) skips every key under that common prefix
 * @param maxKeys 0 (an empty page, as S3 max-keys=0) or more; values above the store's cap are
 *     clamped to it
 */
public record ListObjectsV1Request(String volume, String bucket, String prefix, String delimiter,
    String marker, int maxKeys) {

  public static ListObjectsV1Request of(String volume, String bucket) {
    return new ListObjectsV1Request(volume, bucket, null, null, null,
        OmStoreOptions.DEFAULT_MAX_LIST_SIZE);
  }

  public ListObjectsV1Request withPrefix(String p) {
    return new ListObjectsV1Request(volume, bucket, p, delimiter, marker, maxKeys);
  }

  public ListObjectsV1Request withDelimiter(String d) {
    return new ListObjectsV1Request(volume, bucket, prefix, d, marker, maxKeys);
  }

  public ListObjectsV1Request withMarker(String m) {
    return new ListObjectsV1Request(volume, bucket, prefix, delimiter, m, maxKeys);
  }

  public ListObjectsV1Request withMaxKeys(int m) {
    return new ListObjectsV1Request(volume, bucket, prefix, delimiter, marker, m);
  }
}
