package io.sediment.om.grpc;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Per-RPC metrics, recorded by a {@link ServerInterceptor} into Prometheus metrics registered in
 * the given {@link PrometheusRegistry} (recon-api exports that registry on {@code /prom}):
 *
 * <ul>
 *   <li>{@code sediment_grpc_server_calls_total{service,method,code}}: finished calls by status
 *       code (OK included);
 *   <li>{@code sediment_grpc_server_errors_total{service,method,code}}: calls that ended with a
 *       status other than OK;
 *   <li>{@code sediment_grpc_server_call_duration_seconds{service,method}}: latency histogram from
 *       the call's start to its close or cancel;
 *   <li>{@code sediment_grpc_server_in_flight_calls{service,method}}: calls started, not ended.
 * </ul>
 *
 * A call that the client cancels is recorded once, with code {@code CANCELLED}. One instance per
 * registry (registering twice in one registry fails). Thread-safe.
 */
public final class GrpcMetrics implements ServerInterceptor {

  private final Counter calls;
  private final Counter errors;
  private final Histogram latency;
  private final Gauge inFlight;

  public GrpcMetrics(PrometheusRegistry registry) {
    this.calls = Counter.builder()
        .name("sediment_grpc_server_calls_total")
        .help("gRPC calls finished, by service, method and status code")
        .labelNames("service", "method", "code")
        .register(registry);
    this.errors = Counter.builder()
        .name("sediment_grpc_server_errors_total")
        .help("gRPC calls that ended with a status other than OK")
        .labelNames("service", "method", "code")
        .register(registry);
    this.latency = Histogram.builder()
        .name("sediment_grpc_server_call_duration_seconds")
        .help("gRPC call latency from start to close")
        .unit(Unit.SECONDS)
        .labelNames("service", "method")
        .classicOnly()
        .classicUpperBounds(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
            0.1, 0.25, 0.5, 1, 2.5, 5, 10)
        .register(registry);
    this.inFlight = Gauge.builder()
        .name("sediment_grpc_server_in_flight_calls")
        .help("gRPC calls started and not yet ended")
        .labelNames("service", "method")
        .register(registry);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String service = call.getMethodDescriptor().getServiceName();
    String method = call.getMethodDescriptor().getBareMethodName();
    Recorder recorder = new Recorder(service == null ? "" : service, method == null ? "" : method);
    ServerCall<Q, R> recorded = new SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        recorder.end(status.getCode());
        super.close(status, trailers);
      }
    };
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(recorded, headers);
    } catch (RuntimeException e) {
      recorder.end(Status.Code.UNKNOWN);
      throw e;
    }
    return new SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onCancel() {
        recorder.end(Status.Code.CANCELLED);
        super.onCancel();
      }
    };
  }

  /** Records one call exactly once. */
  private final class Recorder {
    private final String service;
    private final String method;
    private final long startNanos = System.nanoTime();
    private final AtomicBoolean ended = new AtomicBoolean();

    Recorder(String service, String method) {
      this.service = service;
      this.method = method;
      inFlight.labelValues(service, method).inc();
    }

    void end(Status.Code code) {
      if (!ended.compareAndSet(false, true)) {
        return;
      }
      inFlight.labelValues(service, method).dec();
      calls.labelValues(service, method, code.name()).inc();
      if (code != Status.Code.OK) {
        errors.labelValues(service, method, code.name()).inc();
      }
      latency.labelValues(service, method).observe((System.nanoTime() - startNanos) / 1e9);
    }
  }
}
