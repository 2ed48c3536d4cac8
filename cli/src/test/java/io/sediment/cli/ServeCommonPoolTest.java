package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sediment serve --ha-id} in a JVM of its own that sees two processors, whose common
 * ForkJoinPool would default to a parallelism of 1: the command raises it before anything uses
 * the pool, so the replica does not warn; a JVM told to keep 1 gets the replica's warning.
 */
class ServeCommonPoolTest {

  private static final String WARNING = "common ForkJoinPool has parallelism 1";

  @TempDir
  Path dir;

  @Test
  void theSedimentCommandGivesAReplicaACommonPoolOfTwoOnTwoCores() throws Exception {
    String log = serveOneReplica("a", "-XX:ActiveProcessorCount=2");
    assertFalse(log.contains(WARNING), log);
  }

  @Test
  void aParallelismTheUserSetIsKeptAndWarnedAbout() throws Exception {
    String log = serveOneReplica("b", "-XX:ActiveProcessorCount=2",
        "-Djava.util.concurrent.ForkJoinPool.common.parallelism=1");
    assertTrue(log.contains(WARNING), log);
  }

  /** Starts a one-replica group in a child JVM, stops it once it serves; returns its log. */
  private String serveOneReplica(String name, String... jvmOptions) throws Exception {
    Path data = dir.resolve(name);
    String peers = "om1=127.0.0.1:" + ServeThreads.freePort() + ":" + ServeThreads.freePort();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        Sediment.class.getName(), "serve", "--data", data.toString(), "--port", "0", "--no-recon",
        "--ha-id", "om1", "--peers", peers, "--election-timeout", "300ms"));
    Path err = dir.resolve(name + ".err");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    Path logFile = null;
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8));
      for (String line; (line = out.readLine()) != null; ) {
        if (line.startsWith("  logs: ")) {
          logFile = Path.of(line.substring("  logs: ".length()).trim());
        }
        if (line.startsWith("Replica ")) {
          break;
        }
      }
      assertNotNull(logFile, "serve printed no log file: " + Files.readString(err));
      p.destroy(); // SIGTERM: a graceful stop
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "serve stops on SIGTERM");
    } finally {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    return read(logFile);
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
