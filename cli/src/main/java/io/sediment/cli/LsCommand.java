package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.FileStatus;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListBucketsResponse;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.VolumeInfo;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment ls [VOLUME[/BUCKET[/PREFIX]]]}: volumes, the buckets of a volume, or the keys of
 * a bucket, like {@code aws s3 ls}: with the delimiter (default {@code /}) keys below the next
 * delimiter roll up into {@code PRE} lines, {@code --recursive} lists every key. In a
 * FILE_SYSTEM_OPTIMIZED bucket the prefix is a directory and the listing is ListStatus: its
 * children (directories as {@code PRE} lines, then files, merged in name order), or with
 * {@code --recursive} its whole subtree, directories included; {@code --delimiter} does not apply
 * there. Pages through to the end with continuation tokens (or start-after names for volumes and
 * buckets).
 */
@Command(name = "ls", mixinStandardHelpOptions = true,
    description = {"List volumes (no PATH), the buckets of a volume (PATH = VOLUME) or the keys of "
        + "a bucket (PATH = VOLUME/BUCKET[/PREFIX]), paging through to the end. In a "
        + "FILE_SYSTEM_OPTIMIZED bucket PREFIX is a directory: its entries are listed (with -r, "
        + "its whole subtree).",
        "Keys and files print as `DATE TIME SIZE KEY` in UTC, common prefixes and directories as "
            + "`PRE PREFIX/`; --json prints one JSON object per line."})
final class LsCommand extends ClientCommand {

  static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  @Parameters(index = "0", arity = "0..1", paramLabel = "PATH",
      description = "VOLUME, VOLUME/BUCKET or VOLUME/BUCKET/PREFIX (a leading '/' is ignored).")
  String path;

  @Option(names = "--prefix", description = "Only names starting with this (keys: after the "
      + "bucket; in an FSO bucket: the directory to list; not together with a PREFIX in PATH).")
  String prefix;

  @Mixin
  ListingOptions listing;

  @Option(names = "--start-after", paramLabel = "NAME",
      description = "List names after this one (exclusive; FSO: a path below the listed "
          + "directory).")
  String startAfter;

