package io.sediment.om.listing;

import io.sediment.om.core.OmStoreOptions;
import java.util.Objects;

/**
 * S3 ListObjects (version 1) parameters. {@code null} or empty strings mean "not given".
 *
 * @param marker list after this key (exclusive; it need not exist). With a delimiter, a marker
 *     that lies in a common prefix (for example the common prefix {@code photos/} itself, as
 *     returned in {@code NextMarker}) skips every key under that common prefix
 * @param maxKeys 0 (an empty page, as S3 max-keys=0) or more; values above the store's cap are
 *     clamped to it
 * @param view how each key's row is returned ({@link KeyRowView#FULL} unless given)
 */
public record ListObjectsV1Request(String volume, String bucket, String prefix, String delimiter,
    String marker, int maxKeys, KeyRowView view) {

  public ListObjectsV1Request {
    Objects.requireNonNull(view, "view");
  }

  /** The parameters with whole rows ({@link KeyRowView#FULL}). */
  public ListObjectsV1Request(String volume, String bucket, String prefix, String delimiter,
      String marker, int maxKeys) {
    this(volume, bucket, prefix, delimiter, marker, maxKeys, KeyRowView.FULL);
  }

  public ListObjectsV1Request withView(KeyRowView v) {
    return new ListObjectsV1Request(volume, bucket, prefix, delimiter, marker, maxKeys, v);
  }

  public static ListObjectsV1Request of(String volume, String bucket) {
    return new ListObjectsV1Request(volume, bucket, null, null, null,
        OmStoreOptions.DEFAULT_MAX_LIST_SIZE);
  }

  public ListObjectsV1Request withPrefix(String p) {
    return new ListObjectsV1Request(volume, bucket, p, delimiter, marker, maxKeys, view);
  }

  public ListObjectsV1Request withDelimiter(String d) {
    return new ListObjectsV1Request(volume, bucket, prefix, d, marker, maxKeys, view);
  }

  public ListObjectsV1Request withMarker(String m) {
    return new ListObjectsV1Request(volume, bucket, prefix, delimiter, m, maxKeys, view);
  }

  public ListObjectsV1Request withMaxKeys(int m) {
    return new ListObjectsV1Request(volume, bucket, prefix, delimiter, marker, m, view);
  }
}
