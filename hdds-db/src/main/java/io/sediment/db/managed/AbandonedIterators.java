package io.sediment.db.managed;

import io.sediment.db.diagnostics.LeakRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The iterators that a store's close closed because their owners had left them open: each one is
 * an owner that lost track of an iterator (or closed the store before its iterators), even when it
 * closes the iterator later. The store frees such an iterator's native objects and buffers itself,
 * so nothing leaks from the process's point of view; this registry keeps the owner's mistake
 * visible. Entries stay until {@linkplain #acknowledgeSince acknowledged}: the test leak check
 * fails a test class that ends with more of them than it started with, naming where each iterator
 * was created when leak detection is on. Thread-safe.
 */
public final class AbandonedIterators {

  /** One entry per iterator closed by its store's close rather than by its owner. */
  public static final LeakRegistry REGISTRY =
      new LeakRegistry("iterator left open until its store closed");

  private static final AtomicLong SEQUENCE = new AtomicLong();
  /** Unacknowledged entries, oldest first; guarded by itself. */
  private static final List<Entry> ENTRIES = new ArrayList<>();

  private record Entry(long sequence, LeakRegistry.Registration registration) {
  }

  private AbandonedIterators() {
  }

  /** Records one iterator of {@code store} closed for its owner, created at {@code site}. */
  static void record(String store, Throwable site) {
    LeakRegistry.Registration r = REGISTRY.register("RocksIterator", store, site);
    synchronized (ENTRIES) {
      ENTRIES.add(new Entry(SEQUENCE.incrementAndGet(), r));
    }
  }

  /** A point to {@linkplain #acknowledgeSince acknowledge} abandoned iterators from. */
  public static long mark() {
    return SEQUENCE.get();
  }

  /**
   * Removes the iterators abandoned since {@code mark} from the registry and returns how many there
   * were: for a test that leaves iterators open on purpose to prove the store's force-close, which
   * asserts the number it expected.
   */
  public static int acknowledgeSince(long mark) {
    int n = 0;
    synchronized (ENTRIES) {
      for (var it = ENTRIES.iterator(); it.hasNext(); ) {
        Entry e = it.next();
        if (e.sequence() > mark) {
          e.registration().close();
          it.remove();
          n++;
        }
      }
    }
    return n;
  }
}
