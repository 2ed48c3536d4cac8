package io.sediment.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --data DIR}: the data directory of the store a command opens itself (the store is
 * {@code DIR/om}, see {@link StoreDirs}); {@code ./data} when not given.
 */
final class DataDirOption {

  @Option(names = "--data", paramLabel = "DIR", defaultValue = "./data",
      description = "Data directory of the store (the store is DIR/om; default: ${DEFAULT-VALUE}).")
  Path dir;
}
