package io.sediment.om.service;

import io.sediment.db.StoreOutOfSpaceException;
import io.sediment.om.purge.OmPurges;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A periodic maintenance task on one daemon thread: a run every {@link #interval()} (fixed delay,
 * the first run one interval after {@link #start()}). A run is one {@link #runTask()} batch, and
 * more while {@link #moreAfter} says the last batch left work behind (a full batch), paced by the
 * service's {@link PurgePacing} (a pause between batches, an optional rate limit), so a backlog
 * drains in one run rather than one batch per interval.
 *
 * <p>Life cycle: {@link #start()} and {@link #stop()} may alternate (each start creates a fresh
 * thread); both are idempotent. {@link #close()} stops for good and is idempotent; a start after
 * it throws {@link IllegalStateException}. {@code stop} and {@code close} let a run in progress
 * finish (they wait up to {@link #STOP_TIMEOUT}) and cancel the runs not yet begun. Stop the
 * services before closing the store they work on.
 *
 * <p>{@link #runOnce()} runs one run on the calling thread, for tests and tools; runs never
 * overlap (scheduled and direct runs share one lock). {@link #stop()} ends a run at its next batch
 * boundary (a pause in progress ends at once). A run that throws is counted as a failure;
 * on the schedule, a {@link RuntimeException} is logged (at DEBUG when the store's disk is full,
 * which the store itself logs once) and the next run comes as planned, while an
 * {@link Error} ends the schedule (the service then reports {@code running} until stopped).
 *
 * <p>Thread-safe.
 */
public abstract class BackgroundService implements AutoCloseable {

  /** How long {@link #stop()} waits for a run in progress. */
  public static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(BackgroundService.class);

  private final String name;
  private final Duration interval;
  private final PurgePacing pacing;
  private final Object runLock = new Object();
  /** Where a pause between batches waits; {@link #stop()} wakes it. */
  private final Object pauseLock = new Object();
  /** Set while {@link #stop()} or {@link #close()} ends the schedule: runs end at a boundary. */
  private volatile boolean stopping;

  /** The running schedule, or null; guarded by {@code this}. */
  private ScheduledExecutorService executor;
  /** The schedule's thread, so a stop from inside a run does not wait for itself. */
  private volatile Thread worker;
  /** Guarded by {@code this}. */
  private boolean closed;

  private final AtomicLong runs = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong itemsProcessed = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();
  private volatile long lastRunItems;
  private volatile long lastRunNanos;
  private volatile String lastFailure;
  /** The run in progress: its start ({@link System#nanoTime()}, 0 for none) and items so far. */
  private volatile long runStartNanos;
  private volatile long runItems;

  /**
   * @param name the service's name (thread name {@code sediment-<name>}, metrics)
   * @param interval the delay between the end of one run and the start of the next; positive
   */
  protected BackgroundService(String name, Duration interval) {
    this(name, interval, PurgePacing.unpaced());
  }

  /**
   * @param name the service's name (thread name {@code sediment-<name>}, metrics)
   * @param interval the delay between the end of one run and the start of the next; positive
   * @param pacing how the batches of one run are paced
   */
  protected BackgroundService(String name, Duration interval, PurgePacing pacing) {
    this.pacing = Objects.requireNonNull(pacing, "pacing");
    this.name = Objects.requireNonNull(name, "name");
    Objects.requireNonNull(interval, "interval");
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("The interval of " + name + " must be positive: "
          + interval);
    }
    this.interval = interval;
  }

  /**
   * One batch of the service's work, bounded (a few thousand rows at most).
   *
   * @return the items processed (rows purged, expired or aborted)
   */
  protected abstract long runTask();

  /**
   * Whether the batch that just returned {@code items} may have left work behind, so the run
   * goes on with another (after the pacing's wait). The default, {@code false}, makes a run one
   * batch.
   */
  protected boolean moreAfter(long items) {
    return false;
  }

  public final PurgePacing pacing() {
    return pacing;
  }

  public final String name() {
    return name;
  }

  public final Duration interval() {
    return interval;
  }

  /**
   * Schedules the service; does nothing if it is running.
   *
   * @return {@code true} if this call started it
   * @throws IllegalStateException after {@link #close()}
   */
  public final synchronized boolean start() {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
    if (executor != null) {
      return false;
    }
    stopping = false;
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sediment-" + name);
      t.setDaemon(true);
      worker = t;
      return t;
    });
    long nanos = interval.toNanos();
    executor.scheduleWithFixedDelay(this::scheduledRun, nanos, nanos, TimeUnit.NANOSECONDS);
    return true;
  }

  /** Whether the schedule is running. */
  public final synchronized boolean isRunning() {
    return executor != null;
  }

  /**
   * Cancels the schedule and waits (up to {@link #STOP_TIMEOUT}) for a run in progress; does
   * nothing if it is not running.
   */
  public final void stop() {
    ScheduledExecutorService ex;
    synchronized (this) {
      ex = executor;
      executor = null;
    }
    if (ex == null) {
      return;
    }
    stopping = true;
    synchronized (pauseLock) {
      pauseLock.notifyAll();
    }
    ex.shutdown();
    if (Thread.currentThread() == worker) {
      return;
    }
    try {
      if (!ex.awaitTermination(STOP_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)) {
        LOG.warn("{}: a run did not finish within {}; interrupting it", name, STOP_TIMEOUT);
        ex.shutdownNow();
      }
    } catch (InterruptedException e) {
      ex.shutdownNow();
      Thread.currentThread().interrupt();
    }
    // The schedule is gone: a direct runOnce() drains again.
    stopping = false;
  }

  /** Stops the service for good. Idempotent. */
  @Override
  public final void close() {
    synchronized (this) {
      closed = true;
    }
    stop();
  }

  /**
   * Runs one run now, on the calling thread, after any run in progress: batches while
   * {@link #moreAfter} says so, paced, until one comes back with nothing left, the service is
   * stopped, or the thread is interrupted.
   *
   * @return the items processed by the run's batches
   * @throws RuntimeException what a batch threw (the run is counted as a failure; the items of the
   *     batches before it stay counted in {@link ServiceMetrics#itemsProcessed()})
   */
  public final long runOnce() {
    synchronized (runLock) {
      long start = System.nanoTime();
      runs.incrementAndGet();
      long total = 0;
      runItems = 0;
      runStartNanos = start;
      try {
        while (true) {
          long batchStart = System.nanoTime();
          long n = runTask();
          batches.incrementAndGet();
          itemsProcessed.addAndGet(n);
          total += n;
          runItems = total;
          if (!moreAfter(n) || stopping
              || !pause(pacing.waitNanos(n, System.nanoTime() - batchStart))) {
            break;
          }
        }
        lastRunItems = total;
        return total;
      } catch (RuntimeException | Error e) {
        failures.incrementAndGet();
        lastRunItems = 0;
        lastFailure = e.toString();
        throw e;
      } finally {
        lastRunNanos = System.nanoTime() - start;
        runStartNanos = 0;
      }
    }
  }

  /**
   * Waits {@code nanos} between two batches; returns whether the run may go on (false when the
   * service is stopping or the thread was interrupted, whose flag is kept).
   */
  private boolean pause(long nanos) {
    long deadline = System.nanoTime() + nanos;
    synchronized (pauseLock) {
      long left;
      while (!stopping && (left = deadline - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(pauseLock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return !stopping && !Thread.currentThread().isInterrupted();
  }

  private void scheduledRun() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      if (fullDisk(e)) {
        // The store logs a full disk once when it starts and once when it ends; a WARN per run
        // would repeat it for as long as it lasts. The run is still counted as a failure.
        LOG.debug("{}: run failed, the store's disk is full", name, e);
      } else {
        LOG.warn("{}: run failed", name, e);
      }
    }
  }

  private static boolean fullDisk(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StoreOutOfSpaceException) {
        return true;
      }
    }
    return false;
  }

  /**
   * A snapshot of the service's counters. Its rate is that of the run in progress (its items so
   * far over its time so far, pauses included), else of the latest run.
   */
  public final ServiceMetrics metrics() {
    long start = runStartNanos;
    double rate;
    if (start != 0) {
      long elapsed = System.nanoTime() - start;
      rate = elapsed <= 0 ? 0 : runItems * 1e9 / elapsed;
    } else {
      long nanos = lastRunNanos;
      rate = nanos <= 0 ? 0 : lastRunItems * 1e9 / nanos;
    }
    return new ServiceMetrics(name, isRunning(), runs.get(), failures.get(),
        itemsProcessed.get(), lastRunItems, Duration.ofNanos(lastRunNanos), lastFailure,
        batches.get(), rate, start != 0);
  }

  /** {@code limit} if it is 1 to {@link OmPurges#MAX_LIMIT}, else IllegalArgumentException. */
  protected static int checkLimit(int limit, String what) {
    if (limit < 1 || limit > OmPurges.MAX_LIMIT) {
      throw new IllegalArgumentException(what + " must be 1 to " + OmPurges.MAX_LIMIT + ": "
          + limit);
    }
    return limit;
  }

  /** {@code threshold} if it is zero or positive, else an exception. */
  protected static Duration checkThreshold(Duration threshold) {
    Objects.requireNonNull(threshold, "expireThreshold");
    if (threshold.isNegative()) {
      throw new IllegalArgumentException("expireThreshold must not be negative: " + threshold);
    }
    return threshold;
  }
}
