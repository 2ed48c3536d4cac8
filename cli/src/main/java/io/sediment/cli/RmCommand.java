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
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment rm PATH}: deletes a key ({@code VOLUME/BUCKET/KEY}), with {@code -r} every key
 * under a prefix ({@code VOLUME/BUCKET/[PREFIX]}), or an empty bucket ({@code VOLUME/BUCKET}) or
 * volume ({@code VOLUME}). Deleted keys move to deletedTable, leaving tombstones in keyTable.
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
            + "compaction."})
final class RmCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "PATH", description = "What to delete.")
  String path;

  @Option(names = {"-r", "--recursive"}, description = "Every key under the prefix PATH; in an "
      + "FSO bucket the directory PATH with its subtree, or with VOLUME/BUCKET/ every entry.")
  boolean recursive;

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
    return target.om(cmd, stub -> {
      PrintWriter out = cmd.getOut();
      boolean inBucket = parts.length == 3 && !parts[2].isEmpty() || recursive;
      if (inBucket && isFso(stub, parts[0], parts[1])) {
        deleteFso(stub, out, parts[0], parts[1],
            parts.length == 3 && !bucketContents ? parts[2] : "");
      } else if (recursive) {
        String prefix = parts.length == 3 ? parts[2] : "";
        List<String> keys = new ArrayList<>();
        ByteString token = ByteString.EMPTY;
        do {
          ListObjectsV2Response r = target.deadline(stub).listObjectsV2(
              ListObjectsV2Request.newBuilder()
              .setVolume(parts[0]).setBucket(parts[1]).setPrefix(prefix)
              .setContinuationToken(token).build());
          for (KeyInfo k : r.getContentsList()) {
            keys.add(k.getKeyName());
          }
          token = r.getNextContinuationToken();
        } while (!token.isEmpty());
        int deleted = 0;
        for (String key : keys) {
          try {
            target.deadline(stub).deleteKey(DeleteKeyRequest.newBuilder().setVolume(parts[0])
                .setBucket(parts[1]).setKey(key).build());
            deleted++;
          } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
              throw e;
            }
            // deleted meanwhile by another client
          }
        }
        out.printf("Deleted %d keys under %s/%s/%s%n", deleted, parts[0], parts[1], prefix);
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
