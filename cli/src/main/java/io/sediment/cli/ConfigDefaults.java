package io.sediment.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The default of an option not given on the command line: its environment variable if set, else
 * its key in the command's configuration file ({@code --config}, or the environment variable of
 * that option) if the file has it, else the option's own default. So the precedence is flag &gt;
 * environment &gt; file &gt; default. Keys and variable names are {@link ConfigKeys}'s.
 *
 * <p>A configuration file is a Java properties file (UTF-8). A key no command that reads the file
 * has is a usage error naming the key and the file (a misspelt key is never ignored); an empty
 * value leaves the option at its default. Where each value came from is kept for
 * {@code --print-config} and for error messages ({@link #explain}).
 *
 * <p>One instance serves one command line's parses: not thread-safe.
 */
final class ConfigDefaults implements CommandLine.IDefaultValueProvider {

  /** Where an option's value came from. */
  record Source(Kind kind, String where) {
    /** The kinds of source, in the order of precedence. */
    enum Kind { FLAG, ENV, FILE, DEFAULT }

    static final Source FLAG = new Source(Kind.FLAG, null);
    static final Source DEFAULT = new Source(Kind.DEFAULT, null);

    /** {@code flag}, {@code env NAME}, {@code file PATH} or {@code default}. */
    @Override
    public String toString() {
      return kind.name().toLowerCase(java.util.Locale.ROOT) + (where == null ? "" : " " + where);
    }
  }

  private static final Pattern OPTION_NAME = Pattern.compile("--[a-z][a-z0-9-]*");

  private final Map<String, String> env;
  /** Each file read, by absolute path; read once per instance. */
  private final Map<Path, Map<String, String>> files = new HashMap<>();
  /** The source of every value this provider supplied, by option. */
  private final Map<ArgSpec, Source> supplied = new IdentityHashMap<>();

  /** A provider reading {@code env} (the process's environment, or a test's map). */
  ConfigDefaults(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option)) {
      return null;
    }
    String key = ConfigKeys.key(option);
    if (key == null || helpRequested(option.command())) {
      // Help and the version need no values: a file that would be refused must not stop them.
      return null;
    }
    supplied.remove(arg);
    String var = ConfigKeys.env(key);
    String fromEnv = env.get(var);
    if (fromEnv != null && !fromEnv.isBlank()) {
      supplied.put(arg, new Source(Source.Kind.ENV, var));
      return fromEnv.trim();
    }
    if (!ConfigKeys.inFile(option)) {
      return null;
    }
    Path file = configFile(option.command());
    if (file == null) {
      return null;
    }
    String fromFile = read(option.command(), file).get(key);
    if (fromFile == null || fromFile.isEmpty()) {
      return null;
    }
    supplied.put(arg, new Source(Source.Kind.FILE, file.toString()));
    return fromFile;
  }

  /** Whether {@code --help} or {@code --version} was given to {@code command}. */
  private static boolean helpRequested(CommandSpec command) {
    for (OptionSpec o : command.options()) {
      if ((o.usageHelp() || o.versionHelp()) && Boolean.TRUE.equals(o.getValue())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where {@code option}'s current value came from, after {@code parseResult} (the parse of its
   * command): the command line, an environment variable, a file or its default.
   */
  Source sourceOf(OptionSpec option, CommandLine.ParseResult parseResult) {
    if (parseResult != null && parseResult.hasMatchedOption(option)) {
      return Source.FLAG;
    }
    return supplied.getOrDefault(option, Source.DEFAULT);
  }

  /**
   * {@code e} with the source of every value it concerns that did not come from the command line
   * added to its message (the option it names, or options named in its text), so an operator can
   * find a bad value in the environment or a file; {@code e} itself when there is none.
   */
  CommandLine.ParameterException explain(CommandLine.ParameterException e) {
    CommandSpec command = e.getCommandLine().getCommandSpec();
    Map<OptionSpec, Source> concerned = new LinkedHashMap<>();
    if (e.getArgSpec() instanceof OptionSpec o && supplied.containsKey(o)) {
      concerned.put(o, supplied.get(o));
    }
    Matcher m = OPTION_NAME.matcher(String.valueOf(e.getMessage()));
    while (m.find()) {
      OptionSpec o = command.findOption(m.group());
      if (o != null && supplied.containsKey(o)
          && !command.commandLine().getParseResult().hasMatchedOption(o)) {
        concerned.putIfAbsent(o, supplied.get(o));
      }
    }
    if (concerned.isEmpty()) {
      return e;
    }
    StringBuilder why = new StringBuilder(e.getMessage());
    for (Map.Entry<OptionSpec, Source> c : concerned.entrySet()) {
      Source s = c.getValue();
      why.append(s.kind() == Source.Kind.ENV
          ? " [" + c.getKey().longestName() + " is set by the environment variable " + s.where()
              + "]"
          : " [" + c.getKey().longestName() + " is set by key " + ConfigKeys.key(c.getKey())
              + " in " + s.where() + "]");
    }
    return e.getArgSpec() == null
        ? new CommandLine.ParameterException(e.getCommandLine(), why.toString(), e)
        : new CommandLine.ParameterException(e.getCommandLine(), why.toString(), e,
            e.getArgSpec(), e.getValue());
  }

  /**
   * The configuration file of {@code command}: its --config if given on the command line, else
   * the one {@code SEDIMENT_CONFIG} names, else none.
   */
  private Path configFile(CommandSpec command) {
    OptionSpec config = command.findOption(ConfigOption.CONFIG);
    if (config == null) {
      return null;
    }
    Path given = config.getValue();
    if (given == null) {
      String fromEnv = env.get(ConfigKeys.env(ConfigKeys.key(config)));
      given = fromEnv == null || fromEnv.isBlank() ? null : Path.of(fromEnv.trim());
    }
    return given == null ? null : given.toAbsolutePath().normalize();
  }

  /**
   * The keys and values of {@code file}, read once.
   *
   * @throws CommandLine.ParameterException if it cannot be read, or holds a key no command that
   *     reads a file has
   */
  private Map<String, String> read(CommandSpec command, Path file) {
    Map<String, String> values = files.get(file);
    if (values != null) {
      return values;
    }
    CommandLine cmd = command.commandLine();
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException | IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, "Cannot read the configuration file "
          + file + ": " + e);
    }
    Map<String, OptionSpec> known = ConfigKeys.fileKeys(everyCommand(command.root()));
    values = new HashMap<>();
    for (String key : new TreeSet<>(p.stringPropertyNames())) {
      if (!known.containsKey(key)) {
        throw new CommandLine.ParameterException(cmd, "Unknown key '" + key + "' in the "
            + "configuration file " + file + suggestion(key, known.keySet()));
      }
      values.put(key, p.getProperty(key).trim());
    }
    files.put(file, values);
    return values;
  }

  /**
   * {@code root}, or a root with every command when {@code root} has only the one a run needs
   * ({@link Subcommands#named}): a file may hold the settings of every command.
   */
  private static CommandSpec everyCommand(CommandSpec root) {
    return root.subcommands().size() == Subcommands.ALL.size() ? root
        : Sediment.commandLine(Map.of()).getCommandSpec();
  }

  /** A hint naming the known key closest to a misspelt one, or nothing. */
  private static String suggestion(String key, Set<String> known) {
    if (key.equals("config") || key.endsWith(".config")) {
      return " (a configuration file cannot name another: pass --config on the command line)";
    }
    String best = null;
    int bestDistance = 4;
    for (String k : known) {
      int d = distance(key, k);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return best == null ? " (see README \"Configuration file and environment\" for the keys)"
        : " (did you mean '" + best + "'?)";
  }

  /** Levenshtein distance of two short strings. */
  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
