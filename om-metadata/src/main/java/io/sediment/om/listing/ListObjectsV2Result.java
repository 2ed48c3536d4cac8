package io.sediment.om.listing;

import io.sediment.proto.om.KeyInfo;
import java.util.List;

/**
 * One S3 ListObjectsV2 page.
 *
 * @param contents the keys, in key order
 * @param commonPrefixes the distinct common prefixes (prefix + text up to and including the first
 *     delimiter after it), in order; each counts toward max-keys once
 * @param keyCount {@code contents.size() + commonPrefixes.size()}
 * @param truncated exact: whether a key or common prefix follows this page
 * @param nextContinuationToken when {@code truncated}, the token of the next page, else
 *     {@code null}
 */
public record ListObjectsV2Result(List<KeyInfo> contents, List<String> commonPrefixes,
    int keyCount, boolean truncated, String nextContinuationToken) {

  public ListObjectsV2Result {
    contents = List.copyOf(contents);
    commonPrefixes = List.copyOf(commonPrefixes);
  }
}
