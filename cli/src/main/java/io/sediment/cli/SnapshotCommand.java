package io.sediment.cli;

import com.google.protobuf.ByteString;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

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
   * What every snapshot subcommand takes: the bucket ({@code VOLUME/BUCKET}, first parameter; a
   * leading and a trailing '/' are ignored) and the server options. {@link #run} parses the
   * bucket, opens a channel, runs the subcommand's calls through {@link #rpc()} and closes it.
   */
  static final class BucketOnServer {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET", description = "The bucket.")
    String path;

    @Mixin
    TargetOptions target;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    String volume;
    String bucket;
    private OmServiceGrpc.OmServiceBlockingStub stub;

    void run(Runnable calls) {
      CommandLine cmd = spec.commandLine();
      String p = path.startsWith("/") ? path.substring(1) : path;
      p = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
      String[] parts = p.split("/", -1);
      if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
        throw new CommandLine.ParameterException(cmd, "expected VOLUME/BUCKET: '" + path + "'");
      }
      volume = parts[0];
      bucket = parts[1];
      target.om(cmd, om -> {
        stub = om;
        calls.run();
      });
    }

    /** The stub, under the command's deadline for its next call; only inside {@link #run}. */
    OmServiceGrpc.OmServiceBlockingStub rpc() {
      return target.deadline(stub);
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Snapshot a bucket; without NAME the server names it s<UTC time>.")
  static final class Create implements Callable<Integer> {
    @Mixin
    BucketOnServer on;

    @Parameters(index = "1", arity = "0..1", paramLabel = "NAME", description = "Snapshot name.")
    String name;

    @Override
    public Integer call() {
      on.run(() -> {
        SnapshotInfo s = on.rpc().createSnapshot(CreateSnapshotRequest.newBuilder()
            .setVolume(on.volume).setBucket(on.bucket).setName(name == null ? "" : name).build())
            .getSnapshot();
        on.out().printf("Created snapshot %s of %s/%s (id %s)%n", s.getName(), on.volume,
            on.bucket, s.getSnapshotId());
      });
      return 0;
    }
  }

  @Command(name = "ls", mixinStandardHelpOptions = true,
      description = {"List the snapshots of a bucket in name order, paging through to the end.",
          "Prints `DATE TIME STATUS NAME` (creation time, UTC); --json one object per line."})
  static final class Ls implements Callable<Integer> {
    @Mixin
    BucketOnServer on;

    @Option(names = "--prefix", description = "Only names starting with this.")
    String prefix = "";

    @Option(names = "--all", description = "Include deleted snapshots.")
    boolean all;

    @Option(names = "--json", description = "One JSON object per snapshot.")
    boolean json;

    @Override
    public Integer call() {
      on.run(() -> {
        PrintWriter out = on.out();
        ByteString token = ByteString.EMPTY;
        ListSnapshotsResponse r;
        do {
          r = on.rpc().listSnapshots(ListSnapshotsRequest.newBuilder()
              .setVolume(on.volume).setBucket(on.bucket).setPrefix(prefix).setIncludeDeleted(all)
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
    @Mixin
    BucketOnServer on;

    @Parameters(index = "1", paramLabel = "NAME", description = "Snapshot name.")
    String name;

    @Override
    public Integer call() {
      on.run(() -> {
        on.rpc().deleteSnapshot(DeleteSnapshotRequest.newBuilder().setVolume(on.volume)
            .setBucket(on.bucket).setName(name).build());
        on.out().printf("Deleted snapshot %s of %s/%s%n", name, on.volume, on.bucket);
      });
      return 0;
    }
  }
}
