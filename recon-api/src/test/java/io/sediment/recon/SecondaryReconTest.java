package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OpenKeySession;
import io.sediment.proto.om.BucketLayout;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standalone mode: Recon over a store directory another store instance owns and keeps writing,
 * through a read-only RocksDB secondary that catches up periodically; and over a checkpoint.
 */
class SecondaryReconTest {

  @TempDir Path dir;

  private static JsonNode get(ReconServer recon, String path) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(recon.url() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return new ObjectMapper().readTree(r.body());
  }

  private static long keys(ReconServer recon) throws Exception {
    return get(recon, "/api/v1/namespace/summary?path=/vol-a/obs1").at("/countStats/numKey").asLong();
  }

  @Test
  void secondaryFollowsThePrimaryAndNeverWrites() throws Exception {
    Path db = dir.resolve("om");
    try (OmMetadataStore primary = TestNamespace.open(db)) {
      TestNamespace ns = new TestNamespace().load(primary, 1);
      long before = ns.obsKeys.stream().filter(k -> k.startsWith("/vol-a/obs1/")).count();
      try (ReconSource source = ReconSource.secondary(db, dir.resolve("secondary"),
               Duration.ofMillis(100));
           ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0), source, null)) {
        assertEquals(before, keys(recon));
        assertEquals("secondary", get(recon, "/api/v1/db/tables").get("mode").asText());
        for (int i = 0; i < 5; i++) {
          OpenKeySession s = primary.openKey("vol-a", "obs1", "new/" + i, null);
          primary.commitKey("vol-a", "obs1", "new/" + i, s.clientId(), 1);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (keys(recon) != before + 5 && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        assertEquals(before + 5, keys(recon), "caught up with the primary's new keys");
        assertTrue(get(recon, "/api/v1/db/status").get("catchUps").asLong() > 0);
        assertTrue(source.store().isSecondary());
        // A secondary never writes, so it cannot tell whether the owner's disk is full.
        assertFalse(PromText.parse(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(recon.url() + "/prom")).build(), HttpResponse.BodyHandlers.ofString())
            .body()).has("sediment_store_out_of_space"));
        assertThrows(UnsupportedOperationException.class, () -> source.store().flush());
        assertTrue(get(recon, "/api/v1/keys/listKeys?startPrefix=/vol-a/obs1/new/&limit=10")
            .get("keys").size() == 5);
      }
    }
  }

  @Test
  void aCheckpointDirectoryIsServedToo() throws Exception {
    Path cp = dir.resolve("cp");
    try (OmMetadataStore primary = TestNamespace.open(dir.resolve("om"))) {
      primary.createVolume("vol-x", "o");
      primary.createBucket("vol-x", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      primary.dbStore().createCheckpoint(cp);
    }
    try (ReconSource source = ReconSource.secondary(cp, dir.resolve("secondary"), Duration.ofSeconds(1));
         ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0), source, null)) {
      assertEquals(1, get(recon, "/api/v1/namespace/summary?path=/").at("/countStats/numBucket").asLong());
    }
  }
}
