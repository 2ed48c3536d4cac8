package io.sediment.cli;

import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sediment load}: writes a synthetic namespace through gRPC (to a running server, or to a
 * store opened here behind a loopback server of its own): volumes, OBS buckets with committed keys
 * in a directory-like tree, keys left open, FSO buckets each holding a deep tree of directories
 * and files ({@link FsoTreeShape}), multipart uploads in each OBS bucket (completed, aborted, or
 * left in progress, in turn), a snapshot of each OBS bucket; then deletes a contiguous band of
 * each OBS bucket's keys, which leaves a tombstone band in keyTable (the snapshot still holds the
 * band), and recursively deletes some subtrees of each FSO tree, which the directory purge
 * removes later. Re-running it overwrites the same keys and files, recreates and deletes again the
 * same subtrees, starts new uploads and keeps the existing snapshots.
 *
 * <p>This class picks where the load goes ({@code --target} or {@code --data}); what it writes
 * is the {@link LoadPlan}, and {@link NamespaceLoader} writes it.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = {"Write a synthetic namespace (volumes, buckets, keys, open keys, FSO trees of "
        + "directories and files, multipart uploads completed, aborted and in progress, a snapshot "
        + "of each OBS bucket), then delete a band of keys in each OBS bucket, leaving tombstones, "
        + "and some subtrees of each FSO tree recursively, leaving work for the directory purge.",
        "Talks to a running server (--target, the default) or opens a stopped store (--data)."})
final class LoadCommand implements Callable<Integer> {

  @Mixin
  TargetOptions target;

  @Option(names = "--data", paramLabel = "DIR",
      description = "Instead of --target: load directly into the store under DIR (must not be "
          + "served).")
  Path data;

  @Mixin
  LoadPlan plan;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    CommandLine cmd = spec.commandLine();
    if (data != null && cmd.getParseResult().hasMatchedOption("--target")) {
      throw new CommandLine.ParameterException(cmd,
          "--target and --data are mutually exclusive (specify only one)");
    }
    plan.validate(cmd);
    target.checkTimeout(cmd);
    if (data == null) {
      // Given every replica of a group, each call follows the leader, also across a failover.
      target.om(cmd, stub -> {
        try {
          load(stub);
        } catch (RuntimeException e) {
          throw e;
        } catch (Exception e) {
          if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
          }
          throw new CliFailure("The load stopped: " + e, e);
        }
      });
      return 0;
    }
    try (OmMetadataStore store = StoreDirs.open(data,
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE))) {
      OmGrpcServer local = OmGrpcServer.builder(store).port(0).build();
      try {
        local.start();
      } catch (IOException e) {
        throw new CliFailure("Cannot start the loader's loopback server: " + e.getMessage(), e);
      }
      ManagedChannel channel = TargetOptions.channelTo(cmd, local.target(),
          InsecureChannelCredentials.create());
      try {
        load(OmServiceGrpc.newBlockingStub(channel));
      } finally {
        TargetOptions.close(channel);
        local.shutdown(OmGrpcServer.DEFAULT_DRAIN_TIMEOUT);
        store.dbStore().syncWal();
      }
    }
    return 0;
  }

  /** Loads the plan through {@code stub}, each call with the command's deadline. */
  private void load(OmServiceGrpc.OmServiceBlockingStub stub) throws Exception {
    ProgressBar progress = new ProgressBar(spec.commandLine().getErr(), plan.totalSteps(),
        !plan.noProgress);
    new NamespaceLoader(plan, () -> target.deadline(stub), progress)
        .load(spec.commandLine().getOut());
  }
}
