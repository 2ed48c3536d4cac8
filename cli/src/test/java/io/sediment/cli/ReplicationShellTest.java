package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.ReplicationText;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.recon.ReconConfig;
import io.sediment.recon.ReconServer;
import io.sediment.recon.ReconSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object shell's {@code -t/--type} and {@code -r/--replication} against a real server: key,
 * file and bucket create and bucket update send them, info prints them (text and {@code --json}
 * in Ozone's field names, every field present, numbers as numbers, as Recon's objectInfo), a
 * malformed form is a usage error (exit 2, nothing sent), a config the server does not allow is
 * INVALID_ARGUMENT naming it (exit 1, nothing changed), and {@code serve --default-replication-type
 * /--default-replication} sets what keys get when neither they nor their bucket name one.
 */
class ReplicationShellTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private OmMetadataStore om;
  private OmGrpcServer server;
  private String t;

  @BeforeEach
  void start() throws Exception {
    om = OmMetadataStore.open(dir.resolve("om"));
    server = OmGrpcServer.builder(om).port(0).build().start();
    t = server.target();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.shutdown(Duration.ofSeconds(5));
    }
    if (om != null) {
      om.close();
    }
  }

  private Run sh(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.add("--target");
    a.add(t);
    return run(a.toArray(String[]::new));
  }

  private Run ok(String... args) {
    Run r = sh(args);
    assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err());
    return r;
  }

  private String keyConfig(String bucket, String key) {
    return ReplicationText.text(om.lookupKey("vol", bucket, key).getReplicationConfig());
  }

  @Test
  void keyAndFileCreateTakeTypeAndReplication() throws Exception {
    assertEquals("Created key vol/obs/plain (0 bytes, RATIS/THREE)\n",
        ok("key", "create", "vol/obs/plain").out());
    assertEquals("Created key vol/obs/one (0 bytes, RATIS/ONE)\n",
        ok("key", "create", "vol/obs/one", "-t", "RATIS", "-r", "ONE").out());
    ok("key", "create", "vol/obs/three", "--replication", "3");
    assertEquals("RATIS/THREE", keyConfig("obs", "three"));
    ok("key", "create", "vol/obs/xor", "-r", "xor-2-1-1024k");
    assertEquals("EC/xor-2-1-1024k", keyConfig("obs", "xor"));
    ok("key", "create", "vol/obs/sa", "--type", "stand_alone");
    assertEquals("STANDALONE/THREE", keyConfig("obs", "sa"));

    JsonNode ec = JSON.readTree(ok("key", "create", "vol/obs/ec", "-t", "EC", "-r",
        "rs-6-3-1024k", "--size", "1MB", "--json").out()).get("replicationConfig");
    assertEquals(JSON.readTree("{\"replicationType\":\"EC\",\"replicationFactor\":\"\","
        + "\"requiredNodes\":9,\"data\":6,\"parity\":3,\"codec\":\"RS\",\"ecChunkSize\":1048576,"
        + "\"replication\":\"rs-6-3-1024k\"}"), ec);
    JsonNode one = JSON.readTree(ok("key", "info", "vol/obs/one", "--json").out())
        .get("replicationConfig");
    assertEquals(JSON.readTree("{\"replicationType\":\"RATIS\",\"replicationFactor\":\"ONE\","
        + "\"requiredNodes\":1,\"data\":0,\"parity\":0,\"codec\":\"\",\"ecChunkSize\":0,"
        + "\"replication\":\"ONE\"}"), one);
    assertEquals("STANDALONE", JSON.readTree(ok("key", "list", "vol/obs", "--prefix", "sa",
        "--json").out()).get("replicationConfig").get("replicationType").asText());
    Run text = ok("key", "info", "vol/obs/ec");
    assertTrue(text.out().contains("replicationConfig  EC/rs-6-3-1024k\n"), text.out());

    assertEquals("Created file vol/fso/d/f (7 bytes, EC/rs-3-2-1024k)\n", ok("file", "create",
        "vol/fso/d/f", "--size", "7", "-t", "EC", "-r", "RS-3-2-1024K").out());
    ok("key", "create", "vol/fso/d/g", "-r", "ONE");
    assertEquals("RATIS/ONE", ReplicationText.text(om.fso().lookupFile("vol", "fso", "d/g")
        .getReplicationConfig()));

    JsonNode renamed = JSON.readTree(ok("key", "rename", "vol/obs", "ec", "ec2", "--json").out());
    assertEquals("rs-6-3-1024k", renamed.get("replicationConfig").get("replication").asText());
  }

  @Test
  void aBucketsDefaultIsSetShownAndUsed() throws Exception {
    assertEquals("Created bucket vol/ecb (OBJECT_STORE, owner alice, default replication "
        + "EC/rs-6-3-1024k)\n", ok("bucket", "create", "vol/ecb", "-t", "EC", "-r",
        "rs-6-3-1024k").out());
    ok("key", "create", "vol/ecb/k1");
    assertEquals("EC/rs-6-3-1024k", keyConfig("ecb", "k1"));
    ok("key", "create", "vol/ecb/k2", "-t", "RATIS");
    assertEquals("RATIS/THREE", keyConfig("ecb", "k2"), "a key's own config wins");

    JsonNode b = JSON.readTree(ok("bucket", "info", "vol/ecb", "--json").out());
    assertEquals(9, b.get("replicationConfig").get("requiredNodes").asInt());
    assertTrue(ok("bucket", "info", "vol/ecb").out().contains(
        "replicationConfig  EC/rs-6-3-1024k\n"));
    assertTrue(JSON.readTree(ok("bucket", "info", "vol/obs", "--json").out())
        .get("replicationConfig").isNull(), "no default: null, present");
    assertTrue(ok("bucket", "info", "vol/obs").out().contains(
        "replicationConfig  none (keys get the server's default)\n"));

    JsonNode updated = JSON.readTree(ok("bucket", "update", "vol/ecb", "-r", "ONE", "--json")
        .out());
    assertEquals("ONE", updated.get("replicationConfig").get("replicationFactor").asText());
    ok("key", "create", "vol/ecb/k3");
    assertEquals("RATIS/ONE", keyConfig("ecb", "k3"));
    assertEquals("EC/rs-6-3-1024k", keyConfig("ecb", "k1"), "existing keys keep theirs");
    ok("bucket", "update", "vol/ecb", "-u", "bob");
    assertEquals("RATIS/ONE", ReplicationText.text(om.getBucketInfo("vol", "ecb")
        .getDefaultReplicationConfig()), "an update without -t/-r leaves it");

    try (ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
        ReconSource.embedded(om), new PrometheusRegistry())) {
      HttpClient http = HttpClient.newHttpClient();
      for (Map.Entry<String, String[]> e : Map.of("/vol/ecb", new String[] {"bucket", "info",
          "vol/ecb"}, "/vol/ecb/k1", new String[] {"key", "info", "vol/ecb/k1"}).entrySet()) {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(recon.url()
            + "/api/v1/namespace/summary?path=" + e.getKey())).build(),
            HttpResponse.BodyHandlers.ofString());
        List<String> args = new ArrayList<>(List.of(e.getValue()));
        args.add("--json");
        assertEquals(JSON.readTree(ok(args.toArray(String[]::new)).out()).get("replicationConfig"),
            JSON.readTree(r.body()).get("objectInfo").get("replicationConfig"), e.getKey());
      }
    }
  }

  @Test
  void malformedFormsAreUsageErrorsAndDisallowedConfigsInvalidArgument() {
    for (List<String> bad : List.of(List.of("-t", "CHAINED"), List.of("-r", "TWO"),
        List.of("-t", "EC"), List.of("-t", "EC", "-r", "rs-3-2"), List.of("-t", "EC", "-r",
        "THREE"), List.of("-t", "RATIS", "-r", "rs-3-2-1024k"))) {
      List<String> args = new ArrayList<>(List.of("key", "create", "vol/obs/bad"));
      args.addAll(bad);
      Run r = sh(args.toArray(String[]::new));
      assertEquals(2, r.code(), bad + ": " + r.err());
      assertTrue(r.err().contains(bad.get(bad.size() - 1)) || r.err().contains("rs-6-3-1024k"),
          r.err());
      List<String> bucket = new ArrayList<>(List.of("bucket", "create", "vol/newb"));
      bucket.addAll(bad);
      assertEquals(2, sh(bucket.toArray(String[]::new)).code(), bad.toString());
    }
    for (String[] refused : List.of(new String[] {"rs-5-2-1024k", "5-2"},
        new String[] {"foo-3-2-1024k", "'foo'"}, new String[] {"rs-3-2-1000k", "1024000 bytes"},
        new String[] {"xor-6-3-1024k", "xor-6-3"}, new String[] {"rs-3-2-8192k", "8388608"})) {
      Run r = sh("key", "create", "vol/obs/bad", "-t", "EC", "-r", refused[0]);
      assertEquals(1, r.code(), r.err());
      assertTrue(r.err().startsWith("error: INVALID_ARGUMENT: "), r.err());
      assertTrue(r.err().contains(refused[1]), refused[1] + " in " + r.err());
    }
    Run bucket = sh("bucket", "create", "vol/newb", "-r", "rs-4-2-1024k");
    assertEquals(1, bucket.code());
    assertTrue(bucket.err().contains("4-2"), bucket.err());
    Run update = sh("bucket", "update", "vol/obs", "-u", "bob", "-r", "rs-3-2-0");
    assertEquals(1, update.code());
    assertTrue(update.err().contains("0 bytes"), update.err());
    assertEquals(2, sh("bucket", "update", "vol/obs").code(), "nothing to update");

    assertTrue(om.listKeys("vol", "obs", "", "", 10, null).items().isEmpty());
    assertEquals(0, om.openFiles().list("vol", "obs", 10, null).entries().size());
    assertEquals(List.of("fso", "obs"), om.listBuckets("vol", "", "", 10).items().stream()
        .map(b -> b.getBucketName()).toList());
    assertEquals("alice", om.getBucketInfo("vol", "obs").getOwner());
    assertFalse(om.getBucketInfo("vol", "obs").hasDefaultReplicationConfig());
  }

  @Test
  void serveSetsTheDefaultOfKeysThatNameNone() throws Exception {
    Path data = dir.resolve("data");
    Run bad = run("serve", "--data", data.toString(), "--default-replication-type", "EC",
        "--print-config");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("rs-6-3-1024k"), bad.err());
    Run disallowed = run("serve", "--data", data.toString(), "--default-replication-type", "EC",
        "--default-replication", "rs-4-2-1024k", "--print-config");
    assertEquals(2, disallowed.code());
    assertTrue(disallowed.err().contains("4-2"), disallowed.err());
    Run printed = run("serve", "--data", data.toString(), "--print-config");
    assertTrue(printed.out().contains("serve.default-replication-type\tRATIS\tdefault"),
        printed.out());
    assertTrue(printed.out().contains("serve.default-replication\tTHREE\tdefault"),
        printed.out());

    ServeReconTest.Serving s = ServeReconTest.Serving.start(data, "--no-recon",
        "--default-replication-type", "EC", "--default-replication", "rs-3-2-1024k");
    try {
      String target = s.serve().server.target();
      assertEquals(0, run("volume", "create", "vol1", "--target", target).code());
      assertEquals(0, run("bucket", "create", "vol1/bkt", "--target", target).code());
      Run key = run("key", "create", "vol1/bkt/k", "--target", target);
      assertEquals("Created key vol1/bkt/k (0 bytes, EC/rs-3-2-1024k)\n", key.out(), key.err());
      ReplicationConfig stored = s.serve().opened.lookupKey("vol1", "bkt", "k")
          .getReplicationConfig();
      assertEquals("EC/rs-3-2-1024k", ReplicationText.text(stored));
    } finally {
      s.stop();
    }
  }
}
