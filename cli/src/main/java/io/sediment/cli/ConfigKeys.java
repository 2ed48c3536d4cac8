package io.sediment.cli;

import java.lang.reflect.Member;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The names a setting has outside the command line: key {@code <section>.<option name without
 * dashes>} in a configuration file, and environment variable {@code SEDIMENT_} plus the key in
 * upper case with dots and dashes as underscores. Settings are the options of {@code serve}
 * (section {@code serve}: {@code serve.tls-cert}, {@code SEDIMENT_SERVE_TLS_CERT}), the options
 * every client command shares ({@link TargetOptions}, {@link ClientTlsOptions}; section
 * {@code client}: {@code client.target}, {@code SEDIMENT_CLIENT_TARGET}) and the data directory of
 * the commands that open a stopped store ({@link DataDirOption}: {@code serve.data}, so they find
 * the store serve uses). {@code --config} is {@code config} ({@code SEDIMENT_CONFIG}). A command's
 * own arguments (what {@code ls} lists, whether {@code rm} recurses) are not settings and have no
 * key, nor have help options and {@code --print-config}. Stateless.
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
    String name = option.longestName().replaceFirst("^-+", "");
    if (option.longestName().equals(ConfigOption.CONFIG)) {
      return name;
    }
    String section = SHARED.get(declaringClass(option));
    if (section == null && CONFIGURED.contains(commandPath(command))) {
      section = commandPath(command);
    }
    return section == null ? null : section + "." + name;
  }

  /** The classes of options shared by many commands, and their section. */
  private static final Map<Class<?>, String> SHARED = Map.of(
      TargetOptions.class, "client",
      ClientTlsOptions.class, "client",
      DataDirOption.class, "serve");

  /** The commands every option of which is a setting. */
  private static final java.util.Set<String> CONFIGURED = java.util.Set.of("serve");

  /** The class that declares {@code option}'s field, or null for an option built otherwise. */
  private static Class<?> declaringClass(OptionSpec option) {
    return option.userObject() instanceof Member m ? m.getDeclaringClass() : null;
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
