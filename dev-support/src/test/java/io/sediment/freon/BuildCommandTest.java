package io.sediment.freon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.proto.om.KeyInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code freon build}: builds freon's namespace in {@code DIR/om} with the counts asked for and
 * counters that match a full scan; the keys are the ones freon's workloads name; a second build
 * of the same volume is refused and changes nothing; bad options are refused before a store is
 * made.
 */
class BuildCommandTest {

  @TempDir
  Path dir;

  private record Outcome(int exit, String out, String err) { }

  private Outcome freon(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new Freon());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    int exit = cmd.execute(args);
    return new Outcome(exit, out.toString(), err.toString());
  }

  @Test
  void buildsFreonsNamespaceWithExactCounters() {
    Outcome o = freon("build", "--data", dir.toString(), "--keys", "5000", "--fso-entries",
        "2000", "--fso-fanout", "4", "--files-per-dir", "20", "--mpu", "30", "--mpu-parts", "2",
        "--verify", "--quiet");
    assertEquals(0, o.exit(), o.out() + o.err());
    assertTrue(o.out().contains("every counter matches a full scan"), o.out());
    assertTrue(o.out().contains("5,000 keys and 30 uploads"), o.out());
    try (OmMetadataStore om = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults())) {
      Map<OmCounter, Long> obs = om.bucketCounters("freon", "obs");
      assertEquals(5_000L, obs.get(OmCounter.KEYS));
      assertEquals(5_000L * 4096, obs.get(OmCounter.KEY_BYTES));
      assertEquals(30L, obs.get(OmCounter.MULTIPART_UPLOADS));
      Map<OmCounter, Long> fso = om.bucketCounters("freon", "fso");
      assertEquals(2_000L, fso.get(OmCounter.DIRECTORIES) + fso.get(OmCounter.FILES));
      assertEquals(2_000L / 21, fso.get(OmCounter.DIRECTORIES));
      assertEquals(ServiceCalls.DATA_SIZE,
          om.lookupKey("freon", "obs", KeySpace.key(4_999)).getDataSize());
      List<String> page = om.listObjectsV2(ListObjectsV2Request.of("freon", "obs")
          .withMaxKeys(2)).contents().stream().map(KeyInfo::getKeyName).toList();
      assertEquals(List.of(KeySpace.key(0), KeySpace.key(1)), page, "freon's key names");
      assertEquals(4096, om.fso().getFileStatus("freon", "fso", KeySpace.file(19)).size(),
          "the root's files are freon's FSO names");
    }
    Outcome again = freon("build", "--data", dir.toString(), "--keys", "10", "--quiet");
    assertEquals(1, again.exit(), again.out());
    assertTrue(again.err().contains("already exists"), again.err());
  }

  @Test
  void freonRunsAgainstAServedBuiltStoreWithoutWritingItsKeysAgain() throws Exception {
    assertEquals(0, freon("build", "--data", dir.toString(), "--keys", "2000", "--quiet").exit());
    try (OmMetadataStore om = OmMetadataStore.open(dir.resolve("om"), OmStoreOptions.defaults())) {
      OmGrpcServer server = OmGrpcServer.builder(om).port(0).build().start();
      try {
        Outcome o = freon("lookup", "--target", "127.0.0.1:" + server.port(), "--prefilled",
            "--prefill", "2000", "--clients", "4", "--count", "400", "--warmup", "0s",
            "--quiet");
        assertEquals(0, o.exit(), o.out() + o.err());
        assertTrue(o.out().contains("service"), o.out());
        assertFalse(o.out().contains("errors:"), "every lookup found its key: " + o.out());
      } finally {
        server.close();
      }
      assertEquals(2_000L, om.bucketCounters("freon", "obs").get(OmCounter.KEYS),
          "no key written before the run");
    }
    assertEquals(2, freon("lookup", "--prefilled").exit(), "--prefilled needs --target");
  }

  @Test
  void badOptionsAreRefusedBeforeAStoreIsMade() throws Exception {
    assertEquals(2, freon("build", "--data", dir.toString(), "--keys", "-1").exit());
    assertEquals(2, freon("build", "--data", dir.toString(), "--threads", "0").exit());
    assertEquals(2, freon("build", "--data", dir.toString(), "--volume", "A").exit());
    assertEquals(2, freon("build", "--keys", "10").exit(), "--data is required");
    assertEquals(2, freon().exit(), "a workload or build is required");
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "no store was made");
    }
  }
}
