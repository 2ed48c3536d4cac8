package io.sediment.cli;

import ch.qos.logback.classic.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code sediment serve} for its own log: the level of Sediment's loggers and the
 * file they go to (rolled over by logback, see {@link ServeLogging}).
 */
final class ServeLogOptions {

  /** The levels --log-level accepts, most verbose first. */
  enum LogLevel { TRACE, DEBUG, INFO, WARN, ERROR, OFF }

  @Option(names = "--log-level", paramLabel = "LEVEL", defaultValue = "INFO",
      description = "Level of Sediment's own loggers, on the console and in the log file: "
          + "TRACE, DEBUG, INFO, WARN, ERROR or OFF (default: ${DEFAULT-VALUE}).")
  LogLevel level;

  @Option(names = "--log-file", paramLabel = "FILE",
      description = "The server log, rolled over daily and at 100 MiB into "
          + "NAME-yyyy-MM-dd.N.log.gz beside it, kept 30 days and 1 GiB in all "
          + "(default: DATA/logs/sediment.log).")
  Path file;

  /** Refuses, as a usage error, a --log-file that names a directory. */
  void validate(CommandLine cmd) {
    if (file != null && Files.isDirectory(file)) {
      throw new CommandLine.ParameterException(cmd, "--log-file names a file, not the "
          + "directory " + file);
    }
  }

  /** The log file: --log-file, or {@code logs/sediment.log} under the data directory. */
  Path file(Path dataDir) {
    return file == null ? StoreDirs.logs(dataDir).resolve("sediment.log")
        : file.toAbsolutePath().normalize();
  }

  /** The logback level of --log-level. */
  Level logbackLevel() {
    return Level.toLevel(level.name());
  }
}
