package io.sediment.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --data DIR}: the data directory of the store a command opens itself (the store is
 * {@code DIR/om}, see {@link StoreDirs}); {@code ./data} when not given. Its key is serve's,
 * {@code serve.data} ({@code SEDIMENT_SERVE_DATA}), so these commands find the store serve uses;
 * with {@code --config} they read it from the same file.
 */
final class DataDirOption {

  @picocli.CommandLine.Mixin
  ConfigOption config = new ConfigOption();

  @Option(names = "--data", paramLabel = "DIR", defaultValue = "./data",
      description = "Data directory of the store (the store is DIR/om; default: ${DEFAULT-VALUE}).")
  Path dir;
}
