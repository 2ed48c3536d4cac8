package io.sediment.faults;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The campaign's rows, grouped by part in table order and within a part in the order they were
 * added, printed as one Markdown table (so a run can
 * be pasted into docs/RELIABILITY.md as it is) followed by a one-line verdict. Thread safe.
 */
final class ResultTable {

  private final List<Row> rows = Collections.synchronizedList(new ArrayList<>());
  private final List<Integer> groups = new ArrayList<>();

  void add(int group, Row row) {
    synchronized (rows) {
      rows.add(row);
      groups.add(group);
    }
  }

  void addAll(int group, List<Row> more) {
    for (Row r : more) {
      add(group, r);
    }
  }

  /** True if any row failed. */
  boolean failed() {
    synchronized (rows) {
      return rows.stream().anyMatch(r -> r.verdict() == Row.Verdict.FAIL);
    }
  }

  void print(PrintStream out) {
    List<Row> copy = new ArrayList<>();
    synchronized (rows) {
      Integer[] order = new Integer[rows.size()];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      java.util.Arrays.sort(order, java.util.Comparator.comparing(groups::get)); // stable
      for (int i : order) {
        copy.add(rows.get(i));
      }
    }
    out.println("| case | tried | outcome | acknowledged writes lost |");
    out.println("|---|---|---|---|");
    for (Row r : copy) {
      String outcome = r.verdict() == Row.Verdict.FAIL ? "**FAIL** " + r.outcome() : r.outcome();
      out.printf("| %s | %s | %s | %s |%n", cell(r.caseName()), cell(r.tried()), cell(outcome),
          r.lost() < 0 ? "–" : Integer.toString(r.lost()));
    }
    long failed = copy.stream().filter(r -> r.verdict() == Row.Verdict.FAIL).count();
    long skipped = copy.stream().filter(r -> r.verdict() == Row.Verdict.SKIPPED).count();
    out.println();
    out.printf("%s: %d rows, %d failed, %d skipped%n", failed == 0 ? "PASS" : "FAIL",
        copy.size(), failed, skipped);
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
