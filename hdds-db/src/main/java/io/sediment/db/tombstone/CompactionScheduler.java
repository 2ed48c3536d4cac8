package io.sediment.db.tombstone;

import io.sediment.db.TombstonePolicy;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.CompactionStats;
import io.sediment.db.stats.HotRange;
import io.sediment.db.stats.KeyRange;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs targeted {@code compactRange} calls for hot tombstone ranges on one background thread, off
 * the request path.
 *
 * <p>Requests are deduplicated: one overlapping or touching pending requests of the same table
 * merges with all of them into one. Runs are rate-limited to one per
 * {@link TombstonePolicy#minCompactionInterval()}. After each compaction one counted positioning
 * over the range checks the result: if tombstones survived, an open snapshot still needs them, so
 * the range is recorded as {@code PINNED} and requests covered by it are skipped for
 * {@link TombstonePolicy#pinnedRetryAfter()} instead of compacting in a loop. Every outcome is
 * kept in a bounded history for the stats. Thread-safe.
 */
public final class CompactionScheduler implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CompactionScheduler.class);
  private static final int HISTORY = 100;

  private final RocksDatabase db;
  private final TombstonePolicy policy;
  private final ScheduledExecutorService executor;
  private final Consumer<CompactionEvent> onEnded;
  private final List<Request> pending = new ArrayList<>();
  private final List<Cooldown> cooldowns = new ArrayList<>();
  private final Deque<CompactionEvent> history = new ArrayDeque<>();
  private long requested;
  private long merged;
  private long completed;
  private long pinned;
  private long skipped;
  private long failed;
  private long nextRunNanos = System.nanoTime();
  private boolean drainScheduled;
  private boolean closed;

  private record Request(String table, KeyRange range, long tombstonesSkipped) { }

  private record Cooldown(String table, KeyRange range, long untilMillis) { }

  public CompactionScheduler(RocksDatabase db, TombstonePolicy policy) {
    this(db, policy, event -> { });
  }

  /**
   * @param onEnded told, on the compaction thread and without this scheduler's lock, the outcome
   *     of every request {@link #request} accepted ({@code COMPLETED}, {@code PINNED} or
   *     {@code FAILED}); its range covers every request merged into it
   */
  public CompactionScheduler(RocksDatabase db, TombstonePolicy policy,
      Consumer<CompactionEvent> onEnded) {
    this.db = db;
    this.policy = policy;
    this.onEnded = onEnded;
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sediment-compaction-" + db.name());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Asks for a compaction of {@code hot.range()} in {@code table}; returns at once.
   *
   * @return true when the request was queued or merged into a queued one, so its end will be
   *     reported to the {@code onEnded} listener (unless the store closes first); false when it
   *     was skipped (the range is cooling down after a pinned compaction) or the scheduler is
   *     closed
   */
  public boolean request(String table, HotRange hot) {
    synchronized (this) {
      if (closed) {
        return false;
      }
      requested++;
      long now = System.currentTimeMillis();
      cooldowns.removeIf(c -> c.untilMillis() <= now);
      for (Cooldown c : cooldowns) {
        if (c.table().equals(table) && c.range().covers(hot.range())) {
          skipped++;
          record(new CompactionEvent(table, hot.range(), CompactionEvent.Outcome.SKIPPED,
              "tombstones here survived the last compaction (pinned by an open snapshot); not"
                  + " retried before " + java.time.Instant.ofEpochMilli(c.untilMillis()),
              hot.tombstonesSkipped(), -1, 0, now, CompactionEvent.Trigger.TRACKER));
          return false;
        }
      }
      // Every pending request it overlaps or touches merges into it (it may bridge several), in
      // the place of the first, so pending requests of a table stay disjoint.
      Request merging = new Request(table, hot.range(), hot.tombstonesSkipped());
      int first = -1;
      for (int i = pending.size() - 1; i >= 0; i--) {
        Request p = pending.get(i);
        if (p.table().equals(table) && p.range().overlapsOrTouches(merging.range())) {
          merging = new Request(table, p.range().union(merging.range()),
              p.tombstonesSkipped() + merging.tombstonesSkipped());
          pending.remove(i);
          merged++;
          first = i;
        }
      }
      if (first >= 0) {
        pending.add(first, merging);
        return true;
      }
      pending.add(merging);
      scheduleDrain();
      return true;
    }
  }

  private void scheduleDrain() {
    if (drainScheduled || closed) {
      return;
    }
    drainScheduled = true;
    long delay = Math.max(0, nextRunNanos - System.nanoTime());
    executor.schedule(this::runOne, delay, TimeUnit.NANOSECONDS);
  }

  private void runOne() {
    Request r;
    synchronized (this) {
      if (closed || pending.isEmpty()) {
        drainScheduled = false;
        return;
      }
      // A drain scheduled while a compaction ran was timed from the run before that one.
      long wait = nextRunNanos - System.nanoTime();
      if (wait > 0) {
        executor.schedule(this::runOne, wait, TimeUnit.NANOSECONDS);
        return;
      }
      drainScheduled = false;
      r = pending.remove(0);
    }
    long start = System.nanoTime();
    CompactionEvent event;
    try {
      ColumnFamily cf = db.columnFamily(r.table());
      db.compactRange(cf, r.range().from(), r.range().to());
      long after = db.introspection().probeTombstones(cf, probeStart(r.range().from()), r.range().to());
      long ms = (System.nanoTime() - start) / 1_000_000;
      if (after >= policy.minTombstonesPerPass()) {
        long snapshots = db.introspection().openSnapshots();
        event = new CompactionEvent(r.table(), r.range(), CompactionEvent.Outcome.PINNED,
            after + " tombstones survived compaction; " + snapshots
                + " open snapshot(s) still need them", r.tombstonesSkipped(), after, ms,
            System.currentTimeMillis(), CompactionEvent.Trigger.TRACKER);
      } else {
        event = new CompactionEvent(r.table(), r.range(), CompactionEvent.Outcome.COMPLETED,
            "compacted", r.tombstonesSkipped(), after, ms, System.currentTimeMillis(),
            CompactionEvent.Trigger.TRACKER);
      }
    } catch (IllegalStateException storeClosing) {
      // Only a closing store throws this; its trackers go with it, so no end is reported.
      return;
    } catch (RuntimeException e) {
      LOG.warn("Targeted compaction of {} {} failed", r.table(), r.range(), e);
      event = new CompactionEvent(r.table(), r.range(), CompactionEvent.Outcome.FAILED,
          String.valueOf(e.getMessage()), r.tombstonesSkipped(), -1,
          (System.nanoTime() - start) / 1_000_000, System.currentTimeMillis(),
          CompactionEvent.Trigger.TRACKER);
    }
    synchronized (this) {
      switch (event.outcome()) {
        case COMPLETED -> completed++;
        case PINNED -> {
          pinned++;
          cooldowns.add(new Cooldown(r.table(), r.range(),
              System.currentTimeMillis() + policy.pinnedRetryAfter().toMillis()));
        }
        default -> failed++;
      }
      record(event);
      nextRunNanos = System.nanoTime() + policy.minCompactionInterval().toNanos();
      if (!pending.isEmpty()) {
        scheduleDrain();
      }
    }
    try {
      onEnded.accept(event);
    } catch (RuntimeException e) {
      LOG.warn("Compaction listener failed on {}", event, e);
    }
  }

  /**
   * Where the check after a compaction positions: just past {@code from}. A range reported by a
   * scan's advance starts with the live key the scan walked from, and a positioning there would
   * land on it and skip nothing, however many tombstones a snapshot still pins behind it.
   */
  private static byte[] probeStart(byte[] from) {
    return from == null ? null : java.util.Arrays.copyOf(from, from.length + 1);
  }

  /**
   * Keeps {@code e}, a compaction this scheduler did not run (a manual one), in the history; it
   * changes no counter and no cooldown.
   */
  public synchronized void recordElsewhere(CompactionEvent e) {
    record(e);
  }

  private void record(CompactionEvent e) {
    history.addLast(e);
    while (history.size() > HISTORY) {
      history.removeFirst();
    }
  }

  public synchronized CompactionStats stats() {
    return new CompactionStats(requested, merged, completed, pinned, skipped, failed, pending.size(),
        List.copyOf(history));
  }

  /** Ranges waiting to be compacted, per table. */
  public synchronized List<KeyRange> pending(String table) {
    List<KeyRange> out = new ArrayList<>();
    for (Iterator<Request> it = pending.iterator(); it.hasNext(); ) {
      Request r = it.next();
      if (r.table().equals(table)) {
        out.add(r.range());
      }
    }
    return out;
  }

  /**
   * Stops scheduling and drops pending requests; a compaction already running is cancelled by
   * the database's close. Waits up to {@code timeout} for the thread to end.
   */
  public void close(Duration timeout) {
    synchronized (this) {
      closed = true;
      pending.clear();
    }
    executor.shutdownNow();
    try {
      executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ZERO);
  }
}
