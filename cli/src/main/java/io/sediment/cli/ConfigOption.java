package io.sediment.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --config FILE} and {@code --print-config}: a command with them takes the defaults of its
 * options from a properties file (keys as {@link ConfigKeys} derives them) and can print what it
 * would run with. The values themselves come through {@link ConfigDefaults}.
 */
final class ConfigOption {

  /** The option naming the configuration file. */
  static final String CONFIG = "--config";
  /** The option that prints the effective configuration and exits. */
  static final String PRINT_CONFIG = "--print-config";

  @Option(names = CONFIG, paramLabel = "FILE",
      description = "Take option defaults from this properties file (keys like serve.page-cap; "
          + "see README \"Configuration file and environment\"); an option on the command line "
          + "wins over a SEDIMENT_* environment variable, which wins over the file.")
  Path file;

  @Option(names = PRINT_CONFIG,
      description = "Print every option's effective value and where it came from (flag, env "
          + "VAR, file PATH, default) as tab-separated lines, then exit without starting "
          + "anything.")
  boolean print;
}
