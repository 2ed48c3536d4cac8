package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/sediment}, run against a stand-in {@code java} that prints what it was given: it
 * caps glibc's malloc arenas at 2 unless the caller chose a value, maps the class-data sharing
 * archive beside the jar when there is one, uses the C1 compiler alone for short commands, and
 * passes the jar, the {@code SEDIMENT_JAVA_OPTS} and the arguments through.
 */
class LauncherScriptTest {

  @TempDir Path dir;

  /** The launcher copied into {@code dir} next to an empty jar, and a fake java on PATH. */
  private Path install() throws IOException {
    Path script = Path.of("..", "bin", "sediment").toAbsolutePath().normalize();
    assertTrue(Files.isRegularFile(script), "run from the cli module: " + script);
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.copy(script, bin.resolve("sediment"), StandardCopyOption.REPLACE_EXISTING);
    Files.createDirectories(dir.resolve("cli/target"));
    Files.createFile(dir.resolve("cli/target/sediment.jar"));
    Path fakeBin = Files.createDirectories(dir.resolve("fake"));
    Path java = fakeBin.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho \"MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX-unset}\"\n"
        + "echo \"args=$*\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return bin.resolve("sediment");
  }

  private List<String> launch(Path script, Map<String, String> env, String... args)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder();
    pb.command().add("bash");
    pb.command().add(script.toString());
    pb.command().addAll(List.of(args));
    pb.environment().remove("MALLOC_ARENA_MAX");
    pb.environment().remove("SEDIMENT_JAVA_OPTS");
    pb.environment().put("PATH", dir.resolve("fake") + ":" + System.getenv("PATH"));
    pb.environment().putAll(env);
    pb.redirectErrorStream(true);
    Process p = pb.start();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    return out.lines().toList();
  }

  @Test
  void theLauncherCapsMallocArenasAtTwoUnlessTheCallerChose() throws Exception {
    Path script = install();
    String jar = dir.resolve("cli/target/sediment.jar").toString();
    assertEquals(List.of("MALLOC_ARENA_MAX=2", "args=-jar " + jar + " serve --port 0"),
        launch(script, Map.of(), "serve", "--port", "0"));
    assertEquals(List.of("MALLOC_ARENA_MAX=8",
            "args=-XX:TieredStopAtLevel=1 -Xmx1g -jar " + jar + " ls"),
        launch(script, Map.of("MALLOC_ARENA_MAX", "8", "SEDIMENT_JAVA_OPTS", "-Xmx1g"), "ls"));
  }

  @Test
  void theLauncherMapsTheArchiveBesideTheJarAndKeepsTheOptimisingCompilerForLongCommands()
      throws Exception {
    Path script = install();
    String jar = dir.resolve("cli/target/sediment.jar").toString();
    String archive = Files.createFile(dir.resolve("cli/target/sediment.jsa")).toString();
    String cds = "-XX:SharedArchiveFile=" + archive + " -Xlog:cds=off -Xlog:cds+dynamic=off";
    for (String longRunning : List.of("serve", "recon", "load", "ldb", "verify", "repair")) {
      assertEquals("args=" + cds + " -jar " + jar + " " + longRunning,
          launch(script, Map.of(), longRunning).get(1));
    }
    for (String quick : List.of("ls", "key", "--version", "help")) {
      assertEquals("args=" + cds + " -XX:TieredStopAtLevel=1 -jar " + jar + " " + quick,
          launch(script, Map.of(), quick).get(1));
    }
    assertEquals("args=" + cds + " -XX:TieredStopAtLevel=1 -jar " + jar,
        launch(script, Map.of()).get(1));
  }
}
