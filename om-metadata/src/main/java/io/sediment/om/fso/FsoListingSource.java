package io.sediment.om.fso;

import io.sediment.db.ReadView;
import io.sediment.om.core.OmException;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.PageSource;
import io.sediment.om.listing.Scan;
import io.sediment.proto.om.BucketInfo;

/**
 * The page source of one {@code listStatus} request: {@link #begin} checks the cursor and
 * resolves the listed path, {@link #open} walks below it (or lists the file it names).
 */
final class FsoListingSource implements PageSource<FileStatus> {
  private final ReadView view;
  private final BucketInfo bucket;
  private final String where;
  private final FsoPath path;
  private final boolean recursive;
  /** The start key, or {@code null} when the page resumes from a token (or at the start). */
  private final FsoPath start;
  private FsoPath cursor;
  private FileStatus listed;

  FsoListingSource(ReadView view, BucketInfo bucket, String where, FsoPath path, boolean recursive,
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
    FsoWalk walk = new FsoWalk(view, bucket, recursive);
    try {
      walk.start(listed, path, cursor);
    } catch (RuntimeException | Error e) {
      walk.close();
      throw e;
    }
    return walk;
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
}
