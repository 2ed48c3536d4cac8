package io.sediment.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sediment scan} against a real server: one timed line per pass and a summary, the listing
 * {@code ls} makes (ListObjectsV2, ListStatus in an FSO bucket) after untimed calls for an empty
 * page, what the server's tombstone tracker saw after each pass (one GetTombstoneStats each, none
 * with {@code --no-tracker}, a server refusing it leaves the scan going), {@code --json}, usage
 * errors (exit 2, nothing called) and NOT_FOUND (exit 1); and the tour's claim: the band a
 * default {@code load} leaves is a hot range the tracker compacts while the scan watches.
 */
class ScanCommandTest {

  /** The server's page cap here. */
  private static final int CAP = 100;

  @TempDir
  Path dir;
  private OmMetadataStore om;
  private OmGrpcServer server;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  /** Methods the server answers PERMISSION_DENIED to. */
  private final List<String> denied = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    om = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults().withMaxListSize(CAP)
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
    om.createVolume("vol", "o");
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    ServerInterceptor counting = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getBareMethodName();
        calls.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
        if (denied.contains(method)) {
          call.close(Status.PERMISSION_DENIED.withDescription("not an administrator"),
              new Metadata());
          return new ServerCall.Listener<>() { };
        }
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) { },
            headers);
      }
    };
    server = OmGrpcServer.builder(om).port(0).interceptor(counting).build().start();
  }

  @AfterEach
  void stop() {
    server.shutdown(Duration.ofSeconds(5));
    om.close();
  }

  private void keys(String bucket, String prefix, int n) {
    for (int i = 0; i < n; i++) {
      String k = String.format("%s%05d", prefix, i);
      om.commitKey("vol", bucket, k, om.openKey("vol", bucket, k, "o").clientId(), 1);
    }
  }

  private int calls(String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  private Run scan(String... args) {
    List<String> all = new ArrayList<>(List.of("scan"));
    all.addAll(List.of(args));
    all.addAll(List.of("--target", server.target()));
    return SedimentCommandTest.run(all.toArray(String[]::new));
  }

  @Test
  void eachPassIsOneTimedLineOfTheLsListingThenASummary() {
    keys("obs", "a/", 150);
    keys("obs", "b/x", 2);
    Run r = scan("vol/obs", "--times", "3", "--interval", "0s", "--no-tracker");
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().strip().split("\n");
    assertEquals(4, lines.length, r.out());
    for (int i = 0; i < 3; i++) {
      assertTrue(lines[i].matches("pass " + (i + 1) + "/3: 2 entries in 1 call, [0-9]+\\.[0-9] ms"),
          "the delimiter listing of ls: PRE a/, PRE b/: " + lines[i]);
    }
    assertTrue(lines[3].matches("3 passes: first [0-9.]+ ms, last [0-9.]+ ms; min [0-9.]+, "
        + "median [0-9.]+, max [0-9.]+ ms"), lines[3]);
    assertEquals(3 * 1 + 5, calls("ListObjectsV2"), "3 passes after 5 calls for an empty page");
    assertEquals(0, calls("GetTombstoneStats"), "--no-tracker asks nothing else");

    Run recursive = scan("vol/obs/a/", "-r", "--times", "2", "--interval", "0s", "--no-tracker");
    assertEquals(0, recursive.code(), recursive.err());
    assertTrue(recursive.out().startsWith("pass 1/2: 150 entries in 2 calls, "), recursive.out());
  }

  @Test
  void anFsoBucketIsScannedWithListStatus() {
    om.fso().createDirectory("vol", "fso", "d/e");
    Run r = scan("vol/fso/d", "-r", "--times", "2", "--interval", "0s", "--no-tracker");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("pass 1/2: 1 entry in 1 call, "), r.out());
    assertEquals(2 + 5, calls("ListStatus"));
    assertEquals(0, calls("ListObjectsV2"));
  }

  @Test
  void jsonIsOneObjectPerPassWithNumbersThenTheSummary() throws Exception {
    keys("obs", "k", 3);
    Run r = scan("vol/obs", "--times", "2", "--interval", "0s", "--json");
    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().strip().split("\n");
    assertEquals(3, lines.length, r.out());
    ObjectMapper json = new ObjectMapper();
    for (int i = 0; i < 2; i++) {
      JsonNode pass = json.readTree(lines[i]);
      assertEquals(i + 1, pass.get("pass").intValue());
      assertEquals(3, pass.get("entries").longValue());
      assertEquals(1, pass.get("calls").intValue());
      assertTrue(pass.get("millis").isNumber() && pass.get("millis").doubleValue() > 0, lines[i]);
      JsonNode tracker = pass.get("tracker");
      assertTrue(tracker.get("hotRanges").isArray() && tracker.get("compactions").isArray()
          && tracker.get("pendingCompactions").isArray(), lines[i]);
      assertEquals(0, tracker.get("compactionsRequested").longValue(), lines[i]);
      JsonNode sampled = tracker.get("sampled");
      assertTrue(sampled.get("scans").isNumber() && sampled.get("tombstonesSkipped").isNumber()
          && sampled.get("nativeMillis").isNumber(), lines[i]);
    }
    JsonNode summary = json.readTree(lines[2]);
    assertEquals(2, summary.get("passes").intValue());
    for (String f : List.of("firstMillis", "lastMillis", "minMillis", "medianMillis",
        "maxMillis")) {
      assertTrue(summary.get(f).isNumber(), f + " in " + lines[2]);
    }
    assertEquals(1 + 2, calls("GetTombstoneStats"), "a first look, then one per pass");
  }

  @Test
  void aServerRefusingTheTrackerFiguresIsSaidOnceAndTheScanGoesOn() {
    denied.add("GetTombstoneStats");
    Run r = scan("vol/obs", "--times", "3", "--interval", "0s");
    assertEquals(0, r.code(), r.err());
    assertEquals(1, r.out().split("tracker: not shown: the server answered PERMISSION_DENIED",
        -1).length - 1, r.out());
    assertEquals(1, calls("GetTombstoneStats"), "asked once, then left alone");
    assertTrue(r.out().contains("3 passes: "), r.out());
  }

  @Test
  void usageErrorsExitTwoAndCallNothing() {
    for (String[] args : List.of(new String[] {"vol"}, new String[] {"vol/"},
        new String[] {"vol/obs", "--times", "0"}, new String[] {"vol/obs", "--times", "100001"},
        new String[] {"vol/obs", "--interval", "2h"}, new String[] {"vol/obs", "--interval", "5"},
        new String[] {"vol/obs", "--page-size", "0"}, new String[] {})) {
      Run r = scan(args);
      assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
      assertTrue(r.err().contains("Usage: sediment scan"), r.err());
    }
    assertEquals(Map.of(), Map.copyOf(calls), "nothing was called");
  }

  @Test
  void aMissingBucketExitsOneNamingIt() {
    Run r = scan("vol/nope", "--times", "2");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.err().contains("NOT_FOUND") && r.err().contains("nope"), r.err());
    assertEquals(0, calls("ListObjectsV2"));
  }

  @Test
  void helpNamesEveryOption() {
    Run r = SedimentCommandTest.run("scan", "--help");
    assertEquals(0, r.code());
    for (String option : List.of("--times", "--interval", "--delimiter", "--recursive",
        "--page-size", "--no-tracker", "--json", "--target", "--timeout")) {
      assertTrue(r.out().contains(option), option + " in " + r.out());
    }
  }

  /**
   * The tour: a default load (one volume of it) leaves a band in its OBS bucket that the listing
   * of the bucket's root walks in one move, above the tracker's threshold; scanning it a second
   * apart, the tracker sees two slow passes, asks for a compaction, and the scan reports it,
   * with the tombstones gone.
   */
  @Test
  void theBandOfADefaultLoadIsHealedWhileTheScanWatches() throws Exception {
    Run load = SedimentCommandTest.run("load", "--target", server.target(), "--volumes", "1",
        "--no-progress");
    assertEquals(0, load.code(), load.err());
    assertTrue(load.out().contains("deleted keys dir-00/sub-05/key-000500..dir-02/sub-04/"
        + "key-002499 of each bucket (2000 per bucket"), load.out());
    // As a reader typing the next command: the tracker samples the first listing a second or
    // more after the last it sampled.
    Thread.sleep(1100);
    Run r = scan("load-v000/obs-000", "--times", "5");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("tracker: keyTable hot range [/load-v000/obs-000/dir-000, "
        + "/load-v000/obs-000/multipart/object-0): 1 slow pass, 1,500 tombstones skipped"),
        r.out());
    assertTrue(r.out().contains("tracker: a hot range was due: compaction requested"), r.out());
    assertTrue(r.out().contains("2 entries in 1 call, ") && r.out().matches("(?s).*ms; the "
        + "server's sampled listing skipped 1,500 tombstones in [0-9]+\\.[0-9]{2} ms\n.*"),
        "the band's cost where it is paid: " + r.out());
    assertTrue(r.out().matches("(?s).*pass 5/5: 2 entries in 1 call, [0-9.]+ ms; the server's "
        + "sampled listing skipped 0 tombstones in [0-9]+\\.[0-9]{2} ms\n.*"),
        "healed, a sampled pass skips none: " + r.out());
    assertTrue(r.out().matches("(?s).*tracker: keyTable TRACKER compaction \\[/load-v000/obs-000/"
        + "dir-000, /load-v000/obs-000/multipart/object-0\\) COMPLETED: tombstones 3,000 -> 0 .*"),
        r.out());
    assertEquals(0, om.dbStore().tombstoneStats().tables().stream()
        .filter(t -> t.table().equals("keyTable")).findFirst().orElseThrow().memtableDeletes());
  }
}
