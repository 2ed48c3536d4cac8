package io.sediment.freon;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * The time calls spent in the server, by gRPC method: the count and the summed seconds of the
 * server's own call-duration histogram ({@code sediment_grpc_server_call_duration_seconds}, from
 * a call's start to its close: the request's parse, the handler, the response's encoding, with
 * the hops between the transport and the handler threads). Taken before and after a phase, their
 * difference splits a call's latency as the client sees it into the server's part and the rest
 * (transport and the client's own work). Immutable.
 */
record ServerCallTimes(Map<String, Long> counts, Map<String, Double> seconds) {

  /** No figures (a remote target, whose metrics are not in this process). */
  static final ServerCallTimes NONE = new ServerCallTimes(Map.of(), Map.of());

  private static final String METRIC = "sediment_grpc_server_call_duration_seconds";

  ServerCallTimes {
    counts = Map.copyOf(counts);
    seconds = Map.copyOf(seconds);
  }

  /** What {@code registry} holds now, by method name (as {@code ListObjectsV2}). */
  static ServerCallTimes of(PrometheusRegistry registry) {
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
    return new ServerCallTimes(counts, seconds);
  }

  /** The calls made since {@code earlier} (a snapshot of the same registry). */
  ServerCallTimes since(ServerCallTimes earlier) {
    Map<String, Long> c = new TreeMap<>();
    Map<String, Double> s = new TreeMap<>();
    counts.forEach((method, n) -> {
      long calls = n - earlier.counts.getOrDefault(method, 0L);
      if (calls > 0) {
        c.put(method, calls);
        s.put(method, seconds.get(method) - earlier.seconds.getOrDefault(method, 0.0));
      }
    });
    return new ServerCallTimes(c, s);
  }

  /** These calls and {@code other}'s together. */
  ServerCallTimes plus(ServerCallTimes other) {
    Map<String, Long> c = new TreeMap<>(counts);
    Map<String, Double> s = new TreeMap<>(seconds);
    other.counts.forEach((method, n) -> c.merge(method, n, Long::sum));
    other.seconds.forEach((method, v) -> s.merge(method, v, Double::sum));
    return new ServerCallTimes(c, s);
  }

  /** Mean time in the server per call in microseconds, by method (sorted by name). */
  Map<String, Double> meanMicros() {
    Map<String, Double> out = new TreeMap<>();
    counts.forEach((method, n) -> out.put(method, seconds.get(method) / n * 1e6));
    return out;
  }
}
