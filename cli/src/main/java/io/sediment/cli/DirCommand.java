package io.sediment.cli;

import io.sediment.om.insight.ObjectFields;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.FileStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sediment dir create VOLUME/BUCKET/PATH}: a directory of a FILE_SYSTEM_OPTIMIZED bucket
 * on a running server (CreateDirectory, {@code mkdir -p}). It prints in
 * {@link ObjectFields#status}' schema.
 */
@Command(name = "dir", mixinStandardHelpOptions = true,
    description = "Create directories in an FSO bucket of a running server.",
    subcommands = {DirCommand.Create.class})
final class DirCommand implements Callable<Integer> {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: create");
  }

  @Command(name = "create", aliases = "mkdir", mixinStandardHelpOptions = true,
      description = {"Create a directory and its missing parents (as `mkdir -p`; an existing "
          + "directory is not an error), then print it.",
          "FSO buckets only (UNIMPLEMENTED, exit 1, for others); ALREADY_EXISTS if a file is "
              + "at PATH, FAILED_PRECONDITION if an ancestor is a file."})
  static final class Create extends ShellCommand {
    @Parameters(index = "0", paramLabel = "VOLUME/BUCKET/PATH",
        description = "The directory (a leading '/' is ignored).")
    String path;

    private ObjectAddress at;

    @Override
    void check() {
      at = ObjectAddress.parse(cmd(), path, ObjectAddress.Depth.KEY);
    }

    @Override
    void run() {
      FileStatus s = om().createDirectory(CreateDirectoryRequest.newBuilder()
          .setVolume(at.volume()).setBucket(at.bucket()).setPath(at.key()).build()).getStatus();
      done(ObjectFields.status(at.volume(), at.bucket(), s),
          "Created directory " + at.volume() + "/" + at.bucket() + "/" + s.getPath());
    }
  }
}
