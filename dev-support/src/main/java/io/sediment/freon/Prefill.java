package io.sediment.freon;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * Writes the prefilled names ({@link KeySpace#key} and {@link KeySpace#file}) from several
 * threads, each index once, stopping at the first failure (rethrown). Not measured.
 */
final class Prefill {

  private Prefill() {
  }

  /**
   * Runs {@code write} for every index of {@code [0, count)} from {@code threads} threads.
   *
   * @throws IllegalStateException wrapping the first failure
   */
  static void run(String what, long count, int threads, LongConsumer write, PrintStream progress)
      throws InterruptedException {
    if (count <= 0) {
      return;
    }
    long start = System.nanoTime();
    AtomicLong next = new AtomicLong();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w = new Thread(() -> {
        long i;
        while (failure.get() == null && (i = next.getAndIncrement()) < count) {
          try {
            write.accept(i);
          } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
          }
        }
      }, "freon-prefill-" + t);
      w.setDaemon(true);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    if (failure.get() != null) {
      throw new IllegalStateException("Prefill of " + what + " failed: " + failure.get().getMessage(),
          failure.get());
    }
    if (progress != null) {
      progress.printf("freon prefill: %,d %s in %.1f s%n", count, what,
          (System.nanoTime() - start) / 1e9);
    }
  }
}
