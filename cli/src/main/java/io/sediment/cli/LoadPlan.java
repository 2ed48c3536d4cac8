package io.sediment.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * What {@code sediment load} writes: the shape of the synthetic namespace ({@code --volumes},
 * {@code --buckets}, {@code --keys}, the FSO tree, the multipart uploads, the snapshots, the
 * deleted band) and how ({@code --threads}, {@code --name-prefix}, {@code --no-progress}).
 * {@link #validate} checks every bound once, before anything is opened; the counts below read the
 * validated values.
 */
final class LoadPlan {

  /** Parts of each multipart upload: all but the last of the S3 minimum part size. */
  static final int PARTS = 3;
  /** The snapshot taken of each OBS bucket before the deletes. */
  static final String SNAPSHOT = "before-deletes";

  @Option(names = "--volumes", defaultValue = "2", description = "Volumes (default: ${DEFAULT-VALUE}).")
  int volumes;

  @Option(names = "--buckets", defaultValue = "1",
      description = "OBJECT_STORE buckets per volume (default: ${DEFAULT-VALUE}).")
  int buckets;

  @Option(names = "--keys", defaultValue = "2500",
      description = "Keys committed per OBS bucket (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--open-keys", defaultValue = "10",
      description = "Keys left open (uncommitted) per OBS bucket (default: ${DEFAULT-VALUE}).")
  int openKeys;

  @Option(names = "--delete-fraction", defaultValue = "0.8",
      description = "Fraction of each OBS bucket's keys deleted, as one contiguous band, with one "
          + "DeleteKeys call per page (default: ${DEFAULT-VALUE}; with the default --keys, keys "
          + "500..2499, well above the 1,000 tombstones one move of a listing must skip for the "
          + "server's tombstone tracker to count it as slow).")
  double deleteFraction;

  @Option(names = "--fso-buckets", defaultValue = "1",
      description = "FILE_SYSTEM_OPTIMIZED buckets per volume (default: ${DEFAULT-VALUE}).")
  int fsoBuckets;

  @Option(names = "--depth", defaultValue = "4",
      description = "Directory levels of each FSO tree (default: ${DEFAULT-VALUE}).")
  int depth;

  @Option(names = "--fanout", defaultValue = "2",
      description = "Subdirectories (dir-0, dir-1, ...) of each FSO directory above the deepest "
          + "level (default: ${DEFAULT-VALUE}).")
  int fanout;

  @Option(names = "--files-per-dir", defaultValue = "3",
      description = "Files (file-0, file-1, ...) committed in each FSO directory, the bucket root "
          + "included (default: ${DEFAULT-VALUE}).")
  int filesPerDir;

  @Option(names = "--multipart-uploads", defaultValue = "3",
      description = "Multipart uploads per OBS bucket (key multipart/object-N, " + PARTS
          + " parts each): in turn completed, aborted, left in progress (default: ${DEFAULT-VALUE}).")
  int multipartUploads;

  @Option(names = "--no-snapshots",
      description = "Take no snapshot (default: snapshot '" + SNAPSHOT + "' of each OBS bucket, "
          + "before the deletes).")
  boolean noSnapshots;

  @Option(names = "--threads", defaultValue = "32",
      description = "Concurrent writers (default: ${DEFAULT-VALUE}: a durable server commits "
          + "concurrent writes with one WAL sync).")
  int threads;

  @Option(names = "--name-prefix", defaultValue = "load",
      description = "Volume names are PREFIX-vNNN (default: ${DEFAULT-VALUE}).")
  String namePrefix;

  @Option(names = "--no-progress", description = "No progress bar on stderr.")
  boolean noProgress;

  /** The tree of each FSO bucket; set by {@link #validate}. */
  private FsoTreeShape tree;

  /**
   * Checks every option against its bound.
   *
   * @throws CommandLine.ParameterException naming the first option out of bounds
   */
  void validate(CommandLine cmd) {
    check(cmd, volumes >= 1 && volumes <= 1000, "--volumes must be in [1, 1000]");
    check(cmd, buckets >= 0 && buckets <= 1000, "--buckets must be in [0, 1000]");
    check(cmd, fsoBuckets >= 0 && fsoBuckets <= 1000, "--fso-buckets must be in [0, 1000]");
    check(cmd, keys >= 0 && keys <= 10_000_000, "--keys must be in [0, 10000000]");
    check(cmd, openKeys >= 0 && openKeys <= 1_000_000, "--open-keys must be in [0, 1000000]");
    check(cmd, deleteFraction >= 0 && deleteFraction <= 1, "--delete-fraction must be in [0, 1]");
    check(cmd, depth >= 1 && depth <= 100, "--depth must be in [1, 100]");
    check(cmd, fanout >= 1 && fanout <= 100, "--fanout must be in [1, 100]");
    check(cmd, filesPerDir >= 0 && filesPerDir <= 10_000, "--files-per-dir must be in [0, 10000]");
    try {
      tree = new FsoTreeShape(depth, fanout, filesPerDir);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, e.getMessage() + ": lower --depth, --fanout "
          + "or --files-per-dir");
    }
    check(cmd, multipartUploads >= 0 && multipartUploads <= 10_000,
        "--multipart-uploads must be in [0, 10000]");
    check(cmd, threads >= 1 && threads <= 256, "--threads must be in [1, 256]");
    check(cmd, namePrefix.matches("[a-z0-9][a-z0-9-]{0,40}"),
        "--name-prefix must be lower-case letters, digits and '-', at most 41 characters");
  }

  static void check(CommandLine cmd, boolean ok, String message) {
    if (!ok) {
      throw new CommandLine.ParameterException(cmd, message);
    }
  }

  FsoTreeShape tree() {
    return tree;
  }

  /** OBS buckets in all. */
  long obsBuckets() {
    return (long) volumes * buckets;
  }

  /** FSO buckets in all. */
  long fsoBucketCount() {
    return (long) volumes * fsoBuckets;
  }

  /** Calls the whole load makes, for the progress bar. */
  long totalSteps() {
    long obs = obsBuckets();
    long fso = fsoBucketCount();
    long deletes = obs * deleteCount() + fso * tree.deletedSubtrees().size();
    return volumes + obs + fso + obs * keys + obs * openKeys + deletes
        + fso * (tree.directories() + tree.files())
        + obs * multipartUploads * (PARTS + 2L) + (noSnapshots ? 0 : obs);
  }

  /** Key i: a three-level tree, so delimiter listings show common prefixes. */
  static String keyName(int i) {
    return String.format("dir-%02d/sub-%02d/key-%06d", i / 1000, i / 100 % 10, i);
  }

  /**
   * The {@code i} of a name {@link #keyName} made, or -1 for any other name (the multipart
   * uploads' keys, or a key written by something else).
   */
  static int keyIndex(String name) {
    java.util.regex.Matcher m = KEY_NAME.matcher(name);
    if (!m.matches()) {
      return -1;
    }
    try {
      return Integer.parseInt(m.group(1));
    } catch (NumberFormatException tooLarge) {
      return -1;
    }
  }

  private static final java.util.regex.Pattern KEY_NAME =
      java.util.regex.Pattern.compile("dir-\\d{2,}/sub-\\d{2}/key-(\\d{6,})");

  /** Keys deleted per OBS bucket, one contiguous band. */
  int deleteCount() {
    return (int) Math.round(keys * deleteFraction);
  }

  /**
   * The band starts a quarter in, or later so that it ends at the last key: live keys stay before
   * it (and the multipart uploads' keys after it).
   */
  int deleteStart() {
    return Math.min(keys / 4, keys - deleteCount());
  }

  /**
   * Prints what a load of this plan wrote: the volumes, OBS buckets, keys and the deleted band;
   * the FSO trees and their deleted subtrees; the multipart uploads unless {@code uploads} is
   * false (not served); the snapshots unless {@code snapshots} is false (not taken).
   */
  void printSummary(PrintWriter out, boolean uploads, boolean snapshots) {
    long obs = obsBuckets();
    long fso = fsoBucketCount();
    int deleteCount = deleteCount();
    int deleteStart = deleteStart();
    out.printf("Loaded %d volumes, %d OBS buckets with %d committed keys each and %d open keys "
            + "each; %s.%n", volumes, obs, keys, openKeys,
        deleteCount == 0 ? "deleted no keys"
            : String.format("deleted keys %s..%s of each bucket (%d per bucket: a tombstone band "
            + "in keyTable)", keyName(deleteStart), keyName(deleteStart + deleteCount - 1),
            deleteCount));
    if (fso > 0) {
      out.printf("Created %d FSO buckets, each a tree of %d directories (depth %d, fanout %d) and "
              + "%d files; deleted %s of each recursively (%d directories and %d files wait for "
              + "the directory purge), leaving %d entries.%n", fso, tree.directories(), depth,
          fanout, tree.files(), String.join(", ", tree.deletedSubtrees()),
          tree.deletedDirectories(), tree.deletedFiles(), tree.liveEntries());
    }
    if (uploads && multipartUploads > 0 && obs > 0) {
      out.printf("Multipart uploads in each OBS bucket: %d completed (keys multipart/object-N), "
              + "%d aborted, %d in progress.%n", (multipartUploads + 2) / 3,
          (multipartUploads + 1) / 3, multipartUploads / 3);
    }
    if (snapshots && obs > 0) {
      out.printf("Snapshot '%s' of each OBS bucket holds its keys as they were before the "
          + "deletes.%n", SNAPSHOT);
    }
  }
}
