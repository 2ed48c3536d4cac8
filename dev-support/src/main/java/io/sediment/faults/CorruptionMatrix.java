package io.sediment.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Part (b): every {@link Damage} against every chosen {@link MatrixTool}, each pair on its own
 * copy of the pristine store, so no tool sees what another did (serve rewrites a store it opens).
 * The intact case runs first and gives each tool's reference view.
 */
final class CorruptionMatrix {

  private final CampaignContext ctx;

  CorruptionMatrix(CampaignContext ctx) {
    this.ctx = ctx;
  }

  List<Row> run() throws IOException, InterruptedException {
    Path dir = ctx.workspace().dir("matrix");
    PristineStore pristine;
    try {
      pristine = PristineStore.create(ctx.launcher(), dir.resolve("pristine"), ctx.options());
    } catch (IOException e) {
      return List.of(Row.fail("corruption matrix", "make the pristine store (load, serve + "
          + "gRPC writes, stop, verify)", "could not: " + e.getMessage(), -1));
    }
    System.err.println("faults: pristine store: " + pristine.describe() + ", keyTable SST "
        + pristine.keyTableSst());
    ToolProbe probe = new ToolProbe(ctx.launcher(), ctx.options());
    Map<MatrixTool, List<String>> reference = new EnumMap<>(MatrixTool.class);
    List<Row> rows = new ArrayList<>();
    for (Damage damage : Damage.values()) {
      for (MatrixTool tool : ctx.options().matrixTools()) {
        String name = damage.title() + " × " + tool.display();
        if (ctx.deadline().passed()) {
          rows.add(Row.skipped(name, "", "time limit reached"));
          continue;
        }
        Path caseDir = dir.resolve(damage.name().toLowerCase(Locale.ROOT) + "-"
            + tool.name().toLowerCase(Locale.ROOT));
        Path data = caseDir.resolve("data");
        StoreFiles.copyTree(pristine.data(), data);
        Damage.Done done = damage.apply(data.resolve("om"), pristine);
        Map<String, String> before = StoreFiles.dataFingerprint(data.resolve("om"));
        ToolProbe.Observation obs = probe.probe(tool, data, caseDir);
        Map<String, String> after = StoreFiles.dataFingerprint(data.resolve("om"));
        Row row = MatrixJudge.judge(damage, done,
            tool, obs, reference.get(tool), before, after);
        if (damage == Damage.NONE) {
          row = new Row(row.caseName(), pristine.describe() + "; " + row.tried(), row.outcome(),
              row.lost(), row.verdict());
          if (row.verdict() == Row.Verdict.PASS && obs.view() != null) {
            reference.put(tool, obs.view());
          }
        }
        rows.add(row);
        System.err.println("faults: " + row.caseName() + ": " + row.verdict() + " "
            + row.outcome());
        if (!ctx.options().keep()) {
          StoreFiles.deleteTree(caseDir);
        }
      }
    }
    return rows;
  }
}
