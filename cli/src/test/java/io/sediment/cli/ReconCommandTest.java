package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import io.sediment.proto.om.BucketLayout;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sediment recon}: serves over a store another instance owns; bad input exits 1 or 2. */
class ReconCommandTest {

  @TempDir Path dir;

  private record Run(int code, String out, String err) { }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = Sediment.commandLine();
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void servesOnLoopbackOverAStoreAnotherInstanceHoldsOpen() {
    Path db = dir.resolve("om");
    try (OmMetadataStore om = OmMetadataStore.open(db)) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      Run r = run("recon", "--db", db.toString(), "--port", "0", "--duration-seconds", "1",
          "--secondary-dir", dir.resolve("sec").toString());
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().contains("Recon at http://127.0.0.1:"), r.out());
    }
  }

  /**
   * Stopped the documented way (Ctrl-C or SIGTERM), {@code sediment recon} exits 0 and removes the
   * temporary directory of its secondary instance.
   */
  @Test
  void stoppedBySigtermRemovesItsTemporarySecondaryDirectory() throws Exception {
    Path db = dir.resolve("om");
    try (OmMetadataStore om = OmMetadataStore.open(db)) {
      om.createVolume("vol", "o");
    }
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // The logging the jar ships (to stderr), not the test class path's: that path may hold several
    // logback-test.xml files (other modules' test classes), and logback then prints its status
    // on stdout, before recon's first line.
    String logging = Sediment.class.getResource("/logback.xml").toString();
    Process p = new ProcessBuilder(List.of(java, "-Xmx256m", "-Djava.io.tmpdir=" + tmp,
        "-Dlogback.configurationFile=" + logging, "-cp", System.getProperty("java.class.path"),
        Sediment.class.getName(), "recon", "--db", db.toString(), "--port", "0"))
        .redirectError(dir.resolve("recon.err").toFile()).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8));
      String first = out.readLine();
      assertNotNull(first, "recon printed nothing: " + Files.readString(dir.resolve("recon.err")));
      assertTrue(first.startsWith("Recon at "), first);
      try (Stream<Path> s = Files.list(tmp)) {
        assertEquals(1, s.filter(f -> f.getFileName().toString().startsWith("sediment-recon-"))
            .count(), "the secondary's temporary directory while serving");
      }
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "recon stops on SIGTERM");
      assertEquals(0, p.exitValue(), "a graceful stop exits 0");
    } finally {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    try (Stream<Path> s = Files.list(tmp)) {
      assertEquals(List.of(), s.filter(f -> f.getFileName().toString()
          .startsWith("sediment-recon-")).toList(), "removed on exit");
    }
  }

  @Test
  void missingStoreFailsAndBadOptionsAreUsageErrors() {
    Run missing = run("recon", "--db", dir.resolve("nothing").toString(), "--port", "0",
        "--duration-seconds", "1");
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains("nothing"), missing.err());
    assertEquals(2, run("recon", "--db", dir.toString(), "--port", "70000").code());
    assertEquals(2, run("recon").code());
    assertTrue(run("--help").out().contains("recon"));
  }
}
