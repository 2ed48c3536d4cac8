package io.sediment.db.util;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Registry of live resources of one kind (native RocksDB objects, pooled buffers) that must be
 * released explicitly.
 *
 * <p>A resource is registered when acquired and unregistered when released, so a test can take
 * a {@linkplain #snapshot() snapshot} before it runs and ask afterwards which resources it
 * {@linkplain #leakedSince(Set) leaked}. Acquisition stacks are captured only when the system
 * property {@code sediment.leakDetection} is {@code true} (the test suites set it); otherwise a
 * registration costs one map insert. Thread-safe.
 */
public final class LeakRegistry {

  private static final boolean CAPTURE_STACKS = Boolean.getBoolean("sediment.leakDetection");

  private final String kind;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Allocation> live = new ConcurrentHashMap<>();

  public LeakRegistry(String kind) {
    this.kind = kind;
  }

  /** What was acquired, by whom, and (when captured) where. */
  public record Allocation(long id, String type, String owner, Throwable site) {
    @Override
    public String toString() {
      return type + " owned by " + owner + " (#" + id + ")";
    }
  }

  /** Removes its allocation from the registry when closed; idempotent. */
  public final class Registration implements AutoCloseable {
    private final long id;

    private Registration(long id) {
      this.id = id;
    }

    @Override
    public void close() {
      live.remove(id);
    }
  }

  public String kind() {
    return kind;
  }

  public Registration register(String type, String owner) {
    long id = ids.incrementAndGet();
    Throwable site = CAPTURE_STACKS ? new Throwable(type + " acquired here") : null;
    live.put(id, new Allocation(id, type, owner, site));
    return new Registration(id);
  }

  /** Number of resources acquired and not yet released. */
  public int liveCount() {
    return live.size();
  }

  /** Ids of the resources alive now. */
  public Set<Long> snapshot() {
    return Set.copyOf(live.keySet());
  }

  /** Resources alive now that were not alive in {@code before}, oldest first. */
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
