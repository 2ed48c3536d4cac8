package io.sediment.db.managed;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.rocksdb.AbstractNativeReference;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native iterators of one database: opened with the read options and bound slices they own,
 * tracked until closed (counted, with the most open at once), and closed by the database's close
 * for owners who left them open. Thread-safe.
 */
final class OpenIterators {

  private static final Logger LOG = LoggerFactory.getLogger(RocksDatabase.class);

  private final Set<ManagedRocksIterator> open = ConcurrentHashMap.newKeySet();
  /** {@code open.size()}, kept alongside so the peak costs no set traversal. */
  private final AtomicInteger count = new AtomicInteger();
  private final AtomicInteger peak = new AtomicInteger();
  /** What an iterator calls when it closes. */
  private final Consumer<ManagedRocksIterator> onClose = it -> {
    if (open.remove(it)) {
      count.decrementAndGet();
    }
  };

  /**
   * A new, unpositioned iterator over {@code family} read through {@code shared} (the store's or
   * a snapshot's read options), natively bounded to {@code [lowerInclusive, upperExclusive)}
   * where a bound is not {@code null}; it counts skipped entries through {@code counting} when
   * that is not {@code null}. Call it inside a guarded operation of the database.
   */
  ManagedRocksIterator open(RocksDB rocks, ColumnFamilyHandle family, ReadOptions shared,
      byte[] lowerInclusive, byte[] upperExclusive, Managed<RocksDB> counting,
      ManagedSnapshot snapshot, OperationGuard guard, String owner) {
    // Unbounded: nothing per iterator to point at, so it shares the store's (or the snapshot's)
    // read options, which nothing mutates. RocksDB copies them into the iterator and reads the
    // snapshot's sequence number at creation, so a snapshot closed before its iterators frees
    // nothing they still read.
    List<Managed<?>> closeOrder = new ArrayList<>(4);
    ReadOptions ro = shared;
    try {
      if (lowerInclusive != null || upperExclusive != null) {
        ro = own(closeOrder, new ReadOptions(), owner);
        if (snapshot != null) {
          ro.setSnapshot(snapshot.nativeSnapshot());
        }
        if (lowerInclusive != null) {
          ro.setIterateLowerBound(own(closeOrder, new Slice(lowerInclusive), owner));
        }
        if (upperExclusive != null) {
          ro.setIterateUpperBound(own(closeOrder, new Slice(upperExclusive), owner));
        }
      }
      // Close order: the iterator first, then its read options, then the slices they point to.
      Managed<RocksIterator> it = Managed.of(rocks.newIterator(family, ro), owner);
      closeOrder.add(0, it);
      ManagedRocksIterator iterator = new ManagedRocksIterator(it, List.copyOf(closeOrder), guard,
          onClose, lowerInclusive == null ? null : lowerInclusive.clone(),
          upperExclusive == null ? null : upperExclusive.clone(), counting);
      open.add(iterator);
      peak.accumulateAndGet(count.incrementAndGet(), Math::max);
      return iterator;
    } catch (RuntimeException e) {
      closeOrder.forEach(Managed::close);
      throw e;
    }
  }

  private static <T extends AbstractNativeReference> T own(List<Managed<?>> owned, T object,
      String owner) {
    owned.add(Managed.of(object, owner));
    return object;
  }

  /** Number of iterators created and not yet closed. */
  int count() {
    return open.size();
  }

  /** The most iterators open at once since the database opened or the last {@link #resetPeak()}. */
  int peak() {
    return peak.get();
  }

  /** Restarts {@link #peak()} from the number of iterators open now. */
  void resetPeak() {
    peak.set(count.get());
  }

  /**
   * Waits until {@code graceEndNanos} ({@link System#nanoTime()}) for owners to close their
   * iterators, then closes the rest for them ({@link ManagedRocksIterator#abandon}). Call it only
   * once no operation is in flight on the database.
   */
  void closeLeftOpen(String store, long graceEndNanos) {
    while (!open.isEmpty() && System.nanoTime() - graceEndNanos < 0) {
      LockSupport.parkNanos(1_000_000L);
    }
    if (open.isEmpty()) {
      return;
    }
    LOG.warn("Store {}: closing {} iterators left open by their owners", store, open.size());
    for (ManagedRocksIterator it : new ArrayList<>(open)) {
      try {
        it.abandon(store);
      } catch (RuntimeException e) {
        // The native iterator is closed by then; what failed is its owner's release, which
        // must not keep the store's own objects from being freed.
        LOG.warn("Store {}: releasing an abandoned iterator's resources failed", store, e);
      }
    }
  }
}
