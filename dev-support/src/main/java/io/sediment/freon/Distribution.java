package io.sediment.freon;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How a run picks which existing key (or page) an operation touches among {@code bound}
 * candidates, index 0 being the first key name in order. Thread-safe.
 */
public interface Distribution {

  /** An index in {@code [0, bound)}; {@code bound >= 1}. */
  long next(SplittableRandom random, long bound);

  /**
   * The distribution named {@code name}: {@code uniform}, {@code zipfian} (skew 0.99 over
   * {@code keys} ranks, rank 0 hottest, as YCSB's default) or {@code sequential} (one shared
   * cursor, wrapping).
   *
   * @throws IllegalArgumentException for any other name
   */
  static Distribution named(String name, long keys) {
    switch (name) {
      case "uniform":
        return (random, bound) -> random.nextLong(bound);
      case "zipfian":
        return new Zipfian(Math.max(1, keys), 0.99);
      case "sequential": {
        AtomicLong cursor = new AtomicLong();
        return (random, bound) -> Math.floorMod(cursor.getAndIncrement(), bound);
      }
      default:
        throw new IllegalArgumentException(
            "Unknown distribution '" + name + "' (uniform, zipfian or sequential)");
    }
  }
}
