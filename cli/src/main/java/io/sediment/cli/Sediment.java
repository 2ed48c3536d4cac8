package io.sediment.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.ha.CommonPoolParallelism;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The {@code sediment} command. Exit codes: 0 success, 1 failure, 2 usage error.
 */
@Command(name = "sediment", mixinStandardHelpOptions = true, version = "sediment 0.1.0-SNAPSHOT",
    description = "A tombstone-aware metadata store over RocksDB.",
    footer = {"", "Exit codes: 0 success, 1 failure, 2 usage error."})
public final class Sediment implements Runnable {

  /** Exit code of a command that failed. */
  public static final int EXIT_FAILURE = 1;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing a command");
  }

  /**
   * A command line with Sediment's exit-code mapping (failures are 1, usage errors 2) whose
   * options not given take their defaults from {@code SEDIMENT_*} environment variables and
   * configuration files ({@link ConfigDefaults}) over the process's environment.
   */
  public static CommandLine commandLine() {
    return commandLine(System.getenv(), CommandLine.defaultFactory());
  }

  /**
   * {@link #commandLine()} for running {@code args}: when its first argument names a command,
   * only that command is registered (see {@link Subcommands#named}), so that a run builds the
   * option model of one command instead of all of them.
   */
  static CommandLine commandLineFor(String[] args) {
    return commandLine(System.getenv(), CommandLine.defaultFactory(), Subcommands.named(args));
  }

  /** {@link #commandLine()} over the environment {@code env} instead of the process's. */
  static CommandLine commandLine(Map<String, String> env) {
    return commandLine(env, CommandLine.defaultFactory());
  }

  /** {@link #commandLine()} whose commands {@code factory} makes. */
  static CommandLine commandLine(CommandLine.IFactory factory) {
    return commandLine(System.getenv(), factory);
  }

  /**
   * {@link #commandLine()} over the environment {@code env} instead of the process's, whose
   * commands {@code factory} makes (tests hand a command its terminal this way).
   */
  static CommandLine commandLine(Map<String, String> env, CommandLine.IFactory factory) {
    return commandLine(env, factory, Subcommands.ALL);
  }

  private static CommandLine commandLine(Map<String, String> env, CommandLine.IFactory factory,
      List<Class<?>> subcommands) {
    CommandLine cmd = new CommandLine(new Sediment(), factory);
    for (Class<?> sub : subcommands) {
      cmd.addSubcommand(Subcommands.name(sub), new CommandLine(sub, factory));
    }
    cmd.setExecutionExceptionHandler((e, c, parseResult) -> {
      c.getErr().println("error: " + describe(e));
      c.getErr().flush();
      return EXIT_FAILURE;
    });
    String[] version = cmd.getCommandSpec().version();
    cmd.getSubcommands().values().forEach(sub -> sub.getCommandSpec().version(version));
    ConfigDefaults defaults = new ConfigDefaults(env);
    // Set last: it reaches every subcommand registered by now, i.e. all of them.
    cmd.setDefaultValueProvider(defaults);
    CommandLine.IParameterExceptionHandler usage = cmd.getParameterExceptionHandler();
    cmd.setParameterExceptionHandler((e, args) ->
        usage.handleParseException(defaults.explain(e), args));
    return cmd;
  }

  /** One line for an operator: what failed and, where we can tell, what to do. */
  static String describe(Throwable e) {
    if (e instanceof StatusRuntimeException s) {
      Status st = s.getStatus();
      String text = st.getCode() + (st.getDescription() == null ? "" : ": " + st.getDescription());
      if (st.getCode() == Status.Code.UNAVAILABLE) {
        String tls = tlsFailure(s);
        if (tls != null) {
          return text + " (TLS handshake failed: " + tls + "; does --tls-ca name the CA that "
              + "signed the server's certificate, and is it valid? A server started with "
              + "--tls-ca also needs --tls-cert and --tls-key)";
        }
        return text + " (is `sediment serve` running at the --target address? If it serves "
            + "TLS, call it with --tls-ca)";
      }
      if (st.getCode() == Status.Code.UNAUTHENTICATED) {
        return text + " (the server authenticates its callers: pass --token-file FILE or set "
            + "SEDIMENT_TOKEN, or a client certificate with --tls-cert and --tls-key)";
      }
      if (st.getCode() == Status.Code.PERMISSION_DENIED) {
        return text + " (the caller authenticated but lacks that right: `sediment acl get "
            + "/VOLUME[/BUCKET[/KEY]]` shows who may do what, and its owner or an administrator "
            + "can grant it with `sediment acl add`)";
      }
      if (st.getCode() == Status.Code.DEADLINE_EXCEEDED) {
        return text + " (raise --timeout?)";
      }
      return text;
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  /** The message of the TLS failure behind {@code e}, or null if it is not one. */
  private static String tlsFailure(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof javax.net.ssl.SSLException) {
        return c.getMessage();
      }
    }
    return null;
  }

  public static void main(String[] args) {
    // Before anything uses the common pool, which reads its parallelism once.
    CommonPoolParallelism.ensure();
    System.exit(commandLineFor(args).execute(args));
  }
}
