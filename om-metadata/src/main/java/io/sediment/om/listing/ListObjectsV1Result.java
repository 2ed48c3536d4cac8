package io.sediment.om.listing;

import io.sediment.proto.om.KeyInfo;
import java.util.List;

/**
 * One S3 ListObjects (version 1) page.
 *
 * @param contents the keys, in key order
 * @param commonPrefixes the distinct common prefixes (prefix + text up to and including the first
 *     delimiter after it), in order; each counts toward max-keys once
 * @param truncated exact: whether a key or common prefix follows this page
 * @param nextMarker as S3: only when {@code truncated} and a delimiter was given, the last item
 *     of the page (a key or a common prefix), to pass as the next {@code marker}; otherwise
 *     {@code null}, and a client continues a truncated listing with the last key of
 *     {@code contents} as the marker
 */
public record ListObjectsV1Result(List<KeyInfo> contents, List<String> commonPrefixes,
    boolean truncated, String nextMarker) {

  public ListObjectsV1Result {
    contents = List.copyOf(contents);
    commonPrefixes = List.copyOf(commonPrefixes);
  }
}
