package io.sediment.om.grpc;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.om.service.BackgroundService;
import io.sediment.om.service.OmServices;
import io.sediment.om.service.ServiceMetrics;
import java.util.function.ToDoubleFunction;

/**
 * The background services' counters on {@code /prom}, read from
 * {@link BackgroundService#metrics()} at each scrape, one series per service (label
 * {@code service}, e.g. {@code KeyDeletingService}): {@code sediment_background_runs_total},
 * {@code _failures_total}, {@code _batches_total}, {@code _items_total} (rows purged, expired or
 * aborted), the gauge {@code sediment_background_rows_per_second} (the rate of the run in
 * progress, else of the latest run, pauses included) and {@code _run_in_progress} (1 or 0).
 * {@code rate(sediment_background_items_total[1m])} is the purge rate over a window.
 *
 * <p>Registered once per registry (registering twice fails). Thread-safe.
 */
final class BackgroundServiceMetrics {

  private BackgroundServiceMetrics() {
  }

  static void register(PrometheusRegistry registry, OmServices services) {
    counter(registry, services, "sediment_background_runs_total",
        "Background service runs begun", ServiceMetrics::runs);
    counter(registry, services, "sediment_background_failures_total",
        "Background service runs that failed", ServiceMetrics::failures);
    counter(registry, services, "sediment_background_batches_total",
        "Background service batches completed", ServiceMetrics::batches);
    counter(registry, services, "sediment_background_items_total",
        "Rows the background services purged, expired or aborted", ServiceMetrics::itemsProcessed);
    gauge(registry, services, "sediment_background_rows_per_second",
        "Items per second of the run in progress, else of the latest run (pauses included)",
        ServiceMetrics::rowsPerSecond);
    gauge(registry, services, "sediment_background_run_in_progress",
        "1 while a run of the service is in progress, else 0",
        m -> m.runInProgress() ? 1 : 0);
  }

  private static void counter(PrometheusRegistry registry, OmServices services, String name,
      String help, ToDoubleFunction<ServiceMetrics> value) {
    CounterWithCallback.builder().name(name).help(help).labelNames("service")
        .callback(cb -> {
          for (BackgroundService s : services.services()) {
            cb.call(value.applyAsDouble(s.metrics()), s.name());
          }
        })
        .register(registry);
  }

  private static void gauge(PrometheusRegistry registry, OmServices services, String name,
      String help, ToDoubleFunction<ServiceMetrics> value) {
    GaugeWithCallback.builder().name(name).help(help).labelNames("service")
        .callback(cb -> {
          for (BackgroundService s : services.services()) {
            cb.call(value.applyAsDouble(s.metrics()), s.name());
          }
        })
        .register(registry);
  }
}
