package io.sediment.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sediment} command. Exit codes: 0 success, 1 failure, 2 usage error.
 */
@Command(name = "sediment", mixinStandardHelpOptions = true, version = "sediment 0.1.0-SNAPSHOT",
    description = "A tombstone-aware metadata store over RocksDB.",
    subcommands = {DemoCommand.class, ReconCommand.class, CommandLine.HelpCommand.class})
public final class Sediment implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command");
  }

  /** A command line with Sediment's exit-code mapping: failures are 1, usage errors 2. */
  public static CommandLine commandLine() {
    return new CommandLine(new Sediment())
        .setExecutionExceptionHandler((e, cmd, parseResult) -> {
          cmd.getErr().println("error: " + e.getMessage());
          return 1;
        });
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
