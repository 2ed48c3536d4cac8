package io.sediment.db.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.function.BooleanSupplier;

/** Waits, bounded, for a condition that a background thread makes true. */
public final class Eventually {

  private Eventually() {
  }

  /** Polls {@code condition} every 100 ms; fails the test naming {@code what} after {@code millis}. */
  public static void waitFor(BooleanSupplier condition, long millis, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("Timed out after " + millis + " ms waiting for " + what);
      }
      Thread.sleep(100);
    }
  }
}
