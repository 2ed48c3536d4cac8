package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.DeleteFileRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.FileStatus;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.GetFileStatusRequest;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sediment rm PATH}: deletes a key ({@code VOLUME/BUCKET/KEY}), with {@code -r} every key
 * under a prefix ({@code VOLUME/BUCKET/[PREFIX]}), or an empty bucket ({@code VOLUME/BUCKET}) or
 * volume ({@code VOLUME}). Deleted keys move to deletedTable, leaving tombstones in keyTable.
 *
 * <p>{@code -r} in an OBJECT_STORE or LEGACY bucket lists the prefix and deletes it page by page,
 * one DeleteKeys call (one atomic write on the server) per page of the server's page cap; on a
 * terminal it draws progress on stderr, and it ends with a summary line: keys deleted, already
 * gone (deleted meanwhile), failed (each failed key is named on stderr, and the exit code is 1),
 * and the seconds the listing and deleting took (not the JVM's start, nor a confirmation's wait).
 * Unless {@code --yes} is given, it first counts the keys (one listing pass; a count of at most
 * {@link #CONFIRM_ABOVE} keeps its pages, so a small delete lists once) and above
 * {@link #CONFIRM_ABOVE} asks on the terminal before deleting anything; without a terminal it
 * refuses with exit code 1, deleting nothing.
 *
 * <p>In a FILE_SYSTEM_OPTIMIZED bucket {@code PATH} names a file or a directory, not a prefix: a
 * file is deleted, an empty directory too, and with {@code -r} a directory with its subtree (one
 * row moves to deletedDirectoryTable; the directory purge removes the subtree later) or, for the
 * bucket root, every top-level entry that way.
 */
@Command(name = "rm", mixinStandardHelpOptions = true,
    description = {"Delete a key (VOLUME/BUCKET/KEY), every key under a prefix with -r "
        + "(VOLUME/BUCKET/[PREFIX]), an empty bucket (VOLUME/BUCKET) or an empty volume (VOLUME).",
        "In an FSO bucket PATH is a file or directory: -r deletes a directory with its subtree "
            + "(VOLUME/BUCKET/ with -r: everything in the bucket), purged in the background.",
        "Deleted keys wait in deletedTable for the purge; keyTable keeps their tombstones until "
            + "compaction.",
        "-r on an object-store prefix deletes a page of keys per call and prints a summary "
            + "(deleted, already gone, failed); above " + RmCommand.CONFIRM_ABOVE + " keys it "
            + "asks first unless --yes (without a terminal: refuses, exit 1)."})
final class RmCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "PATH", description = "What to delete.")
  String path;

  @Option(names = {"-r", "--recursive"}, description = "Every key under the prefix PATH; in an "
      + "FSO bucket the directory PATH with its subtree, or with VOLUME/BUCKET/ every entry.")
  boolean recursive;

  @Option(names = {"-y", "--yes"}, description = "With -r, delete without asking even when more "
      + "than " + CONFIRM_ABOVE + " keys match (needed then when stdin is not a terminal).")
  boolean yes;

  /** The former path, one DeleteKey call per key: kept for dev-support/bin/bench-rm only. */
  @Option(names = "--per-key", hidden = true)
  boolean perKey;

  /** {@code rm -r} of more keys than this asks first (or needs {@code --yes}). */
  static final int CONFIRM_ABOVE = 1_000;

  private final Terminal terminal;

  RmCommand() {
    this(Terminal.system());
  }

  /** A command that draws progress on and asks questions of {@code terminal}. */
  RmCommand(Terminal terminal) {
    this.terminal = terminal;
  }

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    String p = path.startsWith("/") ? path.substring(1) : path;
    String[] parts = p.split("/", 3);
    if (p.isEmpty() || parts[0].isEmpty()) {
      throw new CommandLine.ParameterException(cmd, "PATH must name a volume, bucket or key");
    }
    if (recursive && (parts.length < 2 || parts[1].isEmpty())) {
      throw new CommandLine.ParameterException(cmd, "-r needs VOLUME/BUCKET/[PREFIX]");
    }
    boolean bucketContents = parts.length == 3 && parts[2].chars().allMatch(c -> c == '/');
    if (bucketContents && !recursive) {
      throw new CommandLine.ParameterException(cmd, "'" + path + "' names what the bucket holds: "
          + "delete it with -r, or the bucket itself as VOLUME/BUCKET");
    }
    boolean[] failed = {false};
    int code = target.om(cmd, stub -> {
      PrintWriter out = cmd.getOut();
      boolean inBucket = parts.length == 3 && !parts[2].isEmpty() || recursive;
      if (inBucket && isFso(stub, parts[0], parts[1])) {
        deleteFso(stub, out, parts[0], parts[1],
            parts.length == 3 && !bucketContents ? parts[2] : "");
      } else if (recursive) {
        failed[0] = deletePrefix(stub, out, parts[0], parts[1],
            parts.length == 3 ? parts[2] : "") > 0;
      } else if (parts.length == 3 && !parts[2].isEmpty()) {
        target.deadline(stub).deleteKey(DeleteKeyRequest.newBuilder().setVolume(parts[0])
            .setBucket(parts[1]).setKey(parts[2]).build());
        out.printf("Deleted key %s%n", p);
      } else if (parts.length >= 2 && !parts[1].isEmpty()) {
        target.deadline(stub).deleteBucket(DeleteBucketRequest.newBuilder().setVolume(parts[0])
            .setBucket(parts[1]).build());
        out.printf("Deleted bucket %s/%s%n", parts[0], parts[1]);
      } else {
        target.deadline(stub).deleteVolume(
            DeleteVolumeRequest.newBuilder().setVolume(parts[0]).build());
        out.printf("Deleted volume %s%n", parts[0]);
      }
    });
    return failed[0] ? Sediment.EXIT_FAILURE : code;
  }

  /**
   * Deletes every key under {@code prefix} of an OBJECT_STORE or LEGACY bucket, a page per
   * DeleteKeys call ({@link PrefixDelete}), asking first when there are more than
   * {@link #CONFIRM_ABOVE} (see the class comment); prints the summary and returns how many keys
   * failed.
   */
  private long deletePrefix(OmServiceGrpc.OmServiceBlockingStub stub, PrintWriter out,
      String volume, String bucket, String prefix) {
    PrefixDelete walk = new PrefixDelete(() -> target.deadline(stub), volume, bucket, prefix,
        perKey);
    long start = System.nanoTime();
    PrefixDelete.Count count = null;
    if (!yes) {
      count = walk.count(CONFIRM_ABOVE);
      if (count.total() > CONFIRM_ABOVE) {
        long asked = System.nanoTime();
        confirm(count.total(), walk.where());
        start += System.nanoTime() - asked; // the time spent answering is not the command's
      }
    }
    ProgressBar progress = new ProgressBar(spec.commandLine().getErr(), "rm", "keys",
        count == null ? 0 : count.total(), terminal.interactive());
    PrefixDelete.Tally tally = count != null && count.pages() != null
        ? walk.delete(count.pages(), progress) : walk.deleteAll(progress);
    if (tally.seen() > 0) {
      progress.finish();
    }
    out.printf(java.util.Locale.ROOT, "Deleted %d keys under %s (%d already gone, %d failed) "
        + "in %.2f s%n", tally.deleted, walk.where(), tally.alreadyGone, tally.failed,
        (System.nanoTime() - start) / 1e9);
    if (tally.failed > 0) {
      PrintWriter err = spec.commandLine().getErr();
      tally.failures.forEach(f -> err.println("failed: " + f));
      if (tally.failed > tally.failures.size()) {
        err.printf("... and %d more failed keys%n", tally.failed - tally.failures.size());
      }
      err.flush();
    }
    return tally.failed;
  }

  /**
   * Returns when the person at the terminal agrees to delete {@code total} keys.
   *
   * @throws CliFailure (exit 1, nothing deleted) when they do not, or when there is no terminal
   *     to ask on
   */
  private void confirm(long total, String where) {
    if (!terminal.interactive()) {
      throw new CliFailure("rm -r would delete " + total + " keys under " + where + ", more than "
          + CONFIRM_ABOVE + ", and there is no terminal to confirm on: pass --yes to delete them "
          + "without asking. Nothing deleted.");
    }
    String answer = terminal.ask("Delete " + total + " keys under " + where + "? [y/N] ");
    String a = answer == null ? "" : answer.trim().toLowerCase(java.util.Locale.ROOT);
    if (!a.equals("y") && !a.equals("yes")) {
      throw new CliFailure("Not confirmed: nothing deleted");
    }
  }

  private boolean isFso(OmServiceGrpc.OmServiceBlockingStub stub, String volume, String bucket) {
    return target.deadline(stub).getBucket(GetBucketRequest.newBuilder().setVolume(volume)
        .setBucket(bucket).build()).getBucket().getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
  }

  /**
   * Deletes the file or directory {@code path} of an FSO bucket, or with an empty path (only with
   * -r) every top-level entry of the bucket.
   */
  private void deleteFso(OmServiceGrpc.OmServiceBlockingStub stub, PrintWriter out, String volume,
      String bucket, String path) {
    String where = volume + "/" + bucket + "/";
    if (path.isEmpty()) {
      List<FileStatus> top = new ArrayList<>();
      ByteString token = ByteString.EMPTY;
      ListStatusResponse r;
      do {
        r = target.deadline(stub).listStatus(ListStatusRequest.newBuilder().setVolume(volume)
            .setBucket(bucket).setPageToken(token).build());
        top.addAll(r.getStatusesList());
        token = r.getNextPageToken();
      } while (r.getTruncated());
      long files = 0;
      long directories = 0;
      for (FileStatus entry : top) {
        try {
          deleteEntry(stub, volume, bucket, entry.getPath(), entry.getIsDirectory());
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
            continue; // deleted meanwhile by another client
          }
          throw new CliFailure("Deleted " + files + " files and " + directories + " directories"
              + " at the top of " + where + ", then " + entry.getPath() + " failed: "
              + e.getStatus().getCode() + ": " + e.getStatus().getDescription(), e);
        }
        if (entry.getIsDirectory()) {
          directories++;
        } else {
          files++;
        }
      }
      out.printf("Deleted %d files and %d directories at the top of %s%s%n", files, directories,
          where, directories > 0 ? " (their subtrees are purged in the background)" : "");
      return;
    }
    FileStatus status = target.deadline(stub).getFileStatus(GetFileStatusRequest.newBuilder()
        .setVolume(volume).setBucket(bucket).setPath(path).build()).getStatus();
    if (path.endsWith("/") && !status.getIsDirectory()) {
      throw new CliFailure(where + status.getPath() + " is a file, not a directory: nothing deleted");
    }
    deleteEntry(stub, volume, bucket, status.getPath(), status.getIsDirectory());
    if (!status.getIsDirectory()) {
      out.printf("Deleted file %s%s%n", where, status.getPath());
    } else if (recursive) {
      out.printf("Deleted directory %s%s and its subtree (purged in the background)%n", where,
          status.getPath());
    } else {
      out.printf("Deleted empty directory %s%s%n", where, status.getPath());
    }
  }

  /** A file, or a directory: with its subtree when -r, else only if empty (the server checks). */
  private void deleteEntry(OmServiceGrpc.OmServiceBlockingStub stub, String volume, String bucket,
      String path, boolean directory) {
    if (directory) {
      target.deadline(stub).deleteDirectory(DeleteDirectoryRequest.newBuilder().setVolume(volume)
          .setBucket(bucket).setPath(path).setRecursive(recursive).build());
    } else {
      target.deadline(stub).deleteFile(DeleteFileRequest.newBuilder().setVolume(volume)
          .setBucket(bucket).setPath(path).build());
    }
  }

}
