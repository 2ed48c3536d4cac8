package io.sediment.db.diagnostics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Registry of live resources of one kind (native RocksDB objects, pooled buffers) that must be
 * released explicitly.
 *
 * <p>A resource is registered when acquired and unregistered when released. {@link #liveCount()}
 * is exact whenever no registration or release runs concurrently. When the system property
 * {@code sediment.leakDetection} is {@code true} (the test suites set it) the registry also
 * remembers each live resource with its acquisition stack, so a test can take a
 * {@linkplain #snapshot() snapshot} before it runs and ask afterwards which resources it
 * {@linkplain #leakedSince(Set) leaked}; otherwise a registration costs one counter update and
 * {@code snapshot}/{@code leakedSince} see nothing. Thread-safe.
 */
public final class LeakRegistry {

  private static final boolean DETAILED = Boolean.getBoolean("sediment.leakDetection");
  private static final AtomicIntegerFieldUpdater<Registration> CLOSED =
      AtomicIntegerFieldUpdater.newUpdater(Registration.class, "closed");

  private final String kind;
  private final AtomicLong ids = new AtomicLong();
  private final LongAdder liveCount = new LongAdder();
  private final Map<Long, Allocation> live = new ConcurrentHashMap<>();

  public LeakRegistry(String kind) {
    this.kind = kind;
  }

  /** What was acquired, by whom, and where. */
  public record Allocation(long id, String type, String owner, Throwable site) {
    @Override
    public String toString() {
      return type + " owned by " + owner + " (#" + id + ")";
    }
  }

  /** Unregisters its resource when closed; idempotent. */
  public final class Registration implements AutoCloseable {
    /** The allocation's key in {@code live}, or 0 when details are not kept. */
    private final long id;
    /** Where the resource was acquired, or {@code null} when details are not kept. */
    private final Throwable site;
    private volatile int closed;

    private Registration(long id, Throwable site) {
      this.id = id;
      this.site = site;
    }

    /** Where the resource was acquired; {@code null} unless leak detection is on. */
    public Throwable site() {
      return site;
    }

    @Override
    public void close() {
      if (CLOSED.compareAndSet(this, 0, 1)) {
        liveCount.decrement();
        if (id != 0) {
          live.remove(id);
        }
      }
    }
  }

  /** Whether each live resource is remembered with its stack ({@code sediment.leakDetection}). */
  public static boolean detailed() {
    return DETAILED;
  }

  public String kind() {
    return kind;
  }

  public Registration register(String type, String owner) {
    return register(type, owner, null);
  }

  /**
   * As {@link #register(String, String)}, reporting {@code site} (when not {@code null}) as where
   * the resource was acquired instead of the caller's stack: for a resource that becomes one to
   * report later than it was created.
   */
  public Registration register(String type, String owner, Throwable site) {
    liveCount.increment();
    if (!DETAILED) {
      return new Registration(0, null);
    }
    long id = ids.incrementAndGet();
    Throwable where = site != null ? site : new Throwable(type + " acquired here");
    live.put(id, new Allocation(id, type, owner, where));
    return new Registration(id, where);
  }

  /** Number of resources acquired and not yet released. */
  public int liveCount() {
    return liveCount.intValue();
  }

  /** Ids of the resources alive now; empty unless leak detection is on. */
  public Set<Long> snapshot() {
    return Set.copyOf(live.keySet());
  }

  /**
   * Resources alive now that were not alive in {@code before}, oldest first; empty unless leak
   * detection is on.
   */
  public List<Allocation> leakedSince(Set<Long> before) {
    List<Allocation> leaked = new ArrayList<>();
    for (Allocation a : live.values()) {
      if (!before.contains(a.id())) {
        leaked.add(a);
      }
    }
    leaked.sort((x, y) -> Long.compare(x.id(), y.id()));
    return leaked;
  }
}
