package io.sediment.db.stats;

import java.util.List;

/**
 * What a store's targeted compactions did since it opened: requests for ranges where scans kept
 * skipping tombstones, how they were merged, run or skipped, and the latest outcomes.
 *
 * @param requested requests received
 * @param merged requests folded into one already pending
 * @param completed compactions that ran and dropped the tombstones
 * @param pinned compactions that ran but left tombstones an open snapshot still needs
 * @param skipped requests not run (the reason is in their event)
 * @param failed compactions that failed
 * @param pending requests waiting to run now
 * @param recent the latest outcomes, oldest first
 */
public record CompactionStats(long requested, long merged, long completed, long pinned,
    long skipped, long failed, int pending, List<CompactionEvent> recent) {
}