  @Option(names = "--json", description = "One JSON object per line.")
  boolean json;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    listing.check(cmd);
    String p = path == null ? "" : path.startsWith("/") ? path.substring(1) : path;
    String[] split = p.isEmpty() ? new String[0] : p.split("/", 3);
    String[] parts = split.length == 2 && split[1].isEmpty() ? new String[] {split[0]} : split;
    if (parts.length == 3 && !parts[2].isEmpty() && prefix != null) {
      throw new CommandLine.ParameterException(cmd,
          "Give the key prefix either in PATH or with --prefix, not both");
    }
    return target.om(cmd, stub -> {
      PrintWriter out = cmd.getOut();
      switch (parts.length) {
        case 0 -> listVolumes(stub, out);
        case 1 -> listBuckets(stub, out, parts[0]);
        default -> {
          String keyPrefix = parts.length == 3 && !parts[2].isEmpty() ? parts[2] : nz(prefix);
          BucketInfo bucket = target.deadline(stub).getBucket(GetBucketRequest.newBuilder()
              .setVolume(parts[0]).setBucket(parts[1]).build()).getBucket();
          if (bucket.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
            listStatus(stub, out, parts[0], parts[1], keyPrefix);
          } else {
            listKeys(stub, out, parts[0], parts[1], keyPrefix);
          }
        }
      }
    });
  }

  private void listVolumes(OmServiceGrpc.OmServiceBlockingStub stub, PrintWriter out) {
    String after = nz(startAfter);
    while (true) {
      ListVolumesRequest.Builder req = ListVolumesRequest.newBuilder()
          .setPrefix(nz(prefix)).setStartAfter(after);
      listing.pageSizeInto(req::setMaxResults);
      ListVolumesResponse r = target.deadline(stub).listVolumes(req.build());
      for (VolumeInfo v : r.getVolumesList()) {
        out.println(json ? Json.of(v) : String.format("%s  %-20s %s",
            TIME.format(Instant.ofEpochMilli(v.getCreationTime())), v.getOwner(), v.getName()));
        after = v.getName();
      }
      if (!r.getTruncated() || r.getVolumesCount() == 0) {
        return;
      }
    }
  }

  private void listBuckets(OmServiceGrpc.OmServiceBlockingStub stub, PrintWriter out,
      String volume) {
    String after = nz(startAfter);
    while (true) {
      ListBucketsRequest.Builder req = ListBucketsRequest.newBuilder()
          .setVolume(volume).setPrefix(nz(prefix)).setStartAfter(after);
      listing.pageSizeInto(req::setMaxResults);
      ListBucketsResponse r = target.deadline(stub).listBuckets(req.build());
      for (BucketInfo b : r.getBucketsList()) {
        out.println(json ? Json.of(b) : String.format("%s  %-22s %s",
            TIME.format(Instant.ofEpochMilli(b.getCreationTime())), b.getLayout(),
            b.getBucketName()));
        after = b.getBucketName();
      }
      if (!r.getTruncated() || r.getBucketsCount() == 0) {
        return;
      }
    }
  }

  private void listKeys(OmServiceGrpc.OmServiceBlockingStub stub, PrintWriter out, String volume,
      String bucket, String keyPrefix) {
    ByteString token = ByteString.EMPTY;
    do {
      ListObjectsV2Request.Builder req = ListObjectsV2Request.newBuilder()
          .setVolume(volume).setBucket(bucket).setPrefix(keyPrefix)
          .setDelimiter(listing.objectsDelimiter()).setStartAfter(nz(startAfter))
          .setContinuationToken(token);
      listing.pageSizeInto(req::setMaxKeys);
      ListObjectsV2Response r = target.deadline(stub).listObjectsV2(req.build());
      // One page holds common prefixes and keys; print them merged in name order.
      int p = 0;
      int k = 0;
      while (p < r.getCommonPrefixesCount() || k < r.getContentsCount()) {
        boolean prefixNext = k >= r.getContentsCount() || (p < r.getCommonPrefixesCount()
            && compareUtf8(r.getCommonPrefixes(p), r.getContents(k).getKeyName()) < 0);
        if (prefixNext) {
          String cp = r.getCommonPrefixes(p++);
          out.println(json ? "{\"prefix\":" + Json.str(cp) + "}"
              : String.format("%30s %s", "PRE", cp));
        } else {
          KeyInfo key = r.getContents(k++);
          out.println(json ? Json.of(key) : String.format("%s %10d %s",
              TIME.format(Instant.ofEpochMilli(key.getModificationTime())), key.getDataSize(),
              key.getKeyName()));
        }
      }
      token = r.getNextContinuationToken();
    } while (!token.isEmpty());
  }

  /** ListStatus of directory (or file) {@code dir} of an FSO bucket, paged with tokens. */
  private void listStatus(OmServiceGrpc.OmServiceBlockingStub stub, PrintWriter out, String volume,
      String bucket, String dir) {
    ByteString token = ByteString.EMPTY;
    do {
      ListStatusRequest.Builder req = ListStatusRequest.newBuilder()
          .setVolume(volume).setBucket(bucket).setPath(dir).setRecursive(listing.recursive)
          .setStartKey(nz(startAfter)).setPageToken(token);
      listing.pageSizeInto(req::setNumEntries);
      ListStatusResponse r = target.deadline(stub).listStatus(req.build());
      for (FileStatus s : r.getStatusesList()) {
        if (json) {
          out.println(Json.of(s));
        } else if (s.getIsDirectory()) {
          out.println(String.format("%30s %s/", "PRE", s.getPath()));
        } else {
          out.println(String.format("%s %10d %s",
              TIME.format(Instant.ofEpochMilli(s.getModificationTime())), s.getSize(),
              s.getPath()));
        }
      }
      token = r.getNextPageToken();
    } while (!token.isEmpty());
  }

  private static int compareUtf8(String a, String b) {
    return java.util.Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
