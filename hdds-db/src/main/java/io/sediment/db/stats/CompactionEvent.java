package io.sediment.db.stats;

/**
 * What happened to one compaction: a targeted compaction request of the tombstone tracker, a
 * manual compaction ({@link io.sediment.db.DBStore#compactRange}), or a compaction RocksDB ran
 * because a deletion collector marked the files.
 *
 * @param table the table
 * @param range the compacted (or skipped) keys; DELETION_COLLECTOR: the keys the input files
 *     spanned (both ends open when they could not be read)
 * @param outcome {@code COMPLETED}, {@code PINNED} (compacted, but tombstones survived because an
 *     open snapshot still needs them), {@code SKIPPED} (not run; see reason), {@code FAILED}
 * @param reason a sentence for operators
 * @param tombstonesBefore TRACKER: tombstones the triggering scans skipped; MANUAL: point and
 *     range tombstones the table held (its SST files' properties and its memtables);
 *     DELETION_COLLECTOR: point and range deletions in the compaction's input files
 * @param tombstonesAfter TRACKER: tombstones one positioning over the range skipped after
 *     compaction; MANUAL: tombstones the table held after it; DELETION_COLLECTOR: deletions in
 *     its output files (kept when the output is not the bottommost level); -1 when unknown
 *     (FAILED)
 * @param durationMillis how long the compaction ran
 * @param atMillis wall-clock time it ended
 * @param trigger what asked for it
 */
public record CompactionEvent(String table, KeyRange range, Outcome outcome, String reason,
    long tombstonesBefore, long tombstonesAfter, long durationMillis, long atMillis,
    Trigger trigger) {

  /** How a request ended. */
  public enum Outcome { COMPLETED, PINNED, SKIPPED, FAILED }

  /** What asked for a compaction. */
  public enum Trigger {
    /** The tombstone tracker: scans kept skipping tombstones in the range. */
    TRACKER,
    /** An operator or a client: {@code sediment compact}, the CompactTable RPC. */
    MANUAL,
    /**
     * RocksDB itself, because a delete-heavy table's deletion collector marked the files
     * ({@link io.sediment.db.TableDefinition#deleteHeavy()}): compaction reason
     * {@code kFilesMarkedForCompaction}.
     */
    DELETION_COLLECTOR
  }
}
