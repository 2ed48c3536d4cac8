package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.testing.TmpfsMount;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /prom} says when the store is out of disk space, for real (a tmpfs; skipped where
 * mounting is not permitted): {@code sediment_store_out_of_space} is 1 from the first refused
 * write until RocksDB resumes writes by itself, 0 otherwise.
 */
class ReconDiskFullTest {

  @TempDir Path dir;

  @Test
  void theOutOfSpaceGaugeIsOneWhileWritesAreRefused() throws Exception {
    try (TmpfsMount fs = TmpfsMount.mount(dir.resolve("fs"), 100L << 20)) {
      Path ballast = fs.path().resolve("ballast");
      // Less free than the 70 MiB a new WAL preallocates (RocksDB ignores the failed
      // preallocation), so the WAL fills after a few writes.
      TmpfsMount.grow(ballast, fs.usableSpace() - (16L << 20));
      try (OmMetadataStore om = OmMetadataStore.open(fs.path().resolve("om"));
          ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
              ReconSource.embedded(om), null)) {
        om.createVolume("vol-0", "o");
        assertEquals(0.0, outOfSpace(recon));
        TmpfsMount.fill(ballast);
        OmException refused = null;
        for (int i = 1; i < 100_000 && refused == null; i++) {
          try {
            om.createVolume("vol-" + i, "o");
          } catch (OmException e) {
            refused = e;
          }
        }
        assertNotNull(refused);
        assertEquals(OmException.Code.RESOURCE_EXHAUSTED, refused.code());
        assertEquals(1.0, outOfSpace(recon));

        Files.delete(ballast);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
          try {
            om.createVolume("after", "o");
            break;
          } catch (OmException e) {
            if (System.nanoTime() - deadline > 0) {
              fail("writes did not resume within 30 s: " + e.getMessage());
            }
            Thread.sleep(100);
          }
        }
        while (outOfSpace(recon) != 0.0) {
          if (System.nanoTime() - deadline > 0) {
            fail("the gauge stayed 1 after writes resumed");
          }
          Thread.sleep(100);
        }
      }
    }
  }

  private static double outOfSpace(ReconServer recon) throws Exception {
    String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(recon.url() + "/prom")).build(), HttpResponse.BodyHandlers.ofString()).body();
    return PromText.parse(body).value("sediment_store_out_of_space", Map.of());
  }
}
