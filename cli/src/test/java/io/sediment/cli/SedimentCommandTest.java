package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The sediment command's subcommands, output and exit codes (0 ok, 1 failure, 2 usage). */
class SedimentCommandTest {

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
  void demoWritesDeletesAndListsTheLiveKeysAfterTheDeletedBands() {
    Run r = run("demo", "--data", dir.toString(), "--keys", "1000", "--page-size", "3");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("/vol1/bucket1/key-00000750"), r.out());
    assertTrue(r.out().contains("/vol1/bucket1/key-00000752"), r.out());
    assertTrue(!r.out().contains("key-00000749"), r.out());
    assertTrue(r.out().contains("(1 native seek)"), r.out());
    assertTrue(Files.isDirectory(dir.resolve("demo")));
  }

  @Test
  void demoRunsTwiceOnTheSameDataDirectory() {
    assertEquals(0, run("demo", "--data", dir.toString(), "--keys", "100").code());
    assertEquals(0, run("demo", "--data", dir.toString(), "--keys", "100").code());
  }

  @Test
  void helpExitsZeroAndNamesTheCommands() {
    Run r = run("--help");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("demo"), r.out());
  }

  @Test
  void usageErrorsExitTwo() {
    assertEquals(2, run("demo", "--keys", "-5", "--data", dir.toString()).code());
    assertEquals(2, run("no-such-command").code());
    assertEquals(2, run().code());
  }
}
