package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.GetCountersRequest;
import io.sediment.proto.om.GetServiceStatsRequest;
import io.sediment.proto.om.GetServiceStatsResponse;
import io.sediment.proto.om.ServiceStats;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sediment serve} runs the background services with the intervals and thresholds of its
 * flags, reports them through AdminService.GetServiceStats, runs none with
 * --no-background-services, and stops them after the gRPC server has drained and before the store
 * closes.
 */
class ServeBackgroundServicesTest {

  @TempDir Path dir;

  @Test
  void servicesPurgeExpireAndAbortWhatLoadLeftAndStopBeforeTheStoreCloses() throws Exception {
    Path data = dir.resolve("data");
    Run load = run("load", "--data", data.toString(), "--volumes", "1", "--buckets", "1",
        "--keys", "40", "--open-keys", "4", "--delete-fraction", "0.5", "--fso-buckets", "1",
        "--depth", "2", "--fanout", "2", "--files-per-dir", "1", "--multipart-uploads", "3",
        "--no-progress");
    assertEquals(0, load.code(), load.err());
    assertTrue(load.out().contains("1 completed (keys multipart/object-N), 1 aborted, "
        + "1 in progress"), load.out());
    assertTrue(load.out().contains("Snapshot 'before-deletes'"), load.out());

    assertTrue(load.out().contains("each a tree of 6 directories (depth 2, fanout 2) and 7 files; "
        + "deleted dir-0/dir-1, dir-1/dir-1 of each recursively"), load.out());

    // Without services nothing is purged: 20 deleted keys + the 3 parts of the aborted upload;
    // the 2 deleted FSO subtrees (a directory and a file each) wait in deletedDirectoryTable.
    String quiet = serve(data, List.of("--no-background-services"), admin -> {
      assertEquals(0, admin.getServiceStats(GetServiceStatsRequest.getDefaultInstance())
          .getServicesCount());
      Map<String, Long> c = counters(admin);
      assertEquals(23L, c.get("DELETED_KEYS"));
      assertEquals(2L, c.get("DELETED_DIRECTORIES"));
      assertEquals(4L, c.get("DIRECTORIES"), "each deleted directory's own row moved");
      assertEquals(7L, c.get("FILES"), "the files below a deleted directory count until purged");
      assertEquals(4L, c.get("OPEN_KEYS"));
      assertEquals(1L, c.get("MULTIPART_UPLOADS"));
    });
    assertTrue(quiet.contains("Background services: none"), quiet);

    String busy = serve(data, List.of("--key-deleting-interval", "100ms",
        "--open-key-cleanup-interval", "100ms", "--open-key-expire", "0s",
        "--multipart-cleanup-interval", "100ms", "--multipart-expire", "0s",
        "--key-deleting-batch", "7", "--directory-deleting-interval", "100ms",
        "--directory-deleting-batch-size", "3"), admin -> {
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          Map<String, Long> c = counters(admin);
          while (c.get("DELETED_KEYS") + c.get("OPEN_KEYS") + c.get("MULTIPART_UPLOADS")
              + c.get("DELETED_DIRECTORIES") > 0 && System.nanoTime() < deadline) {
            sleep(50);
            c = counters(admin);
          }
          assertEquals(0L, c.get("DELETED_KEYS"), c.toString());
          assertEquals(0L, c.get("OPEN_KEYS"), c.toString());
          assertEquals(0L, c.get("MULTIPART_UPLOADS"), c.toString());
          assertEquals(0L, c.get("DELETED_DIRECTORIES"), c.toString());
          assertEquals(4L, c.get("DIRECTORIES"), "6 less the 2 deleted: " + c);
          assertEquals(5L, c.get("FILES"), "7 less the 2 below the deleted directories (moved to "
              + "deletedTable by the directory purge, then purged): " + c);
          assertEquals(21L, c.get("KEYS"), "the live keys stay: 40 less 20 deleted, plus the "
              + "completed upload: " + c);
          GetServiceStatsResponse stats = admin.getServiceStats(
              GetServiceStatsRequest.getDefaultInstance());
          assertEquals(List.of("KeyDeletingService", "OpenKeyCleanupService",
              "MultipartUploadCleanupService", "DirectoryDeletingService"), stats.getServicesList().stream()
              .map(ServiceStats::getName).toList());
          for (ServiceStats s : stats.getServicesList()) {
            assertTrue(s.getRunning(), s.toString());
            assertEquals(100, s.getIntervalMillis(), s.toString());
            assertTrue(s.getRuns() >= 1, s.toString());
            assertEquals(0, s.getFailures(), s.toString());
          }
          assertTrue(stats.getServices(0).getBatches() >= 4, "batches of 7 rows: " + stats);
          assertTrue(stats.getServices(0).getRowsPerSecond() > 0, stats.toString());
        });
    assertTrue(busy.contains("Background services: key purge every 100ms (7 rows), open-key "
        + "cleanup every 100ms (expire after 0s), multipart cleanup every 100ms (abort after 0s), "
        + "directory purge every 100ms (3 rows)"), busy);

    List<String> log = Files.readAllLines(data.resolve("logs").resolve("sediment.log"));
    int grpcStopped = lastIndexOf(log, "gRPC server stopped");
    int servicesStopped = lastIndexOf(log, "Background services stopped");
    int storeClosed = lastIndexOf(log, "Store closed");
    assertTrue(grpcStopped >= 0 && grpcStopped < servicesStopped
        && servicesStopped < storeClosed, "shutdown order in the log:\n" + String.join("\n", log));
  }

