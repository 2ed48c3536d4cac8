package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.DeleteSnapshotRequest;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListSnapshotsResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sediment snapshot create|ls|rm VOLUME/BUCKET ...}: the bucket snapshots of a running
 * server (CreateSnapshot, ListSnapshots paged to the end, DeleteSnapshot). A snapshot is a
 * checkpoint of the store taken for one bucket; {@code ls} prints
 * {@code DATE TIME STATUS NAME} in UTC, or one JSON object per line.
 */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
    description = "Create, list or delete the snapshots of a bucket on a running server.",
    subcommands = {SnapshotCommand.Create.class, SnapshotCommand.Ls.class,
        SnapshotCommand.Rm.class})
final class SnapshotCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing subcommand: create, ls or rm");
  }

  /**
   * Parses {@code VOLUME/BUCKET} (a leading and a trailing '/' are ignored), opens a channel to the target, runs
   * {@code body} with a stub and the parsed names, and closes the channel.
   */
  static void onBucket(CommandLine cmd, TargetOptions target, String path,
      BiConsumer<OmServiceGrpc.OmServiceBlockingStub, String[]> body) {
    String p = path.startsWith("/") ? path.substring(1) : path;
    p = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    String[] parts = p.split("/", -1);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new CommandLine.ParameterException(cmd, "expected VOLUME/BUCKET: '" + path + "'");
    }
    ManagedChannel channel = target.open(cmd);
    try {
      body.accept(OmServiceGrpc.newBlockingStub(channel), parts);
    } finally {
      TargetOptions.close(channel);
    }
    cmd.getOut().flush();
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Snapshot a bucket; without NAME the server names it s<UTC time>.")
  static final class Create implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String bucket;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "Snapshot name.")
    String name;

    @Mixin
    TargetOptions target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      CommandLine cmd = spec.commandLine();
      onBucket(cmd, target, bucket, (stub, vb) -> {
        SnapshotInfo s = target.deadline(stub).createSnapshot(CreateSnapshotRequest.newBuilder()
            .setVolume(vb[0]).setBucket(vb[1]).setName(name == null ? "" : name).build())
            .getSnapshot();
        cmd.getOut().printf("Created snapshot %s of %s/%s (id %s)%n", s.getName(), vb[0], vb[1],
            s.getSnapshotId());
      });
      return 0;
    }
  }

  @Command(name = "ls", mixinStandardHelpOptions = true,
      description = {"List the snapshots of a bucket in name order, paging through to the end.",
          "Prints `DATE TIME STATUS NAME` (creation time, UTC); --json one object per line."})
  static final class Ls implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String bucket;

    @Option(names = "--prefix", description = "Only names starting with this.")
    String prefix = "";

    @Option(names = "--all", description = "Include deleted snapshots.")
    boolean all;

    @Option(names = "--json", description = "One JSON object per snapshot.")
    boolean json;

    @Mixin
    TargetOptions target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      CommandLine cmd = spec.commandLine();
      PrintWriter out = cmd.getOut();
      onBucket(cmd, target, bucket, (stub, vb) -> {
        ByteString token = ByteString.EMPTY;
        ListSnapshotsResponse r;
        do {
          r = target.deadline(stub).listSnapshots(ListSnapshotsRequest.newBuilder()
              .setVolume(vb[0]).setBucket(vb[1]).setPrefix(prefix).setIncludeDeleted(all)
              .setPageToken(token).build());
          for (SnapshotInfo s : r.getSnapshotsList()) {
            if (json) {
              out.println(Json.of(s));
            } else {
              out.printf("%s %-7s %s%n",
                  LsCommand.TIME.format(Instant.ofEpochMilli(s.getCreationTime())),
                  s.getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE ? "ACTIVE" : "DELETED",
                  s.getName());
            }
          }
          token = r.getNextPageToken();
        } while (r.getTruncated());
      });
      return 0;
    }
  }

  @Command(name = "rm", mixinStandardHelpOptions = true,
      description = "Delete a snapshot of a bucket (its name may then be reused).")
  static final class Rm implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String bucket;

    @Parameters(index = "1", paramLabel = "NAME", description = "Snapshot name.")
    String name;

    @Mixin
    TargetOptions target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      CommandLine cmd = spec.commandLine();
      onBucket(cmd, target, bucket, (stub, vb) -> {
        target.deadline(stub).deleteSnapshot(DeleteSnapshotRequest.newBuilder().setVolume(vb[0])
            .setBucket(vb[1]).setName(name).build());
        cmd.getOut().printf("Deleted snapshot %s of %s/%s%n", name, vb[0], vb[1]);
      });
      return 0;
    }
  }
}
