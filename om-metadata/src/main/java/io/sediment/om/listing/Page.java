package io.sediment.om.listing;

import java.util.List;

/**
 * One page read by the {@link Pager}.
 *
 * @param items in listing order
 * @param truncated exact: {@code true} if and only if at least one more item followed the page
 *     when it was read; a page of size 0 is empty and never truncated
 * @param next where the next page resumes (exclusive) when {@code truncated}, else {@code null}
 *     (also {@code null} for a scan whose positions have no cursor form)
 * @param nextToken the continuation token for {@code next}, when the page was read with a
 *     {@link PageRequest} and is truncated; else {@code null}
 * @param <R> the item type
 */
public record Page<R>(List<R> items, boolean truncated, Cursor next, String nextToken) {

  public Page {
    items = List.copyOf(items);
  }

  /** The empty, untruncated page (a page size of 0). */
  public static <R> Page<R> empty() {
    return new Page<>(List.of(), false, null, null);
  }

  /** The last item; the page must not be empty. */
  public R last() {
    return items.get(items.size() - 1);
  }

  /** {@link Cursor#lastKey()} of {@link #next()}, or {@code null} when there is no next page. */
  public String nextKey() {
    return next == null ? null : next.lastKey();
  }
}
