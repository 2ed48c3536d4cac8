package io.sediment.db.managed;

import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * Counts the tombstones one iterator operation skipped, from RocksDB's thread-local
 * {@code PerfContext}, without taking it from the calling thread: the counters are never reset
 * (the count is the difference of {@code internal_delete_skipped_count} across the operation),
 * and the thread's perf level is raised to {@code ENABLE_COUNT} only when it is below, and put
 * back at {@link #stop}. A caller that measures its own work through the {@code PerfContext}
 * therefore keeps its level and sees its counters only grow, by the operation's own counts (as
 * at RocksDB's default level, {@code ENABLE_COUNT}; a caller at {@code DISABLE} sees them grow
 * by the sampled operation's counts too). {@link #start} and {@link #stop} must bracket the
 * operation on the thread that runs it, with no blocking call between them. One probe per
 * counting iterator; not thread-safe. {@code PerfContext} objects own no memory (their close is a
 * no-op), so they are not registered with the {@link NativeTracker}.
 */
final class SkipProbe {

  private final RocksDB db;
  /** The thread's context between {@link #start} and {@link #stop}; null outside. */
  private PerfContext context;
  /** The level {@link #stop} puts back; null when {@link #start} left the level alone. */
  private PerfLevel restore;
  private long deletesBefore;

  SkipProbe(RocksDB db) {
    this.db = db;
  }

  /** Starts counting on the calling thread. */
  void start() {
    PerfLevel level = db.getPerfLevel();
    if (level.getValue() < PerfLevel.ENABLE_COUNT.getValue()) {
      // UNINITIALIZED counts nothing, like DISABLE, and rocksdbjni refuses to set it.
      restore = level == PerfLevel.UNINITIALIZED ? PerfLevel.DISABLE : level;
      db.setPerfLevel(PerfLevel.ENABLE_COUNT);
    }
    PerfContext pc = db.getPerfContext();
    deletesBefore = pc.getInternalDeleteSkippedCount();
    context = pc;
  }

  /**
   * Stops counting and puts the thread's level back. Safe after a {@link #start} that threw or
   * did not run: it then returns 0.
   *
   * @return tombstones the operation skipped
   */
  long stop() {
    PerfContext pc = context;
    context = null;
    PerfLevel level = restore;
    restore = null;
    try {
      return pc == null ? 0 : pc.getInternalDeleteSkippedCount() - deletesBefore;
    } finally {
      if (level != null) {
        db.setPerfLevel(level);
      }
    }
  }
}
