package io.sediment.db.managed;

import io.sediment.db.PinningDecision;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per open, when what a store pins in its block cache passes half the cache's
 * capacity. A store that pins its partitions ({@link PinningDecision}) keeps pinning the files it
 * writes while open, whatever their size; RocksDB cannot unpin them without reopening, so the
 * warning is the operator's cue to reopen (which lets {@code AUTO} decide again) or to choose
 * {@code PartitionPinning.NONE}. Checked after every flush and compaction, on RocksDB's
 * background thread. Thread-safe.
 */
final class PinnedUsageWatch {

  private static final Logger LOG = LoggerFactory.getLogger(PinnedUsageWatch.class);

  private final String store;
  private final long capacity;
  private final AtomicBoolean tripped = new AtomicBoolean();

  PinnedUsageWatch(String store, long capacity) {
    this.store = store;
    this.capacity = capacity;
  }

  /** Whether pinned usage has passed half the capacity since the store opened. */
  boolean tripped() {
    return tripped.get();
  }

  /** Checks {@code pinnedBytes}, as {@code rocksdb.block-cache-pinned-usage} reports it. */
  void check(long pinnedBytes) {
    if (pinnedBytes > capacity / 2 && tripped.compareAndSet(false, true)) {
      LOG.warn("Store {}: pinned index and filter partitions (and blocks pinned by readers) take"
          + " {} bytes of its {}-byte block cache, which they can outgrow; reopen the store to"
          + " let partition pinning decide again, or set PartitionPinning.NONE", store,
          pinnedBytes, capacity);
    }
  }

  /** A listener to install on the database's options; the caller owns and closes it. */
  AbstractEventListener newListener() {
    return new AbstractEventListener(AbstractEventListener.EnabledEventCallback.ON_FLUSH_COMPLETED,
        AbstractEventListener.EnabledEventCallback.ON_COMPACTION_COMPLETED) {
      @Override
      public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
        checkIn(db);
      }

      @Override
      public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
        checkIn(db);
      }
    };
  }

  private void checkIn(RocksDB db) {
    if (tripped.get()) {
      return;
    }
    try {
      check(db.getLongProperty("rocksdb.block-cache-pinned-usage"));
    } catch (RocksDBException e) {
      // A property RocksDB cannot report is no reason to fail its flush; the next one retries.
    }
  }
}
