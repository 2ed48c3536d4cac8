package io.sediment.cli;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.audit.AuditLogFile;
import io.sediment.om.grpc.CheckpointRoot;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.ha.OmReplica;
import io.sediment.om.ha.ReplicaRequests;
import io.sediment.om.service.OmServices;
import io.sediment.om.auth.GroupMapping;
import io.sediment.om.tls.TlsMaterial;
import io.sediment.om.tls.TlsReloader;
import io.sediment.recon.ReconConfig;
import io.sediment.recon.ReconServer;
import io.sediment.recon.ReconSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sediment serve}: the OM gRPC service (TLS with {@code --tls-cert}; plaintext only on
 * loopback unless {@code --insecure-bind-any}), Recon HTTP (HTTPS with TLS) (read-only insight over the same store,
 * unless {@code --no-recon}) and the background services (key purge, open-key cleanup, multipart
 * upload cleanup, directory purge) over an embedded store under the data directory, until Ctrl-C
 * or SIGTERM; then a graceful shutdown: stop accepting, drain in-flight calls, stop Recon, stop the
 * background services (a run in progress finishes), close the store.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Serve the OM gRPC service (OmService, AdminService, health, reflection) over "
        + "an embedded store under --data, bound to --host:--port, Recon (JSON API, /prom, web "
        + "page) on --host:--recon-port, and run the background services that purge deleted "
        + "versions, expired open keys, stale multipart uploads and recursively deleted "
        + "directories.",
        "Stop with Ctrl-C or SIGTERM: in-flight calls drain, Recon and the background services "
        + "stop, then the store is closed."})
