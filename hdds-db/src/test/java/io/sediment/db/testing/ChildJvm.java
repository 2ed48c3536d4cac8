package io.sediment.db.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a scenario that could crash the JVM (a use of freed native memory) in a child JVM, so that a
 * crash is a failed assertion with the child's output and {@code hs_err} summary instead of a dead
 * test fork. The child runs with leak detection on, this JVM's class path, and the work directory as
 * its first argument; its {@code main} exits 0 only when every assertion held.
 */
public final class ChildJvm {

  /** What a child run left: its exit code, its output, and the head of its crash report if any. */
  public record Run(int exitCode, String output, String crashReport) {
    /** Exit code, the output's tail and the crash report, for an assertion message. */
    public String describe() {
      return "child JVM exit code " + exitCode + "\n--- output (tail) ---\n" + tail(output, 60)
          + (crashReport.isEmpty() ? "" : "\n--- hs_err (head) ---\n" + crashReport);
    }
  }

  private ChildJvm() {
  }

  /**
   * Runs {@code main} with {@code work} (created if needed; it receives the output and any crash
   * report) and {@code extraArgs} as arguments; fails the test if it does not finish in
   * {@code timeout}.
   */
  public static Run run(Class<?> main, Path work, Duration timeout, String... extraArgs)
      throws Exception {
    Files.createDirectories(work);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
        "-Dsediment.leakDetection=true",
        "-XX:ErrorFile=" + work.resolve("hs_err_pid%p.log"),
        // A child that crashes or is killed leaves rocksdbjni's unpacked library behind: in work.
        "-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("tmp")),
        "-cp", System.getProperty("java.class.path"), main.getName(), work.toString()));
    cmd.addAll(List.of(extraArgs));
    Path log = work.resolve("child-output.txt");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      fail(main.getSimpleName() + " did not finish within " + timeout + ":\n"
          + tail(Files.readString(log), 60));
    }
    StringBuilder crash = new StringBuilder();
    try (var files = Files.list(work)) {
      for (Path f : files.filter(x -> x.getFileName().toString().startsWith("hs_err")).toList()) {
        List<String> lines = Files.readAllLines(f);
        crash.append(String.join("\n", lines.subList(0, Math.min(60, lines.size()))));
      }
    }
    return new Run(p.exitValue(), Files.readString(log), crash.toString());
  }

  /**
   * The body of a child's {@code main}: runs {@code scenario}, prints {@code passMarker} and exits 0,
   * or prints the failure and exits 1.
   */
  public static void main(Scenario scenario, String passMarker) {
    try {
      scenario.run();
      System.out.println(passMarker);
      System.out.flush();
      System.exit(0);
    } catch (Throwable t) {
      t.printStackTrace(System.out);
      System.out.flush();
      System.exit(1);
    }
  }

  /** A child's work. */
  @FunctionalInterface
  public interface Scenario {
    void run() throws Exception;
  }

  private static String tail(String text, int lines) {
    String[] all = text.split("\n");
    return String.join("\n", Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
  }
}
