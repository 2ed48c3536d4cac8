package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import io.sediment.proto.om.KeyInfo;
import java.util.List;

/**
 * One S3 ListObjects (version 1) page. The keys are kept as stored, {@link KeyInfo} encodings
 * whose top level was checked well-formed, so that a server forwarding the page need not parse
 * them.
 *
 * @param encodedContents the keys, in key order, each a {@link KeyInfo} in protobuf's encoding
 * @param commonPrefixes the distinct common prefixes (prefix + text up to and including the first
 *     delimiter after it), in order; each counts toward max-keys once
 * @param truncated exact: whether a key or common prefix follows this page
 * @param nextMarker as S3: only when {@code truncated} and a delimiter was given, the last item
 *     of the page (a key or a common prefix), to pass as the next {@code marker}; otherwise
 *     {@code null}, and a client continues a truncated listing with the last key of
 *     the contents as the marker
 * @param encodedColumns for a page in {@link KeyRowView#COLUMNS}, the keys as a
 *     {@link io.sediment.proto.om.KeyColumns} encoding (and {@code encodedContents} is empty);
 *     otherwise {@code null}
 */
public record ListObjectsV1Result(List<ByteString> encodedContents, List<String> commonPrefixes,
    boolean truncated, String nextMarker, ByteString encodedColumns) {

  public ListObjectsV1Result {
    encodedContents = List.copyOf(encodedContents);
    commonPrefixes = List.copyOf(commonPrefixes);
  }

  /**
   * The keys, parsed (each call parses them again), from the rows or the columns.
   *
   * @throws io.sediment.db.codec.CodecException if a stored key does not parse
   */
  public List<KeyInfo> contents() {
    return KeyColumnsReader.pageKeys(encodedContents, encodedColumns);
  }

  /**
   * The keys' columns, parsed (each call parses them again).
   *
   * @throws IllegalStateException if the page was not read in {@link KeyRowView#COLUMNS}
   */
  public KeyColumnsReader columns() {
    return KeyColumnsReader.pageColumns(encodedColumns);
  }
}
