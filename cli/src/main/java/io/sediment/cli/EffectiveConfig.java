package io.sediment.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --print-config}: one line per keyed option of a parsed command, in declaration order,
 * {@code KEY<TAB>VALUE<TAB>SOURCE}, after a header line starting with {@code #}. VALUE is as an
 * option takes it (durations as {@code 90s}, sizes as {@code 256MiB}, lists comma-separated, a
 * path as given) and empty when unset; SOURCE is {@code flag}, {@code env VAR},
 * {@code file PATH} or {@code default}. A secret (an interactive option) is printed as
 * {@code (hidden)}; files holding secrets are printed by path only, never read.
 */
final class EffectiveConfig {

  private EffectiveConfig() {
  }

  /** Prints the effective configuration of {@code command}, which has just been parsed. */
  static void print(CommandSpec command, PrintWriter out) {
    CommandLine.ParseResult parsed = command.commandLine().getParseResult();
    ConfigDefaults defaults = command.defaultValueProvider() instanceof ConfigDefaults d ? d
        : new ConfigDefaults(java.util.Map.of());
    out.println("# key\tvalue\tsource (flag, env VAR, file PATH, default)");
    for (OptionSpec o : command.options()) {
      String key = ConfigKeys.key(o);
      if (key == null) {
        continue;
      }
      out.println(key + "\t" + value(o) + "\t" + defaults.sourceOf(o, parsed));
    }
  }

  /** {@code option}'s current value as a configuration file would spell it. */
  static String value(OptionSpec option) {
    if (option.interactive()) {
      return "(hidden)";
    }
    Object v = option.getValue();
    if (v == null) {
      return "";
    }
    if (v instanceof Duration d) {
      return Durations.format(d);
    }
    if (v instanceof Long n && option.converters().length > 0
        && option.converters()[0] instanceof Sizes) {
      return Sizes.format(n);
    }
    if (v instanceof Collection<?> c) {
      return c.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
    return String.valueOf(v);
  }
}
