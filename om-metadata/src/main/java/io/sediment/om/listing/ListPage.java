package io.sediment.om.listing;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param items the entries, in key order
 * @param truncated exact: {@code true} if and only if at least one more entry followed this page
 *     when it was read; a page asked for with a page size of 0 is empty and never truncated
 * @param nextToken for token-based listings, the continuation token of the next page when
 *     {@code truncated}, else {@code null}; name-based listings (volumes, buckets) page with the
 *     last name returned as {@code startAfter} and leave it {@code null}
 */
public record ListPage<T>(List<T> items, boolean truncated, String nextToken) {

  public ListPage {
    items = List.copyOf(items);
  }
}
