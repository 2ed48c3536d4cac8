package io.sediment.freon;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The summary of one freon invocation: the service run and, when measured, its floors (a) echo
 * and (b) raw, as text and as JSON.
 *
 * <p>Floor arithmetic: the floor of an operation is its echo plus its raw work, done one after
 * the other, so the floor's latency at a percentile is the echo's plus the raw's at that
 * percentile (an upper bound of the sum's percentile), and its throughput is
 * {@code 1 / (1 / echo + 1 / raw)} (each operation costing the system both). A ratio is the
 * service's figure over the floor's: throughput below 1 and latency above 1 are the layers' cost.
 */
final class Report {

  static final double[] PERCENTILES = {50, 90, 99, 99.9};

  private final Map<String, Object> settings;
  private final RunResult service;
  private final RunResult echo;
  private final RunResult raw;
  private final PurgeRun.Result purge;

  /**
   * @param settings what was run (workload, clients, ...), printed in insertion order
   * @param echo floor (a), or {@code null} when not measured
   * @param raw floor (b), or {@code null} when not measured
   */
  Report(Map<String, Object> settings, RunResult service, RunResult echo, RunResult raw) {
    this(settings, service, echo, raw, null);
  }

  /** As above, with what the purge services did during the service phase ({@code null}: none). */
  Report(Map<String, Object> settings, RunResult service, RunResult echo, RunResult raw,
      PurgeRun.Result purge) {
    this.settings = new LinkedHashMap<>(settings);
    this.service = service;
    this.echo = echo;
    this.raw = raw;
    this.purge = purge;
  }

  RunResult service() {
    return service;
  }

  boolean hasFloors() {
    return echo != null && raw != null;
  }

  /** Floor throughput (operations per second), as the class comment defines it. */
  double floorThroughput() {
    return 1.0 / (1.0 / echo.throughput() + 1.0 / raw.throughput());
  }

  /** Floor latency in microseconds at {@code percentile}. */
  double floorMicros(double percentile) {
    return echo.micros(percentile) + raw.micros(percentile);
  }

  /** The summary as text, one table and the errors. */
  String text() {
    StringBuilder b = new StringBuilder();
    b.append("sediment freon:");
    settings.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
    b.append('\n');
    b.append(String.format(Locale.ROOT, "%-16s %11s %11s %10s %10s %10s %10s %10s %8s%n",
        "run", "ops", "ops/s", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us", "errors"));
    row(b, "service", service);
    if (service.byType().size() > 1) {
      service.byType().forEach((t, h) -> typeRow(b, "  " + t.label(), h, service.seconds()));
    }
    if (hasFloors()) {
      row(b, "(a) echo", echo);
      row(b, "(b) raw", raw);
      b.append(String.format(Locale.ROOT, "%-16s %11s %11.0f %10.1f %10.1f %10.1f %10.1f %10s %8s%n",
          "floor (a)+(b)", "", floorThroughput(), floorMicros(50), floorMicros(90),
          floorMicros(99), floorMicros(99.9), "", ""));
      b.append(String.format(Locale.ROOT, "%-16s %11s %11s %10s %10s %10s %10s%n",
          "service/floor", "", ratio(service.throughput() / floorThroughput()),
          ratio(service.micros(50) / floorMicros(50)), ratio(service.micros(90) / floorMicros(90)),
          ratio(service.micros(99) / floorMicros(99)),
          ratio(service.micros(99.9) / floorMicros(99.9))));
    } else if (purge != null) {
      b.append("floors: not measured (a purge-interference run compares with its baseline)\n");
    } else {
      b.append("floors: not measured (they need the in-process server)\n");
    }
    callTimes(b, "service", "in the server", service.server());
    callTimes(b, "service", "in the client's parse", service.parse());
    if (hasFloors()) {
      callTimes(b, "(a) echo", "in the server", echo.server());
      callTimes(b, "(a) echo", "in the client's parse", echo.parse());
    }
    if (settings.get("batch") instanceof Integer keys) {
      b.append(String.format(Locale.ROOT, "keys deleted per second (%d per call): service %,.0f",
          keys, service.throughput() * keys));
      if (hasFloors()) {
        b.append(String.format(Locale.ROOT, ", floor %,.0f", floorThroughput() * keys));
      }
      b.append('\n');
    }
    if (purge != null) {
      b.append(purge.text());
    }
    if (service.exhausted()) {
      b.append("the run ended early: no key was left to delete\n");
    }
    errors(b, "service", service);
    if (hasFloors()) {
      errors(b, "(a) echo", echo);
      errors(b, "(b) raw", raw);
    }
    return b.toString();
  }

  private static String ratio(double r) {
    return Double.isFinite(r) ? String.format(Locale.ROOT, "x%.2f", r) : "-";
  }

  private static void row(StringBuilder b, String name, RunResult r) {
    b.append(String.format(Locale.ROOT, "%-16s %,11d %11.0f %10.1f %10.1f %10.1f %10.1f %10.1f %,8d%n",
        name, r.operations(), r.throughput(), r.micros(50), r.micros(90), r.micros(99),
        r.micros(99.9), r.maxMicros(), r.errorCount()));
  }

  private static void typeRow(StringBuilder b, String name, Histogram h, double seconds) {
    b.append(String.format(Locale.ROOT, "%-16s %,11d %11.0f %10.1f %10.1f %10.1f %10.1f %10.1f%n",
        name, h.getTotalCount(), h.getTotalCount() / seconds, us(h, 50), us(h, 90), us(h, 99),
        us(h, 99.9), h.getMaxValue() / 1_000.0));
  }

  private static double us(Histogram h, double p) {
    return h.getValueAtPercentile(p) / 1_000.0;
  }

  /** One line of a run's mean time per call in {@code where}, by method, when it has figures. */
  private static void callTimes(StringBuilder b, String name, String where, CallTimes times) {
    Map<String, Double> means = times.meanMicros();
    if (means.isEmpty()) {
      return;
    }
    b.append(name).append(": mean us ").append(where).append(" per call:");
    means.forEach((method, us) -> b.append(String.format(Locale.ROOT, " %s %.1f", method, us)));
    b.append('\n');
  }

  private static void errors(StringBuilder b, String name, RunResult r) {
    if (r.errors().isEmpty()) {
      return;
    }
    b.append(name).append(" errors:");
    r.errors().forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
    b.append('\n');
  }

  /** The summary as one JSON object (see docs: README, "Load generation"). */
  String json() {
    Map<String, Object> root = new LinkedHashMap<>(settings);
    root.put("service", run(service));
    if (hasFloors()) {
      root.put("echo", run(echo));
      root.put("raw", run(raw));
      Map<String, Object> floor = new LinkedHashMap<>();
      floor.put("throughput", floorThroughput());
      Map<String, Object> lat = new LinkedHashMap<>();
      Map<String, Object> ratios = new LinkedHashMap<>();
      ratios.put("throughput", service.throughput() / floorThroughput());
      for (double p : PERCENTILES) {
        lat.put(label(p), floorMicros(p));
        ratios.put(label(p), service.micros(p) / floorMicros(p));
      }
      floor.put("latency_us", lat);
      root.put("floor", floor);
      root.put("ratio", ratios);
    }
    if (purge != null) {
      root.put("purge", purge.json());
    }
    return Json.write(root);
  }

  private static String label(double p) {
    return p == 99.9 ? "p99.9" : "p" + (int) p;
  }

  private static Map<String, Object> run(RunResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seconds", r.seconds());
    m.put("operations", r.operations());
    m.put("throughput", r.throughput());
    m.put("latency_us", latency(r.latency()));
    Map<String, Object> types = new LinkedHashMap<>();
    r.byType().forEach((t, h) -> {
      Map<String, Object> tm = new LinkedHashMap<>();
      tm.put("operations", h.getTotalCount());
      tm.put("latency_us", latency(h));
      types.put(t.label(), tm);
    });
    m.put("by_type", types);
    m.put("errors", new LinkedHashMap<>(r.errors()));
    m.put("server_call_us", new LinkedHashMap<>(r.server().meanMicros()));
    m.put("client_parse_us", new LinkedHashMap<>(r.parse().meanMicros()));
    m.put("exhausted", r.exhausted());
    return m;
  }

  private static Map<String, Object> latency(Histogram h) {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean any = h.getTotalCount() > 0;
    for (double p : PERCENTILES) {
      m.put(label(p), any ? us(h, p) : 0.0);
    }
    m.put("max", any ? h.getMaxValue() / 1_000.0 : 0.0);
    m.put("mean", any ? h.getMean() / 1_000.0 : 0.0);
    return m;
  }
}