final class ServeCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  @Option(names = "--data", paramLabel = "DIR", defaultValue = "./data",
      description = "Data directory: the store is DIR/om, logs DIR/logs (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(names = "--host", defaultValue = OmGrpcServer.DEFAULT_HOST,
      description = "Bind address (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "" + OmGrpcServer.DEFAULT_PORT,
      description = "gRPC port, 0 for any free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--recon-port", paramLabel = "PORT", defaultValue = "" + ReconConfig.DEFAULT_PORT,
      description = "Recon HTTP port on --host, 0 for any free one (default: ${DEFAULT-VALUE}).")
  int reconPort;

  @Option(names = "--no-recon", description = "Serve no Recon HTTP (gRPC only).")
  boolean noRecon;

  @Option(names = "--max-message-bytes", paramLabel = "BYTES",
      defaultValue = "" + OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES,
      description = "Largest accepted request; larger ones get RESOURCE_EXHAUSTED "
          + "(default: ${DEFAULT-VALUE}).")
  int maxMessageBytes;

  @Option(names = "--handler-threads", paramLabel = "N",
      defaultValue = "" + OmGrpcServer.DEFAULT_HANDLER_THREADS,
      description = "Threads running calls (default: ${DEFAULT-VALUE}).")
  int handlerThreads;

  @Option(names = "--drain-timeout", paramLabel = "SECONDS", defaultValue = "10",
      description = "How long in-flight calls may finish at shutdown (default: ${DEFAULT-VALUE}).")
  int drainSeconds;

  @Option(names = "--checkpoint-root", paramLabel = "DIR",
      description = "The only directory `sediment checkpoint` writes under (a request's path is "
          + "taken relative to it; an absolute one must lie inside it); created owner-only (0700) "
          + "when absent (default: DATA/checkpoints).")
  Path checkpointRoot;

  @CommandLine.Mixin
  ServeStoreOptions storeOptions = new ServeStoreOptions();

  @CommandLine.Mixin
  BackgroundServiceOptions background = new BackgroundServiceOptions();

  @CommandLine.Mixin
  HaServeOptions ha = new HaServeOptions();

  @CommandLine.Mixin
  ServeTlsOptions tls = new ServeTlsOptions();

  @CommandLine.Mixin
  ServeAuditOptions audit = new ServeAuditOptions();

  @CommandLine.Mixin
  ServeAuthOptions auth = new ServeAuthOptions();

  @CommandLine.Mixin
  ServeLogOptions log = new ServeLogOptions();

  @CommandLine.Mixin
  ConfigOption config = new ConfigOption();

  @Option(names = ConfigOption.PRINT_CONFIG,
      description = "Print every option's effective value and where it came from (flag, env "
          + "VAR, file PATH, default) as tab-separated lines, then exit without starting "
          + "anything.")
  boolean printConfig;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  // ---- for tests and the shutdown hook ----
  /** Whether to stop on SIGINT/SIGTERM through a JVM shutdown hook (tests turn it off). */
  boolean installShutdownHook = true;
  /** Counts down once the server listens. */
  final CountDownLatch started = new CountDownLatch(1);
  /** Counts down once the server and store are closed. */
  final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  volatile OmGrpcServer server;
  /** The background services while serving; {@code null} with --no-background-services. */
  volatile OmServices services;
  /** Recon while serving; {@code null} with --no-recon. */
  volatile ReconServer recon;
  /** The store while serving (set before {@link #started} counts down). */
  volatile OmMetadataStore opened;

  /** Asks a running serve to shut down gracefully (returns at once). */
  void requestStop() {
    stopRequested.countDown();
  }

  @Override
  // `logging` and `reloader` are only closed: they undo the serve-time log setup, stop the timer
  @SuppressWarnings("try")
  public Integer call() throws Exception {
    validate();
    PrintWriter out = spec.commandLine().getOut();
    if (printConfig) {
      EffectiveConfig.print(spec, out);
      out.flush();
      return 0;
    }
    Path dataDir = data.toAbsolutePath().normalize();
    // Owner-only when made here: the server log and the audit log name every caller and key.
    Path logs = StoreDirs.logs(dataDir);
    if (!Files.isDirectory(logs)) {
      Files.createDirectories(logs, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    }
    Path logFile = log.file(dataDir);
    TlsMaterial tlsMaterial = tls.enabled() ? tls.load() : null;
    GroupMapping groups = auth.enabled() ? auth.groups() : null;
    try (ServeLogging logging = ServeLogging.start(logFile, log.logbackLevel());
        TlsReloader reloader = tls.reloader(tlsMaterial)) {
      if (LOG.isDebugEnabled()) {
        StringWriter config = new StringWriter();
        EffectiveConfig.print(spec, new PrintWriter(config));
        LOG.debug("Effective configuration (key, value, source):{}{}", System.lineSeparator(),
            config.toString().stripTrailing());
      }
      // A replica's durability is its Raft log's (synced on a majority before a write is
      // acknowledged); its store replays the log from its applied position after a crash.
      OmMetadataStore store = StoreDirs.open(dataDir, storeOptions.storeOptions(ha.enabled()),
          storeOptions.profile());
      opened = store;
      AutoCloseable reconHandle = null;
      AuditLogFile auditLog = null;
      OmServices bg = null;
      OmReplica replica = null;
      Thread hook = null;
      try {
        PrometheusRegistry registry = new PrometheusRegistry();
        Duration drain = Duration.ofSeconds(drainSeconds);
        OmGrpcServer.Builder builder = OmGrpcServer.builder(store).host(host).port(port)
            .maxInboundMessageBytes(maxMessageBytes).handlerThreads(handlerThreads)
            .drainTimeout(drain).registry(registry).checkpointRoot(checkpoints(dataDir));
        if (tlsMaterial != null) {
          // With --auth a caller may show a token instead of a certificate.
          builder.credentials(tlsMaterial.serverCredentials(!auth.enabled()));
        }
        if (auth.enabled()) {
          builder.authentication(ServeAuthOptions.authenticator(store, groups))
              .administrators(auth.administrators());
        }
        auditLog = audit.open(dataDir);
        if (auditLog != null) {
          builder.audit(audit.interceptor(auditLog));
        }
        ReplicaRequests replicated = null;
        if (ha.enabled()) {
          replica = ha.start(store, StoreDirs.ratis(dataDir), tlsMaterial);
          replicated = new ReplicaRequests(replica, store, Clock.systemUTC());
          builder.replication(replicated);
        }
        if (!background.disabled) {
          // In a group every replica schedules the services; only the leader's steps run, each
          // as a log entry all replicas apply.
          bg = replicated == null ? OmServices.create(store, background.config())
              : OmServices.create(replicated.purgeSteps(), background.config());
          builder.services(bg);
        }
        OmGrpcServer s = builder.build();
        try {
          s.start();
        } catch (IOException e) {
          throw new CliFailure(e.getMessage() + " (is another server using the port? pick one with"
              + " --port)", e);
        }
        server = s;
        // BACKGROUND SERVICES HOOK: the purge services start once the server listens and stop
        // (below) after it has drained and before the store closes.
        if (bg != null) {
          bg.start();
          services = bg;
        }
        LOG.info(background.describe());
        if (!noRecon) {
          reconHandle = startRecon(store, registry, replicated, tlsMaterial, groups);
        }
        if (installShutdownHook) {
          hook = new Thread(() -> {
            requestStop();
            awaitStopped(drain.plusSeconds(30));
          }, "sediment-shutdown");
          Runtime.getRuntime().addShutdownHook(hook);
          StopSignals.install(this::requestStop);
        }
        out.printf("Sediment OM gRPC service listening on %s (%s)%n", s.target(),
            tlsMaterial == null ? "plaintext, no TLS"
                : "TLS" + (tlsMaterial.hasTrustedCa() ? (auth.enabled()
                    ? ", client certificates verified" : ", client certificates required") : ""));
        if (auth.enabled()) {
          out.println(auth.describe(tlsMaterial != null && tlsMaterial.hasTrustedCa()));
        } else {
          out.println("Unauthenticated: every client that reaches the port may read and change "
              + "everything" + (tlsMaterial != null && tlsMaterial.hasTrustedCa()
                  ? " once its certificate is accepted" : "") + " (serve --auth to check).");
        }
        ReconServer r = this.recon;
        out.println(r != null ? String.format("Recon at %s/ (JSON under /api/v1, metrics at /prom)",
            r.url()) : "Recon: none (--no-recon)");
        out.printf("  data: %s%n  logs: %s%n", StoreDirs.store(dataDir), logFile);
        out.printf("  checkpoints: under %s only%n", s.checkpointRoot());
        out.println(audit.describe(auditLog));
        if (replica != null) {
          out.printf("Replica %s of group '%s' (%s); Raft log in %s. Writes and the background "
              + "services' steps go through the leader. Replication traffic: %s.%n", replica.id(),
              replica.options().groupName(), replica.options().peers(), StoreDirs.ratis(dataDir),
              tlsMaterial == null ? "plaintext" : "mutual TLS");
        }
        out.println(background.describe());
        out.printf("Stop with Ctrl-C (or SIGTERM: kill %d): in-flight calls drain for up to %d s, "
            + "Recon and the background services stop, then the store is closed.%n",
            ProcessHandle.current().pid(), drainSeconds);
        out.flush();
        LOG.info("Serving {} on {}", StoreDirs.store(dataDir), s.target());
        started.countDown();
        stopRequested.await();
        LOG.info("Shutting down: draining in-flight calls (up to {} s)", drainSeconds);
        boolean clean = s.shutdown(drain);
        out.printf("Stopped%s.%n", clean ? "" : " (calls still running after the drain timeout "
            + "were cancelled)");
        out.flush();
      } finally {
        // Shutdown order: the gRPC server stops accepting and drains (a no-op if done above),
        // Recon closes, the background services stop (a run in progress finishes; nothing
        // touches the store after this), then the store closes.
        OmGrpcServer s = server;
        if (s != null) {
          s.shutdown(Duration.ofSeconds(drainSeconds));
        }
        if (auditLog != null) {
          // After the drain: every call's line is in the file.
          closeQuietly(auditLog);
        }
        if (reconHandle != null) {
          closeQuietly(reconHandle);
          LOG.info("Recon stopped");
        }
        if (bg != null) {
          closeQuietly(bg);
          LOG.info("Background services stopped");
        }
        if (replica != null) {
          closeQuietly(replica);
          LOG.info("Replica stopped");
        }
        store.close();
        LOG.info("Store closed");
        stopped.countDown();
        if (hook != null) {
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException shuttingDown) {
            // the hook is running: it waits for `stopped`, which is counted down
          }
        }
      }
    } finally {
      stopped.countDown();
    }
    return 0;
  }

  /** The checkpoint root: --checkpoint-root, or DATA/checkpoints; created if absent. */
  private CheckpointRoot checkpoints(Path dataDir) {
    Path dir = checkpointRoot != null ? checkpointRoot : StoreDirs.checkpoints(dataDir);
    try {
      return CheckpointRoot.open(dir);
    } catch (IOException e) {
      throw new CliFailure("Cannot use " + dir + " as the checkpoint root: " + e.getMessage()
          + " (pick another with --checkpoint-root)", e);
    }
  }

  /**
   * Starts Recon over {@code store} (read-only views on RocksDB snapshots of the live store) bound
   * to --host:--recon-port, exporting {@code registry} (the per-RPC gRPC metrics) on /prom and,
   * in a group, {@code replicated}'s status on its Replication panel (else "single node"). The
   * caller closes it after the gRPC server has drained and before the store closes.
   *
   * @return what closes Recon (its HTTP server, then its source; never the store)
   * @throws CliFailure if the port cannot be bound
   */
  private AutoCloseable startRecon(OmMetadataStore store, PrometheusRegistry registry,
      ReplicaRequests replicated, TlsMaterial tlsMaterial, GroupMapping groups) {
    ReconSource source = ReconSource.embedded(store);
    ReconServer r;
    try {
      ReconConfig config = ReconConfig.defaults().withHost(host).withPort(reconPort)
          .withTls(tlsMaterial == null ? null : tlsMaterial.serverSslContext());
      if (auth.enabled() && !ServeTlsOptions.loopback(host)) {
        // Beyond loopback Recon shows every name to whoever reaches it: administrators only.
        config = config.withCallers(auth.reconCallers(store, groups));
      }
      r = replicated == null ? ReconServer.start(config, source, registry)
          : ReconServer.start(config, source, registry, replicated::status);
    } catch (IOException e) {
      source.close();
      throw new CliFailure(e.getMessage() + " (is another server using the port? pick one with "
          + "--recon-port, or serve without Recon: --no-recon)", e);
    }
    recon = r;
    LOG.info("Recon at {}/", r.url());
    return () -> {
      try {
        r.close();
      } finally {
        source.close();
      }
    };
  }

  private void validate() {
    CommandLine cmd = spec.commandLine();
    if (host == null || host.isBlank()) {
      throw new CommandLine.ParameterException(cmd, "--host must not be blank");
    }
    if (port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(cmd, "--port must be in [0, 65535]: " + port);
    }
    if (reconPort < 0 || reconPort > 65535) {
      throw new CommandLine.ParameterException(cmd, "--recon-port must be in [0, 65535]: "
          + reconPort);
    }
    if (!noRecon && reconPort != 0 && reconPort == port) {
      throw new CommandLine.ParameterException(cmd, "--recon-port must differ from --port: "
          + port);
    }
    if (maxMessageBytes < 1024) {
      throw new CommandLine.ParameterException(cmd,
          "--max-message-bytes must be at least 1024: " + maxMessageBytes);
    }
    if (handlerThreads < 1) {
      throw new CommandLine.ParameterException(cmd, "--handler-threads must be at least 1");
    }
    if (drainSeconds < 0) {
      throw new CommandLine.ParameterException(cmd, "--drain-timeout must not be negative");
    }
    storeOptions.validate(cmd);
    log.validate(cmd);
    background.validate(cmd);
    ha.validate(cmd);
    tls.validate(cmd, host, ha.enabled(), auth.enabled());
    auth.validate(cmd, ha.enabled(), tls.enabled());
    audit.validate(cmd);
  }

  private void awaitStopped(Duration max) {
    try {
      stopped.await(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      LOG.warn("Closing {} failed", c, e);
    }
  }
}
