package io.sediment.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Decides whether what a tool did with a damaged store is correct for the damage, and words the
 * outcome: "refused (exit 1, names FILE)", "opened (intact data)", "SILENT: opened damaged store",
 * "CRASH", or what else happened. A tool that exits 0 showing less than the intact store showed,
 * or a verify that passes a store that lost data, is a silent open; a refusal must name the file
 * and change no data file; a read-only tool must never change one.
 */
final class MatrixJudge {

  private MatrixJudge() {
  }

  /**
   * @param reference the tool's view of the intact store (null for verify, or when the intact
   *     case itself failed)
   * @param before data-file hashes of the damaged store before the tool ran
   * @param after the same after it ran
   */
  static Row judge(Damage damage, Damage.Done done, MatrixTool tool,
      ToolProbe.Observation obs, List<String> reference, Map<String, String> before,
      Map<String, String> after) {
    String name = damage.title() + " × " + tool.display();
    String tried = done.description();
    ToolResult r = obs.result();
    String changed = changes(before, after);

    if (r.crashed()) {
      return Row.fail(name, tried, "CRASH: " + r.crash() + "; " + r.firstMessage(), -1);
    }
    if (!obs.opened()) {
      if (r.timedOut()) {
        return Row.fail(name, tried, "no answer within the time limit (killed)", -1);
      }
      boolean names = done.file() != null && r.mentions(done.file());
      String outcome = "refused (exit " + r.exitCode()
          + (names ? ", names " + done.file() : "") + ")"
          + (obs.rowsBeforeFailure() > 0 ? " after printing " + obs.rowsBeforeFailure() + " rows"
              : "")
          + ": " + r.messageNaming(done.file());
      if (!changed.isEmpty()) {
        return Row.fail(name, tried, outcome + "; but changed data files: " + changed, -1);
      }
      if (!damage.losesData()) {
        return Row.fail(name, tried, "UNEXPECTED: " + outcome + " (the data is intact)", -1);
      }
      if (r.exitCode() != 1) {
        return Row.fail(name, tried, "UNEXPECTED: " + outcome + " (a damaged store is exit 1)",
            -1);
      }
      if (!names) {
        return Row.fail(name, tried, "UNEXPECTED: " + outcome + " (does not name "
            + done.file() + ")", -1);
      }
      if (obs.rowsBeforeFailure() > 0) {
        return Row.fail(name, tried, "PARTIAL: " + outcome, -1);
      }
      return Row.pass(name, tried, outcome, -1);
    }

    // opened
    List<String> problems = new ArrayList<>();
    if (tool.readOnly() && !changed.isEmpty()) {
      problems.add("a read-only tool changed data files: " + changed);
    }
    String note = "";
    if (r.exitCode() != 0 && tool == MatrixTool.SERVE) {
      // README promises exit 0 after SIGTERM for serve
      problems.add("exit " + r.exitCode() + " after SIGTERM");
    } else if (r.exitCode() != 0) {
      note = " (exit " + r.exitCode() + " after SIGTERM)";
    }
    String outcome;
    boolean ok;
    if (tool == MatrixTool.VERIFY) {
      ok = !damage.losesData();
      outcome = ok ? "opened (passed: " + okLine(r) + ")"
          : "SILENT: opened damaged store (verify passed: " + okLine(r) + ")";
    } else if (obs.readError() != null) {
      ok = damage.expect() == Damage.Expect.LOUD;
      outcome = (ok ? "opened; reads fail loudly (" : "UNEXPECTED: opened, reads fail (")
          + obs.readError() + ")";
    } else if (reference == null) {
      ok = damage == Damage.NONE;
      outcome = "opened (" + obs.view().size() + " rows)";
      if (!ok) {
        outcome += "; no reference to compare with (the intact case failed)";
      }
    } else if (obs.view().equals(reference)) {
      ok = true;
      outcome = "opened (intact data: " + obs.view().size() + " rows)";
    } else if (damage.expect() == Damage.Expect.OPEN_TORN
        && obs.view().equals(withoutMarker(reference))) {
      ok = true;
      outcome = "opened (" + obs.view().size() + " of " + reference.size()
          + " rows: only the torn last write is gone)";
    } else {
      ok = false;
      outcome = "SILENT: opened damaged store (" + obs.view().size() + " rows, the intact store "
          + "has " + reference.size() + ")";
    }
    outcome += note;
    if (!problems.isEmpty()) {
      ok = false;
      outcome += "; " + String.join("; ", problems);
    }
    return ok ? Row.pass(name, tried, outcome, -1) : Row.fail(name, tried, outcome, -1);
  }

  private static List<String> withoutMarker(List<String> reference) {
    return reference.stream().filter(s -> !s.contains(PristineStore.MARKER_KEY)).toList();
  }

  private static String okLine(ToolResult r) {
    return r.out().lines().filter(l -> l.startsWith("OK:")).findFirst().orElse("exit 0");
  }

  /** The data files added, removed or changed, or "" if none. */
  static String changes(Map<String, String> before, Map<String, String> after) {
    TreeSet<String> names = new TreeSet<>(before.keySet());
    names.addAll(after.keySet());
    List<String> out = new ArrayList<>();
    for (String n : names) {
      String b = before.get(n);
      String a = after.get(n);
      if (b == null) {
        out.add("+" + n);
      } else if (a == null) {
        out.add("-" + n);
      } else if (!a.equals(b)) {
        out.add("~" + n);
      }
    }
    return String.join(" ", out);
  }
}
