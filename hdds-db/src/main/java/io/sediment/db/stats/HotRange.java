package io.sediment.db.stats;

/**
 * A key range of one table where scans kept skipping tombstones.
 *
 * @param range the keys scans walked through
 * @param slowPasses positionings or advances over it that skipped at least the policy's minimum
 * @param tombstonesSkipped tombstones those passes skipped in all
 * @param lastSeenMillis wall-clock time of the last slow pass
 */
public record HotRange(KeyRange range, long slowPasses, long tombstonesSkipped, long lastSeenMillis) {
}
