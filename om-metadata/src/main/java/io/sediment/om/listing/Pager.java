package io.sediment.om.listing;

import io.sediment.om.core.OmContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads one page of any listing: the cursor from a continuation token or a start-after position,
 * the scan of the listing's {@link PageSource} opened once at that cursor, up to {@code max}
 * items, an exact {@code truncated}, and the token of the next page. Written once here so that
 * every listing pages the same way.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Order: items come in the order of the source's scan, each once; a page resumed from a
 *       cursor holds only items strictly after it (exclusive resume; after a common prefix,
 *       after everything under it), so paging to the end returns every item once as long as the
 *       listing does not change, and never an item twice while it does.
 *   <li>A token, when given, wins over the start-after cursor (which the caller validates still).
 *       A token is accepted only for the request it was issued for ({@link ListTokens}); any
 *       refusal is INVALID_ARGUMENT and reads nothing.
 *   <li>A page size of 0 resolves and checks the cursor ({@link PageSource#begin}) and then reads
 *       nothing: an empty page, never truncated, without a token.
 *   <li>{@code truncated} is exact: after a full page the scan is asked whether one more item
 *       follows ({@link Scan#hasMore()}); a page with fewer than {@code max} items is never
 *       truncated. A token is issued only for a truncated page.
 * </ul>
 *
 * <p>Thread-safe (it holds only the thread-safe {@link ListTokens}); each page uses its own scan.
 */
public final class Pager {

  private final ListTokens tokens;


  /** The pager of one store: tokens signed with its secret, with its clock and token lifetime. */
  public static Pager forStore(OmContext ctx) {
    return new Pager(new ListTokens(ctx::tokenSecret, ctx.options().clock(),
        ctx.options().tokenMaxAge()));
  }

  public Pager(ListTokens tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  /**
   * One page of {@code request}: after the token's cursor when {@code token} is given, else after
   * {@code startAfter} ({@code null}: from the start); with the next page's token when truncated.
   *
   * @throws io.sediment.om.core.OmException INVALID_ARGUMENT for a token not valid for
   *     {@code request}; what {@link PageSource#begin} throws
   */
  public <R> Page<R> page(PageRequest request, String token, Cursor startAfter, int max,
      PageSource<R> source) {
    Cursor after = token == null || token.isEmpty() ? startAfter : tokens.verify(token, request);
    Page<R> page = read(source, after, max);
    if (!page.truncated() || page.next() == null) {
      return page;
    }
    return new Page<>(page.items(), true, page.next(), tokens.issue(request, page.next()));
  }

  /**
   * One page of {@code source} after {@code after} ({@code null}: from the start), for listings
   * that page by name or cursor rather than by token.
   */
  public static <R> Page<R> read(PageSource<R> source, Cursor after, int max) {
    source.begin(after);
    if (max == 0) {
      return Page.empty();
    }
    try (Scan<R> scan = source.open(after)) {
      return scan.reading(() -> read(scan, max));
    }
  }

  /** Up to {@code max} items of an open scan (not closed here); {@code truncated} exact. */
  public static <R> Page<R> read(Scan<R> scan, int max) {
    if (max < 0) {
      throw new IllegalArgumentException("Negative page size " + max);
    }
    List<R> items = new ArrayList<>(Math.min(max, 64));
    R item;
    while (items.size() < max && (item = scan.next()) != null) {
      items.add(item);
    }
    if (max == 0 || items.size() < max) {
      return new Page<>(items, false, null, null);
    }
    Cursor resume = scan.resumeCursor(); // before hasMore, which may move the scan's iterator
    boolean truncated = scan.hasMore();
    return new Page<>(items, truncated, truncated ? resume : null, null);
  }
}
