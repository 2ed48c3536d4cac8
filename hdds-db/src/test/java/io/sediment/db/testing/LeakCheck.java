package io.sediment.db.testing;

import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.diagnostics.LeakRegistry;
import io.sediment.db.managed.AbandonedIterators;
import io.sediment.db.managed.NativeTracker;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a test left behind since a baseline: live native RocksDB objects, unreleased
 * {@link CodecBuffer}s, and iterators that a store's close had to close because their owners had
 * not ({@link AbandonedIterators}; these count even when the owner closed the iterator afterwards,
 * and a test that abandons iterators on purpose acknowledges them with
 * {@link AbandonedIterators#acknowledgeSince}). With leak detection on, each entry is reported with
 * the stack that acquired it; without, only the counts are compared.
 */
public final class LeakCheck {

  /** The live native RocksDB objects of every store in this JVM. */
  public static final LeakRegistry NATIVE_OBJECTS = NativeTracker.REGISTRY;

  /** The registries checked. */
  public static final List<LeakRegistry> REGISTRIES =
      List.of(NativeTracker.REGISTRY, CodecBuffer.LEAKS, AbandonedIterators.REGISTRY);

  private final Map<LeakRegistry, Set<Long>> before = new HashMap<>();
  private final Map<LeakRegistry, Integer> liveBefore = new HashMap<>();

  private LeakCheck() {
    for (LeakRegistry r : REGISTRIES) {
      before.put(r, r.snapshot());
      liveBefore.put(r, r.liveCount());
    }
  }

  /**
   * Whether the registries remember each live resource with its stack
   * ({@code -Dsediment.leakDetection=true}), as {@link LeakRegistry#leakedSince} needs.
   */
  public static boolean detailed() {
    return LeakRegistry.detailed();
  }

  /** A baseline of every registry now. */
  public static LeakCheck begin() {
    return new LeakCheck();
  }

  /** What is live now and was not at the baseline, one entry a line; empty when nothing. */
  public String report() {
    StringBuilder report = new StringBuilder();
    for (LeakRegistry r : REGISTRIES) {
      if (!LeakRegistry.detailed()) {
        // Only counts are kept: more live entries than at the baseline is a leak.
        int now = r.liveCount();
        int live = liveBefore.get(r);
        if (now > live) {
          report.append("\n  ").append(now - live).append(" ").append(r.kind())
              .append("(s) leaked (run with -Dsediment.leakDetection=true for their stacks)");
        }
        continue;
      }
      for (LeakRegistry.Allocation a : r.leakedSince(before.get(r))) {
        report.append("\n  leaked ").append(r.kind()).append(": ").append(a);
        if (a.site() != null) {
          StackTraceElement[] st = a.site().getStackTrace();
          for (int i = 0; i < Math.min(12, st.length); i++) {
            report.append("\n      at ").append(st[i]);
          }
        }
      }
    }
    return report.toString();
  }
}
