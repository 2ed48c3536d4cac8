package io.sediment.faults;

/**
 * One line of the campaign's table: a case, what was tried, what happened, and how many
 * acknowledged writes (and deletes) were lost.
 *
 * @param lost acknowledged writes missing plus acknowledged deletes undone; -1 where the case writes
 *     nothing through the server (the corruption matrix)
 * @param verdict whether the outcome is the correct one for the case
 */
record Row(String caseName, String tried, String outcome, int lost, Verdict verdict) {

  /** How an outcome is judged. Only {@link #FAIL} makes the campaign exit non-zero. */
  enum Verdict {
    /** The correct outcome for the case. */
    PASS,
    /** A lost acknowledged write, a silent open of a damaged store, a JVM crash, or any other
     *  outcome the case does not allow. */
    FAIL,
    /** Not run here (no permission, time limit, or not part of this mode). */
    SKIPPED
  }

  static Row pass(String caseName, String tried, String outcome, int lost) {
    return new Row(caseName, tried, outcome, lost, lost > 0 ? Verdict.FAIL : Verdict.PASS);
  }

  static Row fail(String caseName, String tried, String outcome, int lost) {
    return new Row(caseName, tried, outcome, lost, Verdict.FAIL);
  }

  static Row skipped(String caseName, String tried, String why) {
    return new Row(caseName, tried, "skipped: " + why, -1, Verdict.SKIPPED);
  }
}
