package io.sediment.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the corruption matrix calls correct, silent, partial or a crash. */
class MatrixJudgeTest {

  private static final Map<String, String> FILES = Map.of("000010.sst", "h1", "CURRENT", "h2");
  private static final List<String> INTACT = List.of("obs-000/a", "obs-000/b",
      "wal-000/" + PristineStore.MARKER_KEY);

  private static ToolResult exit(int code, String out, String err) {
    return new ToolResult(List.of(), code, out, err, null, false, 1);
  }

  private static Row judge(Damage damage, String file, MatrixTool tool, ToolProbe.Observation obs,
      Map<String, String> after) {
    return MatrixJudge.judge(damage, new Damage.Done("how", file), tool, obs, INTACT, FILES,
        after);
  }

  private static ToolProbe.Observation opened(List<String> view) {
    return new ToolProbe.Observation(exit(0, "", ""), true, view, null, 0);
  }

  private static ToolProbe.Observation refused(String err) {
    return new ToolProbe.Observation(exit(1, "", err), false, null, null, 0);
  }

  @Test
  void aRefusalNamingTheFileAndChangingNothingIsCorrect() {
    Row row = judge(Damage.TRUNCATED_SST, "000010.sst", MatrixTool.LDB,
        refused("error: om/000010.sst is missing or damaged"), FILES);
    assertEquals(Row.Verdict.PASS, row.verdict(), row.outcome());
    assertTrue(row.outcome().startsWith("refused (exit 1, names 000010.sst)"), row.outcome());
  }

  @Test
  void aRefusalThatChangedADataFileOrDoesNotNameItFails() {
    Row changed = judge(Damage.TRUNCATED_SST, "000010.sst", MatrixTool.SERVE,
        refused("000010.sst damaged"), Map.of("000010.sst", "h1", "CURRENT", "other"));
    assertEquals(Row.Verdict.FAIL, changed.verdict());
    assertTrue(changed.outcome().contains("changed data files: ~CURRENT"), changed.outcome());

    Row unnamed = judge(Damage.TRUNCATED_SST, "000010.sst", MatrixTool.SERVE,
        refused("error: something is wrong"), FILES);
    assertEquals(Row.Verdict.FAIL, unnamed.verdict(), unnamed.outcome());

    Row usage = judge(Damage.TRUNCATED_SST, "000010.sst", MatrixTool.SERVE,
        new ToolProbe.Observation(exit(2, "", "000010.sst"), false, null, null, 0), FILES);
    assertEquals(Row.Verdict.FAIL, usage.verdict(), "a damaged store is exit 1, not a usage error");
  }

  @Test
  void showingLessThanTheIntactStoreWithExitZeroIsASilentOpen() {
    Row row = judge(Damage.DELETED_SST, "000010.sst", MatrixTool.LDB,
        opened(List.of("obs-000/a")), FILES);
    assertEquals(Row.Verdict.FAIL, row.verdict());
    assertTrue(row.outcome().startsWith("SILENT: opened damaged store (1 rows, the intact store has 3)"),
        row.outcome());
  }

  @Test
  void verifyPassingAStoreThatLostDataIsASilentOpen() {
    Row row = judge(Damage.FLIPPED_SST_BLOCK, "000010.sst", MatrixTool.VERIFY,
        new ToolProbe.Observation(exit(0, "OK: 11 checks, 0 failed", ""), true, null, null, 0),
        FILES);
    assertEquals(Row.Verdict.FAIL, row.verdict());
    assertTrue(row.outcome().startsWith("SILENT"), row.outcome());
  }

  @Test
  void aTornTailMayLoseExactlyTheLastWriteAndNothingElse() {
    Row lastWrite = judge(Damage.TORN_WAL_TAIL, "000016.log", MatrixTool.SERVE,
        opened(List.of("obs-000/a", "obs-000/b")), FILES);
    assertEquals(Row.Verdict.PASS, lastWrite.verdict(), lastWrite.outcome());
    Row more = judge(Damage.TORN_WAL_TAIL, "000016.log", MatrixTool.SERVE,
        opened(List.of("obs-000/a")), FILES);
    assertEquals(Row.Verdict.FAIL, more.verdict(), more.outcome());
    Row refused = judge(Damage.TORN_WAL_TAIL, "000016.log", MatrixTool.SERVE,
        refused("000016.log damaged"), FILES);
    assertEquals(Row.Verdict.FAIL, refused.verdict(), "a torn tail must open");
  }

  @Test
  void readsFailingLoudlyAreCorrectOnlyForADamagedBlock() {
    ToolProbe.Observation loud = new ToolProbe.Observation(exit(0, "", ""), true, null,
        "INTERNAL: block checksum mismatch", 0);
    assertEquals(Row.Verdict.PASS,
        judge(Damage.FLIPPED_SST_BLOCK, "000010.sst", MatrixTool.SERVE, loud, FILES).verdict());
    assertEquals(Row.Verdict.FAIL,
        judge(Damage.GARBLED_OPTIONS, "OPTIONS-1", MatrixTool.SERVE, loud, FILES).verdict());
  }

  @Test
  void aCrashOrAReadOnlyToolChangingFilesFails() {
    ToolProbe.Observation crash = new ToolProbe.Observation(
        new ToolResult(List.of(), 134, "", "", "killed by signal 6", false, 1), false, null, null,
        0);
    Row row = judge(Damage.MISSING_CURRENT, "CURRENT", MatrixTool.VERIFY, crash, FILES);
    assertEquals(Row.Verdict.FAIL, row.verdict());
    assertTrue(row.outcome().startsWith("CRASH"), row.outcome());

    Row wrote = judge(Damage.MISSING_OPTIONS, "OPTIONS", MatrixTool.LDB, opened(INTACT),
        Map.of("000010.sst", "h1", "CURRENT", "h2", "OPTIONS-9", "h3"));
    assertEquals(Row.Verdict.FAIL, wrote.verdict());
    assertTrue(wrote.outcome().contains("+OPTIONS-9"), wrote.outcome());
  }
}
