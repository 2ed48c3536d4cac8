package io.sediment.om.listing;

import io.sediment.om.core.OmStoreOptions;
import java.util.Objects;

/**
 * S3 ListObjectsV2 parameters. {@code null} or empty strings mean "not given".
 *
 * @param continuationToken when given, {@code startAfter} is ignored (as S3 does)
 * @param maxKeys 0 (an empty page, as S3 max-keys=0) or more; values above the store's cap are
 *     clamped to it
 * @param view how each key's row is returned ({@link KeyRowView#FULL} unless given)
 */
public record ListObjectsV2Request(String volume, String bucket, String prefix, String delimiter,
    String startAfter, int maxKeys, String continuationToken, KeyRowView view) {

  public ListObjectsV2Request {
    Objects.requireNonNull(view, "view");
  }

  /** The parameters with whole rows ({@link KeyRowView#FULL}). */
  public ListObjectsV2Request(String volume, String bucket, String prefix, String delimiter,
      String startAfter, int maxKeys, String continuationToken) {
    this(volume, bucket, prefix, delimiter, startAfter, maxKeys, continuationToken,
        KeyRowView.FULL);
  }

  public static ListObjectsV2Request of(String volume, String bucket) {
    return new ListObjectsV2Request(volume, bucket, null, null, null,
        OmStoreOptions.DEFAULT_MAX_LIST_SIZE, null);
  }

  public ListObjectsV2Request withView(KeyRowView v) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, startAfter, maxKeys,
        continuationToken, v);
  }

  public ListObjectsV2Request withPrefix(String p) {
    return new ListObjectsV2Request(volume, bucket, p, delimiter, startAfter, maxKeys,
        continuationToken, view);
  }

  public ListObjectsV2Request withDelimiter(String d) {
    return new ListObjectsV2Request(volume, bucket, prefix, d, startAfter, maxKeys,
        continuationToken, view);
  }

  public ListObjectsV2Request withStartAfter(String s) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, s, maxKeys,
        continuationToken, view);
  }

  public ListObjectsV2Request withMaxKeys(int m) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, startAfter, m,
        continuationToken, view);
  }

  public ListObjectsV2Request withContinuationToken(String t) {
    return new ListObjectsV2Request(volume, bucket, prefix, delimiter, startAfter, maxKeys, t,
        view);
  }
}
