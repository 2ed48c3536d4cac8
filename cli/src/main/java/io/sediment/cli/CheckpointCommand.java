package io.sediment.cli;

import io.grpc.ManagedChannel;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.CreateCheckpointRequest;
import io.sediment.proto.om.CreateCheckpointResponse;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code sediment checkpoint DIR}: a consistent copy of a running server's store. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
    description = {"Write a consistent checkpoint of a running server's store into DIR (which must "
        + "not exist; relative to this directory; on the server's machine).",
        "It opens as a store: `sediment recon --db DIR` as it is; `serve --data` and `ldb --data` "
            + "take its parent and need it named om."})
final class CheckpointCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "DIR", description = "New directory for the checkpoint.")
  Path dir;

  @Mixin
  TargetOptions target;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    ManagedChannel channel = target.open(spec.commandLine());
    try {
      CreateCheckpointResponse r = target.deadline(AdminServiceGrpc.newBlockingStub(channel))
          .createCheckpoint(CreateCheckpointRequest.newBuilder()
              .setDir(dir.toAbsolutePath().normalize().toString()).build());
      spec.commandLine().getOut().printf("Checkpoint written to %s (%d ms)%n", r.getDir(),
          r.getDurationMillis());
      spec.commandLine().getOut().flush();
    } finally {
      TargetOptions.close(channel);
    }
    return 0;
  }
}
