package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import io.sediment.proto.om.BucketLayout;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
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
