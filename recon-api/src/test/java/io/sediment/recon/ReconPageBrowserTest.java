package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OpenKeySession;
import io.sediment.proto.om.GetReplicationStatusResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web page in a real browser: headless Chromium (Debian package {@code chromium}) loads it
 * from a live server with known data, and the figures it renders (summary tiles, table rows,
 * charts) match the API; driven over the DevTools protocol ({@link DevToolsBrowser}), it refreshes
 * itself until its toggle is turned off, draws the namespace usage, the file sizes and the RPC
 * sparklines. Saves screenshots to {@code target/recon-page.png} and
 * {@code target/recon-page-live.png}. Fails, with how to install it, when Chromium is missing.
 */
class ReconPageBrowserTest {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  @TempDir Path dir;

  /** Headless, quiet, offline but for the page; the console (where a CSP refusal shows) to stderr. */
  private static final List<String> HEADLESS = List.of(CHROMIUM.toString(), "--headless",
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-default-apps", "--disable-extensions", "--mute-audio", "--enable-logging=stderr",
      "--v=0");

  private static List<String> chromium(Path profile, String... args) {
    List<String> cmd = new ArrayList<>(HEADLESS);
    cmd.addAll(List.of("--user-data-dir=" + profile, "--virtual-time-budget=15000",
        "--run-all-compositor-stages-before-draw"));
    cmd.addAll(List.of(args));
    return cmd;
  }

