package io.sediment.db.managed;

import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * Counts what one iterator operation skipped, from RocksDB's thread-local {@code PerfContext}:
 * {@link #start} turns counting on for the calling thread and resets the counters,
 * {@link #stop} reads them and turns counting off again. Both must run on the thread that runs the
 * operation. {@code PerfContext} objects own no memory (their close is a no-op), so they are not
 * registered with the {@link NativeTracker}.
 */
final class SkipProbe {

  private SkipProbe() {
  }

  static void start(RocksDB db) {
    db.setPerfLevel(PerfLevel.ENABLE_COUNT);
    try (PerfContext pc = db.getPerfContext()) {
      pc.reset();
    }
  }

  /** Stores the counts into {@code into}: tombstones skipped, entries skipped, range-delete reseeks. */
  static void stop(RocksDB db, long[] into) {
    try (PerfContext pc = db.getPerfContext()) {
      into[0] = pc.getInternalDeleteSkippedCount();
      into[1] = pc.getInternalKeySkippedCount();
      into[2] = pc.getInternalRangeDelReseekCount();
    } finally {
      db.setPerfLevel(PerfLevel.DISABLE);
    }
  }
}
