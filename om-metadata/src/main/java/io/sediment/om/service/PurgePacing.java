package io.sediment.om.service;

import java.time.Duration;
import java.util.Objects;

/**
 * How a background service paces the batches of one run. A run takes batches back to back while
 * each comes back full (a backlog is left), so that a million deleted versions drain in one run
 * instead of one batch per interval; between two batches it waits at least {@code pause} (a
 * yield to foreground work) and, with a rate, long enough that the run removes at most
 * {@code maxRowsPerSecond} rows a second. Each batch holds the write lock only for its short write
 * (see {@link io.sediment.om.purge.OmPurges}); the pacing bounds how much of the machine the scans
 * and writes take from the foreground.
 *
 * @param maxRowsPerSecond the most rows one service removes per second within a run, 0 for no
 *     limit; at most {@link #MAX_ROWS_PER_SECOND}
 * @param pause the least wait between two batches of a run, {@link Duration#ZERO} for none; at
 *     most {@link #MAX_PAUSE}
 */
public record PurgePacing(long maxRowsPerSecond, Duration pause) {

  /** The largest rate accepted (far above what a store can purge). */
  public static final long MAX_ROWS_PER_SECOND = 100_000_000L;
  /** The longest pause accepted between two batches. */
  public static final Duration MAX_PAUSE = Duration.ofMinutes(10);
  /** The default pause: 20 ms between batches, no rate limit. */
  public static final Duration DEFAULT_PAUSE = Duration.ofMillis(20);

  /**
   * @throws IllegalArgumentException for a rate below 0 or above {@link #MAX_ROWS_PER_SECOND}, or a
   *     pause that is negative or longer than {@link #MAX_PAUSE}
   */
  public PurgePacing {
    if (maxRowsPerSecond < 0 || maxRowsPerSecond > MAX_ROWS_PER_SECOND) {
      throw new IllegalArgumentException("The purge rate must be 0 (no limit) to "
          + MAX_ROWS_PER_SECOND + " rows per second: " + maxRowsPerSecond);
    }
    Objects.requireNonNull(pause, "pause");
    if (pause.isNegative() || pause.compareTo(MAX_PAUSE) > 0) {
      throw new IllegalArgumentException("The pause between purge batches must be 0 to "
          + MAX_PAUSE.toMinutes() + " minutes: " + pause);
    }
  }

  /** No rate limit, {@link #DEFAULT_PAUSE} between batches. */
  public static PurgePacing defaults() {
    return new PurgePacing(0, DEFAULT_PAUSE);
  }

  /** Batches back to back, as fast as they go (tests, tools). */
  public static PurgePacing unpaced() {
    return new PurgePacing(0, Duration.ZERO);
  }

  /**
   * How long to wait after a batch of {@code rows} rows that took {@code batchNanos}: the pause,
   * or longer if the rate needs it ({@code rows / rate} seconds from the batch's start).
   */
  public long waitNanos(long rows, long batchNanos) {
    long wait = pause.toNanos();
    if (maxRowsPerSecond > 0 && rows > 0) {
      long due = (long) Math.ceil(rows * 1e9 / maxRowsPerSecond);
      wait = Math.max(wait, due - batchNanos);
    }
    return Math.max(0, wait);
  }

  /** One line for logs and {@code serve}'s banner. */
  public String describe() {
    String rate = maxRowsPerSecond == 0 ? "no rate limit" : maxRowsPerSecond + " rows/s at most";
    return rate + ", " + pause.toMillis() + " ms between batches";
  }
}
