package io.sediment.cli;

import io.sediment.proto.om.CreateCheckpointRequest;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code sediment checkpoint DIR}: a consistent copy of a running server's store. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
    description = {"Write a consistent checkpoint of a running server's store into DIR (which must "
        + "not exist; relative to this directory; on the server's machine).",
        "It opens as a store: `sediment recon --db DIR` as it is; `serve --data` and `ldb --data` "
            + "take its parent and need it named om."})
final class CheckpointCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "DIR", description = "New directory for the checkpoint.")
  Path dir;

  @Override
  public Integer call() {
    CreateCheckpointRequest req = CreateCheckpointRequest.newBuilder()
        .setDir(dir.toAbsolutePath().normalize().toString()).build();
    return adminCall(admin -> admin.createCheckpoint(req), r -> spec.commandLine().getOut()
        .printf("Checkpoint written to %s (%d ms)%n", r.getDir(), r.getDurationMillis()));
  }
}
