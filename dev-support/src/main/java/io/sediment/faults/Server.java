package io.sediment.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code sediment serve} process on 127.0.0.1 with a port the OS picked ({@code --port 0}),
 * known once it printed where it listens. A serve that exits before listening (a refused store) is
 * kept with its result.
 */
final class Server {

  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");

  private final ChildProcess process;
  private final String target;
  private final ToolResult exitedBeforeListening;

  private Server(ChildProcess process, String target, ToolResult exitedBeforeListening) {
    this.process = process;
    this.target = target;
    this.exitedBeforeListening = exitedBeforeListening;
  }

  /**
   * Starts {@code serve --data DATA --port 0 --no-recon EXTRA...} and waits up to
   * {@code startTimeout} for it to listen. If it exits first, {@link #up} is false and
   * {@link #refusal} says how it ended; if it neither listens nor exits in time, it is killed and
   * the result is marked timed out.
   */
  static Server start(SedimentLauncher launcher, Path workDir, String label, Path data,
      Duration startTimeout, String... extra) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("serve", "--data", data.toString(), "--host",
        "127.0.0.1", "--port", "0", "--no-recon"));
    args.addAll(List.of(extra));
    ChildProcess p = launcher.start(workDir, label, args);
    Matcher m = p.awaitOutput(LISTENING, startTimeout);
    if (m != null) {
      return new Server(p, m.group(1), null);
    }
    ToolResult ended = p.alive() ? p.await(Duration.ZERO) : p.await(Duration.ofSeconds(30));
    return new Server(p, null, ended);
  }

  boolean up() {
    return target != null;
  }

  /** host:port of the gRPC server; null if it never listened. */
  String target() {
    return target;
  }

  /** How a serve that never listened ended; null if it listened. */
  ToolResult refusal() {
    return exitedBeforeListening;
  }

  long pid() {
    return process.pid();
  }

  /**
   * kill -9, and waits until it is gone. Returns null, or what went wrong before: the process had
   * already exited by itself (with its crash diagnosis if it crashed).
   */
  String kill() throws InterruptedException {
    if (!process.alive()) {
      ToolResult r = process.await(Duration.ofSeconds(5));
      return "serve had exited by itself with code " + r.exitCode()
          + (r.crashed() ? " (CRASH: " + r.crash() + ")" : "") + ": " + r.firstMessage();
    }
    process.kill();
    return null;
  }

  /** True while the process runs. */
  boolean alive() {
    return process.alive();
  }

  /** SIGTERM, then waits up to {@code timeout} for the exit (killed after it). */
  ToolResult stop(Duration timeout) throws InterruptedException {
    process.terminate();
    return process.await(timeout);
  }
}
