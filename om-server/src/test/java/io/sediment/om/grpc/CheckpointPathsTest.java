package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoint paths the file system cannot hold are found before RocksDB is asked to write. */
class CheckpointPathsTest {

  @TempDir Path dir;

  @Test
  void aPathOfFiveThousandCharactersOrALongNameIsTooLong() {
    assertNotNull(CheckpointPaths.tooLong(Path.of("/" + "c".repeat(5000))));
    assertNotNull(CheckpointPaths.tooLong(dir.resolve("n".repeat(300))));
    assertNotNull(CheckpointPaths.tooLong(Path.of("/a/" + "é".repeat(130))), "bytes, not chars");
    assertNull(CheckpointPaths.tooLong(dir.resolve("n".repeat(200))));
  }

  @Test
  void aDirectoryThatCannotBeCreatedIsFoundOutAndAUsableOneIsLeftAbsent() {
    Path ok = dir.resolve("cp");
    assertNull(CheckpointPaths.cannotCreate(ok));
    assertTrue(Files.notExists(ok), "the probe removes what it created");
    if (Files.isDirectory(Path.of("/proc/self"))) {
      String why = CheckpointPaths.cannotCreate(Path.of("/proc/x"));
      assertNotNull(why);
    }
  }
}
