package io.sediment.om.grpc;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.Administrators;
import io.sediment.om.authz.AdministratorsOnly;
import io.sediment.om.authz.NativeAccessControl;
import io.sediment.om.authz.RpcRights;
import io.sediment.om.requests.ReadGate;
import io.sediment.om.requests.Replication;
import io.sediment.om.service.OmServices;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC server of one {@link OmMetadataStore}: {@code sediment.om.v1.OmService},
 * {@code sediment.om.v1.AdminService}, the standard health service ({@code grpc.health.v1}, SERVING
 * while up; {@value #WRITES_HEALTH_SERVICE} is NOT_SERVING while the store's disk is full) and
 * server reflection ({@code grpc.reflection.v1} and {@code v1alpha}), every call
 * measured by
 * {@link GrpcMetrics}.
 *
 * <p>Binds {@value #DEFAULT_HOST}:{@value #DEFAULT_PORT} by default; port 0 picks a free one
 * ({@link #port()} tells which). Requests larger than the inbound message limit are rejected with
 * RESOURCE_EXHAUSTED; page sizes are capped by the store. Handlers run on a fixed pool, so
 * concurrent writes share the store's group commit.
 *
 * <p>Lifecycle: {@link #start()}, then {@link #shutdown(Duration)}: the health status turns
 * NOT_SERVING, the listener stops accepting, in-flight calls get up to the drain timeout to finish
 * (new calls fail with UNAVAILABLE), what is left is cancelled, and the handler pool is drained.
 * When it returns no handler touches the store any more; the caller then stops its background
 * services and closes the store. The server never closes the store.
 *
 * <p>Thread-safe.
 */
public final class OmGrpcServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OmGrpcServer.class);

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 9862;
  public static final int DEFAULT_MAX_INBOUND_MESSAGE_BYTES = 4 * 1024 * 1024;
  public static final int DEFAULT_HANDLER_THREADS = 16;
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);
  /**
   * The health service name ({@code grpc.health.v1}) of writes: NOT_SERVING while the store refuses
   * writes because its disk is full ({@link io.sediment.db.DBStore#isOutOfSpace()}), SERVING
   * otherwise. The server as a whole ({@code ""}) and {@code OmService} stay SERVING meanwhile:
   * reads and listings keep working.
   */
  public static final String WRITES_HEALTH_SERVICE = "sediment.om.v1.Writes";

  private final OmMetadataStore store;
  private final String host;
  private final int requestedPort;
  private final int maxInboundMessageBytes;
  private final int handlerThreads;
  private final Duration drainTimeout;
  private final PrometheusRegistry registry;
  private final List<ServerInterceptor> interceptors;
  private final OmServices services;
  private final Replication replication;
  private final CheckpointRoot checkpointRoot;
  private final ServerCredentials credentials;
  /** Null when calls are not checked against ACLs. */
  private final Administrators administrators;
  /** Null when callers are not authenticated. */
  private final io.sediment.om.auth.Authenticator authenticator;
  private final GrpcMetrics metrics;
  /** Null when no audit log is written. */
  private final ServerInterceptor audit;
  private final List<io.grpc.ServerServiceDefinition> extraServices;

  private final HealthStatusManager health = new HealthStatusManager();
  private final Object writesHealthLock = new Object();
  private ExecutorService executor;
  private Server server;
  private boolean shutDown;
  /** Unregisters the out-of-space listener; null until started. */
  private Runnable stopWatchingSpace;

  private OmGrpcServer(Builder b) {
    this.store = b.store;
    this.host = b.host;
    this.requestedPort = b.port;
    this.maxInboundMessageBytes = b.maxInboundMessageBytes;
    this.handlerThreads = b.handlerThreads;
    this.drainTimeout = b.drainTimeout;
    this.registry = b.registry == null ? new PrometheusRegistry() : b.registry;
    this.interceptors = List.copyOf(b.interceptors);
    this.services = b.services;
    this.replication = b.replication;
    this.checkpointRoot = b.checkpointRoot;
    this.credentials = b.credentials;
    this.administrators = b.administrators;
    this.authenticator = b.authenticator;
    this.metrics = new GrpcMetrics(registry);
    this.audit = b.audit;
    this.extraServices = List.copyOf(b.extraServices);
    if (services != null) {
      BackgroundServiceMetrics.register(registry, services);
    }
    if (replication != null) {
      ReplicationMetrics.register(registry, replication);
      replication.metrics().forEach(registry::register);
    }
  }

  public static Builder builder(OmMetadataStore store) {
    return new Builder(store);
  }

  /**
   * Runs a write's answer on the handler threads; once they are shut down (a drain), on the
   * completing thread, so that no call is left unanswered.
   */
  private static Executor completionsOn(ExecutorService handlers) {
    return task -> {
      try {
        handlers.execute(task);
      } catch (RejectedExecutionException shutDown) {
        task.run();
      }
    };
  }

  /**
   * Binds and starts serving.
   *
   * @throws IOException if the address cannot be bound (for example the port is in use)
   * @throws IllegalStateException if already started
   */
  public synchronized OmGrpcServer start() throws IOException {
    if (server != null) {
      throw new IllegalStateException("Server already started");
    }
    executor = Executors.newFixedThreadPool(handlerThreads, new HandlerThreads());
    List<ServerInterceptor> chain = new ArrayList<>(interceptors);
    // Outermost of the chain: the request ids are in the context for everything inside.
    chain.add(new RequestIds());
    if (audit != null) {
      // Outside even that, so a call refused inside (unauthenticated) is recorded too.
      chain.add(audit);
    }
    if (authenticator != null) {
      // Innermost of the chain: the interceptors outside see every call, refused ones too.
      chain.add(0, new io.sediment.om.auth.AuthenticatingInterceptor(authenticator));
    }
    // Without administrators nothing is checked (AccessControl.OPEN): today's behaviour.
    NativeAccessControl acl = administrators == null ? null
        : new NativeAccessControl(administrators, store);
    RpcRights rights = acl == null ? null : new RpcRights(acl);
    OmServiceImpl om = replication == null
        ? new OmServiceImpl(store, WriteRequests.over(store), ReadGate.NONE, Runnable::run, rights)
        : new OmServiceImpl(store, replication.writes(), replication.reads(),
            completionsOn(executor), rights);
    io.grpc.ServerServiceDefinition admin = ServerInterceptors.intercept(
        new AdminServiceImpl(store, services, replication, checkpointRoot,
            new TokenRpcs(store, replication == null ? WriteRequests.over(store)
                : replication.writes(), administrators)));
    if (acl != null) {
      // Innermost, so the caller is bound when it runs.
      admin = ServerInterceptors.intercept(admin, new AdministratorsOnly(acl));
    }
    NettyServerBuilder nb = NettyServerBuilder.forAddress(new InetSocketAddress(host, requestedPort),
            credentials == null ? InsecureServerCredentials.create() : credentials)
        .executor(executor)
        .maxInboundMessageSize(maxInboundMessageBytes)
        // The caller's interceptors run inside MalformedRequests, on parsed messages.
        .addService(MalformedRequests.strict(
            ServerInterceptors.intercept(om, chain)))
        .addService(MalformedRequests.strict(
            ServerInterceptors.intercept(admin, chain)))
        .addService(health.getHealthService())
        .addService(ProtoReflectionServiceV1.newInstance())
        .addService(legacyReflection())
        .intercept(metrics);
    if (replication != null) {
      // The copy a replica behind the leader's purged log installs.
      List<ServerInterceptor> checkpointChain = new ArrayList<>(chain);
      if (acl != null) {
        // A whole copy of the store: for administrators (the replicas' certificates) only.
        checkpointChain.add(0, new AdministratorsOnly(acl));
      }
      nb.addService(ServerInterceptors.intercept(new CheckpointService(store), checkpointChain));
    }
    extraServices.forEach(nb::addService);
    Server s = nb.build();
    try {
      s.start();
    } catch (IOException e) {
      executor.shutdownNow();
      executor = null;
      throw new IOException("Cannot listen on " + host + ":" + requestedPort + ": "
          + e.getMessage(), e);
    } catch (RuntimeException e) {
      executor.shutdownNow();
      executor = null;
      throw e;
    }
    server = s;
    health.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
    health.setStatus(OmServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    health.setStatus(AdminServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    stopWatchingSpace = store.addOutOfSpaceListener(this::updateWritesHealth);
    updateWritesHealth();
    LOG.info("gRPC OmService listening on {}:{} ({})", host, port(),
        credentials == null ? "plaintext" : "TLS");
    return this;
  }

  /**
   * Sets {@link #WRITES_HEALTH_SERVICE} from the store's state now. Serialized, and reading the
   * state inside, so concurrent updates cannot leave a stale status behind.
   */
  private void updateWritesHealth() {
    synchronized (writesHealthLock) {
      health.setStatus(WRITES_HEALTH_SERVICE, store.dbStore().isOutOfSpace()
          ? ServingStatus.NOT_SERVING : ServingStatus.SERVING);
    }
  }

  /** Reflection v1alpha too, for clients that do not speak grpc.reflection.v1 yet. */
  @SuppressWarnings("deprecation")
  private static io.grpc.BindableService legacyReflection() {
    return io.grpc.protobuf.services.ProtoReflectionService.newInstance();
  }

  /** The bound port (the chosen one when started with port 0). */
  public synchronized int port() {
    if (server == null) {
      throw new IllegalStateException("Server not started");
    }
    List<? extends java.net.SocketAddress> addresses = server.getListenSockets();
    if (!addresses.isEmpty() && addresses.get(0) instanceof InetSocketAddress a) {
      return a.getPort();
    }
    return server.getPort();
  }

  /** Where {@code CreateCheckpoint} writes, or {@code null} when it writes nothing. */
  public CheckpointRoot checkpointRoot() {
    return checkpointRoot;
  }

  public String host() {
    return host;
  }

  /** Whether callers are authenticated (a {@link Builder#authentication} was given). */
  public boolean authenticates() {
    return authenticator != null;
  }

  /** Whether the server speaks TLS (a {@link Builder#credentials} was given). */
  public boolean tls() {
    return credentials != null;
  }

  /** {@code host:port}, usable as a gRPC target. */
  public String target() {
    return com.google.common.net.HostAndPort.fromParts(host, port()).toString();
  }

  /** The registry the per-RPC metrics are kept in. */
  public PrometheusRegistry registry() {
    return registry;
  }

  /**
   * Graceful shutdown: NOT_SERVING, stop accepting, let in-flight calls finish for up to
   * {@code drain}, cancel the rest, then wait for the handler pool. Idempotent.
   *
   * @return {@code true} if every in-flight call finished within {@code drain}
   */
  public boolean shutdown(Duration drain) {
    Server s;
    ExecutorService ex;
    synchronized (this) {
      if (server == null || shutDown) {
        return true;
      }
      shutDown = true;
      s = server;
      ex = executor;
    }
    stopWatchingSpace.run();
    health.enterTerminalState();
    s.shutdown();
    boolean clean = false;
    try {
      clean = s.awaitTermination(drain.toNanos(), TimeUnit.NANOSECONDS);
      if (!clean) {
        LOG.warn("In-flight calls did not finish within {}; cancelling them", drain);
        s.shutdownNow();
        s.awaitTermination(5, TimeUnit.SECONDS);
      }
      ex.shutdown();
      if (!ex.awaitTermination(drain.toNanos(), TimeUnit.NANOSECONDS)) {
        ex.shutdownNow();
        ex.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      s.shutdownNow();
      ex.shutdownNow();
      Thread.currentThread().interrupt();
    }
    LOG.info("gRPC server stopped{}", clean ? "" : " (some calls were cancelled)");
    return clean;
  }

  /** Blocks until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    Server s;
    synchronized (this) {
      s = server;
    }
    if (s != null) {
      s.awaitTermination();
    }
  }

  /** {@link #shutdown(Duration)} with the configured drain timeout. */
  @Override
  public void close() {
    shutdown(drainTimeout);
  }

  public Duration drainTimeout() {
    return drainTimeout;
  }

  private static final class HandlerThreads implements ThreadFactory {
    private final AtomicInteger n = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "om-grpc-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  }

  /** Settings of an {@link OmGrpcServer}; every one has a default. Not thread-safe. */
  public static final class Builder {
    private final OmMetadataStore store;
    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private int maxInboundMessageBytes = DEFAULT_MAX_INBOUND_MESSAGE_BYTES;
    private int handlerThreads = DEFAULT_HANDLER_THREADS;
    private Duration drainTimeout = DEFAULT_DRAIN_TIMEOUT;
    private PrometheusRegistry registry;
    private final List<ServerInterceptor> interceptors = new ArrayList<>();
    private OmServices services;
    private Replication replication;
    private CheckpointRoot checkpointRoot;
    private ServerCredentials credentials;
    private Administrators administrators;
    private ServerInterceptor audit;
    private io.sediment.om.auth.Authenticator authenticator;
    private final List<io.grpc.ServerServiceDefinition> extraServices = new ArrayList<>();

    private Builder(OmMetadataStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** Bind address (default {@value #DEFAULT_HOST}). */
    public Builder host(String h) {
      this.host = Objects.requireNonNull(h, "host");
      return this;
    }

    /** Port, 0 for any free one (default {@value #DEFAULT_PORT}). */
    public Builder port(int p) {
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("Port must be in [0, 65535]: " + p);
      }
      this.port = p;
      return this;
    }

    /** Largest accepted request message (default 4 MiB); larger ones get RESOURCE_EXHAUSTED. */
    public Builder maxInboundMessageBytes(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("Max inbound message size must be at least 1024: " + bytes);
      }
      this.maxInboundMessageBytes = bytes;
      return this;
    }

    /** Threads running handlers (default 16). */
    public Builder handlerThreads(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("Handler threads must be at least 1: " + n);
      }
      this.handlerThreads = n;
      return this;
    }

    /** How long {@link #close()} lets in-flight calls finish (default 10 s). */
    public Builder drainTimeout(Duration d) {
      if (d == null || d.isNegative()) {
        throw new IllegalArgumentException("Drain timeout must not be negative");
      }
      this.drainTimeout = d;
      return this;
    }

    /**
     * Where the per-RPC metrics are registered (default: a private registry). They are registered
     * when the server is built, so one registry serves one server.
     */
    public Builder registry(PrometheusRegistry r) {
      this.registry = Objects.requireNonNull(r, "registry");
      return this;
    }

    /** An extra interceptor on OmService and AdminService (run inside the metrics one). */
    public Builder interceptor(ServerInterceptor i) {
      this.interceptors.add(Objects.requireNonNull(i, "interceptor"));
      return this;
    }

    /**
     * The background services of the store, reported by {@code AdminService.GetServiceStats}
     * and on the registry ({@code sediment_background_*}, see {@code BackgroundServiceMetrics})
     * (default: none, an empty report). The server neither starts nor stops them.
     */
    public Builder services(OmServices s) {
      this.services = Objects.requireNonNull(s, "services");
      return this;
    }

    /**
     * Serve as a replica of a replicated group: writes go through its log, reads pass its gate,
     * {@code AdminService.GetReplicationStatus} reports it (default: a single node). The server
     * neither starts nor stops the replica.
     */
    public Builder replication(Replication r) {
      this.replication = Objects.requireNonNull(r, "replication");
      return this;
    }

    /**
     * The directory {@code AdminService.CreateCheckpoint} writes under (default: none, and the
     * call is FAILED_PRECONDITION).
     */
    public Builder checkpointRoot(CheckpointRoot root) {
      this.checkpointRoot = Objects.requireNonNull(root, "root");
      return this;
    }

    /**
     * Serve TLS with these credentials (for example
     * {@link io.sediment.om.tls.TlsMaterial#serverCredentials()}; default: plaintext). Health and
     * reflection use them too.
     */
    public Builder credentials(ServerCredentials c) {
      this.credentials = Objects.requireNonNull(c, "credentials");
      return this;
    }

    /**
     * Check every call against the owners and ACLs of what it touches, these principals passing
     * every check (default: no checks, every caller may do anything).
     */
    public Builder administrators(Administrators a) {
      this.administrators = Objects.requireNonNull(a, "administrators");
      return this;
    }

    /**
     * The audit log's interceptor ({@link io.sediment.om.audit.AuditInterceptor}): it sees every
     * call of OmService, AdminService and (in a group) the checkpoint service, outside all their
     * other interceptors but the metrics (default: no audit log).
     */
    public Builder audit(ServerInterceptor a) {
      this.audit = Objects.requireNonNull(a, "audit");
      return this;
    }

    /**
     * Authenticate every call of OmService, AdminService and ReplicationService with
     * {@code a} (a bearer token, else a verified client certificate; neither is
     * UNAUTHENTICATED), binding its principal ({@link io.sediment.om.auth.CallPrincipal}) for the
     * handlers (default: no one is authenticated, every caller is
     * {@link io.sediment.om.auth.Principal#ANONYMOUS}). With {@link #administrators} too,
     * ReplicationService (the copy a lagging replica fetches) admits administrators only, so the
     * replicas' certificates must map to administrators.
     */
    public Builder authentication(io.sediment.om.auth.Authenticator a) {
      this.authenticator = Objects.requireNonNull(a, "authenticator");
      return this;
    }

    /**
     * Serve {@code service} too, as given: none of this server's interceptors but the metrics run
     * on it (no authentication, ACL checks or audit), so it must be safe for any caller. For
     * tools that measure the server, such as the benchmark-only echo of {@code freon}'s in-process
     * server; {@code serve} adds none (default: none).
     */
    public Builder extraService(io.grpc.ServerServiceDefinition service) {
      this.extraServices.add(Objects.requireNonNull(service, "service"));
      return this;
    }

    public OmGrpcServer build() {
      return new OmGrpcServer(this);
    }
  }
}
