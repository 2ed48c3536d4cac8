package io.sediment.freon;

import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Runs one measured phase: {@code clients} threads, each taking operations from its own
 * generator and running them through one executor, closed loop (the next operation starts when
 * the previous one ends), until the duration is over or the count of operations (successful or
 * not) is reached, whichever comes first, or a generator runs out. Records each operation's
 * latency (System.nanoTime around it) in HdrHistograms (3 significant digits) and prints one
 * progress line a second when asked. One phase per instance; not reusable.
 */
final class LoadDriver {

  /**
   * How a phase stops: after {@code duration} ({@code null}: no limit), or after {@code count}
   * operations ({@code 0}: no limit), whichever comes first.
   */
  record Stop(Duration duration, long count) {
    Stop {
      if (duration == null && count <= 0) {
        throw new IllegalArgumentException("A duration or a count is needed");
      }
    }
  }

  private final String name;
  private final int clients;
  private final Stop stop;
  private final PrintStream progress;

  /**
   * @param progress where to print one line a second, or {@code null} for none
   */
  LoadDriver(String name, int clients, Stop stop, PrintStream progress) {
    if (clients < 1) {
      throw new IllegalArgumentException("At least one client is needed: " + clients);
    }
    this.name = name;
    this.clients = clients;
    this.stop = stop;
    this.progress = progress;
  }

  /** Runs the phase and returns what it did; {@code generators} gives client i's generator. */
  RunResult run(IntFunction<OpGenerator> generators, OpExecutor executor)
      throws InterruptedException {
    Map<OpType, Recorder> recorders = new EnumMap<>(OpType.class);
    Map<OpType, Histogram> totals = new EnumMap<>(OpType.class);
    for (OpType t : OpType.values()) {
      recorders.put(t, new Recorder(3));
      totals.put(t, new Histogram(3));
    }
    Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    AtomicLong remaining = new AtomicLong(stop.count() > 0 ? stop.count() : Long.MAX_VALUE);
    AtomicBoolean exhausted = new AtomicBoolean();
    long start = System.nanoTime();
    long deadline = stop.duration() == null ? Long.MAX_VALUE
        : start + stop.duration().toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      OpGenerator generator = generators.apply(c);
      Thread t = new Thread(() -> {
        while (System.nanoTime() < deadline && remaining.getAndDecrement() > 0) {
          Op op = generator.next();
          if (op == null) {
            exhausted.set(true);
            return;
          }
          long t0 = System.nanoTime();
          try {
            executor.run(op);
            recorders.get(op.type()).recordValue(System.nanoTime() - t0);
          } catch (StatusRuntimeException e) {
            errors.computeIfAbsent(e.getStatus().getCode().name(), k -> new LongAdder())
                .increment();
          } catch (RuntimeException e) {
            errors.computeIfAbsent(e.getClass().getSimpleName() + ": " + e.getMessage(),
                k -> new LongAdder()).increment();
          }
        }
      }, "freon-" + name + "-" + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    long lastOps = 0;
    long next = start + 1_000_000_000L;
    for (Thread t : threads) {
      while (t.isAlive()) {
        long wait = Math.max(1, (next - System.nanoTime()) / 1_000_000);
        t.join(wait);
        if (System.nanoTime() >= next) {
          Histogram interval = drain(recorders, totals);
          long ops = 0;
          for (Histogram h : totals.values()) {
            ops += h.getTotalCount();
          }
          if (progress != null) {
            progress.printf("freon %s %4ds  %,12d ops  %,10d ops/s  p99 %,10.1f us  errors %,d%n",
                name, (System.nanoTime() - start) / 1_000_000_000L, ops, ops - lastOps,
                interval.getTotalCount() == 0 ? 0.0
                    : interval.getValueAtPercentile(99) / 1_000.0,
                errors.values().stream().mapToLong(LongAdder::sum).sum());
          }
          lastOps = ops;
          next += 1_000_000_000L;
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    drain(recorders, totals);
    Histogram all = new Histogram(3);
    Map<OpType, Histogram> byType = new EnumMap<>(OpType.class);
    totals.forEach((t, h) -> {
      if (h.getTotalCount() > 0) {
        all.add(h);
        byType.put(t, h);
      }
    });
    Map<String, Long> errorCounts = new TreeMap<>();
    errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
    return new RunResult(name, seconds, all, byType, errorCounts, exhausted.get());
  }

  /** Moves what the recorders hold into the totals; returns the interval's union. */
  private static Histogram drain(Map<OpType, Recorder> recorders, Map<OpType, Histogram> totals) {
    Histogram interval = new Histogram(3);
    recorders.forEach((t, r) -> {
      Histogram h = r.getIntervalHistogram();
      totals.get(t).add(h);
      interval.add(h);
    });
    return interval;
  }
}
