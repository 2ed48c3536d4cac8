package io.sediment.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --config FILE}: a command with it takes the defaults of its options from a properties
 * file (keys as {@link ConfigKeys} derives them); the values come through {@link ConfigDefaults}.
 */
final class ConfigOption {

  /** The option naming the configuration file. */
  static final String CONFIG = "--config";
  /** The option that prints the effective configuration and exits. */
  static final String PRINT_CONFIG = "--print-config";

  @Option(names = CONFIG, paramLabel = "FILE",
      description = "Take option defaults from this properties file (keys such as "
          + "serve.page-cap or client.target; see README \"Configuration file and "
          + "environment\"); else from the file SEDIMENT_CONFIG names. An option on the command "
          + "line wins over its SEDIMENT_* environment variable, which wins over the file.")
  Path file;
}
