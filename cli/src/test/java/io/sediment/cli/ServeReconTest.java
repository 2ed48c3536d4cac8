package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.OmMetadataStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sediment serve} runs Recon over its store: on --recon-port (0: a free one) it answers the
 * namespace summary of what was loaded through gRPC and exports the gRPC metrics on /prom; it stops
 * after the gRPC drain and before the store closes; --no-recon serves none; a Recon port in use
 * fails the command and releases the store.
 */
class ServeReconTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void reconAnswersTheNamespaceSummaryOverHttpAndStopsBeforeTheStoreCloses() throws Exception {
    Path data = dir.resolve("data");
    Serving s = Serving.start(data, "--recon-port", "0");
    String url;
    try {
      assertNotNull(s.serve.recon, "Recon runs by default");
      url = s.serve.recon.url();
      assertTrue(url.startsWith("http://127.0.0.1:"), url);
      assertTrue(s.out.toString().contains("Recon at " + url + "/"), s.out.toString());

      Run load = run("load", "--target", s.serve.server.target(), "--volumes", "1", "--buckets",
          "1", "--keys", "10", "--open-keys", "2", "--delete-fraction", "0.2", "--fso-buckets",
          "0", "--multipart-uploads", "1", "--no-snapshots", "--no-progress");
      assertEquals(0, load.code(), load.err());

      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      HttpResponse<String> r = get(http, "http://127.0.0.1:" + s.serve.recon.port()
          + "/api/v1/namespace/summary?path=/");
      assertEquals(200, r.statusCode(), r.body());
      JsonNode summary = JSON.readTree(r.body());
      assertEquals("OK", summary.get("status").asText());
      assertEquals("ROOT", summary.get("type").asText());
      JsonNode counts = summary.get("countStats");
      assertEquals(List.of("numVolume", "numBucket", "numDir", "numKey"), names(counts));
      assertEquals(1, counts.get("numVolume").asLong());
      assertEquals(1, counts.get("numBucket").asLong());
      assertEquals(9, counts.get("numKey").asLong(), "10 keys less 2 deleted, plus the completed "
          + "multipart upload");

      HttpResponse<String> prom = get(http, url + "/prom");
      assertEquals(200, prom.statusCode());
      assertTrue(prom.body().contains("sediment_grpc_server_calls_total{"),
          "Recon exports the gRPC server's per-RPC metrics");
      assertFalse(prom.body().contains("\nratis_"), "a single node has no Raft metrics");
      assertEquals("SINGLE", JSON.readTree(get(http, url + "/api/v1/replication/status").body())
          .get("role").asText());
    } finally {
      s.stop();
    }
    assertEquals(0, s.code.get(), s.err.toString());
    assertTrue(s.out.toString().contains("Stopped"), s.out.toString());
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    assertThrows(IOException.class, () -> get(http, url + "/api/v1/namespace/summary?path=/"),
        "Recon no longer listens");

