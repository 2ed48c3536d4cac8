package io.sediment.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RatisFloorTest {

  @Test
  void aKeyCreationIsTwoEntriesAppliedOnEveryServer(@TempDir Path dir) throws Exception {
    assertTrue(RatisFloor.OPEN_KEY.hasOpenKey() && RatisFloor.COMMIT_KEY.hasCommitKey());
    try (RatisFloor floor = RatisFloor.start(dir, "floortest", 3)) {
      for (int i = 0; i < 3; i++) {
        floor.createKey();
      }
      // Every server applies the six entries once (Raft's own entries are not applied).
      long deadline = System.nanoTime() + 10_000_000_000L;
      Map<String, Long> applied = floor.appliedEntries();
      while (applied.values().stream().anyMatch(a -> a < 6) && System.nanoTime() < deadline) {
        Thread.sleep(20);
        applied = floor.appliedEntries();
      }
      assertEquals(Map.of("floortest1", 6L, "floortest2", 6L, "floortest3", 6L), applied);
    }
    for (int i = 1; i <= 3; i++) {
      assertTrue(dir.resolve("floortest" + i).toFile().isDirectory(), "a log dir per server");
    }
  }

  @Test
  void aSnapshotIsTheAppliedPositionSoTheLogBehindItCanBePurged(@TempDir Path dir)
      throws Exception {
    try (RatisFloor floor = RatisFloor.start(dir, "snap", 3)) {
      floor.createKey();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (floor.appliedEntries().values().stream().anyMatch(a -> a < 2)
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      // Nothing is appended now, so each server's applied position stays put.
      for (RatisFloor.AppliedIndexOnly sm : floor.stateMachines().values()) {
        long applied = sm.getLastAppliedTermIndex().getIndex();
        assertEquals(applied, sm.takeSnapshot(), "the snapshot's index is the applied one");
        assertEquals(applied, sm.getStateMachineStorage().getLatestSnapshot().getIndex());
      }
    }
  }
}
