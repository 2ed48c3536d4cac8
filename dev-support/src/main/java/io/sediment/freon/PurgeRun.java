package io.sediment.freon;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.service.OmServices;
import io.sediment.om.service.PurgePacing;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The purge services during a measured phase: started (or, for the baseline, not) when the
 * measurement begins, stopped when it ends, with the backlog sampled every 100 ms to see when it
 * was gone. Its {@link Result} goes into freon's summary.
 */
final class PurgeRun {

  /** The services' interval: short, so a run starts soon after the measurement does. */
  static final Duration INTERVAL = Duration.ofMillis(100);

  /**
   * What the purge did during the measurement.
   *
   * @param enabled whether the services ran (false: the baseline)
   * @param backlogKeys keys deleted before the run
   * @param backlogFiles files below the directory deleted before the run
   * @param pacing the services' pacing
   * @param batchSize rows per batch of the key and directory purges
   * @param leftAtStart backlog rows left when the measurement began
   * @param leftAtEnd backlog rows left when it ended
   * @param keyPurgeRows rows the key purge removed during the measurement (the workload's own
   *     deletes included)
   * @param directoryPurgeRows rows the directory purge removed
   * @param seconds the measurement's length
   * @param drainedAfter seconds from the start until the backlog was gone; negative if it was not
   */
  record Result(boolean enabled, long backlogKeys, long backlogFiles, PurgePacing pacing,
      int batchSize, long leftAtStart, long leftAtEnd, long keyPurgeRows,
      long directoryPurgeRows, double seconds, double drainedAfter) {

    /** Key purge rows per second over the time it had work (until drained, else all along). */
    double keyPurgeRate() {
      double busy = drainedAfter >= 0 ? drainedAfter : seconds;
      return busy <= 0 ? 0 : keyPurgeRows / busy;
    }

    String text() {
      if (!enabled) {
        return String.format(Locale.ROOT, "purge: services off (baseline); backlog %,d keys + "
            + "%,d FSO files, %,d rows left throughout%n", backlogKeys, backlogFiles, leftAtEnd);
      }
      return String.format(Locale.ROOT, "purge: backlog %,d keys + %,d FSO files (%,d rows at "
              + "the start, %,d at the end), batches of %,d, %s; key purge %,d rows, directory "
              + "purge %,d rows; %s; key purge rate %,.0f rows/s%n",
          backlogKeys, backlogFiles, leftAtStart, leftAtEnd, batchSize, pacing.describe(),
          keyPurgeRows, directoryPurgeRows,
          drainedAfter >= 0 ? String.format(Locale.ROOT, "backlog gone after %.1f s of %.1f s",
              drainedAfter, seconds) : "backlog not gone by the end",
          keyPurgeRate());
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("enabled", enabled);
      m.put("backlog_keys", backlogKeys);
      m.put("backlog_fso_files", backlogFiles);
      m.put("batch", batchSize);
      m.put("rate_limit_rows_per_second", pacing.maxRowsPerSecond());
      m.put("pause_ms", pacing.pause().toMillis());
      m.put("left_at_start", leftAtStart);
      m.put("left_at_end", leftAtEnd);
      m.put("key_purge_rows", keyPurgeRows);
      m.put("directory_purge_rows", directoryPurgeRows);
      m.put("seconds", seconds);
      m.put("drained_after_seconds", drainedAfter >= 0 ? drainedAfter : null);
      m.put("key_purge_rows_per_second", keyPurgeRate());
      return m;
    }
  }

  private final OmMetadataStore store;
  private final Names names;
  private final PurgeBacklog backlog;
  private final boolean enabled;
  private final PurgePacing pacing;
  private final int batchSize;
  private OmServices services;
  private Thread sampler;
  private volatile boolean stopping;
  private volatile long drainedAtNanos;
  private long startNanos;
  private long leftAtStart;

  PurgeRun(OmMetadataStore store, Names names, PurgeBacklog backlog, boolean enabled,
      PurgePacing pacing, int batchSize) {
    this.store = store;
    this.names = names;
    this.backlog = backlog;
    this.enabled = enabled;
    this.pacing = pacing;
    this.batchSize = batchSize;
  }

  /** Starts the services (unless this is the baseline) and the sampler. */
  void start() {
    startNanos = System.nanoTime();
    leftAtStart = backlog.left(store, names);
    if (enabled) {
      OmServices.Config c = OmServices.Config.defaults();
      services = OmServices.create(store, new OmServices.Config(INTERVAL, batchSize,
          c.openKeyCleanupInterval(), c.openKeyExpireThreshold(), c.openKeyCleanupLimit(),
          c.multipartCleanupInterval(), c.multipartExpireThreshold(), c.multipartCleanupLimit(),
          INTERVAL, batchSize, pacing));
      services.start();
    }
    sampler = new Thread(() -> {
      while (!stopping && drainedAtNanos == 0) {
        if (backlog.left(store, names) == 0) {
          drainedAtNanos = System.nanoTime();
          return;
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "freon-purge-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Stops the services and the sampler; returns what the purge did. Call after {@link #start}. */
  Result stop() throws InterruptedException {
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    stopping = true;
    sampler.join();
    long keyRows = 0;
    long dirRows = 0;
    if (services != null) {
      services.close();
      keyRows = services.keyDeleting().metrics().itemsProcessed();
      dirRows = services.directoryDeleting().metrics().itemsProcessed();
    }
    long drained = drainedAtNanos;
    return new Result(enabled, backlog.keys(), backlog.files(), pacing, batchSize, leftAtStart,
        backlog.left(store, names), keyRows, dirRows, seconds,
        drained == 0 ? -1 : (drained - startNanos) / 1e9);
  }

  /** Stops the services if they run (after a failed run); idempotent. */
  void close() {
    stopping = true;
    if (services != null) {
      services.close();
    }
  }
}
