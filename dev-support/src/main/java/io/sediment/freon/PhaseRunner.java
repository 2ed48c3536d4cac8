package io.sediment.freon;

import java.io.PrintStream;
import java.time.Duration;

/**
 * Runs the phases of one freon run (the service, the echo floor, the raw floor), each the same
 * way: an optional warm-up, then the measured load with the time its calls spent in the server
 * and in the client's parse taken around it. Phases of the same round replay the same seeds, so
 * they do the same kinds of operation in the same order. Not thread-safe.
 */
final class PhaseRunner {

  private final FreonTarget target;
  private final ResponseParseTimes parses;
  private final Workload workload;
  private final Distribution distribution;
  private final int clients;
  private final int batch;
  private final long seed;
  private final PrintStream progress;

  /** {@code progress} is where the measured load prints its lines, {@code null} for none. */
  PhaseRunner(FreonTarget target, ResponseParseTimes parses, Workload workload,
      Distribution distribution, int clients, int batch, long seed, PrintStream progress) {
    this.target = target;
    this.parses = parses;
    this.workload = workload;
    this.distribution = distribution;
    this.clients = clients;
    this.batch = batch;
    this.seed = seed;
    this.progress = progress;
  }

  /**
   * One phase named {@code name} over {@code keys} through {@code executor}: a warm-up of
   * {@code warm} (none if zero; for deletes at most a quarter of the keys), then
   * {@code beforeMeasuring} (if not {@code null}), then the load measured until {@code stop}.
   */
  RunResult run(String name, KeySpace keys, LoadDriver.Stop stop, Duration warm, int round,
      OpExecutor executor, Runnable beforeMeasuring) throws InterruptedException {
    if (!warm.isZero()) {
      // A warm-up of deletes leaves three quarters of the keys to the measured run.
      long most = workload.consumesKeys() && keys.deletesRunOut()
          ? Math.max(1, keys.live() / 4 / (workload == Workload.DELETE_BATCH ? batch : 1)) : 0;
      new LoadDriver(name + "-warmup", clients, new LoadDriver.Stop(warm, most), null)
          .run(c -> new OpGenerator(workload, keys, distribution, seed * 7919 - 1 - c, batch),
              executor);
    }
    if (beforeMeasuring != null) {
      beforeMeasuring.run();
    }
    long base = seed * 7919 + round * 100_003L;
    CallTimes before = target.serverCallTimes();
    CallTimes parsedBefore = parses.snapshot();
    RunResult r = new LoadDriver(name, clients, stop, progress)
        .run(c -> new OpGenerator(workload, keys, distribution, base + c, batch), executor);
    return r.withCallTimes(target.serverCallTimes().since(before),
        parses.snapshot().since(parsedBefore));
  }
}
