package io.sediment.db.managed;

import java.util.HashSet;
import java.util.Set;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The manual compactions running on one database, so that its close can cancel them instead of
 * waiting for them. Thread-safe.
 */
final class ManualCompactions {

  /** Guarded by itself, as is {@link #cancelled}. */
  private final Set<CompactRangeOptions> running = new HashSet<>();
  private boolean cancelled;

  /**
   * Compacts the keys of {@code family} in {@code [begin, end]} (a {@code null} end is open) down
   * to the bottommost level, rewriting bottommost files too so their tombstones are dropped.
   *
   * @throws RocksDBException if it fails, or status {@code Incomplete} if {@link #cancelAll()}
   *     ran before or while it ran
   */
  void compact(RocksDB rocks, ColumnFamilyHandle family, byte[] begin, byte[] end, String owner)
      throws RocksDBException {
    try (Managed<CompactRangeOptions> cro = Managed.of(new CompactRangeOptions(), owner)) {
      cro.get().setBottommostLevelCompaction(
          CompactRangeOptions.BottommostLevelCompaction.kForceOptimized);
      cro.get().setExclusiveManualCompaction(false);
      // Registered and removed under the set's lock, which cancelAll runs under: it never cancels
      // options already freed, and a compaction registered after it cancels itself.
      synchronized (running) {
        running.add(cro.get());
        if (cancelled) {
          cro.get().setCanceled(true);
        }
      }
      try {
        rocks.compactRange(family, begin, end, cro.get());
      } finally {
        synchronized (running) {
          running.remove(cro.get());
        }
      }
    }
  }

  /** Cancels every compaction running now or started later. */
  void cancelAll() {
    synchronized (running) {
      cancelled = true;
      for (CompactRangeOptions r : running) {
        r.setCanceled(true);
      }
    }
  }
}
