package io.sediment.db.stats;

/**
 * What happened to one targeted compaction request.
 *
 * @param table the table
 * @param range the compacted (or skipped) keys
 * @param outcome {@code COMPLETED}, {@code PINNED} (compacted, but tombstones survived because an
 *     open snapshot still needs them), {@code SKIPPED} (not run; see reason), {@code FAILED}
 * @param reason a sentence for operators
 * @param tombstonesBefore tombstones the triggering scans skipped
 * @param tombstonesAfter tombstones one positioning over the range skipped after compaction
 * @param durationMillis how long the compaction ran
 * @param atMillis wall-clock time it ended
 */
public record CompactionEvent(String table, KeyRange range, Outcome outcome, String reason,
    long tombstonesBefore, long tombstonesAfter, long durationMillis, long atMillis) {

  /** How a request ended. */
  public enum Outcome { COMPLETED, PINNED, SKIPPED, FAILED }
}
