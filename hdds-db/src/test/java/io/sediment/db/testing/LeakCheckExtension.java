package io.sediment.db.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class that leaves a native RocksDB object or a
 * {@link io.sediment.db.codec.CodecBuffer} unreleased, or an iterator open until its store's close
 * closed it ({@link LeakCheck}). Registered automatically for every test class (service loader
 * plus {@code junit.jupiter.extensions.autodetection.enabled=true}); the failure lists each leaked
 * resource with its acquisition stack.
 */
public final class LeakCheckExtension implements BeforeAllCallback, AfterAllCallback {

  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(LeakCheckExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getStore(NS).put(LeakCheck.class, LeakCheck.begin());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    LeakCheck check = context.getStore(NS).get(LeakCheck.class, LeakCheck.class);
    String report = check == null ? "" : check.report();
    if (!report.isEmpty()) {
      throw new AssertionError(context.getDisplayName() + " leaked resources:" + report);
    }
  }
}
