package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recon on loopback answers only requests whose Host names loopback (DNS-rebinding protection);
 * bound beyond loopback it does not check. HEAD answers wherever GET does, with GET's headers and
 * no body. Every response, refusals and Jetty's own errors included, carries the security
 * headers. Raw sockets: an HTTP client library would not send an arbitrary Host header.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReconHostAndHeadersTest {

  private OmMetadataStore om;
  private ReconSource source;
  private ReconServer recon;

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    om = TestNamespace.open(dir.resolve("om"));
    new TestNamespace().load(om, 3);
    source = ReconSource.embedded(om);
    recon = ReconServer.start(ReconConfig.defaults().withPort(0), source, null);
  }

  @AfterAll
  void stop() {
    if (recon != null) {
      recon.close();
    }
    if (source != null) {
      source.close();
    }
    if (om != null) {
      om.close();
    }
  }

  /** One answer as it came off the wire. */
  record Reply(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** Sends one request (host null: no Host header, as HTTP/1.0) and reads the whole answer. */
  static Reply raw(int port, String method, String path, String host) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(20_000);
      String request = host == null
          ? method + " " + path + " HTTP/1.0\r\n\r\n"
          : method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] all = in.readAllBytes();
      String text = new String(all, StandardCharsets.ISO_8859_1);
      int end = text.indexOf("\r\n\r\n");
      assertTrue(end > 0, () -> "no complete head: " + text);
      List<String> lines = text.substring(0, end).lines().toList();
      int status = Integer.parseInt(lines.get(0).split(" ")[1]);
      Map<String, String> headers = new LinkedHashMap<>();
      for (String line : lines.subList(1, lines.size())) {
        int colon = line.indexOf(':');
        headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).trim());
      }
      byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
      return new Reply(status, headers, body);
    }
  }

  private Reply raw(String method, String path, String host) throws IOException {
    return raw(recon.port(), method, path, host);
  }

  private static void assertSecurityHeaders(Reply r, String what) {
    String csp = r.header("Content-Security-Policy");
    assertEquals(SecurityHeaders.CONTENT_SECURITY_POLICY, csp, what);
    assertTrue(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'")
        && !csp.contains("script-src") && !csp.matches(".*style-src 'self' 'unsafe-inline'.*"),
        what + ": scripts from Recon only, no inline <style>: " + csp);
    assertEquals("nosniff", r.header("X-Content-Type-Options"), what);
    assertEquals("DENY", r.header("X-Frame-Options"), what);
    assertEquals("no-referrer", r.header("Referrer-Policy"), what);
  }

  @Test
  void aLoopbackNameOrAddressWithOrWithoutAPortIsAnswered() throws IOException {
    int port = recon.port();
    for (String host : List.of("localhost", "localhost:" + port, "LocalHost", "localhost.",
        "127.0.0.1", "127.0.0.1:" + port, "127.1.2.3:" + port, "[::1]", "[::1]:" + port)) {
      Reply r = raw("GET", "/api/v1/keys/open/summary", host);
      assertEquals(200, r.status(), host + ": " + r.text());
      assertSecurityHeaders(r, host);
    }
  }

  @Test
  void anyOtherHostIsRefusedWithAShortTextAndTheSecurityHeaders() throws IOException {
    int port = recon.port();
    for (String host : List.of("evil.example", "evil.example:" + port, "127.0.0.1.evil.example",
        "localhost.evil.example:" + port, "10.0.0.1", "[::2]:" + port, "::1", "0.0.0.0",
        "sub.localhost")) {
      for (String path : List.of("/", "/api/v1/keys/open/summary", "/prom", "/nope")) {
        Reply r = raw("GET", path, host);
        assertEquals(LoopbackHosts.REFUSED, r.status(), host + " " + path + ": " + r.text());
        assertTrue(r.header("Content-Type").startsWith("text/plain"), host);
        assertTrue(r.text().contains("loopback") && r.text().length() < 300, r.text());
        assertFalse(r.text().contains("numVolume") || r.text().contains("<html"), r.text());
        assertSecurityHeaders(r, host);
      }
    }
    for (String malformed : List.of("", "127.0.0.1:99999")) {
      Reply r = raw("GET", "/api/v1/keys/open/summary", malformed);
      assertEquals(400, r.status(), "Jetty refuses a malformed Host itself: " + r.text());
      assertSecurityHeaders(r, "Host '" + malformed + "'");
    }
    Reply noHost = raw("GET", "/api/v1/keys/open/summary", null);
    assertEquals(LoopbackHosts.REFUSED, noHost.status(), "no Host header: " + noHost.text());
  }

  @Test
  void theHostCheckTellsLoopbackFromEverythingElseWithoutResolvingNames() {
    for (String ok : List.of("localhost", "localhost:1", "127.0.0.1", "127.255.255.254:65535",
        "[::1]", "[0:0:0:0:0:0:0:1]:80")) {
      assertTrue(LoopbackHosts.isLoopback(ok), ok);
    }
    for (String bad : List.of("", "::1", "[::1", "localhost:x", "localhost:70000", "127.1",
        "0x7f.0.0.1", "example.com", "127.0.0.1.nip.io", "[::ffff:10.0.0.1]", "localhost:1:2")) {
      assertFalse(LoopbackHosts.isLoopback(bad), bad);
    }
    assertFalse(LoopbackHosts.isLoopback(null));
  }

  @Test
  void headAnswersWhereverGetDoesWithItsHeadersAndNoBody() throws IOException {
    for (String path : List.of("/", "/index.html", "/app.js", "/app.css", "/lib/echarts.min.js",
        "/prom", "/api/v1/keys/open/summary", "/api/v1/db/status", "/api/v1/nope",
        "/api/v1/keys/open?limit=abc")) {
      Reply get = raw("GET", path, "localhost");
      Reply head = raw("HEAD", path, "localhost");
      assertEquals(get.status(), head.status(), path);
      assertEquals(get.header("Content-Type"), head.header("Content-Type"), path);
      assertEquals(0, head.body().length, path + ": a HEAD answer has no body");
      if (!path.equals("/prom")) {
        // /prom's JVM figures change between the two requests; everything else is the same.
        assertEquals(String.valueOf(get.body().length), head.header("Content-Length"), path);
        assertEquals(get.header("Content-Length"), head.header("Content-Length"), path);
      }
      assertSecurityHeaders(head, "HEAD " + path);
    }
    Reply post = raw("POST", "/api/v1/keys/open/summary", "localhost");
    assertEquals(405, post.status());
    assertEquals("GET, HEAD", post.header("Allow"));
    assertSecurityHeaders(post, "POST");
  }

  @Test
  void jettysOwnErrorsCarryTheSecurityHeadersToo() throws IOException {
    Reply r = raw("GET", "/../etc/passwd", "localhost");
    assertEquals(400, r.status(), r.text());
    assertSecurityHeaders(r, "Jetty's 400");
    Reply notFound = raw("GET", "/nope.html", "localhost");
    assertEquals(404, notFound.status());
    assertSecurityHeaders(notFound, "404");
  }

  @Test
  void boundBeyondLoopbackTheHostIsNotChecked() throws IOException {
    try (ReconServer wide = ReconServer.start(ReconConfig.defaults().withHost("0.0.0.0")
        .withPort(0), source, null)) {
      Reply r = raw(wide.port(), "GET", "/api/v1/keys/open/summary", "recon.example:8080");
      assertEquals(200, r.status(), r.text());
      assertSecurityHeaders(r, "0.0.0.0");
    }
  }
}
