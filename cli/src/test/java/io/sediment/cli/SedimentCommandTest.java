package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.BucketLayout;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Usage, help and failures of the sediment command (0 ok, 1 failure, 2 usage). */
class SedimentCommandTest {

  @TempDir Path dir;

  record Run(int code, String out, String err) { }

  static Run run(String... args) {
    return run(Sediment.commandLineFor(args), args);
  }

  static Run run(CommandLine cmd, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int code = cmd.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void helpNamesEveryCommandAndEveryCommandHasHelp() {
    Run top = run("--help");
    assertEquals(0, top.code());
    List<String> commands = List.of("serve", "load", "ls", "scan", "rm", "snapshot", "ldb", "recon",
        "tombstones", "compact", "checkpoint", "acl");
    for (String c : commands) {
      assertTrue(top.out().contains(c), c + " in " + top.out());
      Run help = run(c, "--help");
      assertEquals(0, help.code(), c);
      assertTrue(help.out().contains("Usage: sediment " + c), help.out());
    }
    assertTrue(top.out().contains("Exit codes"), top.out());
  }

  @Test
  void checkpointHelpNamesTheCommandThatOpensACheckpointDirectoryAsItIs() {
    // ldb and serve take a data directory and read DIR/om; only recon takes the store directory.
    String help = run("checkpoint", "--help").out().replaceAll("\\s+", " ");
    assertTrue(help.contains("recon --db"), help);
    assertFalse(help.contains("or use ldb"), help);
  }

  @Test
  void usageErrorsExitTwo() {
    for (String[] args : List.of(
        new String[] {},
        new String[] {"no-such-command"},
        new String[] {"serve", "--port", "70000", "--data", dir.toString()},
        new String[] {"serve", "--port", "x"},
        new String[] {"load", "--keys", "-5"},
        new String[] {"load", "--target", "127.0.0.1:1", "--data", dir.toString()},
        new String[] {"load", "--delete-fraction", "1.5"},
        new String[] {"ls", "--page-size", "0"},
        new String[] {"ls", "--target", "no-port"},
        new String[] {"ls", "vol/bucket/pre", "--prefix", "x"},
        new String[] {"ldb", "--data", dir.toString()},
        new String[] {"ldb", "--data", dir.toString(), "--table", "noSuchTable"},
        new String[] {"compact", "--begin", "a"},
        new String[] {"rm"},
        new String[] {"rm", "-r", "volume-only"},
        new String[] {"checkpoint"})) {
      Run r = run(args);
      assertEquals(2, r.code(), Arrays.toString(args) + ": " + r.err());
      assertFalse(r.err().isEmpty(), "a usage error says what is wrong");
    }
  }

  @Test
  void aDurationTooLongToScheduleIsAUsageErrorAndOpensNoStore() {
    for (String option : List.of("--key-deleting-interval", "--open-key-expire",
        "--multipart-expire", "--directory-deleting-interval")) {
      for (String value : List.of("999999999999d", "200000000d", "P200000000D")) {
        Path data = dir.resolve("data");
        Run r = run("serve", "--data", data.toString(), "--port", "0", "--recon-port", "0",
            option, value);
        assertEquals(2, r.code(), option + " " + value + ": " + r.err());
        assertTrue(r.err().contains(option) && r.err().contains(value), r.err());
        assertFalse(Files.exists(data), "a usage error creates no store: " + option + " " + value);
      }
    }
  }

  @Test
  void aBlankHostIsAUsageErrorAndOpensNoStore() {
    for (String host : List.of("", "  ")) {
      Path data = dir.resolve("data");
      Run r = run("serve", "--data", data.toString(), "--port", "0", "--recon-port", "0",
          "--host", host);
      assertEquals(2, r.code(), "'" + host + "': " + r.err());
      assertTrue(r.err().contains("--host"), r.err());
      assertFalse(Files.exists(data), "a usage error creates no store");
    }
  }

  @Test
  void lsWithoutPageSizeListsFromAServerWhosePageCapIsBelowAThousand() throws Exception {
    try (OmMetadataStore om = OmMetadataStore.open(dir.resolve("om"),
        OmStoreOptions.defaults().withMaxListSize(5))) {
      for (int v = 0; v < 7; v++) {
        om.createVolume("vol-" + v, "o");
      }
      om.createBucket("vol-0", "obs", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol-0", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      for (int d = 0; d < 7; d++) {
        om.fso().createDirectory("vol-0", "fso", "dir-" + d);
        om.commitKey("vol-0", "obs", "key-" + d,
            om.openKey("vol-0", "obs", "key-" + d, null).clientId(), d);
      }
      OmGrpcServer server = OmGrpcServer.builder(om).port(0).build().start();
      try {
        String target = server.target();
        for (String[] args : List.of(new String[] {"ls"}, new String[] {"ls", "vol-0"},
            new String[] {"ls", "vol-0/obs"}, new String[] {"ls", "vol-0/fso"})) {
          Run r = run(Stream.concat(Stream.of(args), Stream.of("--target", target))
              .toArray(String[]::new));
          assertEquals(0, r.code(), Arrays.toString(args) + ": " + r.err());
        }
        // Without --page-size the request leaves the page size absent (the server's cap): an
        // explicit 0 would ask for an empty page.
        assertEquals(7, run("ls", "--target", target).out().lines().count());
        assertEquals(2, run("ls", "vol-0", "--target", target).out().lines().count());
        assertEquals(7, run("ls", "vol-0/obs", "--target", target).out().lines().count());
        assertEquals(7, run("ls", "vol-0/fso", "-r", "--target", target).out().lines().count());
        Run paged = run("ls", "--page-size", "2", "--target", target);
        assertEquals(0, paged.code(), paged.err());
        assertEquals(7, paged.out().lines().count(), "an explicit --page-size within the cap");
      } finally {
        server.shutdown(Duration.ofSeconds(5));
      }
    }
  }

  /**
   * {@code rm -r} on an OBS prefix counts a listed key another client deleted meanwhile as
   * already gone, as on FSO.
   */
  @Test
  void rmRecursiveOnAnObjectStorePrefixSkipsAKeyDeletedMeanwhile() throws Exception {
    try (OmMetadataStore om = OmMetadataStore.open(dir.resolve("om"))) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      for (int k = 0; k < 3; k++) {
        var session = om.openKey("vol", "obs", "k-" + k, "o");
        om.commitKey("vol", "obs", "k-" + k, session.clientId(), 1);
      }
      java.util.concurrent.atomic.AtomicBoolean raced = new java.util.concurrent.atomic.AtomicBoolean();
      io.grpc.ServerInterceptor otherClient = new io.grpc.ServerInterceptor() {
        @Override
        public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(io.grpc.ServerCall<Q, R> call,
            io.grpc.Metadata headers, io.grpc.ServerCallHandler<Q, R> next) {
          if (call.getMethodDescriptor().getBareMethodName().equals("DeleteKeys")
              && raced.compareAndSet(false, true)) {
            om.deleteKey("vol", "obs", "k-1");
          }
          return next.startCall(call, headers);
        }
      };
      OmGrpcServer server = OmGrpcServer.builder(om).port(0).interceptor(otherClient).build().start();
      try {
        Run r = run("rm", "-r", "vol/obs/k-", "--target", server.target());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Deleted 2 keys under vol/obs/k- (1 already gone, 0 failed)"),
            r.out());
        assertTrue(om.listKeys("vol", "obs", "", null, 10, null).items().isEmpty());
      } finally {
        server.shutdown(Duration.ofSeconds(5));
      }
    }
  }

  @Test
  void aClientCommandWithoutAServerFailsWithOneAndSaysWhy() throws Exception {
    int port = ServeThreads.freePort();
    for (String c : List.of("ls", "tombstones", "compact")) {
      Run r = run(c, "--target", "127.0.0.1:" + port, "--timeout", "5");
      assertEquals(1, r.code(), c + ": " + r.err());
      assertTrue(r.err().contains("UNAVAILABLE") && r.err().contains("sediment serve"), r.err());
    }
  }

  @Test
  void ldbReadsAStoppedStoreWithoutChangingIt() throws Exception {
    Path data = dir.resolve("data");
    try (OmMetadataStore om = OmMetadataStore.open(data.resolve("om"))) {
      om.createVolume("vol", "o");
    }
    Map<String, Long> before = files(data.resolve("om"));
    Run r = run("ldb", "--data", data.toString(), "--table", "volumeTable");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("{\"key\":\"/vol\""), r.out());
    assertEquals(before, files(data.resolve("om")), "ldb only reads: no file of the store is "
        + "added, removed or rewritten");
  }

  /** The files of a directory with their sizes and modification times. */
  private static Map<String, Long> files(Path dir) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : s.toList()) {
        out.put(f.getFileName() + " " + Files.size(f), Files.getLastModifiedTime(f).toMillis());
      }
    }
    return out;
  }

  @Test
  void loadThatDeletesNoKeysDoesNotReportABandOfThem() {
    for (String[] counts : List.of(new String[] {"--keys", "0"},
        new String[] {"--keys", "10", "--delete-fraction", "0"})) {
      Run r = run(Stream.concat(Stream.of("load", "--data", dir.resolve("data").toString(),
          "--name-prefix", "none", "--volumes", "1", "--buckets", "1", "--fso-buckets", "0",
          "--open-keys", "0", "--multipart-uploads", "0", "--no-snapshots", "--no-progress"),
          Stream.of(counts)).toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().contains("deleted no keys"), Arrays.toString(counts) + ": " + r.out());
      assertFalse(r.out().contains(".."), Arrays.toString(counts) + ": " + r.out());
    }
  }

  @Test
  void ldbHelpNamesEveryTableItScans() {
    String help = run("ldb", "--help").out().replaceAll("\\s+", " ");
    for (var table : OmDBDefinition.DEFINITION.tables()) {
      assertTrue(help.contains(table.name()), table.name() + " in " + help);
    }
  }

  @Test
  void ldbOnADirectoryWithoutAStoreFailsWithOne() {
    Run r = run("ldb", "--data", dir.toString(), "--table", "keyTable");
    assertEquals(1, r.code());
    assertTrue(r.err().contains("No store at"), r.err());
    assertFalse(Files.exists(dir.resolve("om")), "ldb creates nothing");
  }
}
