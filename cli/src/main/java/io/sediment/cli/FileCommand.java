package io.sediment.cli;

import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.KeyInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment file create VOLUME/BUCKET/PATH}: a file of a FILE_SYSTEM_OPTIMIZED bucket on a
 * running server (CreateFile then CommitFile), with the content options of {@code key create}
 * ({@link KeyCommand.Content}). It prints in {@link ObjectFields#key}' schema.
 */
@Command(name = "file", mixinStandardHelpOptions = true,
    description = "Create files in an FSO bucket of a running server.",
    subcommands = {FileCommand.Create.class})
final class FileCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: create");
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = {"Create a file (replacing one at PATH; missing parent directories are "
          + "created), then print it.",
          "FSO buckets only (UNIMPLEMENTED, exit 1, for others: use `key create`); "
              + "ALREADY_EXISTS if a directory is at PATH."})
  static final class Create extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET/PATH",
        description = "The file (a leading '/' is ignored).")
    String path;

    @Mixin
    KeyCommand.Content content;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.KEY);
      content.check(cmd());
    }

    @Override
    void run() {
      KeyInfo k = content.createFile(this, at);
      done(ObjectFields.key(k), "Created file " + at.volume() + "/" + at.bucket() + "/"
          + k.getKeyName() + " (" + k.getDataSize() + " bytes, "
          + ReplicationText.text(ReplicationConfigs.of(k)) + ")");
    }
  }
}
