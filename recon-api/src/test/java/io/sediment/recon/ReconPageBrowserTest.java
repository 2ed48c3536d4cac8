package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sediment.om.OmMetadataStore;
import io.sediment.proto.om.GetReplicationStatusResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web page in a real browser: headless Chromium (Debian package {@code chromium}) loads it
 * from a live server with known data, and the figures it renders (summary tiles, table rows,
 * charts) match the API. Saves a screenshot to {@code target/recon-page.png}. Fails, with how to
 * install it, when Chromium is missing.
 */
class ReconPageBrowserTest {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  @TempDir Path dir;

  private static List<String> chromium(Path profile, String... args) {
    List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-default-apps",
        "--disable-extensions", "--mute-audio", "--user-data-dir=" + profile,
        "--virtual-time-budget=15000", "--run-all-compositor-stages-before-draw",
        // The page's console (where a Content-Security-Policy violation is reported) to stderr.
        "--enable-logging=stderr", "--v=0"));
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