  private static String run(List<String> cmd, Path log) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish in 90 s: " + cmd);
    }
    assertEquals(0, p.exitValue(), () -> "chromium failed: " + readQuietly(log));
    return new String(out, StandardCharsets.UTF_8);
  }

  private static String readQuietly(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private static String byId(String dom, String id) {
    Matcher m = Pattern.compile("id=\"" + Pattern.quote(id) + "\"[^>]*>([^<]*)<").matcher(dom);
    assertTrue(m.find(), () -> "no element #" + id + " in the rendered page");
    return m.group(1).trim();
  }

  private static JsonNode api(String url) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return new ObjectMapper().readTree(r.body());
  }

  @Test
  void pageRendersTheApiFiguresInChromiumAndIsScreenshotted() throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      fail("Headless Chromium is needed at " + CHROMIUM + " for the web page test: install it with"
          + " `apt-get update && apt-get install -y chromium` (.ci/run does this when it is missing)");
    }
    try (OmMetadataStore om = TestNamespace.open(dir.resolve("om"))) {
      // Not flushed: the tombstones stay in the memtables, where no background compaction can
      // drop them between the page's requests and the test's.
      TestNamespace ns = new TestNamespace().load(om, 5);
      try (ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
          ReconSource.embedded(om), null)) {
        String url = recon.url() + "/";
        String dom = run(chromium(dir.resolve("profile-dom"), "--dump-dom", url),
            dir.resolve("chromium-dom.log"));
        assertTrue(dom.contains("data-ready=\"true\""), () -> "the page did not finish loading: "
            + byIdOrDom(dom));
        assertNoPolicyViolation(dir.resolve("chromium-dom.log"));

        JsonNode root = api(recon.url() + "/api/v1/namespace/summary?path=/");
        assertEquals(root.at("/countStats/numVolume").asText(), byId(dom, "tile-volumes"));
        assertEquals(root.at("/countStats/numBucket").asText(), byId(dom, "tile-buckets"));
        assertEquals(root.at("/countStats/numKey").asText(), byId(dom, "tile-keys"));
        assertEquals(String.valueOf(ns.obsKeys.size() + ns.fsoPaths.size()), byId(dom, "tile-keys"));
        assertEquals(api(recon.url() + "/api/v1/keys/open/summary").get("totalOpenKeys").asText(),
            byId(dom, "tile-open-keys"));
        assertEquals(String.valueOf(ns.deleted.size()), byId(dom, "tile-pending-deletes"));
        long tombstones = 0;
        for (JsonNode t : api(recon.url() + "/api/v1/db/tables").get("tables")) {
          tombstones += t.get("tombstones").asLong();
        }
        assertEquals(String.valueOf(tombstones), byId(dom, "tile-tombstones"));
        assertTrue(tombstones > 0, "the loaded namespace has deletes");

        // The paged tables show the first page of each listing, in API order.
        JsonNode open = api(recon.url() + "/api/v1/keys/open?limit=10");
        String firstOpen = open.at("/nonFSO/0/path").asText();
        assertTrue(dom.contains(">" + firstOpen + "<"), "first open key " + firstOpen);
        JsonNode deleted = api(recon.url() + "/api/v1/keys/deletePending?limit=10");
        assertTrue(dom.contains(">" + deleted.at("/deletedKeyInfo/9/path").asText() + "<"));
        assertEquals("page 1", byId(dom, "open-keys-page"));
        assertEquals("single node", byId(dom, "replica-role"));
        // The charts rendered (ECharts from the jar drew SVG).
        assertTrue(dom.contains("<svg"), "no chart was drawn");
        assertTrue(dom.contains("deletedTable"), "tombstone chart names the tables");
        // The usage treemap labels the volumes and buckets that hold data; the histogram counts
        // every file of the dist.
        for (String name : List.of("vol-a", "vol-b", "obs1", "leg1", "fso1")) {
          assertTrue(dom.contains(">" + name + "<"), "usage treemap shows " + name);
        }
        assertTrue(byId(dom, "usage-caption").contains("in 3 volumes"), byId(dom, "usage-caption"));
        long files = 0;
        for (JsonNode n : api(recon.url() + "/api/v1/namespace/dist?path=/").get("dist")) {
          files += n.asLong();
        }
        assertEquals(ns.obsKeys.size() + ns.fsoPaths.size(), files);
        assertTrue(byId(dom, "dist-caption").startsWith(files + " files"), byId(dom, "dist-caption"));
        assertTrue(dom.contains(">≤ 1 KiB<"), "the histogram labels its first bin");
        assertEquals("no RPC metrics on this server", byId(dom, "rpc-note"));

        Path shot = Path.of("target", "recon-page.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        Files.deleteIfExists(shot);
        run(chromium(dir.resolve("profile-shot"), "--hide-scrollbars", "--window-size=1400,1100",
            "--screenshot=" + shot, url), dir.resolve("chromium-shot.log"));
        assertTrue(Files.size(shot) > 10_000, "screenshot written: " + shot);
      }
    }
  }

  @Test
  void pageShowsTheReplicasRoleTermAppliedIndexAndLag() throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      fail("Headless Chromium is needed at " + CHROMIUM + ": install it with"
          + " `apt-get update && apt-get install -y chromium`");
    }
    GetReplicationStatusResponse status = GetReplicationStatusResponse.newBuilder()
        .setReplicated(true).setReplicaId("om2").setRole("FOLLOWER").setTerm(3)
        .setLeaderId("om1").setLeaderAddress("127.0.0.1:9862").setCommitIndex(42)
        .setAppliedIndex(40).build();
    try (OmMetadataStore om = TestNamespace.open(dir.resolve("om"));
        ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
            ReconSource.embedded(om), null, () -> status)) {
      String dom = run(chromium(dir.resolve("profile-dom"), "--dump-dom", recon.url() + "/"),
          dir.resolve("chromium-dom.log"));
      assertTrue(dom.contains("data-ready=\"true\""), () -> "the page did not finish loading: "
          + byIdOrDom(dom));

      JsonNode api = api(recon.url() + "/api/v1/replication/status");
      assertEquals("FOLLOWER", api.get("role").asText());
      assertEquals(api.get("role").asText(), byId(dom, "replica-role"));
      assertEquals("om2", byId(dom, "replica-id"));
      assertEquals("3", byId(dom, "replica-term"));
      assertEquals("40", byId(dom, "replica-applied"));
      assertEquals("2", byId(dom, "replica-lag"));
      assertEquals("om1 (127.0.0.1:9862)", byId(dom, "replica-leader"));
    }
  }

  @Test
  void pageRefreshesItselfUntilToggledOffAndDrawsUsageFileSizesAndRpcSparklines() throws Exception {
    if (!Files.isExecutable(CHROMIUM)) {
      fail("Headless Chromium is needed at " + CHROMIUM + ": install it with"
          + " `apt-get update && apt-get install -y chromium`");
    }
    // The gRPC server's metrics, by name, fed at 50 calls/s of 2 ms each while the page runs.
    PrometheusRegistry grpc = new PrometheusRegistry();
    Counter calls = Counter.builder().name("sediment_grpc_server_calls_total").help("calls")
        .labelNames("service", "method", "code").register(grpc);
    Histogram latency = Histogram.builder().name("sediment_grpc_server_call_duration_seconds")
        .help("latency").unit(Unit.SECONDS).labelNames("service", "method").classicOnly()
        .register(grpc);
    ScheduledExecutorService rpcs = Executors.newSingleThreadScheduledExecutor();
    rpcs.scheduleAtFixedRate(() -> {
      calls.labelValues("sediment.om.v1.OmService", "LookupKey", "OK").inc();
      latency.labelValues("sediment.om.v1.OmService", "LookupKey").observe(0.002);
    }, 0, 20, TimeUnit.MILLISECONDS);
    Path log = dir.resolve("chromium-live.log");
    try (OmMetadataStore om = TestNamespace.open(dir.resolve("om"))) {
      new TestNamespace().load(om, 9);
      for (long size : new long[] {5_000, 3 << 20, 70 << 20}) {
        OpenKeySession s = om.openKey("vol-a", "obs1", "sized/" + size, null);
        om.commitKey("vol-a", "obs1", "sized/" + size, s.clientId(), size);
      }
      try (ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
              ReconSource.embedded(om), grpc);
          DevToolsBrowser page = DevToolsBrowser.open(withWindow(HEADLESS), dir.resolve("profile-live"),
              log, recon.url() + "/")) {
        page.waitUntil("document.body.dataset.ready === 'true'", Duration.ofSeconds(30));

        // The treemap: boxes with an area for the volumes and buckets with data, the largest
        // (obs1, with the 73 MiB of sized keys) labelled.
        JsonNode usage = page.evaluate(DRAWN.formatted("#chart-usage svg"));
        assertTrue(usage.get("width").asDouble() > 100 && usage.get("height").asDouble() > 100,
            usage.toString());
        assertTrue(usage.get("shapes").asInt() >= 2, "a volume and its bucket at least: " + usage);
        for (String name : List.of("vol-a", "obs1")) {
          assertTrue(usage.get("text").asText().contains(name), name + " in " + usage);
        }
        // The histogram: a bar per bin that has files, labelled with Ozone's bounds.
        JsonNode dist = api(recon.url() + "/api/v1/namespace/dist?path=/").get("dist");
        int binsWithFiles = 0;
        long files = 0;
        for (JsonNode n : dist) {
          binsWithFiles += n.asLong() > 0 ? 1 : 0;
          files += n.asLong();
        }
        assertEquals(4, binsWithFiles, "up to 1 KiB, 8 KiB, 4 MiB and 128 MiB: " + dist);
        JsonNode histogram = page.evaluate(DRAWN.formatted("#chart-dist svg"));
        assertTrue(histogram.get("shapes").asInt() >= binsWithFiles, histogram.toString());
        for (String label : List.of("≤ 1 KiB", "≤ 8 KiB", "≤ 4 MiB", "≤ 128 MiB")) {
          assertTrue(histogram.get("text").asText().contains(label), label + " in " + histogram);
        }
        assertTrue(page.evaluate("document.getElementById('dist-caption').textContent").asText()
            .startsWith(files + " files"));

        // Faster refreshes: the sparklines get points from /prom's counters between refreshes.
        page.evaluate("(() => { const s = document.getElementById('refresh-interval');"
            + " s.value = '2000'; s.dispatchEvent(new Event('change')); return true; })()");
        page.waitUntil("new Set(Array.from(document.querySelectorAll('#spark-rate polyline'))"
            + ".flatMap((l) => l.getAttribute('points').split(' ').map((p) => p.split(',')[0])))"
            + ".size >= 2", Duration.ofSeconds(20));
        JsonNode spark = page.evaluate(DRAWN.formatted("#spark-rate"));
        assertTrue(spark.get("shapes").asInt() >= 1 && spark.get("width").asDouble() > 50,
            spark.toString());
        String rate = page.evaluate("document.getElementById('rpc-rate').textContent").asText();
        assertTrue(rate.matches("\\d+(\\.\\d)? calls/s"), rate);
        double perSecond = Double.parseDouble(rate.split(" ")[0]);
        assertTrue(perSecond > 10 && perSecond < 100, "about 50 calls/s: " + rate);
        assertEquals("2.00 ms", page.evaluate(
            "document.getElementById('rpc-latency').textContent").asText(), "the mean latency");
        assertTrue(page.evaluate("document.querySelectorAll('#spark-latency polyline').length")
            .asInt() >= 1);
        page.screenshot(Path.of("target", "recon-page-live.png").toAbsolutePath());

        // The toggle stops the refreshes and starts them again.
        int before = refreshes(page);
        page.waitUntil("Number(document.body.dataset.refreshes) > " + before, Duration.ofSeconds(10));
        page.evaluate("document.getElementById('refresh-toggle').click()");
        assertEquals("false", page.evaluate(
            "document.getElementById('refresh-toggle').getAttribute('aria-pressed')").asText());
        assertEquals("Auto-refresh: off",
            page.evaluate("document.getElementById('refresh-toggle').textContent").asText());
        Thread.sleep(1_000); // a refresh under way when clicked still ends
        int off = refreshes(page);
        Thread.sleep(5_000);
        assertEquals(off, refreshes(page), "no refresh while auto-refresh is off");
        page.evaluate("document.getElementById('refresh-toggle').click()");
        page.waitUntil("Number(document.body.dataset.refreshes) > " + off, Duration.ofSeconds(10));
        assertEquals("true", page.evaluate("document.body.dataset.ready").asText());

        // dist reads every key: the page asked for it once while nothing changed, and again
        // after a key was added.
        assertEquals(2, distRequests(recon), "the page's one and this test's own, over "
            + refreshes(page) + " refreshes");
        OpenKeySession s = om.openKey("vol-a", "obs1", "sized/late", null);
        om.commitKey("vol-a", "obs1", "sized/late", s.clientId(), 300 << 20);
        page.waitUntil("document.getElementById('dist-caption').textContent.startsWith('"
            + (files + 1) + " files')", Duration.ofSeconds(10));
        assertTrue(page.evaluate(DRAWN.formatted("#chart-dist svg")).get("text").asText()
            .contains("≤ 512 MiB"), "the new key's bin is drawn");
        assertEquals(3, distRequests(recon));
      }
    } finally {
      rpcs.shutdownNow();
    }
    assertNoPolicyViolation(log);
  }

  /** What an SVG element (a CSS selector) drew: its size, its shapes with an area, its text. */
  private static final String DRAWN = "(() => { const svg = document.querySelector('%s');"
      + " if (!svg) return { width: 0, height: 0, shapes: 0, text: '' };"
      + " const box = svg.getBoundingClientRect();"
      + " const shapes = Array.from(svg.querySelectorAll('path, rect, polyline')).filter((e) => {"
      + " const b = e.getBBox(); return b.width > 0 && (b.height > 0 || e.tagName === 'polyline'); });"
      + " return { width: box.width, height: box.height, shapes: shapes.length,"
      + " text: svg.textContent }; })()";

  private static List<String> withWindow(List<String> flags) {
    List<String> out = new ArrayList<>(flags);
    out.addAll(List.of("--hide-scrollbars", "--window-size=1400,1200"));
    return out;
  }

  /** How many dist requests Recon answered, from its own request counter on /prom. */
  private static long distRequests(ReconServer recon) throws IOException, InterruptedException {
    HttpResponse<String> prom = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(recon.url() + "/prom")).build(), HttpResponse.BodyHandlers.ofString());
    long n = 0;
    for (String line : prom.body().lines().toList()) {
      if (line.startsWith("sediment_recon_http_requests_total{")
          && line.contains("endpoint=\"/api/v1/namespace/dist\"")) {
        n += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return n;
  }

  private static int refreshes(DevToolsBrowser page) {
    return page.evaluate("Number(document.body.dataset.refreshes)").asInt();
  }

  /**
   * The page, its scripts and its charts ran under Recon's Content-Security-Policy without the
   * browser refusing anything (Chromium reports each refusal on the console, logged to stderr).
   */
  private static void assertNoPolicyViolation(Path log) throws IOException {
    String console = Files.readString(log);
    for (String line : console.lines().toList()) {
      assertTrue(!line.contains("Content Security Policy") && !line.contains("Refused to"),
          () -> "the browser refused part of the page under its CSP: " + line);
    }
  }

  private static String byIdOrDom(String dom) {
    Matcher m = Pattern.compile("id=\"status\"[^>]*>([^<]*)<").matcher(dom);
    return m.find() ? m.group(1) : dom.substring(0, Math.min(2000, dom.length()));
  }
}
