package io.sediment.cli;

import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.AbortMultipartUploadRequest;
import io.sediment.proto.om.ListMultipartUploadsRequest;
import io.sediment.proto.om.ListMultipartUploadsResponse;
import io.sediment.proto.om.ListPartsRequest;
import io.sediment.proto.om.ListPartsResponse;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment mpu list|parts|abort}: the multipart uploads in progress in a bucket of a
 * running server (ListMultipartUploads and ListParts paged to the end, AbortMultipartUpload).
 * Uploads and parts print in {@link ObjectFields}' schema.
 */
@Command(name = "mpu", mixinStandardHelpOptions = true,
    description = "List the multipart uploads in progress in a bucket, their parts, or abort one.",
    subcommands = {MpuCommand.List.class, MpuCommand.Parts.class, MpuCommand.Abort.class})
final class MpuCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing subcommand: list, parts or abort");
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
      description = {"List the uploads in progress in a bucket by key, then initiation, paging "
          + "through to the end.",
          "Prints `DATE TIME UPLOAD_ID KEY` (initiation, UTC); --json one object per line. "
              + "NOT_FOUND (exit 1) if the volume or bucket is missing."})
  static final class List extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String path;

    @Option(names = {"-p", "--prefix"}, description = "Only keys starting with this.")
    String prefix;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.BUCKET);
    }

    @Override
    void run() {
      String keyMarker = "";
      String uploadMarker = "";
      ListMultipartUploadsResponse r;
      do {
        r = om().listMultipartUploads(ListMultipartUploadsRequest.newBuilder()
            .setVolume(at.volume()).setBucket(at.bucket()).setPrefix(nz(prefix))
            .setKeyMarker(keyMarker).setUploadIdMarker(uploadMarker).build());
        for (MultipartUploadInfo u : r.getUploadsList()) {
          row(ObjectFields.upload(u), String.format("%s  %s %s",
              LsCommand.TIME.format(Instant.ofEpochMilli(u.getCreationTime())), u.getUploadId(),
              u.getKeyName()));
        }
        keyMarker = r.getNextKeyMarker();
        uploadMarker = r.getNextUploadIdMarker();
      } while (r.getIsTruncated() && r.getUploadsCount() > 0);
    }
  }

  /** A subcommand on one upload: the key and the upload id. */
  abstract static class OnUpload extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET/KEY", description = "The upload's key.")
    String path;

    @Parameters(index = "1", paramLabel = "UPLOAD_ID",
        description = "The upload id (as `mpu list` prints it).")
    String uploadId;

    ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.KEY);
    }
  }

  @Command(name = "parts", mixinStandardHelpOptions = true,
      description = {"List the parts of an upload in progress by part number, paging through "
          + "to the end.",
          "Prints `PART SIZE ETAG`; --json one object per line. NOT_FOUND (exit 1) if the "
              + "upload is not in progress."})
  static final class Parts extends OnUpload {
    @Override
    void run() {
      int marker = 0;
      ListPartsResponse r;
      do {
        r = om().listParts(ListPartsRequest.newBuilder().setVolume(at.volume())
            .setBucket(at.bucket()).setKey(at.key()).setUploadId(uploadId)
            .setPartNumberMarker(marker).build());
        for (PartInfo p : r.getPartsList()) {
          row(ObjectFields.part(p), String.format("%5d %12d %s", p.getPartNumber(), p.getSize(),
              p.getEtag()));
        }
        marker = r.getNextPartNumberMarker();
      } while (r.getIsTruncated() && r.getPartsCount() > 0);
    }
  }

  @Command(name = "abort", mixinStandardHelpOptions = true,
      description = {"Abort an upload in progress (its parts are handed to the key purge).",
          "NOT_FOUND (exit 1) if it is not in progress."})
  static final class Abort extends OnUpload {
    @Override
    void run() {
      om().abortMultipartUpload(AbortMultipartUploadRequest.newBuilder().setVolume(at.volume())
          .setBucket(at.bucket()).setKey(at.key()).setUploadId(uploadId).build());
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("aborted", "/" + at);
      fields.put("uploadId", uploadId);
      done(fields,
          "Aborted upload " + uploadId + " of " + at);
    }
  }
}
