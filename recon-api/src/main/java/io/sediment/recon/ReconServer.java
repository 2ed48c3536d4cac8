package io.sediment.recon;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sediment.proto.om.GetReplicationStatusResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Recon's HTTP server (Jetty 12): the read-only JSON API under {@code /api/v1}, Prometheus
 * metrics at {@code /prom} and the web page at {@code /}. Bound to {@link ReconConfig#host()}
 * (127.0.0.1 by default). Only GET (and HEAD: the same headers, no body) is served: every other
 * method is 405, an unknown path 404, a bad parameter 400, each with a JSON body
 * {@code {"code", "error", "message"}} and never a stack trace. Every response carries the
 * {@code SecurityHeaders}. Bound to a loopback address, it answers only requests whose Host header
 * names loopback ({@code LoopbackHosts}: 403 otherwise, against DNS rebinding); bound to any other
 * address that check is off. Given {@link ReconConfig#callers()}, it answers only the requests they
 * admit ({@code CallerCheck}: 401 or 403 otherwise). Closing stops the server (waiting briefly for requests in flight);
 * it does not close the source. Thread-safe.
 *
 * <pre>{@code
 * try (ReconServer recon = ReconServer.start(ReconConfig.defaults(),
 *     ReconSource.embedded(om), registry)) {
 *   System.out.println("Recon at " + recon.url());
 *   ...
 * }
 * }</pre>
 */
public final class ReconServer implements AutoCloseable {

  private final Server server;
  private final ServerConnector connector;
  private final String host;
  private final boolean tls;

  private ReconServer(Server server, ServerConnector connector, String host, boolean tls) {
    this.server = server;
    this.connector = connector;
    this.host = host;
    this.tls = tls;
  }

  /**
   * Starts a server over {@code source}.
   *
   * @param extra further metrics to expose at {@code /prom} (for example the gRPC server's
   *     per-RPC metrics); null for none. Scraped at each request; a metric whose name Recon also
   *     uses is shown once, Recon's own.
   * @throws IOException if the address cannot be bound (port in use)
   */
  public static ReconServer start(ReconConfig config, ReconSource source, PrometheusRegistry extra)
      throws IOException {
    return start(config, source, extra, SINGLE_NODE);
  }

  /** A single node's replication status: not replicated. */
  static final Supplier<GetReplicationStatusResponse> SINGLE_NODE =
      GetReplicationStatusResponse::getDefaultInstance;

  /**
   * Starts a server over {@code source} that also shows the replica's place in its group
   * ({@code /api/v1/replication/status} and the page's Replication panel).
   *
   * @param replication this replica's status, read at each request (it may throw
   *     {@link io.sediment.om.core.OmException} UNAVAILABLE, answered 503)
   * @see #start(ReconConfig, ReconSource, PrometheusRegistry)
   */
  public static ReconServer start(ReconConfig config, ReconSource source, PrometheusRegistry extra,
      Supplier<GetReplicationStatusResponse> replication) throws IOException {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(replication, "replication");
    Objects.requireNonNull(source, "source");
    PrometheusRegistry own = new PrometheusRegistry();
    own.register(new StoreMetrics(source));
    JvmMetrics.builder().register(own);
    Counter requests = Counter.builder().name("sediment_recon_http_requests")
        .help("Recon HTTP requests by endpoint and status").labelNames("endpoint", "status")
        .register(own);

    QueuedThreadPool pool = new QueuedThreadPool(config.threads(), 2);
    pool.setName("sediment-recon");
    pool.setDaemon(true);
    Server server = new Server(pool);
    ServerConnector connector;
    if (config.tls() == null) {
      connector = new ServerConnector(server, 1, 1);
    } else {
      SslContextFactory.Server ssl = new SslContextFactory.Server();
      ssl.setSslContext(config.tls());
      connector = new ServerConnector(server, 1, 1, ssl);
    }
    connector.setHost(config.host());
    connector.setPort(config.port());
    server.addConnector(connector);
    Handler recon = new ReconHandler(new ReconApi(source, replication),
        () -> scrape(own, extra), requests);
    Handler checked = config.callers() == null ? recon
        : new CallerCheck(recon, config.callers());
    server.setHandler(new SecurityHeaders(onLoopback(config.host())
        ? new LoopbackHosts(checked) : checked));
    server.setErrorHandler(new JsonErrorHandler());
    server.setStopTimeout(2_000);
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } catch (Exception ignored) {
        // nothing more to release
      }
      throw new IOException("Cannot start Recon on " + config.host() + ":" + config.port() + ": "
          + e.getMessage(), e);
    }
    return new ReconServer(server, connector, config.host(), config.tls() != null);
  }

  /**
   * Whether {@code host} (the bind address) is a loopback address, so that only loopback Host
   * headers are answered; a wildcard or any other address turns that check off.
   */
  private static boolean onLoopback(String host) throws IOException {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IOException("Cannot start Recon on " + host + ": unknown host", e);
    }
  }

  /** The port listened on (the ephemeral one chosen when configured with 0). */
  public int port() {
    return connector.getLocalPort();
  }

  /**
   * {@code http://host:port}, {@code https://} when serving TLS ({@code [v6]} for an IPv6
   * literal).
   */
  public String url() {
    return (tls ? "https://" : "http://") + com.google.common.net.HostAndPort.fromParts(host, port());
  }

  /** Prometheus text format of Recon's metrics and the extra registry's. */
  static byte[] scrape(PrometheusRegistry own, PrometheusRegistry extra) {
    List<MetricSnapshot> all = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (MetricSnapshot s : own.scrape()) {
      names.add(s.getMetadata().getPrometheusName());
      all.add(s);
    }
    if (extra != null) {
      for (MetricSnapshot s : extra.scrape()) {
        if (names.add(s.getMetadata().getPrometheusName())) {
          all.add(s);
        }
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 << 10);
    try {
      PrometheusTextFormatWriter.create().write(out, new MetricSnapshots(all));
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write metrics", e);
    }
    return out.toByteArray();
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Recon did not stop cleanly: " + e.getMessage(), e);
    }
  }
}
