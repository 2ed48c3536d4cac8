package io.sediment.db.stats;

/**
 * What the sampled iterators of a table did since the store opened.
 *
 * @param scans sampled iterators closed
 * @param entriesReturned entries they returned
 * @param tombstonesSkipped tombstones their positionings and advances skipped
 * @param nativeNanos time spent in those positionings and advances
 */
public record SampledScans(long scans, long entriesReturned, long tombstonesSkipped,
    long nativeNanos) {
}
