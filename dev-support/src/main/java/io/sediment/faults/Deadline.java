package io.sediment.faults;

import java.time.Duration;

/** The campaign's overall time limit: parts not started before it are skipped. */
final class Deadline {

  private final long endNanos;

  Deadline(Duration limit) {
    this.endNanos = System.nanoTime() + limit.toNanos();
  }

  boolean passed() {
    return System.nanoTime() > endNanos;
  }
}
