package io.sediment.om.purge;

/**
 * What one purge step ({@link OmPurges}) did in its one write transaction.
 *
 * @param step the step's name, e.g. {@link OmPurges#KEY_DELETING}
 * @param examined rows read
 * @param purged rows removed (deleted versions purged, open entries expired, uploads aborted)
 * @param purgedBytes data bytes of the removed rows (deleted versions and open entries; for
 *     uploads the bytes of their parts, which move to deletedTable)
 * @param rangeDeletes range tombstones written (each replacing a contiguous run of point deletes)
 * @param cursor the persisted resume position after the step: the next run examines rows after
 *     it; {@code null} when the next run starts at the head of the table (a pass ended)
 * @param skipped {@code true} when the step did not scan at all because the maintained counter
 *     said the table is empty
 */
public record PurgeResult(String step, int examined, int purged, long purgedBytes,
    int rangeDeletes, String cursor, boolean skipped) {
}
