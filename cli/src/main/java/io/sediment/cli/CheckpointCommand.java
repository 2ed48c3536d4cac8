package io.sediment.cli;

import io.sediment.proto.om.CreateCheckpointRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sediment checkpoint DIR}: a consistent copy of a running server's store. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
    description = {"Write a consistent checkpoint of a running server's store into DIR, a new "
        + "directory under the server's checkpoint root (serve --checkpoint-root, default "
        + "DATA/checkpoints, on the server's machine). A relative DIR is taken relative to the "
        + "root; an absolute one must lie inside it; anything else is refused. The checkpoint is "
        + "readable by the server's user only.",
        "It opens as a store: `sediment recon --db DIR` as it is; `serve --data` and `ldb --data` "
            + "take its parent and need it named om."})
final class CheckpointCommand extends ClientCommand {

  @Parameters(index = "0", paramLabel = "DIR", description = "New directory for the checkpoint, "
      + "relative to the server's checkpoint root (or absolute, inside it).")
  String dir;

  @Override
  public Integer call() {
    // Sent as given: the server resolves it against its own root, not this directory.
    CreateCheckpointRequest req = CreateCheckpointRequest.newBuilder().setDir(dir).build();
    return adminCall(admin -> admin.createCheckpoint(req), r -> spec.commandLine().getOut()
        .printf("Checkpoint written to %s (%d ms)%n", r.getDir(), r.getDurationMillis()));
  }
}
