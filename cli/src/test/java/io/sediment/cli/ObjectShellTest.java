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
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.recon.ReconConfig;
import io.sediment.recon.ReconServer;
import io.sediment.recon.ReconSource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object shell ({@code volume}, {@code bucket}, {@code key}, {@code dir}, {@code file})
 * against a real server on a temporary store: each command's effect on the store, its text and
 * {@code --json} output (parsed, field types checked, the same fields as Recon's
 * {@code objectInfo}), and its exit code and message for NOT_FOUND, ALREADY_EXISTS,
 * INVALID_ARGUMENT and usage errors.
 */
class ObjectShellTest {

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
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.shutdown(Duration.ofSeconds(5));
    }
    if (om != null) {
      om.close();
    }
  }

  private Run ok(String... args) {
    Run r = sh(args);
    assertEquals(0, r.code(), String.join(" ", args) + ": " + r.err());
    return r;
  }

  private Run sh(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.add("--target");
    a.add(t);
    return run(a.toArray(String[]::new));
  }

  /** Asserts exit 1 with {@code code} and every one of {@code words} in the message. */
  private void fails(String code, List<String> words, String... args) {
    Run r = sh(args);
    assertEquals(1, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
    assertTrue(r.err().startsWith("error: " + code + ": "), r.err());
    for (String w : words) {
      assertTrue(r.err().contains(w), w + " in " + r.err());
    }
  }

  private static JsonNode json(Run r) throws Exception {
    return JSON.readTree(r.out());
  }

  private static List<JsonNode> lines(Run r) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String line : r.out().lines().toList()) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** {@code n} has exactly the fields of {@code types}, each of its type. */
  private static void assertTypes(JsonNode n, Map<String, String> types) {
    assertEquals(new TreeSet<>(types.keySet()), new TreeSet<>(fieldNames(n)), n.toString());
    for (Map.Entry<String, String> e : types.entrySet()) {
      JsonNode v = n.get(e.getKey());
      boolean right = switch (e.getValue()) {
        case "number" -> v.isIntegralNumber();
        case "text" -> v.isTextual();
        case "bool" -> v.isBoolean();
        case "object" -> v.isObject();
        case "object or null" -> v.isObject() || v.isNull();
        default -> false;
      };
      assertTrue(right, e.getKey() + " is " + e.getValue() + " in " + n);
    }
  }

  private static final Map<String, String> VOLUME = Map.of("name", "text", "owner", "text",
      "admin", "text", "quotaInBytes", "number", "quotaInNamespace", "number",
      "creationTime", "number", "modificationTime", "number", "objectId", "number",
      "metadata", "object");
  private static final Map<String, String> BUCKET = Map.ofEntries(Map.entry("volumeName", "text"),
      Map.entry("name", "text"), Map.entry("bucketLayout", "text"), Map.entry("owner", "text"),
      Map.entry("quotaInBytes", "number"), Map.entry("quotaInNamespace", "number"),
      Map.entry("creationTime", "number"), Map.entry("modificationTime", "number"),
      Map.entry("objectId", "number"), Map.entry("metadata", "object"),
      Map.entry("replicationConfig", "object or null"));
  private static final Map<String, String> KEY = Map.of("volumeName", "text",
      "bucketName", "text", "name", "text", "dataSize", "number", "owner", "text",
      "creationTime", "number", "modificationTime", "number", "objectId", "number",
      "metadata", "object", "replicationConfig", "object");

  @Test
  void volumesAndBuckets() throws Exception {
    Run created = ok("volume", "create", "/vol1", "--user", "alice");
    assertEquals("Created volume vol1 (owner alice)\n", created.out());
    assertEquals("alice", om.getVolumeInfo("vol1").getOwner());
    fails("ALREADY_EXISTS", List.of("Volume 'vol1' already exists"), "volume", "create", "vol1");
    fails("INVALID_ARGUMENT", List.of("Vol_1"), "volume", "create", "Vol_1");

    JsonNode v = json(ok("volume", "info", "vol1", "--json"));
    assertTypes(v, VOLUME);
    assertEquals("vol1", v.get("name").asText());
    assertEquals(0, v.get("quotaInBytes").asLong(), "zero values are present, as numbers");
    assertEquals(om.getVolumeInfo("vol1").getCreationTime(), v.get("creationTime").asLong());
    Run text = ok("volume", "info", "vol1");
    assertTrue(text.out().contains("owner              alice\n"), text.out());
    fails("NOT_FOUND", List.of("Volume 'nope' does not exist"), "volume", "info", "nope");

    ok("volume", "create", "vol2");
    List<JsonNode> vols = lines(ok("volume", "list", "--json"));
    assertEquals(List.of("vol1", "vol2"), vols.stream().map(n -> n.get("name").asText()).toList());
    vols.forEach(n -> assertTypes(n, VOLUME));
    assertEquals(List.of("vol2"), ok("volume", "list", "--prefix", "vol2").out().lines()
        .map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList());

    Run b = ok("bucket", "create", "vol1/obs", "--space-quota", "2GB");
    assertEquals("Created bucket vol1/obs (OBJECT_STORE, owner alice)\n", b.out());
    assertEquals(2L << 30, om.getBucketInfo("vol1", "obs").getQuotaInBytes());
    JsonNode fso = json(ok("bucket", "create", "vol1/fso", "--layout", "fso", "-u", "bob",
        "--json"));
    assertTypes(fso, BUCKET);
    assertEquals("FILE_SYSTEM_OPTIMIZED", fso.get("bucketLayout").asText());
    assertEquals("bob", fso.get("owner").asText());
    ok("bucket", "create", "vol1/leg", "--layout", "LEGACY");
    assertEquals(BucketLayout.LEGACY, om.getBucketInfo("vol1", "leg").getLayout());
    fails("ALREADY_EXISTS", List.of("Bucket 'obs' already exists in volume 'vol1'"),
        "bucket", "create", "vol1/obs");
    fails("NOT_FOUND", List.of("Volume 'nope' does not exist"), "bucket", "create", "nope/bk1");

    JsonNode info = json(ok("bucket", "info", "vol1/obs", "--json"));
    assertTypes(info, BUCKET);
    assertEquals(2L << 30, info.get("quotaInBytes").asLong());
    List<JsonNode> buckets = lines(ok("bucket", "list", "vol1", "--json"));
    assertEquals(List.of("fso", "leg", "obs"),
        buckets.stream().map(n -> n.get("name").asText()).toList());
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol1'"),
        "bucket", "info", "vol1/nob");
    fails("NOT_FOUND", List.of("Volume 'nope' does not exist"), "bucket", "list", "nope");
    fails("NOT_FOUND", List.of("Volume 'nope' does not exist"), "ls", "nope");

    // Priority 2: update.
    JsonNode vu = json(ok("volume", "update", "vol2", "--space-quota", "10MB",
        "--namespace-quota", "5", "--user", "carol", "--json"));
    assertEquals(10L << 20, vu.get("quotaInBytes").asLong());
    assertEquals(5, vu.get("quotaInNamespace").asLong());
    assertEquals("carol", om.getVolumeInfo("vol2").getOwner());
    ok("bucket", "update", "vol1/leg", "--namespace-quota", "7");
    assertEquals(7, om.getBucketInfo("vol1", "leg").getQuotaInNamespace());
    assertEquals(2, sh("bucket", "update", "vol1/leg").code(), "nothing to update");
    fails("NOT_FOUND", List.of("Volume 'nope' does not exist"), "volume", "update", "nope",
        "--namespace-quota", "1");

    // Delete: only empty ones.
    fails("FAILED_PRECONDITION", List.of("vol1"), "volume", "delete", "vol1");
    assertEquals("Deleted bucket vol1/leg\n", ok("bucket", "delete", "vol1/leg").out());
    assertEquals("{\"deleted\":\"/vol2\"}\n", ok("volume", "delete", "vol2", "--json").out());
    fails("NOT_FOUND", List.of("Volume 'vol2' does not exist"), "volume", "delete", "vol2");
    fails("NOT_FOUND", List.of("Bucket 'leg'"), "bucket", "delete", "vol1/leg");
  }

  @Test
  void keysOfAnObjectStoreBucket() throws Exception {
    om.createVolume("vol", "alice");
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    Run c = ok("key", "create", "vol/obs/dir/a", "--size", "10KB", "-m", "color=blue",
        "--metadata", "team=storage");
    assertEquals("Created key vol/obs/dir/a (10240 bytes, RATIS/THREE)\n", c.out());
    KeyInfo a = om.lookupKey("vol", "obs", "dir/a");
    assertEquals(10240, a.getDataSize());
    assertEquals(Map.of("color", "blue", "team", "storage"), a.getMetadataMap());

    byte[] content = "hello, sediment\n".getBytes(StandardCharsets.UTF_8);
    Path local = dir.resolve("local.txt");
    Files.write(local, content);
    JsonNode b = json(ok("key", "create", "vol/obs/b", "--file", local.toString(), "--json"));
    assertTypes(b, KEY);
    assertEquals(content.length, b.get("dataSize").asLong());
    String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content));
    assertEquals(md5, b.get("metadata").get("ETag").asText());
    assertEquals(md5, om.lookupKey("vol", "obs", "b").getMetadataMap().get("ETag"));
    ok("key", "create", "vol/obs/empty");

    JsonNode info = json(ok("key", "info", "vol/obs/dir/a", "--json"));
    assertTypes(info, KEY);
    assertEquals("dir/a", info.get("name").asText());
    assertEquals("blue", info.get("metadata").get("color").asText());
    assertEquals(0, json(ok("key", "info", "vol/obs/empty", "--json")).get("dataSize").asLong());
    Run text = ok("key", "info", "vol/obs/dir/a");
    assertTrue(text.out().contains("metadata           color=blue, team=storage\n"), text.out());
    assertTrue(text.out().contains(" UTC\n"), text.out());

    List<JsonNode> keys = lines(ok("key", "list", "vol/obs", "--json"));
    assertEquals(List.of("b", "dir/a", "empty"),
        keys.stream().map(n -> n.get("name").asText()).toList());
    keys.forEach(n -> assertTypes(n, KEY));
    assertEquals(List.of("dir/a"), ok("key", "list", "vol/obs", "--prefix", "dir/").out()
        .lines().map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList());

    // Errors name what is missing; nothing is created by a refused command.
    fails("NOT_FOUND", List.of("Key 'nokey' does not exist in 'vol/obs'"),
        "key", "info", "vol/obs/nokey");
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol'"),
        "key", "info", "vol/nob/k");
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol'"),
        "key", "list", "vol/nob");
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol'"), "ls", "vol/nob");
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol'"),
        "snapshot", "ls", "vol/nob");
    fails("NOT_FOUND", List.of("Volume 'nov' does not exist"), "ls", "nov/obs");
    fails("NOT_FOUND", List.of("Volume 'nov' does not exist"), "key", "create", "nov/obs/k");
    fails("NOT_FOUND", List.of("Key 'nokey'"), "key", "delete", "vol/obs/nokey");
    fails("INVALID_ARGUMENT", List.of("Metadata"), "key", "create", "vol/obs/big",
        "-m", "x=" + "v".repeat(3000));
    assertFalse(om.lookupKey("vol", "obs", "b").getMetadataMap().isEmpty());
    assertEquals(2, sh("key", "create", "vol/obs/k", "--size", "1", "--file",
        local.toString()).code());
    assertEquals(2, sh("key", "create", "vol/obs/k", "--size", "ten").code());
    assertEquals(2, sh("key", "info", "vol/obs").code(), "a key address needs a key");
    Run missingFile = sh("key", "create", "vol/obs/k", "--file", dir.resolve("nofile").toString());
    assertEquals(1, missingFile.code());
    assertTrue(missingFile.err().contains("Cannot read --file"), missingFile.err());
    assertEquals(3, om.listKeys("vol", "obs", "", "", 100, null).items().size());

    // Priority 2: rename.
    JsonNode renamed = json(ok("key", "rename", "vol/obs", "b", "c", "--json"));
    assertEquals("c", renamed.get("name").asText());
    assertEquals(md5, om.lookupKey("vol", "obs", "c").getMetadataMap().get("ETag"));
    fails("ALREADY_EXISTS", List.of("c"), "key", "rename", "vol/obs", "dir/a", "c");
    fails("NOT_FOUND", List.of("b"), "key", "rename", "vol/obs", "b", "d");

    assertEquals("Deleted key vol/obs/dir/a\n", ok("key", "delete", "vol/obs/dir/a").out());
    assertEquals(List.of("c", "empty"), om.listKeys("vol", "obs", "", "", 100, null).items()
        .stream().map(KeyInfo::getKeyName).toList());
  }

  @Test
  void directoriesAndFilesOfAnFsoBucket() throws Exception {
    om.createVolume("vol", "alice");
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    JsonNode d = json(ok("dir", "create", "vol/fso/a/b", "--json"));
    assertEquals("a/b", d.get("name").asText());
    assertTrue(d.get("isDirectory").asBoolean());
    assertTrue(om.fso().getFileStatus("vol", "fso", "a").isDirectory());
    assertEquals("Created directory vol/fso/a/b\n", ok("dir", "create", "vol/fso/a/b").out());

    Run f = ok("file", "create", "vol/fso/a/b/f1", "--size", "3", "-m", "k=v");
    assertEquals("Created file vol/fso/a/b/f1 (3 bytes, RATIS/THREE)\n", f.out());
    ok("key", "create", "vol/fso/x/f2", "--size", "1KB");
    assertEquals(1024, om.fso().lookupFile("vol", "fso", "x/f2").getDataSize());

    JsonNode info = json(ok("key", "info", "vol/fso/a/b/f1", "--json"));
    assertTypes(info, KEY);
    assertEquals("a/b/f1", info.get("name").asText());
    assertEquals("v", info.get("metadata").get("k").asText());

    List<JsonNode> files = lines(ok("key", "list", "vol/fso", "--json"));
    assertEquals(List.of("a/b/f1", "x/f2"),
        files.stream().map(n -> n.get("name").asText()).toList());
    for (JsonNode n : files) {
      assertFalse(n.get("isDirectory").asBoolean());
      assertTrue(n.get("dataSize").isIntegralNumber());
    }
    assertEquals(List.of("x/f2"), lines(ok("key", "list", "vol/fso", "--prefix", "x", "--json"))
        .stream().map(n -> n.get("name").asText()).toList());

    fails("ALREADY_EXISTS", List.of("a/b"), "file", "create", "vol/fso/a/b");
    fails("UNIMPLEMENTED", List.of(), "file", "create", "vol/obs/f");
    fails("UNIMPLEMENTED", List.of(), "dir", "create", "vol/obs/d");
    fails("NOT_FOUND", List.of("nofile"), "key", "info", "vol/fso/a/nofile");

    ok("key", "rename", "vol/fso", "x/f2", "a/f3");
    assertEquals(1024, om.fso().lookupFile("vol", "fso", "a/f3").getDataSize());
    ok("key", "delete", "vol/fso/a/f3");
    fails("NOT_FOUND", List.of("a/f3"), "key", "info", "vol/fso/a/f3");
  }

  @Test
  void multipartUploadsAndOpenKeys() throws Exception {
    om.createVolume("vol", "alice");
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    String u1 = om.multipart().initiate("vol", "obs", "big/a", null);
    String u2 = om.multipart().initiate("vol", "obs", "big/b", null);
    om.multipart().commitPart("vol", "obs", "big/a", u1, 1, 5L << 20, "e1");
    om.multipart().commitPart("vol", "obs", "big/a", u1, 2, 100, "e2");

    List<JsonNode> uploads = lines(ok("mpu", "list", "vol/obs", "--json"));
    assertEquals(List.of(u1, u2), uploads.stream().map(n -> n.get("uploadId").asText()).toList());
    assertTypes(uploads.get(0), Map.of("volumeName", "text", "bucketName", "text", "name",
        "text", "uploadId", "text", "owner", "text", "creationTime", "number",
        "replicationConfig", "object"));
    assertEquals("big/a", uploads.get(0).get("name").asText());
    assertTrue(ok("mpu", "list", "vol/obs").out().contains(u2 + " big/b\n"));
    List<JsonNode> parts = lines(ok("mpu", "parts", "vol/obs/big/a", u1, "--json"));
    assertEquals(List.of(1, 2), parts.stream().map(n -> n.get("partNumber").asInt()).toList());
    assertTypes(parts.get(1), Map.of("partNumber", "number", "partName", "text", "dataSize",
        "number", "eTag", "text", "modificationTime", "number"));
    assertEquals(100, parts.get(1).get("dataSize").asLong());
    assertEquals("{\"aborted\":\"/vol/obs/big/b\",\"uploadId\":\"" + u2 + "\"}\n",
        ok("mpu", "abort", "vol/obs/big/b", u2, "--json").out());
    assertEquals(List.of(u1), lines(ok("mpu", "list", "vol/obs", "--json")).stream()
        .map(n -> n.get("uploadId").asText()).toList());
    fails("NOT_FOUND", List.of(u2), "mpu", "parts", "vol/obs/big/b", u2);
    assertEquals("Aborted upload " + u1 + " of vol/obs/big/a\n",
        ok("mpu", "abort", "vol/obs/big/a", u1).out());
    fails("NOT_FOUND", List.of(u2), "mpu", "abort", "vol/obs/big/b", u2);
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol'"),
        "mpu", "list", "vol/nob");

    long client = om.openKey("vol", "obs", "pending", null).clientId();
    long fsoClient = om.fso().createFile("vol", "fso", "d/f", null).clientId();
    List<JsonNode> open = lines(ok("openkeys", "list", "vol/obs", "--json"));
    assertEquals(1, open.size());
    assertEquals("pending", open.get(0).get("name").asText());
    assertEquals(client, open.get(0).get("clientId").asLong());
    assertEquals(0, open.get(0).get("dataSize").asLong());
    assertTrue(open.get(0).get("metadata").isObject());
    List<JsonNode> openFiles = lines(ok("openkeys", "list", "vol/fso", "--json"));
    assertEquals("d/f", openFiles.get(0).get("name").asText());
    assertEquals(fsoClient, openFiles.get(0).get("clientId").asLong());
    assertTrue(ok("openkeys", "list", "vol/obs").out().endsWith(client + " pending\n"));
    fails("NOT_FOUND", List.of("Bucket 'nob' does not exist in volume 'vol'"),
        "openkeys", "list", "vol/nob");
    fails("NOT_FOUND", List.of("Volume 'nov' does not exist"), "openkeys", "list", "nov/obs");
  }

  @Test
  void permissionDeniedSaysWhatToDo() throws Exception {
    Path data = dir.resolve("data");
    Run boot = run("token", "create", "--data", data.toString(), "--principal", "root");
    assertEquals(0, boot.code(), boot.err());
    Path rootFile = Files.writeString(dir.resolve("root.token"), boot.out().strip() + "\n");
    ServeReconTest.Serving s = ServeReconTest.Serving.start(data, "--no-recon", "--auth",
        "--admin", "root");
    try {
      String target = s.serve().server.target();
      Run vol = run("volume", "create", "vol", "-u", "root", "--target", target,
          "--token-file", rootFile.toString());
      assertEquals(0, vol.code(), vol.err());
      Run made = run("token", "create", "--target", target, "--token-file", rootFile.toString(),
          "--principal", "mallory");
      assertEquals(0, made.code(), made.err());
      Path mallory = Files.writeString(dir.resolve("m.token"), made.out().strip() + "\n");
      Run denied = run("bucket", "create", "vol/bkt", "--target", target, "--token-file",
          mallory.toString());
      assertEquals(1, denied.code(), denied.out());
      assertTrue(denied.err().startsWith("error: PERMISSION_DENIED: "), denied.err());
      assertTrue(denied.err().contains("sediment acl get"), denied.err());
    } finally {
      s.stop();
    }
  }

  /** The shell's JSON for a volume, a bucket and a key is Recon's objectInfo for the same path. */
  @Test
  void jsonIsReconsObjectInfo() throws Exception {
    ok("volume", "create", "vol", "-u", "alice");
    ok("bucket", "create", "vol/obs");
    ok("key", "create", "vol/obs/k", "--size", "5", "-m", "a=b");
    try (ReconServer recon = ReconServer.start(ReconConfig.defaults().withPort(0),
        ReconSource.embedded(om), new PrometheusRegistry())) {
      HttpClient http = HttpClient.newHttpClient();
      Map<String, String> paths = Map.of("/vol", "volume info vol", "/vol/obs",
          "bucket info vol/obs", "/vol/obs/k", "key info vol/obs/k");
      for (Map.Entry<String, String> e : paths.entrySet()) {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(recon.url()
            + "/api/v1/namespace/summary?path=" + e.getKey())).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode objectInfo = JSON.readTree(r.body()).get("objectInfo");
        List<String> args = new ArrayList<>(List.of(e.getValue().split(" ")));
        args.add("--json");
        JsonNode shell = json(ok(args.toArray(String[]::new)));
        for (Iterator<String> it = shell.fieldNames(); it.hasNext(); ) {
          String name = it.next();
          assertEquals(shell.get(name), objectInfo.get(name), e.getKey() + " " + name);
        }
        List<String> extra = new ArrayList<>(fieldNames(objectInfo));
        extra.removeAll(fieldNames(shell));
        assertEquals(e.getKey().equals("/vol/obs") ? List.of("usedBytes") : List.of(), extra);
      }
    }
  }

  @Test
  void everyShellCommandHasHelp() {
    Map<String, List<String>> commands = Map.of("volume", List.of("create", "info", "list",
        "update", "delete"), "bucket", List.of("create", "info", "list", "update", "delete"),
        "key", List.of("create", "info", "list", "rename", "delete"),
        "dir", List.of("create"), "file", List.of("create"), "mpu",
        List.of("list", "parts", "abort"), "openkeys", List.of("list"));
    Run top = run("--help");
    for (Map.Entry<String, List<String>> e : commands.entrySet()) {
      assertTrue(top.out().contains(e.getKey()), e.getKey());
      assertEquals(2, run(e.getKey()).code(), "a noun alone is a usage error");
      for (String verb : e.getValue()) {
        Run h = run(e.getKey(), verb, "--help");
        assertEquals(0, h.code(), e.getKey() + " " + verb);
        assertTrue(h.out().contains("Usage: sediment " + e.getKey() + " " + verb), h.out());
        assertTrue(h.out().contains("--json"), h.out());
      }
    }
  }
}
