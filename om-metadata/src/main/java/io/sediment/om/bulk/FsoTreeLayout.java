package io.sediment.om.bulk;

import java.util.ArrayList;
import java.util.List;

/**
 * The tree of one FSO bucket in a bulk load: {@code entries} entries, directories and files,
 * where every directory has up to {@code fanout} subdirectories and every directory and the
 * bucket's root hold {@code filesPerDirectory} files until the files run out.
 *
 * <p><b>Shape.</b> Directories are numbered 1 to {@link #directories()} breadth first, as an
 * {@code fanout}-ary heap under the root (node 0): node {@code n}'s children are
 * {@code fanout * n + 1} to {@code fanout * n + fanout}. Directory {@code n} is named
 * {@code d} + {@code n} as ten digits, so siblings sort by number. The fewest directories are
 * used that leave room for the rest of the entries as files, {@code F} per container:
 * {@code D = floor(entries / (F + 1))} (every entry a directory for {@code F = 0}).
 * Files fill the containers (the root, then the directories in preorder) {@code F} at a time;
 * file {@code i} of a container is named {@code f} + {@code i} as ten digits (so the root's files
 * are freon's FSO names).
 *
 * <p><b>Order.</b> The equivalent writes, which fix the ids, are: every directory in preorder
 * (one id each, ids in preorder), then every file, container by container in preorder, by name
 * (two ids each: object and client id). Preorder is also the order of the directory ids, so
 * {@link #walk} visiting containers in preorder yields the rows of directoryTable and fileTable,
 * keyed {@code parentId/name}, in key order.
 */
final class FsoTreeLayout {

  /** What {@link #walk} reports for each container, the root first, in preorder. */
  interface Visitor {
    /**
     * @param preorder 0 for the root, else the directory's place in preorder (1 to D)
     * @param path the container's path ({@code ""} for the root)
     * @param files how many files it holds (named {@link #fileName(long)} 0 to files - 1)
     * @param firstFile the index of its first file among all files in the equivalent order
     * @param children its subdirectories in name order: their preorder places and names
     */
    void container(long preorder, String path, long files, long firstFile,
        List<Child> children);
  }

  /** A subdirectory: its place in preorder and its name. */
  record Child(long preorder, String name) {
  }

  private final long entries;
  private final long fanout;
  private final long filesPerDirectory;
  private final long directories;

  FsoTreeLayout(long entries, int fanout, int filesPerDirectory) {
    this.entries = entries;
    this.fanout = fanout;
    this.filesPerDirectory = filesPerDirectory;
    // The least D with D + (D + 1) * F >= entries, so (D + 1) * F files hold the rest.
    this.directories = entries / (filesPerDirectory + 1L);
  }

  /** Directories of the tree. */
  long directories() {
    return directories;
  }

  /** Files of the tree. */
  long files() {
    return entries - directories;
  }

  /** Ids the equivalent writes allocate: one per directory, two per file. */
  long ids() {
    return directories + 2 * files();
  }

  /** Name of directory node {@code n}. */
  static String directoryName(long n) {
    return NamespacePlan.indexed("d", n);
  }

  /** Name of file {@code i} of a container. */
  static String fileName(long i) {
    return NamespacePlan.indexed("f", i);
  }

  /** Levels below the root of the deepest directory (0 without directories). */
  int depth() {
    int depth = 0;
    for (long n = directories; n > 0; n = (n - 1) / fanout) {
      depth++;
    }
    return depth;
  }

  /** The longest path of the tree: the deepest directory's, plus a file when it holds any. */
  String deepestPath() {
    List<String> names = new ArrayList<>();
    for (long n = directories; n > 0; n = (n - 1) / fanout) {
      names.add(0, directoryName(n));
    }
    if (files() > 0) {
      names.add(fileName(0));
    }
    return String.join("/", names);
  }

  /** Directory nodes in the subtree of node {@code n}, itself included (0: the whole tree). */
  long subtreeSize(long n) {
    long size = 0;
    long lo = n;
    long hi = n;
    while (lo <= directories) {
      size += Math.min(hi, directories) - lo + 1;
      if (lo > (directories - 1) / fanout) {
        break;
      }
      lo = fanout * lo + 1;
      hi = hi > (Long.MAX_VALUE - fanout) / fanout ? Long.MAX_VALUE : fanout * hi + fanout;
    }
    return size;
  }

  /** Visits every container (the root, then each directory) in preorder. */
  void walk(Visitor visitor) {
    // An explicit stack of (node, preorder, path): the tree may be deeper than the call stack.
    List<long[]> stack = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    stack.add(new long[] {0, 0});
    paths.add("");
    while (!stack.isEmpty()) {
      long[] top = stack.remove(stack.size() - 1);
      String path = paths.remove(paths.size() - 1);
      long node = top[0];
      long pre = top[1];
      long firstFile = pre * filesPerDirectory;
      long files = Math.min(filesPerDirectory, Math.max(0, files() - firstFile));
      List<Child> children = new ArrayList<>();
      long next = pre + 1;
      for (long c = fanout * node + 1; c <= Math.min(directories, fanout * node + fanout); c++) {
        children.add(new Child(next, directoryName(c)));
        next += subtreeSize(c);
      }
      visitor.container(pre, path, files, firstFile, children);
      for (int i = children.size() - 1; i >= 0; i--) {
        stack.add(new long[] {fanout * node + 1 + i, children.get(i).preorder()});
        paths.add(path.isEmpty() ? children.get(i).name() : path + "/" + children.get(i).name());
      }
    }
  }
}
