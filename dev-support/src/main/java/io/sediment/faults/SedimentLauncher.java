package io.sediment.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts {@code java -jar sediment.jar ARGS} as a child JVM: its {@code java.io.tmpdir} inside the
 * workspace, its crash log ({@code -XX:ErrorFile}) in its work directory, stdout and stderr to
 * files there, and the process registered with the workspace so nothing outlives the campaign.
 */
final class SedimentLauncher {

  private final Path jar;
  private final Workspace workspace;
  private final List<String> jvmOptions;
  private final AtomicInteger runs = new AtomicInteger();

  SedimentLauncher(Path jar, Workspace workspace, List<String> jvmOptions) {
    this.jar = jar;
    this.workspace = workspace;
    this.jvmOptions = List.copyOf(jvmOptions);
  }

  /** Starts the command; {@code label} names its output files in {@code workDir}. */
  ChildProcess start(Path workDir, String label, List<String> args) throws IOException {
    Files.createDirectories(workDir);
    String name = String.format("%03d-%s", runs.incrementAndGet(), label);
    Path out = workDir.resolve(name + ".out");
    Path err = workDir.resolve(name + ".err");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-Djava.io.tmpdir=" + workspace.tmp());
    cmd.add("-XX:ErrorFile=" + workDir.resolve("hs_err_pid%p.log"));
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).directory(workDir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    workspace.track(p);
    return new ChildProcess(p, List.copyOf(args), workDir, out, err);
  }

  /** Runs the command to its end, at most {@code timeout}. */
  ToolResult run(Path workDir, String label, Duration timeout, String... args)
      throws IOException, InterruptedException {
    return start(workDir, label, List.of(args)).await(timeout);
  }
}
