package io.sediment.cli;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A one-line progress bar on stderr ({@code \r}-redrawn, at most every 100 ms): label, bar,
 * percent, done/total and rate; with no known total, only the count done and the rate. Disabled,
 * it draws nothing. Thread-safe: workers call {@link #step()}, any thread may redraw.
 */
final class ProgressBar {

  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final boolean enabled;
  private final String label;
  private final String unit;
  /** 0: unknown. */
  private final long total;
  private final AtomicLong done = new AtomicLong();
  private final long startNanos = System.nanoTime();
  private volatile long lastDraw;
  private volatile String phase = "";

  /** The loader's bar: "load", counting ops. */
  ProgressBar(PrintWriter err, long total, boolean enabled) {
    this(err, "load", "ops", Math.max(1, total), enabled);
  }

  /**
   * @param label the word before the bar
   * @param unit what is counted, after the numbers
   * @param total how many steps make 100 %; 0 when unknown (no bar, no percent)
   */
  ProgressBar(PrintWriter err, String label, String unit, long total, boolean enabled) {
    this.err = err;
    this.label = label;
    this.unit = unit;
    this.total = Math.max(0, total);
    this.enabled = enabled;
  }

  void phase(String name) {
    phase = name;
    draw(true);
  }

  void step() {
    step(1);
  }

  /** {@code n} more steps done. */
  void step(long n) {
    done.addAndGet(n);
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
    double secs = Math.max(1e-3, (now - startNanos) / 1e9);
    String line;
    if (total == 0) {
      long d = done.get();
      line = String.format("\r%s %d %s %6.0f %s/s %-28s", label, d, unit, d / secs, unit, phase);
    } else {
      long d = Math.min(done.get(), total);
      int filled = (int) (WIDTH * d / total);
      line = String.format("\r%s [%s%s] %3d%% %d/%d %s %6.0f %s/s %-28s", label,
          "#".repeat(filled), "-".repeat(WIDTH - filled), 100 * d / total, d, total, unit,
          d / secs, unit, phase);
    }
    synchronized (err) {
      err.print(line);
      err.flush();
    }
  }
}
