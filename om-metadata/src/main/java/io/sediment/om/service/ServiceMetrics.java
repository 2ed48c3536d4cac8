package io.sediment.om.service;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of one background service's counters since it was created.
 *
 * @param name the service
 * @param running whether its schedule is running
 * @param runs runs begun (scheduled and {@link BackgroundService#runOnce()})
 * @param failures runs that threw
 * @param itemsProcessed items the completed batches processed (rows purged, expired, aborted)
 * @param lastRunItems items the latest run processed (0 if it failed)
 * @param lastRunDuration how long the latest run took, its pauses between batches included
 *     ({@link Duration#ZERO} before the first)
 * @param lastFailure the latest failure, or {@code null} if none
 * @param batches batches completed (a run takes batches while each comes back full)
 * @param rowsPerSecond the purge rate: items per second of the run in progress (so far, pauses
 *     included), else of the latest run; 0 before the first
 * @param runInProgress whether a run is in progress now
 */
public record ServiceMetrics(String name, boolean running, long runs, long failures,
    long itemsProcessed, long lastRunItems, Duration lastRunDuration, String lastFailure,
    long batches, double rowsPerSecond, boolean runInProgress) {

  /** The metrics as a flat, ordered map (durations in milliseconds), e.g. for JSON. */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name);
    m.put("running", running);
    m.put("runs", runs);
    m.put("failures", failures);
    m.put("itemsProcessed", itemsProcessed);
    m.put("lastRunItems", lastRunItems);
    m.put("lastRunMillis", lastRunDuration.toMillis());
    m.put("lastFailure", lastFailure);
    m.put("batches", batches);
    m.put("rowsPerSecond", rowsPerSecond);
    m.put("runInProgress", runInProgress);
    return m;
  }
}
