package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Recon given {@link ReconCallers} answers only the requests they admit: 401 with
 * {@code WWW-Authenticate: Bearer} without valid credentials, 403 for a caller who may not read
 * it, the API and the page alike, each refusal with the security headers and no data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReconCallersTest {

  private OmMetadataStore om;
  private ReconSource source;
  private ReconServer recon;
  private final Map<String, Integer> asked = new ConcurrentHashMap<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    om = TestNamespace.open(dir.resolve("om"));
    new TestNamespace().load(om, 3);
    source = ReconSource.embedded(om);
    ReconCallers callers = header -> {
      asked.merge(String.valueOf(header), 1, Integer::sum);
      if ("Bearer admin-token".equals(header)) {
        return ReconCallers.Verdict.ALLOWED;
      }
      return "Bearer user-token".equals(header) ? ReconCallers.Verdict.FORBIDDEN
          : ReconCallers.Verdict.UNAUTHENTICATED;
    };
    recon = ReconServer.start(ReconConfig.defaults().withPort(0).withCallers(callers), source,
        null);
  }

  @AfterAll
  void stop() {
    recon.close();
    source.close();
    om.close();
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(recon.url() + path));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutValidCredentialsEveryPathIsUnauthenticated() throws Exception {
    for (String path : List.of("/api/v1/namespace/summary?path=/", "/", "/prom")) {
      for (String header : new String[] {null, "Bearer wrong", "Basic YWRtaW46eA=="}) {
        HttpResponse<String> r = get(path, header);
        assertEquals(401, r.statusCode(), path + " " + header);
        assertEquals("Bearer realm=\"sediment-recon\"",
            r.headers().firstValue("WWW-Authenticate").orElse(null));
        assertNotNull(r.headers().firstValue("Content-Security-Policy").orElse(null),
            "refusals carry the security headers");
        assertFalse(r.body().contains("vol"), "no data in a refusal: " + r.body());
      }
    }
    assertTrue(asked.containsKey("null"), "a request without the header is asked about too");
  }

  @Test
  void anAuthenticatedCallerWhoMayNotReadIsForbidden() throws Exception {
    HttpResponse<String> r = get("/api/v1/namespace/summary?path=/", "Bearer user-token");
    assertEquals(403, r.statusCode());
    assertFalse(r.body().contains("user-token"), "the answer names no credential");
  }

  @Test
  void anAdmittedCallerReadsTheApiAndThePage() throws Exception {
    assertEquals(200, get("/api/v1/namespace/summary?path=/", "Bearer admin-token").statusCode());
    assertEquals(200, get("/", "Bearer admin-token").statusCode());
  }
}
