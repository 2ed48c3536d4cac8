package io.sediment.om.fso;

import io.sediment.db.ReadView;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmValidation;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.ListPage;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.PageRequest;
import io.sediment.om.listing.Pager;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.ListKind;

/**
 * {@code listStatus} over an FSO bucket: one page of the entries below a directory, in
 * {@link FsoPath#LISTING_ORDER}, read from one {@link ReadView}.
 *
 * <h2>Order and contents</h2>
 * <ul>
 *   <li>Non-recursive: the children of the directory (files and directories merged) in name
 *       order (UTF-8 bytes).
 *   <li>Recursive (Ozone rejects it for FSO; supported here): every entry below the directory,
 *       depth first: a directory is followed at once by its whole subtree, children in name order.
 *       This is {@link FsoPath#LISTING_ORDER} over full paths; the non-recursive listing is the
 *       recursive one restricted to the children.
 *   <li>Entries are committed files and live directories; open files are not listed. The
 *       subtree of a recursively deleted directory is never listed, even before it is purged.
 *   <li>{@code path} naming a file: a page of that one file (empty after a cursor).
 * </ul>
 *
 * <h2>Cursor</h2>
 * The page starts after a cursor, exclusive, in listing order: the continuation token's last path
 * when a token is given (the start key is then ignored, though still validated), else
 * {@code startKey} (which need not exist), else at the start. Ozone's startKey is inclusive (it
 * lists the start key itself when it exists); here it is exclusive, so paging with the last path
 * of a page never repeats it. The start key must be the listed path itself (meaning "from the
 * start") or a path below it; any other start key is INVALID_ARGUMENT (Ozone returns an empty
 * list). A start key deeper than one level in a non-recursive listing resumes after the child
 * that contains it.
 *
 * <p>Resuming on a new view re-resolves the cursor's ancestors by name: for each directory on the
 * way to the cursor that still exists, its child iterators are positioned once just after the
 * next component of the cursor; where the way is broken (an ancestor was deleted or renamed), the
 * listing continues after the broken component in the last directory that still exists. So a
 * cursor whose entry was deleted resumes at the next live path, and the paths returned across
 * pages are strictly increasing even when the tree changes between pages (an entry moved by a
 * rename to a later path can be listed again under its new path; one moved to an earlier path is
 * missed, as in any paged listing of a changing tree).
 *
 * <h2>Reads</h2>
 * Each listed directory is read with one natively bounded iterator per table (directoryTable and
 * fileTable, both on the child range {@code /vid/bid/dirId/}), each positioned once: at the range
 * start, or with one seek just after the cursor's component or the child the walk came back
 * from. The two are merged by name. A recursive page holds one such pair at a time, whatever the
 * depth: going into a subdirectory closes its parent's pair (after noting whether the parent has
 * children left), and coming back up re-opens the parent's pair with one seek after that
 * subdirectory, skipping parents known to have nothing left. What a page keeps besides its
 * entries is one id, name and flag per level of the current path and that path once: memory
 * bounded by the page size and the depth, never one iterator (and its native buffers) per level.
 * {@code truncated} is exact: after the page is full, the open pair is asked {@code hasNext()},
 * the children of a directory returned last are probed, and so is, one at a time, each ancestor
 * whose remainder is not known yet (on a page resumed from a token).
 *
 * <p>The continuation token (see {@link io.sediment.om.listing.ListTokens}) carries the last path and is bound to the
 * volume, bucket (and its object id), normalized path and the recursive flag.
 */
public final class FsoListing {

  private FsoListing() {
  }

  /** See {@link FsoNamespace#listStatus} for the contract. */
  public static ListPage<FileStatus> listStatus(OmContext ctx, Pager pager, String volume,
      String bucket, String rawPath, boolean recursive, String startKey, int numEntries,
      String token) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    FsoPath start = startKey == null || startKey.isEmpty()
        ? null : FsoPath.parse("Start key", startKey);
    if (start != null && !path.contains(start)) {
      throw OmException.invalid("Start key '" + start + "' is not inside the listed path '"
          + path + "'");
    }
    int max = ctx.checkPageSize("numEntries", numEntries);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, view, volume, bucket);
      PageRequest request = PageRequest.of(ListKind.LIST_STATUS, volume, bucket,
          b.getObjectId(), path.path()).withFlag(PageRequest.RECURSIVE, recursive);
      boolean fromToken = token != null && !token.isEmpty();
      Page<FileStatus> page = pager.page(request, token,
          start == null ? null : new Cursor(start.path(), false), max,
          new FsoListingSource(view, b, volume + "/" + bucket, path, recursive, fromToken ? null : start));
      return new ListPage<>(page.items(), page.truncated(), page.nextToken());
    }
  }
}
