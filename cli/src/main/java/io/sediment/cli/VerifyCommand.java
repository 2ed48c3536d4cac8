package io.sediment.cli;

import io.sediment.db.FileCheck;
import io.sediment.db.StoreException;
import io.sediment.db.StoreMaintenance;
import io.sediment.om.core.OmCounter;
import io.sediment.om.insight.OmInsight;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sediment verify}: checks a store end to end, read-only: that it opens (every live file
 * present and of its recorded size, the logs readable), every live SST's block checksums, every
 * write-ahead log, and the maintained counters against a full scan. Prints one row per check and
 * exits 1 if any failed.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = {"Check a store, read-only: that it opens (the MANIFEST's files present and "
        + "whole, the write-ahead logs readable), every SST's checksums, every write-ahead log, "
        + "and the counters against a full scan. Prints a table; exits 1 on any failure.",
        "Works on a stopped store or a running server's (files it compacts away meanwhile are "
            + "not failures)."})
final class VerifyCommand implements Callable<Integer> {

  @Mixin
  DataDirOption data;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** One row of the report. */
  record Row(String check, String subject, boolean ok, String detail) {
  }

  @Override
  public Integer call() throws IOException {
    Path dir = StoreDirs.store(data.dir).toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new CliFailure("No store at " + dir + " (expected the --data directory of a "
          + "`sediment serve`)");
    }
    List<Row> rows = new ArrayList<>();
    try (StoreDirs.ReadOnlyStore ro = StoreDirs.openReadOnly(data.dir)) {
      rows.add(new Row("open", dir.toString(), true,
          "the MANIFEST's files are present and whole, the logs replay"));
      for (FileCheck f : ro.store().verifyFiles()) {
        rows.add(fileRow(f));
      }
      rows.addAll(counterRows(OmInsight.over(ro.store(), OmInsight.DEFAULT_LIMIT,
          OmInsight.DEFAULT_WALK_BUDGET).compareCounters()));
    } catch (CliFailure | StoreException e) {
      rows.add(new Row("open", dir.toString(), false, e.getMessage()));
      for (FileCheck f : StoreMaintenance.verifyFilesUnopened(dir)) {
        rows.add(fileRow(f));
      }
    }
    print(rows);
    long failed = rows.stream().filter(r -> !r.ok()).count();
    PrintWriter out = spec.commandLine().getOut();
    out.printf("%n%s: %d checks, %d failed%n", failed == 0 ? "OK" : "FAILED", rows.size(), failed);
    out.flush();
    return failed == 0 ? 0 : Sediment.EXIT_FAILURE;
  }

  private static Row fileRow(FileCheck f) {
    String subject = f.file() + (f.table().isEmpty() ? "" : " (" + f.table() + ")");
    return new Row(f.kind(), subject, f.ok(), f.detail());
  }

  /** A row per counter that differs, and one summary row. */
  static List<Row> counterRows(OmInsight.CounterComparison c) {
    List<Row> out = new ArrayList<>();
    int compared = 0;
    compared += compare("store", c.maintained().totals(), c.scanned().totals(), out);
    TreeSet<String> buckets = new TreeSet<>(c.maintained().buckets().keySet());
    buckets.addAll(c.scanned().buckets().keySet());
    for (String b : buckets) {
      Map<OmCounter, Long> m = c.maintained().buckets().get(b);
      Map<OmCounter, Long> s = c.scanned().buckets().get(b);
      compared += compare(b, m == null ? Map.of() : m, s == null ? Map.of() : s, out);
    }
    if (out.isEmpty()) {
      out.add(new Row("counters", "store and " + buckets.size() + " buckets", true,
          compared + " counters match a full scan"));
    }
    return out;
  }

  private static int compare(String owner, Map<OmCounter, Long> maintained,
      Map<OmCounter, Long> scanned, List<Row> out) {
    TreeSet<OmCounter> counters = new TreeSet<>(maintained.keySet());
    counters.addAll(scanned.keySet());
    for (OmCounter counter : counters) {
      long m = maintained.getOrDefault(counter, 0L);
      long s = scanned.getOrDefault(counter, 0L);
      if (m != s) {
        out.add(new Row("counters", owner + " " + counter, false,
            "maintained " + m + ", a full scan finds " + s));
      }
    }
    return counters.size();
  }

  private void print(List<Row> rows) {
    PrintWriter out = spec.commandLine().getOut();
    int subject = Math.max("SUBJECT".length(),
        rows.stream().mapToInt(r -> r.subject().length()).max().orElse(0));
    String format = "%-12s %-" + subject + "s %-6s %s%n";
    out.printf(format, "CHECK", "SUBJECT", "RESULT", "DETAIL");
    for (Row r : rows) {
      out.printf(format, r.check(), r.subject(), r.ok() ? "ok" : "FAILED", r.detail());
    }
    out.flush();
  }
}
