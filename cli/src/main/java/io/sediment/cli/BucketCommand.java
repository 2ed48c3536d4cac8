package io.sediment.cli;

import io.sediment.om.core.ReplicationText;
import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListBucketsResponse;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment bucket create|info|list|update|delete}: the buckets of a running server
 * (CreateBucket, GetBucket, ListBuckets paged to the end, SetBucketProperties, DeleteBucket), as
 * Ozone's {@code ozone sh bucket}. A bucket prints in {@link ObjectFields}' schema.
 */
@Command(name = "bucket", mixinStandardHelpOptions = true,
    description = {"Create, show, list, update or delete the buckets of a running server.",
        "A bucket may have a default replication config (-t/-r), which its new keys get "
            + "unless they name one."},
    subcommands = {BucketCommand.Create.class, BucketCommand.Info.class, BucketCommand.List.class,
        BucketCommand.Update.class, BucketCommand.Delete.class})
final class BucketCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing subcommand: create, info, list, update or delete");
  }

  /** A subcommand on one bucket, the first parameter. */
  abstract static class OnBucket extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET",
        description = "The bucket (a leading '/' is ignored).")
    String path;

    ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.BUCKET);
    }
  }

  /**
   * The layout {@code text} names: OBS or OBJECT_STORE, FSO or FILE_SYSTEM_OPTIMIZED, LEGACY
   * (case-insensitive).
   *
   * @throws CommandLine.ParameterException (a usage error) for anything else
   */
  static BucketLayout layout(CommandLine cmd, String text) {
    return switch (text.toUpperCase(Locale.ROOT)) {
      case "OBS", "OBJECT_STORE" -> BucketLayout.OBJECT_STORE;
      case "FSO", "FILE_SYSTEM_OPTIMIZED" -> BucketLayout.FILE_SYSTEM_OPTIMIZED;
      case "LEGACY" -> BucketLayout.LEGACY;
      default -> throw new CommandLine.ParameterException(cmd,
          "--layout must be OBS (OBJECT_STORE), FSO (FILE_SYSTEM_OPTIMIZED) or LEGACY: '"
              + text + "'");
    };
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Create a bucket in an existing volume, then print it.",
          "NOT_FOUND (exit 1) if the volume is missing, ALREADY_EXISTS if the bucket exists."})
  static final class Create extends OnBucket {
    @Option(names = {"-l", "--layout"}, paramLabel = "LAYOUT", defaultValue = "OBS",
        description = "OBS (OBJECT_STORE: a flat key space), FSO (FILE_SYSTEM_OPTIMIZED: a "
            + "directory tree) or LEGACY (default: ${DEFAULT-VALUE}).")
    String layout;

    @Option(names = {"-u", "--user"}, paramLabel = "OWNER",
        description = "Its owner (default: the volume's owner).")
    String owner;

    @Option(names = "--space-quota", paramLabel = "SIZE",
        description = "Most bytes, with an optional unit B, KB, MB, GB, TB, PB (powers of "
            + "1024); default unlimited.")
    String spaceQuota;

    /** The bucket's default replication config (its keys' unless they name one). */
    @CommandLine.Mixin
    ReplicationOptions replication;

    private final CreateBucketRequest.Builder req = CreateBucketRequest.newBuilder();

    @Override
    void check() {
      super.check();
      req.setVolume(at.volume()).setBucket(at.bucket()).setLayout(layout(cmd(), layout))
          .setOwner(nz(owner));
      if (spaceQuota != null) {
        req.setQuotaInBytes(Sizes.parse(cmd(), "--space-quota", spaceQuota));
      }
      ReplicationConfig config = replication.config(cmd());
      if (config != null) {
        req.setDefaultReplicationConfig(config);
      }
    }

    @Override
    void run() {
      BucketInfo b = om().createBucket(req.build()).getBucket();
      done(ObjectFields.bucket(b), "Created bucket " + at + " (" + b.getLayout() + ", owner "
          + b.getOwner() + (b.hasDefaultReplicationConfig() ? ", default replication "
              + ReplicationText.text(b.getDefaultReplicationConfig()) : "") + ")");
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "Print a bucket: one `field value` line per field, or JSON.")
  static final class Info extends OnBucket {
    @Override
    void run() {
      print(ObjectFields.bucket(om().getBucket(GetBucketRequest.newBuilder()
          .setVolume(at.volume()).setBucket(at.bucket()).build()).getBucket()));
    }
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true,
      description = {"List the buckets of a volume in name order, paging through to the end.",
          "Prints `DATE TIME LAYOUT NAME` (creation time, UTC); --json one object per line. "
              + "NOT_FOUND (exit 1) if the volume is missing."})
  static final class List extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME", description = "The volume.")
    String path;

    @Option(names = {"-p", "--prefix"}, description = "Only names starting with this.")
    String prefix;

    @Option(names = {"-s", "--start"}, paramLabel = "NAME",
        description = "List names after this one (exclusive).")
    String start;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.VOLUME);
    }

    @Override
    void run() {
      String after = nz(start);
      ListBucketsResponse r;
      do {
        r = om().listBuckets(ListBucketsRequest.newBuilder().setVolume(at.volume())
            .setPrefix(nz(prefix)).setStartAfter(after).build());
        for (BucketInfo b : r.getBucketsList()) {
          row(ObjectFields.bucket(b), String.format("%s  %-22s %s",
              LsCommand.TIME.format(Instant.ofEpochMilli(b.getCreationTime())), b.getLayout(),
              b.getBucketName()));
          after = b.getBucketName();
        }
      } while (r.getTruncated() && r.getBucketsCount() > 0);
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true,
      description = {"Change a bucket's owner, quotas or default replication (only those "
          + "given), then print it.",
          "A quota of 0 is unlimited. A new default replication applies to keys created "
              + "afterwards; keys already there keep theirs."})
  static final class Update extends OnBucket {
    @CommandLine.Mixin
    PropertyUpdate update;

    @CommandLine.Mixin
    ReplicationOptions replication;

    private final SetBucketPropertiesRequest.Builder req = SetBucketPropertiesRequest.newBuilder();

    @Override
    void check() {
      super.check();
      req.setVolume(at.volume()).setBucket(at.bucket());
      if (!update.given() && !replication.given()) {
        throw new CommandLine.ParameterException(cmd(), "Nothing to update: give --user, "
            + "--space-quota, --namespace-quota, --type or --replication");
      }
      update.applyGiven(cmd(), req::setOwner, req::setQuotaInBytes, req::setQuotaInNamespace);
      ReplicationConfig config = replication.config(cmd());
      if (config != null) {
        req.setDefaultReplicationConfig(config);
      }
    }

    @Override
    void run() {
      BucketInfo b = om().setBucketProperties(req.build()).getBucket();
      done(ObjectFields.bucket(b), "Updated bucket " + at);
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = "Delete an empty bucket (FAILED_PRECONDITION, exit 1, while it holds keys "
          + "or multipart uploads).")
  static final class Delete extends OnBucket {
    @Override
    void run() {
      om().deleteBucket(DeleteBucketRequest.newBuilder().setVolume(at.volume())
          .setBucket(at.bucket()).build());
      deleted(at, "Deleted bucket " + at);
    }
  }
}
