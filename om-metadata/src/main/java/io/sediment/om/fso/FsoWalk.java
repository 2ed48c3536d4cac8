package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmKeys;
import io.sediment.om.listing.Cursor;
import io.sediment.om.listing.Scan;
import io.sediment.proto.om.BucketInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * A depth-first walk below one directory, for {@link FsoListing}. It remembers one
 * {@link Level} per directory on the way from the listed directory down to the one being read (an
 * id, a name and a flag, no iterator), and holds the iterators of that deepest one only: going
 * down closes the parent's iterators, coming back up re-opens them with one seek after the child
 * it went into. So at most two native iterators are open at a time (one {@link Frame}), whatever
 * the depth, and the path of the current directory is kept once, not once per level. Rows are
 * read as {@link EntryAttributes}, the six fields a status takes, not parsed whole.
 */
final class FsoWalk implements Scan<FileStatus> {
  private final Table<String, EntryAttributes> dirs;
  private final Table<String, EntryAttributes> files;
  private final BucketInfo bucket;
  private final boolean recursive;
  private final List<Level> levels = new ArrayList<>();
  /** The path of the deepest level's directory. */
  private final StringBuilder dirPath = new StringBuilder();
  /** The deepest level's iterators, or null when they are closed. */
  private Frame open;
  /** The last directory returned, whose children come next (recursive only). */
  private FileStatus pending;

  FsoWalk(ReadView view, BucketInfo bucket, boolean recursive) {
    this.dirs = view.getTable(DIRECTORY_TABLE, EntryAttributesCodec.DIRECTORY);
    this.files = view.getTable(FILE_TABLE, EntryAttributesCodec.FILE);
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
      EntryAttributes d = dirs.get(OmKeys.pathKey(bucket.getVolumeId(), bucket.getObjectId(),
          parent, cursor.component(i)));
      if (d == null) {
        return;
      }
      if (i + 1 < cursor.depth()) {
        descend(d.objectId(), cursor.component(i), cursor.component(i + 1));
      } else {
        pending = FileStatus.of(cursor.path(), true, d);
      }
      parent = d.objectId();
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
    private final TableIterator<String, KeyValue<String, EntryAttributes>> dirIt;
    private final TableIterator<String, KeyValue<String, EntryAttributes>> fileIt;
    private KeyValue<String, EntryAttributes> dirHead;
    private boolean dirHeadRead;
    private KeyValue<String, EntryAttributes> fileHead;
    private boolean fileHeadRead;

    /** @param afterName start after this child name (exclusive); {@code null}: at the start */
    Frame(Table<String, EntryAttributes> dirs, Table<String, EntryAttributes> files, String prefix,
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

    private KeyValue<String, EntryAttributes> dirHead() {
      if (!dirHeadRead) {
        dirHead = dirIt.hasNext() ? dirIt.next() : null;
        dirHeadRead = true;
      }
      return dirHead;
    }

    private KeyValue<String, EntryAttributes> fileHead() {
      if (!fileHeadRead) {
        fileHead = fileIt.hasNext() ? fileIt.next() : null;
        fileHeadRead = true;
      }
      return fileHead;
    }

    /** The next child in name order, or {@code null} when both ranges are exhausted. */
    FileStatus next() {
      KeyValue<String, EntryAttributes> d = dirHead();
      KeyValue<String, EntryAttributes> f = fileHead();
      if (d == null && f == null) {
        return null;
      }
      // Same prefix in both tables, so key order is name order.
      if (f == null || (d != null && FsoPath.compareNames(d.getKey(), f.getKey()) < 0)) {
        dirHeadRead = false;
        return FileStatus.of(childPath(d.getKey()), true, d.getValue());
      }
      fileHeadRead = false;
      return FileStatus.of(childPath(f.getKey()), false, f.getValue());
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
