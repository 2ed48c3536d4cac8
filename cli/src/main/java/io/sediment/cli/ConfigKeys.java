package io.sediment.cli;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The names an option's value has outside the command line, derived from the command and the
 * option's longest name: key {@code <command path>.<name without dashes>} in a configuration file
 * (e.g. {@code serve.tls-cert}, {@code serve.page-cap}; a subcommand's path joins its names with
 * dots) and environment variable {@code SEDIMENT_} plus the key in upper case with dots and
 * dashes as underscores ({@code SEDIMENT_SERVE_TLS_CERT}). Help options and
 * {@code --print-config} have none. Stateless.
 */
final class ConfigKeys {

  /** Prefix of every environment variable that sets an option. */
  static final String ENV_PREFIX = "SEDIMENT_";

  private ConfigKeys() {
  }

  /** The key of {@code option}, or null if no file or environment variable may set it. */
  static String key(OptionSpec option) {
    if (option.usageHelp() || option.versionHelp()
        || option.longestName().equals(ConfigOption.PRINT_CONFIG)) {
      return null;
    }
    CommandSpec command = option.command();
    if (command == null || command.parent() == null) {
      return null;
    }
    return commandPath(command) + "." + option.longestName().replaceFirst("^-+", "");
  }

  /** The environment variable of {@code key}. */
  static String env(String key) {
    return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /**
   * Whether {@code option}'s key may appear in a configuration file: every keyed option but
   * {@code --config} itself (a file cannot name another).
   */
  static boolean inFile(OptionSpec option) {
    return key(option) != null && !option.longestName().equals(ConfigOption.CONFIG);
  }

  /**
   * The keys a configuration file may hold: those of every command under {@code root} that reads
   * one (has {@code --config}), sorted.
   */
  static Map<String, OptionSpec> fileKeys(CommandSpec root) {
    Map<String, OptionSpec> keys = new TreeMap<>();
    collect(root, keys);
    return keys;
  }

  private static void collect(CommandSpec command, Map<String, OptionSpec> keys) {
    if (command.findOption(ConfigOption.CONFIG) != null) {
      for (OptionSpec o : command.options()) {
        if (inFile(o)) {
          keys.put(key(o), o);
        }
      }
    }
    command.subcommands().values().forEach(sub -> collect(sub.getCommandSpec(), keys));
  }

  /** {@code command}'s names below the root, joined with dots ({@code serve}, {@code ha.status}). */
  private static String commandPath(CommandSpec command) {
    String qualified = command.qualifiedName(".");
    String root = command.root().name();
    return qualified.startsWith(root + ".") ? qualified.substring(root.length() + 1) : qualified;
  }
}
