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
  /** Logged by the store as it opens (before RocksDB's recovery ends). */
  private static final Pattern OPENING = Pattern.compile("Store om: ");

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
    ChildProcess p = launcher.start(workDir, label, args(data, extra));
    Matcher m = p.awaitOutput(LISTENING, startTimeout);
    if (m != null) {
      return new Server(p, m.group(1), null);
    }
    ToolResult ended = p.alive() ? p.await(Duration.ZERO) : p.await(Duration.ofSeconds(30));
    return new Server(p, null, ended);
  }

  /**
   * How a kill while opening went.
   *
   * @param problem null, or what went wrong: serve never began to open, or exited by itself
   * @param beforeListening the kill came before serve listened (while RocksDB recovered the log or
   *     the namespace was being set up)
   */
  record OpeningKill(String problem, boolean beforeListening) {
  }

  /**
   * Starts serve and kills it with SIGKILL {@code delayMillis} after it logged that the store is
   * opening (RocksDB then replays the log, flushes it and writes a new MANIFEST), or as soon as it
   * listens if that comes first.
   */
  static OpeningKill killWhileOpening(SedimentLauncher launcher, Path workDir, Path data,
      Duration startTimeout, long delayMillis) throws IOException, InterruptedException {
    ChildProcess p = launcher.start(workDir, "serve-killed-opening", args(data));
    Matcher opening = p.awaitLog(OPENING, startTimeout);
    if (opening == null && p.alive()) {
      p.kill();
      return new OpeningKill("serve did not begin to open the store within "
          + startTimeout.toSeconds() + " s", false);
    }
    long deadline = System.nanoTime() + delayMillis * 1_000_000;
    boolean listening = false;
    while (System.nanoTime() < deadline && p.alive() && !listening) {
      listening = LISTENING.matcher(p.stdout()).find();
      Thread.sleep(2);
    }
    if (!p.alive()) {
      ToolResult r = p.await(Duration.ofSeconds(5));
      return new OpeningKill("serve exited by itself while opening, code " + r.exitCode()
          + (r.crashed() ? " (CRASH: " + r.crash() + ")" : "") + ": " + r.firstMessage(), false);
    }
    p.kill();
    return new OpeningKill(null, !listening && !LISTENING.matcher(p.stdout()).find());
  }

  private static List<String> args(Path data, String... extra) {
    List<String> args = new ArrayList<>(List.of("serve", "--data", data.toString(), "--host",
        "127.0.0.1", "--port", "0", "--no-recon"));
    args.addAll(List.of(extra));
    return args;
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
