package io.sediment.cli;

import io.sediment.recon.ReconConfig;
import io.sediment.recon.ReconServer;
import io.sediment.recon.ReconSource;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sediment recon}: Recon alone over a store directory another process owns (for example a
 * running {@code sediment serve}), read through a RocksDB secondary instance that catches up
 * periodically; a checkpoint directory works too. Serves until interrupted (or for
 * {@code --duration-seconds}), bound to 127.0.0.1.
 */
@Command(name = "recon", mixinStandardHelpOptions = true,
    description = "Serve Recon (read-only insight: JSON API, /prom, web page) over a store directory"
        + " another process owns, or a checkpoint.")
final class ReconCommand implements Callable<Integer> {

  @Option(names = "--db", required = true,
      description = "The store directory (the om store of `serve`, or a checkpoint).")
  Path db;

  @Option(names = "--port", defaultValue = "" + ReconConfig.DEFAULT_PORT,
      description = "TCP port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 = any free port).")
  int port;

  @Option(names = "--catch-up-ms", defaultValue = "1000",
      description = "How often to catch up with the primary, in ms (default: ${DEFAULT-VALUE}).")
  long catchUpMillis;

  @Option(names = "--secondary-dir",
      description = "Where the secondary instance keeps its own files (default: a temporary"
          + " directory removed on exit).")
  Path secondaryDir;

  @Option(names = "--duration-seconds", defaultValue = "0",
      description = "Stop after this many seconds (default: 0 = run until interrupted).")
  long durationSeconds;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65_535) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--port must be in [0, 65535]");
    }
    if (catchUpMillis < 10) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--catch-up-ms must be at least 10");
    }
    if (durationSeconds < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--duration-seconds must not be negative");
    }
    if (!Files.isDirectory(db)) {
      throw new IllegalArgumentException("No store directory at " + db);
    }
    PrintWriter out = spec.commandLine().getOut();
    Path secondary = secondaryDir != null ? secondaryDir : Files.createTempDirectory("sediment-recon-");
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    // Ctrl-C and SIGTERM stop it through StopSignals (exit 0); where the JVM shuts down anyway,
    // it exits once this hook returns, and the hook waits for the cleanup below.
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "sediment-recon-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    StopSignals.install(stop::countDown);
    try (ReconSource source = ReconSource.secondary(db, secondary, Duration.ofMillis(catchUpMillis));
         ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(port), source, null)) {
      out.printf("Recon at %s/ over %s (secondary, catching up every %d ms)%n", recon.url(),
          db.toAbsolutePath().normalize(), catchUpMillis);
      out.flush();
      if (durationSeconds > 0) {
        stop.await(durationSeconds, TimeUnit.SECONDS);
      } else {
        stop.await();
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook is running, and waits for `stopped`
      }
      try {
        if (secondaryDir == null) {
          StoreDirs.deleteTree(secondary);
        }
      } finally {
        stopped.countDown();
      }
    }
    return 0;
  }
}
