package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.ListPage;
import io.sediment.om.listing.Page;
import io.sediment.om.listing.PageRequest;
import io.sediment.om.listing.PageSource;
import io.sediment.om.listing.Pager;
import io.sediment.om.listing.Scan;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKind;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * One page of {@code listStatus}; see the class comment.
   *
   * @param rawPath the directory to list ({@code ""} or {@code "/"}: the bucket root) or a file
   * @param startKey {@code null} or empty for none; else a path below {@code path} (or
   *     {@code path} itself), exclusive
   * @param numEntries page size, 0 (an empty, untruncated page, even when {@code path} is a
   *     file) to the store's cap
   * @param token {@code null} or empty for the first page; else the previous page's
   *     {@link ListPage#nextToken()}
   * @throws OmException INVALID_ARGUMENT for a bad name, path, start key, page size or token;
   *     NOT_FOUND if the volume, bucket or path does not exist; UNIMPLEMENTED for a bucket that
   *     is not FILE_SYSTEM_OPTIMIZED
   */
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
          new Source(view, b, volume + "/" + bucket, path, recursive, fromToken ? null : start));
      return new ListPage<>(page.items(), page.truncated(), page.nextToken());
    }
  }

  /**
   * The page source of one {@code listStatus} request: {@link #begin} checks the cursor and
   * resolves the listed path, {@link #open} walks below it (or lists the file it names).
   */
  private static final class Source implements PageSource<FileStatus> {
    private final ReadView view;
    private final BucketInfo bucket;
    private final String where;
    private final FsoPath path;
    private final boolean recursive;
    /** The start key, or {@code null} when the page resumes from a token (or at the start). */
    private final FsoPath start;
    private FsoPath cursor;
    private FileStatus listed;

    Source(ReadView view, BucketInfo bucket, String where, FsoPath path, boolean recursive,
        FsoPath start) {
      this.view = view;
      this.bucket = bucket;
      this.where = where;
      this.path = path;
      this.recursive = recursive;
      this.start = start;
    }

    @Override
    public void begin(Cursor after) {
      if (after != null && start == null) {
        cursor = FsoPath.parseStored("Continuation token path", after.lastKey());
        if (!path.contains(cursor)) {
          throw OmException.invalid("The continuation token is invalid: it does not belong to '"
              + path + "'");
        }
      } else {
        cursor = start;
      }
      listed = FsoResolver.status(view, bucket, path);
      if (listed == null) {
        throw OmException.notFound("'" + path + "' does not exist in '" + where + "'");
      }
    }

    @Override
    public Scan<FileStatus> open(Cursor after) {
      if (!listed.isDirectory()) {
        return new OneFile(cursor == null ? listed : null);
      }
      Walk walk = new Walk(view, bucket, recursive);
      try {
        walk.start(listed, path, cursor);
      } catch (RuntimeException | Error e) {
        walk.close();
        throw e;
      }
      return walk;
    }
  }

  /** The listing of a path that names a file: that file, unless the page resumes after it. */
  private static final class OneFile implements Scan<FileStatus> {
    private FileStatus file;

    OneFile(FileStatus file) {
      this.file = file;
    }

    @Override
    public FileStatus next() {
      FileStatus f = file;
      file = null;
      return f;
    }

    @Override
    public boolean hasMore() {
      return file != null;
    }

    @Override
    public Cursor resumeCursor() {
      return null;
    }

    @Override
    public void close() {
    }
  }

  /**
   * A depth-first walk below one directory. It remembers one {@link Level} per directory on the
   * way from the listed directory down to the one being read (an id, a name and a flag, no
   * iterator), and holds the iterators of that deepest one only: going down closes the parent's
   * iterators, coming back up re-opens them with one seek after the child it went into. So at
   * most two native iterators are open at a time (one {@link Frame}), whatever the depth, and the
   * path of the current directory is kept once, not once per level.
   */
  private static final class Walk implements Scan<FileStatus> {
    private final Table<String, DirectoryInfo> dirs;
    private final Table<String, KeyInfo> files;
    private final BucketInfo bucket;
    private final boolean recursive;
    private final List<Level> levels = new ArrayList<>();
    /** The path of the deepest level's directory. */
    private final StringBuilder dirPath = new StringBuilder();
    /** The deepest level's iterators, or null when they are closed. */
    private Frame open;
    /** The last directory returned, whose children come next (recursive only). */
    private FileStatus pending;

    Walk(ReadView view, BucketInfo bucket, boolean recursive) {
      this.dirs = view.getTable(DIRECTORY_TABLE);
      this.files = view.getTable(FILE_TABLE);
      this.bucket = bucket;
      this.recursive = recursive;
    }

    /** Positions after {@code cursor} (null: at the start) below directory {@code listed}. */
    void start(FileStatus listed, FsoPath path, FsoPath cursor) {
      dirPath.append(path.path());
      if (cursor == null || cursor.depth() == path.depth()) {
        levels.add(new Level(listed.objectId(), dirPath.length(), null));
        return;
      }
      levels.add(new Level(listed.objectId(), dirPath.length(), cursor.component(path.depth())));
      if (!recursive) {
        return;
      }
      // Re-resolve the cursor's ancestors on this view; stop where the way is broken.
      long parent = listed.objectId();
      for (int i = path.depth(); i < cursor.depth(); i++) {
        DirectoryInfo d = dirs.get(OmKeys.pathKey(bucket.getVolumeId(), bucket.getObjectId(),
            parent, cursor.component(i)));
        if (d == null) {
          return;
        }
        if (i + 1 < cursor.depth()) {
          descend(d.getObjectId(), cursor.component(i), cursor.component(i + 1));
        } else {
          pending = FileStatus.ofDirectory(cursor.path(), d);
        }
        parent = d.getObjectId();
      }
    }

    /** The path of the entry {@link #next()} returned last. */
    private String lastPath;

    /** The next entry in listing order, or {@code null} at the end. */
    @Override
    public FileStatus next() {
      FileStatus s = read();
      if (s != null) {
        lastPath = s.path();
      }
      return s;
    }

    @Override
    public Cursor resumeCursor() {
      return new Cursor(lastPath, false);
    }

    private FileStatus read() {
      while (true) {
        if (pending != null) {
          descend(pending.objectId(), pending.name(), null);
          pending = null;
        }
        if (levels.isEmpty()) {
          return null;
        }
        Level top = levels.get(levels.size() - 1);
        if (open == null) {
          if (top.more == Boolean.FALSE) {
            ascend();
            continue;
          }
          open = new Frame(dirs, files, childPrefix(top.dirId), dirPath.toString(), top.after);
        }
        FileStatus s = open.next();
        if (s == null) {
          ascend();
          continue;
        }
        if (recursive && s.isDirectory()) {
          // The walk goes into s next: remember where to come back to, then let go of the
          // iterators (one hasNext() each at most, on entries they have already reached).
          top.after = s.name();
          top.more = open.hasMore();
          closeOpen();
          pending = s;
        }
        return s;
      }
    }

    /**
     * Whether {@link #next()} would return an entry. Reads at most one entry per iterator still
     * open, probes the children of the last directory returned, and re-opens, one at a time, the
     * levels whose remainder is not known yet (those a resumed page started in).
     */
    @Override
    public boolean hasMore() {
      if (open != null) {
        if (open.hasMore()) {
          return true;
        }
        closeOpen();
        levels.get(levels.size() - 1).more = false;
      }
      if (pending != null) {
        String children = childPrefix(pending.objectId());
        if (dirs.hasLiveKey(children) || files.hasLiveKey(children)) {
          return true;
        }
      }
      for (int i = levels.size() - 1; i >= 0; i--) {
        Level l = levels.get(i);
        if (l.more == null) {
          try (Frame probe = new Frame(dirs, files, childPrefix(l.dirId), "", l.after)) {
            l.more = probe.hasMore();
          }
        }
        if (l.more) {
          return true;
        }
      }
      return false;
    }

    /** Makes directory {@code dirId}, child {@code name} of the deepest level, the deepest. */
    private void descend(long dirId, String name, String after) {
      closeOpen();
      if (dirPath.length() > 0) {
        dirPath.append(OmKeys.SEPARATOR);
      }
      dirPath.append(name);
      levels.add(new Level(dirId, dirPath.length(), after));
    }

    /** Drops the deepest level: its parent is read next, after the child the walk left. */
    private void ascend() {
      closeOpen();
      levels.remove(levels.size() - 1);
      if (!levels.isEmpty()) {
        dirPath.setLength(levels.get(levels.size() - 1).pathEnd);
      }
    }

    private String childPrefix(long dirId) {
      return OmKeys.childPrefix(bucket.getVolumeId(), bucket.getObjectId(), dirId);
    }

    private void closeOpen() {
      if (open != null) {
        Frame f = open;
        open = null;
        f.close();
      }
    }

    @Override
    public void close() {
      closeOpen();
    }
  }

  /** One directory on the walk's way down; no native resources. */
  private static final class Level {
    final long dirId;
    /** Length of the walk's path while this directory is the deepest. */
    final int pathEnd;
    /** Read the children after this name (exclusive); null: from the first. */
    String after;
    /**
     * Whether children remain after {@link #after} on the page's view: known when the walk went
     * down from this directory, {@code null} for a level a resumed page started in.
     */
    Boolean more;

    Level(long dirId, int pathEnd, String after) {
      this.dirId = dirId;
      this.pathEnd = pathEnd;
      this.after = after;
    }
  }

  /**
   * The children of one directory: its directoryTable and fileTable ranges, each read by one
   * bounded iterator positioned once, merged by name.
   */
  private static final class Frame implements AutoCloseable {
    private final String prefix;
    private final String dirPath;
    private final TableIterator<String, KeyValue<String, DirectoryInfo>> dirIt;
    private final TableIterator<String, KeyValue<String, KeyInfo>> fileIt;
    private KeyValue<String, DirectoryInfo> dirHead;
    private boolean dirHeadRead;
    private KeyValue<String, KeyInfo> fileHead;
    private boolean fileHeadRead;

    /** @param afterName start after this child name (exclusive); {@code null}: at the start */
    Frame(Table<String, DirectoryInfo> dirs, Table<String, KeyInfo> files, String prefix,
        String dirPath, String afterName) {
      this.prefix = prefix;
      this.dirPath = dirPath;
      this.dirIt = dirs.iterator(prefix, IteratorType.KEY_AND_VALUE);
      try {
        this.fileIt = files.iterator(prefix, IteratorType.KEY_AND_VALUE);
        if (afterName != null) {
          dirIt.seekAfter(prefix + afterName);
          fileIt.seekAfter(prefix + afterName);
        }
      } catch (RuntimeException | Error e) {
        dirIt.close();
        throw e;
      }
    }

    private KeyValue<String, DirectoryInfo> dirHead() {
      if (!dirHeadRead) {
        dirHead = dirIt.hasNext() ? dirIt.next() : null;
        dirHeadRead = true;
      }
      return dirHead;
    }

    private KeyValue<String, KeyInfo> fileHead() {
      if (!fileHeadRead) {
        fileHead = fileIt.hasNext() ? fileIt.next() : null;
        fileHeadRead = true;
      }
      return fileHead;
    }

    /** The next child in name order, or {@code null} when both ranges are exhausted. */
    FileStatus next() {
      KeyValue<String, DirectoryInfo> d = dirHead();
      KeyValue<String, KeyInfo> f = fileHead();
      if (d == null && f == null) {
        return null;
      }
      // Same prefix in both tables, so key order is name order.
      if (f == null || (d != null && FsoPath.compareNames(d.getKey(), f.getKey()) < 0)) {
        dirHeadRead = false;
        return FileStatus.ofDirectory(childPath(d.getKey()), d.getValue());
      }
      fileHeadRead = false;
      return FileStatus.ofFile(childPath(f.getKey()), f.getValue());
    }

    /** Whether a child remains: one {@code hasNext()} per iterator whose head is not read. */
    boolean hasMore() {
      return (dirHeadRead ? dirHead != null : dirIt.hasNext())
          || (fileHeadRead ? fileHead != null : fileIt.hasNext());
    }

    private String childPath(String key) {
      return FsoPath.join(dirPath, key.substring(prefix.length()));
    }

    @Override
    public void close() {
      try {
        dirIt.close();
      } finally {
        fileIt.close();
      }
    }
  }
}
