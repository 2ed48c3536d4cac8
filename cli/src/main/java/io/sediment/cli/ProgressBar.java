package io.sediment.cli;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress bar on stderr ({@code \r}-redrawn, at most every 100 ms): bar, percent,
 * done/total and rate. Thread-safe: workers call {@link #step()}, any thread may redraw.
 */
final class ProgressBar {

  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final boolean enabled;
  private final long total;
  private final AtomicLong done = new AtomicLong();
  private final long startNanos = System.nanoTime();
  private volatile long lastDraw;
  private volatile String phase = "";

  ProgressBar(PrintWriter err, long total, boolean enabled) {
    this.err = err;
    this.total = Math.max(1, total);
    this.enabled = enabled;
  }

  void phase(String name) {
    phase = name;
    draw(true);
  }

  void step() {
    done.incrementAndGet();
    draw(false);
  }

  /** Draws the final state and ends the line. */
  void finish() {
    draw(true);
    if (enabled) {
      synchronized (err) {
        err.println();
        err.flush();
      }
    }
  }

  long done() {
    return done.get();
  }

  private void draw(boolean force) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if (!force && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    long d = Math.min(done.get(), total);
    int filled = (int) (WIDTH * d / total);
    double secs = Math.max(1e-3, (now - startNanos) / 1e9);
    String line = String.format("\rload [%s%s] %3d%% %d/%d ops %6.0f ops/s %-28s",
        "#".repeat(filled), "-".repeat(WIDTH - filled), 100 * d / total, d, total, d / secs, phase);
    synchronized (err) {
      err.print(line);
      err.flush();
    }
  }
}
