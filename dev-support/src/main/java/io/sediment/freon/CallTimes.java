package io.sediment.freon;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * Time calls spent in one place, by gRPC method name (as {@code ListObjectsV2}): how many calls
 * and their summed seconds. Two places are measured: the server ({@link #ofServer}: its own
 * call-duration histogram, {@code sediment_grpc_server_call_duration_seconds}, from a call's start
 * to its close: the request's parse, the handler, the response's encoding, with the hops between
 * the transport and the handler threads) and the client's parse of responses
 * ({@link ResponseParseTimes}). Taken before and after a phase, their differences split a call's
 * latency as the client sees it into the server's part, the client's parse and the rest (the
 * transport and the client's other work). Immutable.
 */
record CallTimes(Map<String, Long> counts, Map<String, Double> seconds) {

  /** No figures (e.g. a remote target's server, whose metrics are not in this process). */
  static final CallTimes NONE = new CallTimes(Map.of(), Map.of());

  private static final String METRIC = "sediment_grpc_server_call_duration_seconds";

  CallTimes {
    counts = Map.copyOf(counts);
    seconds = Map.copyOf(seconds);
  }

  /** The server's figures in {@code registry} now. */
  static CallTimes ofServer(PrometheusRegistry registry) {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Double> seconds = new TreeMap<>();
    for (MetricSnapshot m : registry.scrape()) {
      if (m instanceof HistogramSnapshot h && h.getMetadata().getPrometheusName().equals(METRIC)) {
        for (HistogramSnapshot.HistogramDataPointSnapshot d : h.getDataPoints()) {
          String method = d.getLabels().get("method");
          counts.merge(method, d.getCount(), Long::sum);
          seconds.merge(method, d.getSum(), Double::sum);
        }
      }
    }
    return new CallTimes(counts, seconds);
  }

  /** The calls made since {@code earlier} (an earlier snapshot of the same place). */
  CallTimes since(CallTimes earlier) {
    Map<String, Long> c = new TreeMap<>();
    Map<String, Double> s = new TreeMap<>();
    counts.forEach((method, n) -> {
      long calls = n - earlier.counts.getOrDefault(method, 0L);
      if (calls > 0) {
        c.put(method, calls);
        s.put(method, seconds.get(method) - earlier.seconds.getOrDefault(method, 0.0));
      }
    });
    return new CallTimes(c, s);
  }

  /** These calls and {@code other}'s together. */
  CallTimes plus(CallTimes other) {
    Map<String, Long> c = new TreeMap<>(counts);
    Map<String, Double> s = new TreeMap<>(seconds);
    other.counts.forEach((method, n) -> c.merge(method, n, Long::sum));
    other.seconds.forEach((method, v) -> s.merge(method, v, Double::sum));
    return new CallTimes(c, s);
  }

  /** Mean time per call in microseconds, by method (sorted by name). */
  Map<String, Double> meanMicros() {
    Map<String, Double> out = new TreeMap<>();
    counts.forEach((method, n) -> out.put(method, seconds.get(method) / n * 1e6));
    return out;
  }
}
