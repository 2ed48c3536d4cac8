package io.sediment.om.multipart;

import io.sediment.proto.om.PartInfo;
import java.util.List;

/**
 * One page of the parts of a multipart upload (S3 ListParts).
 *
 * @param parts in ascending part number
 * @param truncated exact: whether more parts follow this page
 * @param nextPartNumberMarker when {@code truncated}, the last part number of this page: pass it as
 *     the next {@code partNumberMarker}; else 0
 */
public record PartListing(List<PartInfo> parts, boolean truncated, int nextPartNumberMarker) {

  public PartListing {
    parts = List.copyOf(parts);
  }
}
