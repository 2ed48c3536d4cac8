package io.sediment.om.listing;

import com.google.protobuf.ByteString;
import io.sediment.proto.om.KeyInfo;
import java.util.List;

/**
 * One S3 ListObjectsV2 page. The keys are kept as stored, {@link KeyInfo} encodings whose top
 * level was checked well-formed, so that a server forwarding the page need not parse them.
 *
 * @param encodedContents the keys, in key order, each a {@link KeyInfo} in protobuf's encoding
 * @param commonPrefixes the distinct common prefixes (prefix + text up to and including the first
 *     delimiter after it), in order; each counts toward max-keys once
 * @param keyCount the keys (in {@code encodedContents} or {@code encodedColumns}) plus
 *     {@code commonPrefixes.size()}
 * @param truncated exact: whether a key or common prefix follows this page
 * @param nextContinuationToken when {@code truncated}, the token of the next page, else
 *     {@code null}
 * @param encodedColumns for a page in {@link KeyRowView#COLUMNS}, the keys as a
 *     {@link io.sediment.proto.om.KeyColumns} encoding (and {@code encodedContents} is empty);
 *     otherwise {@code null}
 */
public record ListObjectsV2Result(List<ByteString> encodedContents, List<String> commonPrefixes,
    int keyCount, boolean truncated, String nextContinuationToken, ByteString encodedColumns) {

  public ListObjectsV2Result {
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
