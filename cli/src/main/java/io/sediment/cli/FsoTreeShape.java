package io.sediment.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The synthetic FSO tree {@code sediment load} writes into each FILE_SYSTEM_OPTIMIZED bucket, and
 * the subtrees it then deletes recursively. Pure arithmetic over names; immutable.
 *
 * <ul>
 *   <li>Directories: {@code depth} levels, each directory above the deepest level holding
 *       {@code fanout} subdirectories {@code dir-0 .. dir-(fanout-1)}; so level {@code l} (1-based)
 *       has {@code fanout^l} directories, e.g. {@code dir-1/dir-0/dir-1}. They are numbered level by
 *       level (every parent before its children), in name order within a level.
 *   <li>Files: {@code filesPerDir} files {@code file-0 ..} in every directory and in the bucket
 *       root, numbered root first, then by directory number.
 *   <li>Deleted subtrees: the last subdirectory of each top-level directory
 *       ({@code dir-T/dir-(fanout-1)}), or with {@code depth} 1 the last top-level directory.
 * </ul>
 */
final class FsoTreeShape {

  /** The most directories plus files of one tree that {@code load} accepts. */
  static final long MAX_ENTRIES = 10_000_000L;

  private final int depth;
  private final int fanout;
  private final int filesPerDir;

  /**
   * @throws IllegalArgumentException if depth or fanout is below 1, filesPerDir negative, or the
   *     tree holds more than {@link #MAX_ENTRIES} entries
   */
  FsoTreeShape(int depth, int fanout, int filesPerDir) {
    if (depth < 1 || fanout < 1 || filesPerDir < 0) {
      throw new IllegalArgumentException("depth and fanout must be at least 1, files per "
          + "directory at least 0: " + depth + ", " + fanout + ", " + filesPerDir);
    }
    this.depth = depth;
    this.fanout = fanout;
    this.filesPerDir = filesPerDir;
    double entries = 0;
    double level = 1;
    for (int l = 1; l <= depth; l++) {
      level *= fanout;
      entries += level;
    }
    entries += (entries + 1) * filesPerDir;
    if (entries > MAX_ENTRIES) {
      throw new IllegalArgumentException(String.format("An FSO tree of depth %d, fanout %d and %d "
          + "files per directory holds %.0f entries; at most %d", depth, fanout, filesPerDir,
          entries, MAX_ENTRIES));
    }
  }

  /** Directories of the tree, the bucket root not included. */
  long directories() {
    return levelsFrom(1, depth);
  }

  /** Files of the tree. */
  long files() {
    return (directories() + 1) * filesPerDir;
  }

  /**
   * The path of directory {@code i}, {@code 0 <= i < directories()}.
   *
   * @throws IndexOutOfBoundsException otherwise
   */
  String directory(long i) {
    if (i < 0 || i >= directories()) {
      throw new IndexOutOfBoundsException("directory " + i + " of " + directories());
    }
    long rest = i;
    long width = fanout;
    int level = 1;
    while (rest >= width) {
      rest -= width;
      width *= fanout;
      level++;
    }
    String[] names = new String[level];
    for (int l = level - 1; l >= 0; l--) {
      names[l] = "dir-" + (rest % fanout);
      rest /= fanout;
    }
    return String.join("/", names);
  }

  /**
   * The path of file {@code i}, {@code 0 <= i < files()}: the root's files first, then those of
   * each directory in directory order.
   *
   * @throws IndexOutOfBoundsException otherwise
   */
  String file(long i) {
    if (i < 0 || i >= files()) {
      throw new IndexOutOfBoundsException("file " + i + " of " + files());
    }
    long dir = i / filesPerDir - 1;
    String name = "file-" + (i % filesPerDir);
    return dir < 0 ? name : directory(dir) + "/" + name;
  }

  /** The subtrees deleted recursively, in name order. */
  List<String> deletedSubtrees() {
    List<String> out = new ArrayList<>();
    if (depth == 1) {
      out.add("dir-" + (fanout - 1));
    } else {
      for (int t = 0; t < fanout; t++) {
        out.add("dir-" + t + "/dir-" + (fanout - 1));
      }
    }
    return out;
  }

  /** Directories in the deleted subtrees, their roots included. */
  long deletedDirectories() {
    return depth == 1 ? 1 : fanout * levelsFrom(0, depth - 2);
  }

  /** Files in the deleted subtrees. */
  long deletedFiles() {
    return deletedDirectories() * filesPerDir;
  }

  /** Directories and files left after the deletes: what a recursive listing of the root shows. */
  long liveEntries() {
    return directories() + files() - deletedDirectories() - deletedFiles();
  }

  /** {@code fanout^from + ... + fanout^to}. */
  private long levelsFrom(int from, int to) {
    long sum = 0;
    long level = 1;
    for (int l = 0; l <= to; l++) {
      if (l >= from) {
        sum += level;
      }
      level *= fanout;
    }
    return sum;
  }
}
