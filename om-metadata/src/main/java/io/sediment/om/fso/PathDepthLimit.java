package io.sediment.om.fso;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The maximum depth of an FSO path ({@link io.sediment.om.core.OmStoreOptions#maxPathDepth}): the checks a create and
 * a rename make before they write anything. Every violation is INVALID_ARGUMENT naming the limit.
 *
 * <h2>Why a rename walks, and how far</h2>
 * A directory's subtree moves with it (its children stay keyed under its object id), so a rename
 * that puts the directory {@code d} levels deeper puts its deepest descendant {@code d} levels
 * deeper too. No row records a subtree's height (keeping one would rewrite every ancestor on a
 * create and go stale on a delete), so {@link #checkRename} finds out with a walk, made only when
 * it can matter and bounded by the limit itself:
 * <ul>
 *   <li>a file, or a directory that does not move deeper ({@code to} no deeper than
 *       {@code from}), needs no walk: nothing below it gets deeper than it already is;
 *   <li>otherwise the walk visits the subtree's directories down to the level where an entry
 *       would exceed the limit, and stops at the first entry found there. It reads directories
 *       only, never files, except one existence probe per directory on that last level; each
 *       step is one bounded iterator opened, positioned once and closed, so at most one native
 *       iterator is open at a time, and memory is one (id, last child name) pair per level: at
 *       most the limit's worth.
 * </ul>
 * Its cost is thus the number of directories of the moved subtree that lie within the limit (in
 * practice, all of them), paid under the write lock, and only by renames that move a directory
 * deeper. Renames within one directory, or up the tree, stay one row move.
 *
 * <p>Entries already deeper than the limit (a store written with a higher one) are left as they
 * are: they can be read, listed, deleted and renamed to a depth no greater than their own, but
 * nothing can be created below them.
 */
final class PathDepthLimit {

  private final int max;

  PathDepthLimit(int max) {
    this.max = max;
  }

  int max() {
    return max;
  }

  /**
   * The path of an entry to create, from the caller's raw path: parsed ({@link FsoPath#parseNew}),
   * not the bucket root, and within the limit ({@link #checkCreate}).
   *
   * @param what the entry as messages name it ("directory", "file")
   * @throws OmException INVALID_ARGUMENT for a bad path, the root, or a path deeper than the limit
   */
  FsoPath parseCreate(String rawPath, String what) {
    FsoPath path = FsoPath.parseNew("Path", rawPath);
    FsoResolver.requireNotRoot(path, "create a " + what + " at");
    checkCreate(path, what);
    return path;
  }

  /**
   * Checks a path to create (a directory, a file, and with them their missing ancestors, which are
   * shallower).
   *
   * @throws OmException INVALID_ARGUMENT if {@code path} has more components than the limit
   */
  void checkCreate(FsoPath path, String what) {
    if (path.depth() > max) {
      throw OmException.invalid("Cannot create " + what + " '" + abbreviate(path) + "': it is "
          + path.depth() + " levels deep, more than the maximum path depth of " + max
          + " (serve --max-path-depth)");
    }
  }

  /**
   * Checks a rename of the entry at {@code from} to {@code to}, where {@code movedDirId} is the
   * object id of the directory that moves ({@code null} for a file). Reads through {@code dirs}
   * and {@code files}; see the class comment for the walk.
   *
   * @throws OmException INVALID_ARGUMENT if an entry of the moved subtree would end deeper than
   *     the limit
   */
  void checkRename(Table<String, DirectoryInfo> dirs, Table<String, KeyInfo> files, long volumeId,
      long bucketId, Long movedDirId, FsoPath from, FsoPath to) {
    String context = "Cannot rename '" + abbreviate(from) + "' to '" + abbreviate(to) + "'";
    if (to.depth() > max && to.depth() > from.depth()) {
      throw OmException.invalid(context + ": the destination is " + to.depth()
          + " levels deep, more than the maximum path depth of " + max
          + " (serve --max-path-depth)");
    }
    if (movedDirId == null || to.depth() <= from.depth()) {
      return;
    }
    int levelsLeft = max - to.depth();
    if (hasEntryBelow(dirs, files, volumeId, bucketId, movedDirId, levelsLeft)) {
      throw OmException.invalid(context + ": the directory holds entries more than "
          + levelsLeft + " levels below it, which would end deeper than the maximum path depth"
          + " of " + max + " (serve --max-path-depth)");
    }
  }

  /**
   * Whether the subtree of directory {@code rootId} holds an entry (a directory or a committed
   * file) more than {@code levels} levels below it; {@code levels >= 0}. Depth first over
   * directories, one short-lived iterator per step.
   */
  static boolean hasEntryBelow(Table<String, DirectoryInfo> dirs, Table<String, KeyInfo> files,
      long volumeId, long bucketId, long rootId, int levels) {
    // way.get(i): the directory i levels below the root (0: the root itself), the name of its
    // child the walk last went into, and whether it has more children after that one.
    List<Step> way = new ArrayList<>();
    way.add(new Step(rootId));
    while (!way.isEmpty()) {
      int top = way.size() - 1;
      Step s = way.get(top);
      String prefix = OmKeys.childPrefix(volumeId, bucketId, s.dirId);
      if (top == levels) {
        // Any child here would lie levels + 1 below the root.
        if (dirs.hasLiveKey(prefix) || files.hasLiveKey(prefix)) {
          return true;
        }
        way.remove(top);
        continue;
      }
      DirectoryInfo child = s.more ? s.nextChild(dirs, prefix) : null;
      if (child == null) {
        way.remove(top);
        continue;
      }
      way.add(new Step(child.getObjectId()));
    }
    return false;
  }

  /** One directory on the walk's way down; no native resources. */
  private static final class Step {
    final long dirId;
    /** The child the walk last went into; null: none yet. */
    String after;
    /** Whether children may follow {@link #after}. */
    boolean more = true;

    Step(long dirId) {
      this.dirId = dirId;
    }

    /**
     * The next child directory after {@link #after}, or null; notes whether another follows, so
     * coming back up from the last child needs no iterator. One bounded iterator, closed here.
     */
    DirectoryInfo nextChild(Table<String, DirectoryInfo> dirs, String prefix) {
      try (TableIterator<String, KeyValue<String, DirectoryInfo>> it =
               dirs.iterator(prefix, IteratorType.KEY_AND_VALUE)) {
        if (after != null) {
          it.seekAfter(prefix + after);
        }
        if (!it.hasNext()) {
          more = false;
          return null;
        }
        DirectoryInfo child = it.next().getValue();
        after = child.getName();
        more = it.hasNext();
        return child;
      }
    }
  }

  private static String abbreviate(FsoPath p) {
    String s = p.path();
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
