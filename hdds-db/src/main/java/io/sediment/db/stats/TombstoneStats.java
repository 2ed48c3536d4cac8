package io.sediment.db.stats;

import java.util.List;

/**
 * Tombstone figures of a store: per table, and what the compaction scheduler did.
 *
 * @param tables per table, in definition order
 * @param compactions targeted compactions requested, run, skipped and why
 */
public record TombstoneStats(List<TableTombstoneStats> tables, CompactionStats compactions) {
}
