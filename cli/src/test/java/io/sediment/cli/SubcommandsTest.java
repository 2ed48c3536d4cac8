package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Which commands a run of {@code sediment} registers, and that a run of one behaves as with all. */
class SubcommandsTest {

  @TempDir Path dir;

  @Test
  void aRunRegistersOnlyTheCommandItsFirstArgumentNames() {
    for (String name : List.of("serve", "ls", "volume", "ha", "token", "openkeys")) {
      CommandLine cmd = Sediment.commandLineFor(new String[] {name, "--help"});
      assertEquals(Set.of(name), cmd.getSubcommands().keySet());
    }
  }

  @Test
  void aRunThatNamesNoCommandRegistersEveryCommand() {
    for (String[] args : List.of(new String[] {}, new String[] {"--help"},
        new String[] {"help", "ls"}, new String[] {"lls"}, new String[] {"-V", "ls"})) {
      CommandLine cmd = Sediment.commandLineFor(args);
      assertEquals(Subcommands.ALL.size(), cmd.getSubcommands().size(), String.join(" ", args));
    }
  }

  @Test
  void versionAloneRegistersNoCommandAndPrintsTheVersion() {
    assertTrue(Sediment.commandLineFor(new String[] {"--version"}).getSubcommands().isEmpty());
    SedimentCommandTest.Run r = SedimentCommandTest.run("--version");
    assertEquals(0, r.code());
    assertEquals("sediment 0.1.0-SNAPSHOT", r.out().strip());
  }

  @Test
  void everyCommandIsRegisteredOnceUnderItsAnnotatedName() {
    Set<String> names = new HashSet<>();
    for (Class<?> c : Subcommands.ALL) {
      assertTrue(names.add(Subcommands.name(c)), Subcommands.name(c));
    }
    assertEquals(names, Sediment.commandLine().getSubcommands().keySet());
  }

  @Test
  void aMisspeltCommandStillSuggestsTheRightOne() {
    SedimentCommandTest.Run r = SedimentCommandTest.run("lss");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("ls"), r.err());
  }

  @Test
  void aClientCommandAcceptsAConfigurationFileThatAlsoSetsTheServer() throws Exception {
    // One file configures both sides; a client run registers only its own command.
    Path conf = Files.writeString(dir.resolve("sediment.properties"),
        "serve.page-cap=500\nclient.target=127.0.0.1:1\nclient.timeout=1\n");
    SedimentCommandTest.Run r = SedimentCommandTest.run("ls", "--config", conf.toString());
    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().contains("UNAVAILABLE"), r.err());

    Path typo = Files.writeString(dir.resolve("typo.properties"), "serve.page-cpa=500\n");
    SedimentCommandTest.Run bad = SedimentCommandTest.run("ls", "--config", typo.toString());
    assertEquals(2, bad.code(), bad.err());
    assertTrue(bad.err().contains("did you mean 'serve.page-cap'"), bad.err());
  }
}
