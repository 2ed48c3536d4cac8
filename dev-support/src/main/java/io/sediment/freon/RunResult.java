package io.sediment.freon;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What one measured run did: successful operations (latency in nanoseconds, overall and per
 * {@link OpType}), failures by status, its length, whether it ended because the key space ran
 * out (a delete run that deleted everything), the time its calls spent in the server by the
 * server's own metrics ({@link CallTimes#NONE} when not known) and the time the client spent
 * parsing their responses ({@link CallTimes#NONE} when it made no call). Histograms are owned by
 * this result; do not change them.
 */
record RunResult(String name, double seconds, Histogram latency, Map<OpType, Histogram> byType,
    Map<String, Long> errors, boolean exhausted, CallTimes server, CallTimes parse) {

  RunResult(String name, double seconds, Histogram latency, Map<OpType, Histogram> byType,
      Map<String, Long> errors, boolean exhausted) {
    this(name, seconds, latency, byType, errors, exhausted, CallTimes.NONE, CallTimes.NONE);
  }

  /** This result with the server's figures for its calls and the client's for its parses. */
  RunResult withCallTimes(CallTimes server, CallTimes parse) {
    return new RunResult(name, seconds, latency, byType, errors, exhausted, server, parse);
  }

  /**
   * This result and {@code other} (the same phase, a later round) as one: operations, errors and
   * seconds added, histograms merged into new ones.
   */
  RunResult plus(RunResult other) {
    Histogram all = latency.copy();
    all.add(other.latency);
    Map<OpType, Histogram> types = new java.util.EnumMap<>(OpType.class);
    byType.forEach((t, h) -> types.put(t, h.copy()));
    other.byType.forEach((t, h) -> types.merge(t, h.copy(), (a, b) -> {
      a.add(b);
      return a;
    }));
    Map<String, Long> errs = new java.util.TreeMap<>(errors);
    other.errors.forEach((k, v) -> errs.merge(k, v, Long::sum));
    return new RunResult(name, seconds + other.seconds, all, types, errs,
        exhausted || other.exhausted, server.plus(other.server), parse.plus(other.parse));
  }

  /** Successful operations. */
  long operations() {
    return latency.getTotalCount();
  }

  /** Failed operations. */
  long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Successful operations per second over the run. */
  double throughput() {
    return seconds <= 0 ? 0 : operations() / seconds;
  }

  /** Latency at {@code percentile} (0-100) in microseconds; 0 with no operation. */
  double micros(double percentile) {
    return latency.getTotalCount() == 0 ? 0
        : latency.getValueAtPercentile(percentile) / 1_000.0;
  }

  /** Largest latency in microseconds. */
  double maxMicros() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1_000.0;
  }

  /** Mean latency in microseconds. */
  double meanMicros() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1_000.0;
  }
}
