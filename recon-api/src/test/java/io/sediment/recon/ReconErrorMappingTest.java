package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.db.StoreClosedException;
import io.sediment.db.testing.LogCapture;
import io.sediment.om.OmMetadataStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which failures are the store's unavailability and which are bugs: a closed store answers 503
 * ({@code StoreClosedException}); any other {@link IllegalStateException} is a bug, answered 500
 * with a generic message and logged once with its stack.
 */
class ReconErrorMappingTest {

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aClosedStoreIs503AndAPlantedIllegalStateIs500LoggedOnceWithItsStack(@TempDir Path dir)
      throws Exception {
    OmMetadataStore om = TestNamespace.open(dir.resolve("om"));
    new TestNamespace().load(om, 3);
    PrometheusRegistry extra = new PrometheusRegistry();
    Collector planted = () -> {
      throw new IllegalStateException("planted: a collector in a state it should never be in");
    };
    extra.register(planted);
    try (ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
        ReconSource.embedded(om), extra)) {
      assertEquals(200, get(recon, "/api/v1/keys/open/summary").statusCode());

      try (LogCapture log = LogCapture.of(ReconHandler.class)) {
        HttpResponse<String> bug = get(recon, "/prom");
        assertEquals(500, bug.statusCode(), bug.body());
        assertTrue(bug.body().contains("Internal error; see the server log"), bug.body());
        assertFalse(bug.body().contains("planted"), "details stay in the log: " + bug.body());
        assertEquals(List.of(IllegalStateException.class.getName()),
            log.thrownClasses(Level.WARN), "logged once, with its stack");
      }

      om.close();
      try (LogCapture log = LogCapture.of(ReconHandler.class)) {
        HttpResponse<String> closed = get(recon, "/api/v1/keys/open/summary");
        assertEquals(503, closed.statusCode(), closed.body());
        assertTrue(closed.body().contains("closed"), closed.body());
        assertEquals(List.of(), log.thrownClasses(Level.WARN), "not a bug: nothing logged");
      }
    } finally {
      om.close();
    }
  }

  private HttpResponse<String> get(ReconServer recon, String path)
      throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(recon.url() + path)).GET()
        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
