package io.sediment.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code sediment} command running in its own JVM, its stdout and stderr going to files in its
 * work directory (which is also where the JVM writes an {@code hs_err_pid*.log} if it crashes).
 * Signals are sent through {@link Process#destroy} (SIGTERM) and {@link Process#destroyForcibly}
 * (SIGKILL); the exit code those produce is not counted as a crash. Not thread safe except
 * {@link #alive} and {@link #pid}.
 */
final class ChildProcess {

  private static final int SIGKILL = 9;
  private static final int SIGTERM = 15;

  private final Process process;
  private final List<String> args;
  private final Path workDir;
  private final Path out;
  private final Path err;
  private final long started = System.nanoTime();
  private int signalSent;

  ChildProcess(Process process, List<String> args, Path workDir, Path out, Path err) {
    this.process = process;
    this.args = args;
    this.workDir = workDir;
    this.out = out;
    this.err = err;
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  Path workDir() {
    return workDir;
  }

  String stdout() {
    return read(out);
  }

  String stderr() {
    return read(err);
  }

  /**
   * Waits until stdout has a line matching {@code regex} and returns its match, or null if the
   * process exited first or {@code timeout} passed.
   */
  Matcher awaitOutput(Pattern regex, Duration timeout) throws InterruptedException {
    return await(regex, timeout, false);
  }

  /** As {@link #awaitOutput}, for stderr (where serve logs). */
  Matcher awaitLog(Pattern regex, Duration timeout) throws InterruptedException {
    return await(regex, timeout, true);
  }

  private Matcher await(Pattern regex, Duration timeout, boolean log) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Matcher m = regex.matcher(log ? stderr() : stdout());
      if (m.find()) {
        return m;
      }
      if (!process.isAlive() || System.nanoTime() > deadline) {
        // one more look: the line may have been written just before the exit
        m = regex.matcher(log ? stderr() : stdout());
        return m.find() ? m : null;
      }
      Thread.sleep(20);
    }
  }

  /** SIGKILL, then waits for the process to be gone. */
  void kill() throws InterruptedException {
    signalSent = SIGKILL;
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  /** Sends SIGTERM (the process decides what to do with it). */
  void terminate() {
    signalSent = SIGTERM;
    process.destroy();
  }

  /**
   * Waits up to {@code timeout} for the process to exit; if it does not, kills it and the result
   * says it timed out.
   */
  ToolResult await(Duration timeout) throws InterruptedException {
    boolean timedOut = !process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (timedOut) {
      kill();
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    int code = timedOut ? -1 : process.exitValue();
    return new ToolResult(args, code, stdout(), stderr(), crash(code, timedOut), timedOut, millis);
  }

  private String crash(int code, boolean timedOut) {
    Path hsErr = workDir.resolve("hs_err_pid" + process.pid() + ".log");
    if (Files.exists(hsErr)) {
      return "JVM crash log " + hsErr.getFileName();
    }
    if (!timedOut && code >= 128 && code - 128 != signalSent) {
      return "killed by signal " + (code - 128);
    }
    return null;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return "";
    } catch (IOException e) {
      // a partial UTF-8 sequence while the child is still writing: read as bytes
      try {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
      } catch (IOException again) {
        return "";
      }
    }
  }
}
