package io.sediment.db.testing;

import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.managed.NativeTracker;
import io.sediment.db.util.LeakRegistry;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class that leaves a native RocksDB object or a {@link CodecBuffer} unreleased.
 * Registered automatically for every test class (service loader plus
 * {@code junit.jupiter.extensions.autodetection.enabled=true}); the failure lists each leaked
 * resource with its acquisition stack.
 */
public final class LeakCheckExtension implements BeforeAllCallback, AfterAllCallback {

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(LeakCheckExtension.class);
  private static final List<LeakRegistry> REGISTRIES =
      List.of(NativeTracker.REGISTRY, CodecBuffer.LEAKS);

  @Override
  public void beforeAll(ExtensionContext context) {
    for (LeakRegistry r : REGISTRIES) {
      context.getStore(NS).put(r.kind(), r.snapshot());
      context.getStore(NS).put(r.kind() + "#live", r.liveCount());
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public void afterAll(ExtensionContext context) {
    StringBuilder report = new StringBuilder();
    for (LeakRegistry r : REGISTRIES) {
      Set<Long> before = (Set<Long>) context.getStore(NS).get(r.kind());
      if (!LeakRegistry.detailed()) {
        // Only counts are kept: a class that ends with more live resources than it began leaked.
        Integer live = (Integer) context.getStore(NS).get(r.kind() + "#live");
        int now = r.liveCount();
        if (live != null && now > live) {
          report.append("\n  ").append(now - live).append(" ").append(r.kind())
              .append("(s) leaked (run with -Dsediment.leakDetection=true for their stacks)");
        }
        continue;
      }
      List<LeakRegistry.Allocation> leaked = r.leakedSince(before == null ? Set.of() : before);
      for (LeakRegistry.Allocation a : leaked) {
        report.append("\n  leaked ").append(r.kind()).append(": ").append(a);
        if (a.site() != null) {
          StackTraceElement[] st = a.site().getStackTrace();
          for (int i = 0; i < Math.min(12, st.length); i++) {
            report.append("\n      at ").append(st[i]);
          }
        }
      }
    }
    if (report.length() > 0) {
      throw new AssertionError(context.getDisplayName() + " leaked resources:" + report);
    }
  }
}