    List<String> log = Files.readAllLines(data.resolve("logs").resolve("sediment.log"));
    int grpc = lastIndexOf(log, "gRPC server stopped");
    int recon = lastIndexOf(log, "Recon stopped");
    int services = lastIndexOf(log, "Background services stopped");
    int store = lastIndexOf(log, "Store closed");
    assertTrue(grpc >= 0 && grpc < recon && recon < services && services < store,
        "shutdown order in the log:\n" + String.join("\n", log));
  }

  @Test
  void aReplicaShowsItsRoleOnReconAndRatisMetricsOnProm() throws Exception {
    int raftPort = ServeThreads.freePort();
    // A group of one: it elects itself. An id no other test in this JVM uses (Ratis keeps its
    // metric registries per replica id).
    Serving s = Serving.start(dir.resolve("data"), "--recon-port", "0", "--ha-id", "recon-r1",
        "--peers", "recon-r1=127.0.0.1:" + raftPort, "--election-timeout", "300ms");
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      String url = s.serve.recon.url();
      JsonNode status = null;
      for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          System.nanoTime() < deadline; Thread.sleep(100)) {
        status = JSON.readTree(get(http, url + "/api/v1/replication/status").body());
        // A new leader reports its role before it has applied its first entry.
        if (status.get("role").asText().equals("LEADER") && status.get("applyLag").asLong() == 0) {
          break;
        }
      }
      assertEquals("LEADER", status.get("role").asText(), status.toString());
      assertTrue(status.get("replicated").asBoolean());
      assertEquals("recon-r1", status.get("replicaId").asText());
      assertTrue(status.get("term").asLong() >= 1, status.toString());
      assertEquals(0, status.get("applyLag").asLong(), status.toString());

      Run load = run("load", "--target", s.serve.server.target(), "--volumes", "1", "--buckets",
          "1", "--keys", "3", "--open-keys", "0", "--delete-fraction", "0", "--fso-buckets", "0",
          "--multipart-uploads", "0", "--no-snapshots", "--no-progress");
      assertEquals(0, load.code(), load.err());
      String prom = get(http, url + "/prom").body();
      assertTrue(prom.contains("\nratis_server_client_write_request_seconds_count "), prom);
      assertTrue(prom.contains("\nratis_log_worker_flush_time_seconds{quantile=\"0.99\"} "), prom);
      assertTrue(prom.contains("\nsediment_replica_leader 1"), prom);
      JsonNode after = JSON.readTree(get(http, url + "/api/v1/replication/status").body());
      assertTrue(after.get("appliedIndex").asLong() > status.get("appliedIndex").asLong(),
          "the writes advanced the applied index: " + after);
    } finally {
      s.stop();
    }
    assertEquals(0, s.code.get(), s.err.toString());
  }

  @Test
  void noReconServesGrpcOnly() throws Exception {
    Serving s = Serving.start(dir.resolve("data"), "--no-recon");
    try {
      assertNull(s.serve.recon);
      assertTrue(s.out.toString().contains("Recon: none (--no-recon)"), s.out.toString());
      assertEquals(0, run("ls", "--target", s.serve.server.target()).code());
    } finally {
      s.stop();
    }
    assertEquals(0, s.code.get(), s.err.toString());
  }

  @Test
  void checkpointsGoUnderTheCheckpointRootFlagCreatedOwnerOnly() throws Exception {
    Path root = dir.resolve("backups/sediment");
    Serving s = Serving.start(dir.resolve("data"), "--no-recon", "--no-background-services",
        "--checkpoint-root", root.toString());
    try {
      assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
          Files.getPosixFilePermissions(root)));
      Run cp = run("checkpoint", "c1", "--target", s.serve.server.target());
      assertEquals(0, cp.code(), cp.err());
      assertTrue(cp.out().contains(root.resolve("c1").toString()), cp.out());
      assertTrue(Files.isRegularFile(root.resolve("c1/CURRENT")));
      Run out = run("checkpoint", "../c2", "--target", s.serve.server.target());
      assertEquals(1, out.code(), out.out());
      assertTrue(out.err().contains("INVALID_ARGUMENT") && out.err().contains(root.toString()),
          out.err());
      assertFalse(Files.exists(root.resolveSibling("c2")));
      assertFalse(Files.exists(dir.resolve("data/checkpoints")), "the default root is unused");
    } finally {
      s.stop();
    }
    assertEquals(0, s.code.get(), s.err.toString());
  }

  @Test
  void aReconPortInUseFailsTheCommandAndReleasesTheStore() throws Exception {
    Path data = dir.resolve("data");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Run r = run("serve", "--data", data.toString(), "--port", "0", "--recon-port",
          "" + taken.getLocalPort(), "--sync", "PROCESS_CRASH_SAFE", "--no-background-services");
      assertEquals(1, r.code(), r.out() + r.err());
      assertTrue(r.err().contains("--recon-port") && r.err().contains("--no-recon"), r.err());
    }
    try (OmMetadataStore reopened = OmMetadataStore.open(data.resolve("om"))) {
      assertEquals(0L, reopened.counters().getOrDefault(io.sediment.om.core.OmCounter.VOLUMES, 0L),
          "the store was closed and can be opened again");
    }
  }

  @Test
  void badReconPortsAreUsageErrors() {
    for (List<String> bad : List.of(List.of("--recon-port", "70000"),
        List.of("--recon-port", "-1"), List.of("--port", "19862", "--recon-port", "19862"))) {
      List<String> args = new ArrayList<>(List.of("serve", "--data", dir.toString()));
      if (!bad.contains("--port")) {
        args.addAll(List.of("--port", "0"));
      }
      args.addAll(bad);
      Run r = run(args.toArray(String[]::new));
      assertEquals(2, r.code(), bad + ": " + r.err());
      assertTrue(r.err().contains("--recon-port"), r.err());
    }
    assertFalse(Files.exists(dir.resolve("om")), "a usage error opens no store");
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** A serve command running in a thread on port 0 until {@link #stop()} (ServeTlsTest too). */
  record Serving(ServeCommand serve, Thread thread, AtomicInteger code, StringWriter out,
      StringWriter err) {

    static Serving start(Path data, String... flags) throws InterruptedException {
      var cmd = Sediment.commandLine();
      ServeCommand serve = cmd.getSubcommands().get("serve").getCommand();
      serve.installShutdownHook = false;
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      cmd.setOut(new PrintWriter(out));
      cmd.setErr(new PrintWriter(err));
      List<String> args = new ArrayList<>(List.of("serve", "--data", data.toString(), "--port",
          "0", "--sync", "PROCESS_CRASH_SAFE", "--drain-timeout", "5"));
      args.addAll(List.of(flags));
      AtomicInteger code = new AtomicInteger(-1);
      Thread t = new Thread(() -> code.set(cmd.execute(args.toArray(String[]::new))));
      t.start();
      Serving s = new Serving(serve, t, code, out, err);
      if (!serve.started.await(60, TimeUnit.SECONDS)) {
        s.stop();
        throw new AssertionError("serve did not start: " + err);
      }
      return s;
    }

    void stop() throws InterruptedException {
      serve.requestStop();
      thread.join(60_000);
      assertFalse(thread.isAlive(), "serve returns after a stop request");
    }
  }

  private static HttpResponse<String> get(HttpClient http, String url)
      throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> names(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }

  private static int lastIndexOf(List<String> lines, String text) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).contains(text)) {
        return i;
      }
    }
    return -1;
  }
}