  @Test
  void serviceFlagsDefaultToTheServiceDefaultsAndBadValuesAreUsageErrors() {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve).parseArgs();
    assertEquals(io.sediment.om.service.OmServices.Config.defaults(), serve.background.config());
    ServeCommand paced = new ServeCommand();
    new CommandLine(paced).parseArgs("--purge-rate", "5000", "--purge-pause", "0s");
    assertEquals(new io.sediment.om.service.PurgePacing(5000, java.time.Duration.ZERO),
        paced.background.config().pacing());
    assertTrue(paced.background.describe().endsWith("5000 rows/s at most, 0 ms between batches"),
        paced.background.describe());

    for (List<String> bad : List.of(List.of("--key-deleting-interval", "0s"),
        List.of("--open-key-expire", "7"), List.of("--multipart-expire", "PT-1S"),
        List.of("--key-deleting-batch", "0"), List.of("--multipart-cleanup-limit", "100001"),
        List.of("--open-key-cleanup-interval", "soon"),
        List.of("--directory-deleting-interval", "0s"),
        List.of("--directory-deleting-batch-size", "0"), List.of("--purge-rate", "-1"),
        List.of("--purge-rate", "100000001"), List.of("--purge-pause", "11m"),
        List.of("--purge-pause", "PT-1S"), List.of("--purge-rate", "fast"))) {
      List<String> args = new ArrayList<>(List.of("serve", "--data", dir.toString(), "--port", "0",
          "--recon-port", "0"));
      args.addAll(bad);
      Run r = run(args.toArray(String[]::new));
      assertEquals(2, r.code(), bad + ": " + r.err());
      assertTrue(r.err().contains(bad.get(0)) || r.err().contains("duration"), r.err());
    }
  }

  /**
   * A run drains its backlog in as many batches as it takes, so the limits bound a batch; help
   * that said "per run" told an operator a backlog shrinks by at most that much a run.
   */
  @Test
  void helpGivesTheServicesLimitsPerBatchNotPerRun() {
    Run r = run("serve", "--help");
    assertEquals(0, r.code());
    String help = r.out().replaceAll("\\s+", " ");
    for (String option : List.of("--key-deleting-batch", "--open-key-cleanup-limit",
        "--multipart-cleanup-limit", "--directory-deleting-batch-size")) {
      int at = help.indexOf(option + "=N ");
      assertTrue(at >= 0, option + " in " + help);
      String description = help.substring(at, help.indexOf("(default:", at));
      assertTrue(description.contains("per batch"), description);
      assertFalse(description.contains("per run"), description);
    }
  }

  @Test
  void durationsTakeAUnitOrIso8601AndPrintInTheLargestExactUnit() {
    assertEquals(java.time.Duration.ofMillis(250), Durations.parse("250ms"));
    assertEquals(java.time.Duration.ofSeconds(90), Durations.parse("90s"));
    assertEquals(java.time.Duration.ofMinutes(15), Durations.parse("15m"));
    assertEquals(java.time.Duration.ofHours(1), Durations.parse("1H"));
    assertEquals(java.time.Duration.ofDays(7), Durations.parse("7d"));
    assertEquals(java.time.Duration.ofSeconds(90), Durations.parse("PT90S"));
    for (String bad : List.of("", "7", "d", "1w", "-1s", "1.5h", "PTx")) {
      assertTrue(assertThrowsConversion(bad), bad);
    }
    assertEquals("7d", Durations.format(java.time.Duration.ofDays(7)));
    assertEquals("90s", Durations.format(java.time.Duration.ofSeconds(90)));
    assertEquals("1500ms", Durations.format(java.time.Duration.ofMillis(1500)));
    assertEquals("0s", Durations.format(java.time.Duration.ZERO));
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /**
   * Runs serve on {@code data} (port 0) with {@code flags}, hands an AdminService stub to
   * {@code body}, stops it, and returns what it printed.
   */
  private static String serve(Path data, List<String> flags,
      Consumer<AdminServiceGrpc.AdminServiceBlockingStub> body) throws Exception {
    return serveWith(data, flags, channel -> body.accept(
        AdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS)));
  }

  /**
   * Runs serve on {@code data} (port 0) with {@code flags}, hands a channel to it to
   * {@code body}, stops it, and returns what it printed.
   */
  static String serveWith(Path data, List<String> flags, Consumer<ManagedChannel> body)
      throws Exception {
    CommandLine cmd = Sediment.commandLine();
    ServeCommand serve = cmd.getSubcommands().get("serve").getCommand();
    serve.installShutdownHook = false;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("serve", "--data", data.toString(), "--port", "0",
        "--recon-port", "0", "--sync", "PROCESS_CRASH_SAFE", "--drain-timeout", "5"));
    args.addAll(flags);
    AtomicInteger code = new AtomicInteger(-1);
    Thread serving = new Thread(() -> code.set(cmd.execute(args.toArray(String[]::new))));
    serving.start();
    try {
      assertTrue(serve.started.await(60, TimeUnit.SECONDS), err.toString());
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1",
          serve.server.port(), InsecureChannelCredentials.create()).build();
      try {
        body.accept(channel);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      serve.requestStop();
      serving.join(60_000);
    }
    assertEquals(0, code.get(), err.toString());
    if (serve.services != null) {
      assertTrue(serve.services.services().stream().noneMatch(s -> s.isRunning()),
          "the services are stopped when serve returns");
    }
    return out.toString();
  }

  private static Map<String, Long> counters(AdminServiceGrpc.AdminServiceBlockingStub admin) {
    return admin.getCounters(GetCountersRequest.getDefaultInstance()).getCountersMap();
  }

  private static int lastIndexOf(List<String> lines, String text) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean assertThrowsConversion(String text) {
    try {
      Durations.parse(text);
      return false;
    } catch (CommandLine.TypeConversionException e) {
      return e.getMessage().contains("duration");
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
