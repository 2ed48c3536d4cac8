package io.sediment.recon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.insight.OmInsight;
import io.sediment.proto.om.GetReplicationStatusResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live {@link ReconServer} (ephemeral port on 127.0.0.1) over a loaded namespace: every
 * endpoint, paging to the end with no gap or duplicate, the deleted-{@code prevKey} case, summaries
 * equal to a full scan after a random workload, error responses (404, 400, 405: JSON, no stack
 * trace) and {@code /prom} parsed by a strict text-format parser.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReconServerTest {

  private Path dir;

  private OmMetadataStore om;
  private TestNamespace ns;
  private ReconServer recon;
  private PrometheusRegistry extra;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json = new ObjectMapper();

  @BeforeAll
  void start(@TempDir Path tmp) throws IOException {
    dir = tmp;
    om = TestNamespace.open(dir.resolve("om"));
    ns = new TestNamespace().load(om, 7);
    extra = new PrometheusRegistry();
    Counter rpc = Counter.builder().name("sediment_grpc_test_calls").help("calls")
        .labelNames("method").register(extra);
    rpc.labelValues("ListKeys").inc(3);
    recon = ReconServer.start(ReconConfig.defaults().withPort(0), ReconSource.embedded(om), extra);
  }

  @AfterAll
  void stop() {
    if (recon != null) {
      recon.close();
    }
    if (om != null) {
      om.close();
    }
  }

  record Reply(int status, String contentType, String body) {
  }

  private Reply send(String method, String path) {
    return send(http, method, path);
  }

  private Reply send(HttpClient client, String method, String path) {
    try {
      HttpRequest req = HttpRequest.newBuilder(URI.create(recon.url() + path))
          .method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(20)).build();
      HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
      return new Reply(r.statusCode(), r.headers().firstValue("content-type").orElse(""), r.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private JsonNode get(String path) {
    Reply r = send("GET", path);
    assertEquals(200, r.status(), path + " -> " + r.body());
    assertTrue(r.contentType().startsWith("application/json"), r.contentType());
    try {
      return json.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Pages with prevKey (and prevKeyTable) until hasMore is false; returns the keys in order. */
  private List<String> pageAll(String base, String listField, Function<JsonNode, String> tableOf) {
    List<String> keys = new ArrayList<>();
    String prev = "";
    String prevTable = "";
    for (int guard = 0; guard < 1000; guard++) {
      JsonNode page = get(base + "&prevKey=" + enc(prev) + "&prevKeyTable=" + enc(prevTable));
      for (String field : listField.split(",")) {
        page.get(field).forEach(e -> keys.add(e.get("key").asText()));
      }
      if (!page.get("hasMore").asBoolean()) {
        return keys;
      }
      prev = page.get("lastKey").asText();
      prevTable = tableOf.apply(page);
    }
    throw new AssertionError("no end");
  }

  @Test
  void boundToLoopbackOnAnEphemeralPort() {
    assertTrue(recon.url().startsWith("http://127.0.0.1:"), recon.url());
    assertNotEquals(ReconConfig.DEFAULT_PORT, recon.port());
    assertEquals("127.0.0.1", ReconConfig.defaults().host());
  }

  @Test
  void urlOfAnIpv6HostIsAUsableUrl() throws IOException {
    // serve --host ::1 prints recon.url(): an IPv6 literal needs brackets in a URL.
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("::1"))) {
      probe.getLocalPort();
    } catch (IOException noIpv6) {
      org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback on this machine: " + noIpv6);
    }
    try (ReconServer v6 = ReconServer.start(ReconConfig.defaults().withHost("::1").withPort(0),
        ReconSource.embedded(om), null)) {
      assertEquals("http://[::1]:" + v6.port(), v6.url());
      ReconServer saved = recon;
      recon = v6;
      try {
        assertEquals("embedded", get("/api/v1/db/status").get("mode").asText());
      } finally {
        recon = saved;
      }
    }
  }

  @Test
  void openKeysPageThroughBothTablesWithNoGapOrDuplicate() {
    List<String> expected = new ArrayList<>(ns.openKeys);
    expected.addAll(ns.openFiles);
    for (int limit : new int[] {1, 5, 1000}) {
      List<String> got = pageAll("/api/v1/keys/open?limit=" + limit, "nonFSO,fso",
          p -> p.get("lastKeyTable").asText());
      assertEquals(expected, got, "limit " + limit);
    }
    // Without prevKeyTable the table is inferred from the key.
    assertEquals(expected, pageAll("/api/v1/keys/open?limit=4", "nonFSO,fso", p -> ""));
    assertEquals(new ArrayList<>(ns.openFiles),
        pageAll("/api/v1/keys/open?limit=2&includeFso=true", "nonFSO,fso", p -> ""));
    JsonNode bucket = get("/api/v1/keys/open?startPrefix=/vol-a/obs1&limit=100");
    assertEquals(9, bucket.get("nonFSO").size());
    assertEquals(0, bucket.get("fso").size());
    JsonNode e = bucket.get("nonFSO").get(0);
    for (String f : List.of("key", "path", "size", "replicatedSize", "creationTime",
        "modificationTime", "inStateSince", "isKey")) {
      assertTrue(e.has(f), f + " in " + e);
    }
    assertTrue(e.get("path").asText().startsWith("/vol-a/obs1/open/"), e.toString());
    JsonNode summary = get("/api/v1/keys/open/summary");
    assertEquals(expected.size(), summary.get("totalOpenKeys").asLong());
    assertTrue(summary.has("totalReplicatedDataSize") && summary.has("totalUnreplicatedDataSize"));
  }

  @Test
  void deletePendingPagesToTheEndAndItsSummaryMatches() {
    assertEquals(new ArrayList<>(ns.deleted),
        pageAll("/api/v1/keys/deletePending?limit=3", "deletedKeyInfo", p -> ""));
    List<String> inBucket = pageAll("/api/v1/keys/deletePending?limit=4&startPrefix=/vol-a/leg1",
        "deletedKeyInfo", p -> "");
    assertEquals(ns.deleted.stream().filter(k -> k.startsWith("/vol-a/leg1/")).toList(), inBucket);
    JsonNode summary = get("/api/v1/keys/deletePending/summary");
    assertEquals(ns.deleted.size(), summary.get("totalDeletedKeys").asLong());
    JsonNode page = get("/api/v1/keys/deletePending?limit=1000");
    long sum = 0;
    for (JsonNode d : page.get("deletedKeyInfo")) {
      sum += d.get("size").asLong();
    }
    assertEquals(sum, summary.get("totalUnreplicatedDataSize").asLong());
    assertEquals(sum, page.get("unreplicatedDataSize").asLong());
  }

  @Test
  void deletePendingDirsPageToTheEnd() {
    assertEquals(new ArrayList<>(ns.deletedDirs),
        pageAll("/api/v1/keys/deletePending/dirs?limit=2", "deletedDirInfo", p -> ""));
    assertEquals(ns.deletedDirs.size(),
        get("/api/v1/keys/deletePending/dirs/summary").get("totalDeletedDirectories").asLong());
    JsonNode first = get("/api/v1/keys/deletePending/dirs?limit=1").get("deletedDirInfo").get(0);
    assertEquals("/vol-b/fso1/gone0", first.get("path").asText());
    assertFalse(first.get("isKey").asBoolean());
  }

  @Test
  void listKeysPagesObsAndFsoBucketsToTheEnd() {
    List<String> obs = pageAll("/api/v1/keys/listKeys?startPrefix=/vol-a/obs1&limit=7", "keys", p -> "");
    assertEquals(ns.obsKeys.stream().filter(k -> k.startsWith("/vol-a/obs1/")).toList(), obs);
    List<String> paths = new ArrayList<>();
    String prev = "";
    while (true) {
      JsonNode page = get("/api/v1/keys/listKeys?startPrefix=/vol-b/fso1/&limit=5&prevKey=" + enc(prev));
      page.get("keys").forEach(k -> paths.add(k.get("path").asText()));
      if (!page.get("hasMore").asBoolean()) {
        break;
      }
      prev = page.get("lastKey").asText();
    }
    assertEquals(ns.fsoPaths, new HashSet<>(paths));
    assertEquals(ns.fsoPaths.size(), paths.size());
    JsonNode deep = get("/api/v1/keys/listKeys?startPrefix=/vol-b/fso1/a/b/&limit=100");
    assertEquals(6, deep.get("keys").size());
    assertEquals(6000, deep.get("unReplicatedDataSize").asLong());
    JsonNode big = get("/api/v1/keys/listKeys?startPrefix=/vol-b/fso1&limit=100&keySize=1000");
    assertEquals(6, big.get("keys").size());
    JsonNode end = get("/api/v1/keys/listKeys?startPrefix=/vol-a/obs1&limit=5&prevKey="
        + enc(ns.obsKeys.last()));
    assertEquals(0, end.get("keys").size());
    assertEquals("", end.get("lastKey").asText());
  }

  @Test
  void aDeletedPrevKeyResumesAtTheNextLiveKey() {
    try (OmMetadataStore other = TestNamespace.open(dir.resolve("other"))) {
      TestNamespace n = new TestNamespace().load(other, 11);
      try (ReconServer r = ReconServer.start(ReconConfig.defaults().withPort(0),
          ReconSource.embedded(other), null)) {
        ReconServer saved = recon;
        recon = r;
        try {
          List<String> deleted = new ArrayList<>(n.deleted);
          String cursor = deleted.get(4);
          other.dbStore().getTable(OmDBDefinition.DELETED_TABLE).delete(cursor);
          JsonNode page = get("/api/v1/keys/deletePending?limit=2&prevKey=" + enc(cursor));
          assertEquals(deleted.get(5), page.get("deletedKeyInfo").get(0).get("key").asText());
          List<String> open = new ArrayList<>(n.openKeys);
          String openCursor = open.get(2);
          other.dbStore().getTable(OmDBDefinition.OPEN_KEY_TABLE).delete(openCursor);
          assertEquals(open.get(3), get("/api/v1/keys/open?limit=1&prevKey=" + enc(openCursor))
              .get("nonFSO").get(0).get("key").asText());
          List<String> keys = new ArrayList<>(n.obsKeys);
          String keyCursor = keys.get(6);
          other.dbStore().getTable(OmDBDefinition.KEY_TABLE).delete(keyCursor);
          assertEquals(keys.get(7), get("/api/v1/keys/listKeys?startPrefix=/vol-a&limit=1&prevKey="
              .replace("/vol-a", "/vol-a/leg1") + enc(keyCursor)).get("keys").get(0).get("key").asText());
        } finally {
          recon = saved;
        }
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void summariesEqualAFullScanAfterARandomWorkload() throws IOException {
    try (OmMetadataStore other = TestNamespace.open(dir.resolve("random"))) {
      new TestNamespace().load(other, 3);
      Random rnd = new Random(99);
      List<OpenKeySession> sessions = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        String bucket = rnd.nextBoolean() ? "obs1" : "leg1";
        String key = "r/" + rnd.nextInt(50);
        try {
          switch (rnd.nextInt(4)) {
            case 0 -> {
              sessions.add(other.openKey("vol-a", bucket, key, null));
              names.add(bucket + "|" + key);
            }
            case 1 -> {
              if (!sessions.isEmpty()) {
                int at = rnd.nextInt(sessions.size());
                String[] bk = names.remove(at).split("\\|");
                other.commitKey("vol-a", bk[0], bk[1], sessions.remove(at).clientId(), rnd.nextInt(999));
              }
            }
            default -> other.deleteKey("vol-a", bucket, key);
          }
        } catch (io.sediment.om.core.OmException e) {
          assertEquals(io.sediment.om.core.OmException.Code.NOT_FOUND, e.code(), e.getMessage());
        }
      }
      OmInsight.Counters scanned = other.insight().scannedCounters();
      assertEquals(scanned, other.insight().maintainedCounters());
      try (ReconServer r = ReconServer.start(ReconConfig.defaults().withPort(0),
          ReconSource.embedded(other), null)) {
        ReconServer saved = recon;
        recon = r;
        try {
          Map<OmCounter, Long> t = scanned.totals();
          JsonNode root = get("/api/v1/namespace/summary?path=/");
          assertEquals(t.get(OmCounter.VOLUMES), root.at("/countStats/numVolume").asLong());
          assertEquals(t.get(OmCounter.BUCKETS), root.at("/countStats/numBucket").asLong());
          assertEquals(t.get(OmCounter.DIRECTORIES), root.at("/countStats/numDir").asLong());
          assertEquals(t.get(OmCounter.KEYS) + t.get(OmCounter.FILES), root.at("/countStats/numKey").asLong());
          assertEquals(t.get(OmCounter.OPEN_KEYS) + t.get(OmCounter.OPEN_FILES),
              get("/api/v1/keys/open/summary").get("totalOpenKeys").asLong());
          assertEquals(t.get(OmCounter.DELETED_KEYS),
              get("/api/v1/keys/deletePending/summary").get("totalDeletedKeys").asLong());
          assertEquals(t.get(OmCounter.DELETED_KEY_BYTES),
              get("/api/v1/keys/deletePending/summary").get("totalUnreplicatedDataSize").asLong());
          Map<OmCounter, Long> b = scanned.buckets().get("/vol-a/obs1");
          JsonNode bucket = get("/api/v1/namespace/summary?path=/vol-a/obs1");
          assertEquals(b.get(OmCounter.KEYS), bucket.at("/countStats/numKey").asLong());
          assertEquals(b.get(OmCounter.KEY_BYTES), bucket.get("size").asLong());
          long volBytes = scanned.buckets().get("/vol-a/obs1").get(OmCounter.KEY_BYTES)
              + scanned.buckets().get("/vol-a/leg1").get(OmCounter.KEY_BYTES);
          assertEquals(volBytes, get("/api/v1/namespace/usage?path=/vol-a").get("size").asLong());
        } finally {
          recon = saved;
        }
      }
    }
  }

  @Test
  void namespaceSummaryAndUsageAtEveryLevel() {
    JsonNode root = get("/api/v1/namespace/summary?path=/");
    assertEquals("ROOT", root.get("type").asText());
    assertEquals("OK", root.get("status").asText());
    assertEquals(3, root.at("/countStats/numVolume").asLong());
    assertEquals(3, root.at("/countStats/numBucket").asLong());
    assertEquals(3, root.at("/countStats/numDir").asLong());
    assertEquals(ns.obsKeys.size() + ns.fsoPaths.size(), root.at("/countStats/numKey").asLong());
    JsonNode vol = get("/api/v1/namespace/summary?path=/vol-a");
    assertEquals("VOLUME", vol.get("type").asText());
    assertEquals(2, vol.at("/countStats/numBucket").asLong());
    assertEquals(-1, vol.at("/countStats/numVolume").asLong());
    assertEquals("alice", vol.at("/objectInfo/owner").asText());
    JsonNode bucket = get("/api/v1/namespace/summary?path=/vol-b/fso1/");
    assertEquals("BUCKET", bucket.get("type").asText());
    assertEquals("FILE_SYSTEM_OPTIMIZED", bucket.at("/objectInfo/bucketLayout").asText());
    assertEquals(ns.fsoPaths.size(), bucket.at("/countStats/numKey").asLong());
    JsonNode d = get("/api/v1/namespace/summary?path=/vol-b/fso1/a");
    assertEquals("DIRECTORY", d.get("type").asText());
    assertEquals(1, d.at("/countStats/numDir").asLong());
    assertEquals(12, d.at("/countStats/numKey").asLong());
    assertEquals("KEY", get("/api/v1/namespace/summary?path=/vol-b/fso1/a/b/deep1").get("type").asText());
    JsonNode missing = get("/api/v1/namespace/summary?path=/vol-a/nope");
    assertEquals("PATH_NOT_FOUND", missing.get("status").asText());

    JsonNode du = get("/api/v1/namespace/usage?path=/vol-b/fso1&files=true&sortSubPaths=false");
    assertEquals(ns.fsoBytes, du.get("size").asLong());
    assertEquals(-1, du.get("sizeWithReplica").asLong());
    assertEquals(8, du.get("subPathCount").asInt());
    assertEquals("/vol-b/fso1/a", du.at("/subPaths/0/path").asText());
    assertEquals(6600, du.at("/subPaths/0/size").asLong());
    assertEquals(10 + 11 + 12 + 13 + 14 + 15, du.get("sizeDirectKey").asLong());
    assertEquals(du, get("/api/v1/namespace/du?path=/vol-b/fso1&files=true&sortSubPaths=false"),
        "du is an alias of usage");
    JsonNode top = get("/api/v1/namespace/usage?path=/&replica=true");
    assertEquals(top.get("size").asLong(), top.get("sizeWithReplica").asLong());
    assertEquals(3, top.get("subPaths").size());
    assertTrue(top.at("/subPaths/0/size").asLong() >= top.at("/subPaths/1/size").asLong()
        && top.at("/subPaths/1/size").asLong() >= top.at("/subPaths/2/size").asLong(), "largest first");
    assertEquals("/vol-empty", top.at("/subPaths/2/path").asText());
  }

  @Test
  void quotaAnswersOzonesFieldsAtEveryLevel() {
    List<String> fields = List.of("status", "allowed", "used");
    for (String path : List.of("/", "/vol-a", "/vol-a/obs1", "/vol-b/fso1")) {
      JsonNode q = get("/api/v1/namespace/quota?path=" + enc(path));
      assertEquals(fields, fieldNames(q), path);
      assertEquals("OK", q.get("status").asText(), path);
      assertEquals(-1, q.get("allowed").asLong(), path + ": no quota is -1, as in Ozone");
      assertEquals(get("/api/v1/namespace/summary?path=" + enc(path)).get("size").asLong(),
          q.get("used").asLong(), path);
    }
    for (String[] c : new String[][] {{"/vol-b/fso1/a", "TYPE_NOT_APPLICABLE"},
        {"/vol-b/fso1/a/b/deep1", "TYPE_NOT_APPLICABLE"}, {"/vol-a/obs1/dir0/key-000", "TYPE_NOT_APPLICABLE"},
        {"/vol-a/nope", "PATH_NOT_FOUND"}, {"/nope", "PATH_NOT_FOUND"}, {"/vol-b/fso1/zz", "PATH_NOT_FOUND"}}) {
      JsonNode q = get("/api/v1/namespace/quota?path=" + enc(c[0]));
      assertEquals(c[1], q.get("status").asText(), c[0]);
      assertEquals(0, q.get("allowed").asLong(), c[0]);
      assertEquals(0, q.get("used").asLong(), c[0]);
    }
  }

  @Test
  void distCountsEveryFileInOzonesBinsAsManyAsTheSummarysKeys() {
    for (String path : List.of("/", "/vol-a", "/vol-empty", "/vol-a/leg1", "/vol-b/fso1",
        "/vol-b/fso1/a")) {
      JsonNode d = get("/api/v1/namespace/dist?path=" + enc(path));
      assertEquals(List.of("status", "dist"), fieldNames(d), path);
      assertEquals("OK", d.get("status").asText(), path);
      assertEquals(41, d.get("dist").size(), path);
      long files = 0;
      for (JsonNode n : d.get("dist")) {
        files += n.asLong();
      }
      assertEquals(get("/api/v1/namespace/summary?path=" + enc(path)).at("/countStats/numKey")
          .asLong(), files, path);
    }
    for (String[] c : new String[][] {{"/vol-b/fso1/a/b/deep1", "TYPE_NOT_APPLICABLE"},
        {"/vol-a/nope", "PATH_NOT_FOUND"}, {"/nope/x/y", "PATH_NOT_FOUND"}}) {
      JsonNode d = get("/api/v1/namespace/dist?path=" + enc(c[0]));
      assertEquals(c[1], d.get("status").asText(), c[0]);
      assertEquals(41, d.get("dist").size(), c[0]);
      d.get("dist").forEach(n -> assertEquals(0, n.asLong(), c[0]));
    }
  }

  @Test
  void distBinsFilesAtTheirEdgesAndQuotaShowsTheQuotasSet() throws IOException {
    try (OmMetadataStore other = TestNamespace.open(dir.resolve("sizes"))) {
      other.createVolume("sizes", "o");
      other.setVolumeProperties("sizes", null, 1L << 40, null);
      other.createBucket("sizes", "edges", io.sediment.proto.om.BucketLayout.OBJECT_STORE, null,
          1L << 30);
      long[] sizes = {0, 1024, 1025, 2048, 2049, 1 << 20, (1 << 20) + 1};
      long total = 0;
      for (long size : sizes) {
        OpenKeySession s = other.openKey("sizes", "edges", "k" + size, null);
        other.commitKey("sizes", "edges", "k" + size, s.clientId(), size);
        total += size;
      }
      try (ReconServer r = ReconServer.start(ReconConfig.defaults().withPort(0),
          ReconSource.embedded(other), null)) {
        ReconServer saved = recon;
        recon = r;
        try {
          long[] expected = new long[41];
          // Up to 1 KiB inclusive, up to 2 KiB, up to 4 KiB, up to 1 MiB, up to 2 MiB.
          expected[0] = 2;
          expected[1] = 2;
          expected[2] = 1;
          expected[10] = 1;
          expected[11] = 1;
          for (String path : List.of("/", "/sizes", "/sizes/edges")) {
            JsonNode dist = get("/api/v1/namespace/dist?path=" + path).get("dist");
            for (int bin = 0; bin < 41; bin++) {
              assertEquals(expected[bin], dist.get(bin).asLong(), path + " bin " + bin);
            }
          }
          JsonNode bucket = get("/api/v1/namespace/quota?path=/sizes/edges");
          assertEquals(1L << 30, bucket.get("allowed").asLong());
          assertEquals(total, bucket.get("used").asLong());
          JsonNode volume = get("/api/v1/namespace/quota?path=/sizes");
          assertEquals(1L << 40, volume.get("allowed").asLong());
          assertEquals(total, volume.get("used").asLong());
          assertEquals(1L << 40, get("/api/v1/namespace/quota?path=/").get("allowed").asLong(),
              "root: the sum of the volumes' quotas");
        } finally {
          recon = saved;
        }
      }
    }
  }

  @Test
  void everyListingAnswersAMissingVolumeOrBucketWith404NamingIt() {
    for (String endpoint : List.of("/keys/open", "/keys/deletePending", "/keys/deletePending/dirs",
        "/keys/listKeys")) {
      for (String[] c : new String[][] {{"/nov/obs1", "Volume 'nov' does not exist"},
          {"/vol-a/nope", "Bucket 'nope' does not exist in volume 'vol-a'"},
          {"/vol-a/nope/dir0/", "Bucket 'nope' does not exist in volume 'vol-a'"}}) {
        String path = "/api/v1" + endpoint + "?startPrefix=" + enc(c[0]);
        Reply r = send(HttpClient.newHttpClient(), "GET", path);
        assertEquals(404, r.status(), path + " -> " + r.body());
        try {
          JsonNode body = json.readTree(r.body());
          assertEquals(404, body.get("code").asInt());
          assertEquals("NOT_FOUND: " + c[1], body.get("message").asText(), path);
        } catch (IOException e) {
          throw new AssertionError(path + ": not JSON: " + r.body());
        }
      }
      // An existing bucket with nothing of the kind is an empty page, not a 404.
      assertEquals(200, send(HttpClient.newHttpClient(), "GET",
          "/api/v1" + endpoint + "?startPrefix=/vol-a/obs1/zzz").status(), endpoint);
    }
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void tablesAndTombstonesDescribeEveryTable() {
    om.dbStore().flush();
    JsonNode tables = get("/api/v1/db/tables");
    assertEquals("embedded", tables.get("mode").asText());
    List<String> names = new ArrayList<>();
    tables.get("tables").forEach(t -> names.add(t.get("name").asText()));
    assertEquals(om.dbStore().listTables(), names);
    JsonNode deletedTable = null;
    for (JsonNode t : tables.get("tables")) {
      for (String f : List.of("estimatedKeys", "sstBytes", "liveDataBytes", "memtableBytes",
          "sstFiles", "pointTombstones", "rangeTombstones", "memtableDeletes", "memtableRangeDeletes",
          "tombstones",
          "hotRanges")) {
        assertTrue(t.has(f), f + " in " + t);
      }
      if (t.get("name").asText().equals("keyTable")) {
        deletedTable = t;
      }
    }
    assertTrue(deletedTable.get("pointTombstones").asLong() > 0, deletedTable.toString());
    JsonNode tomb = get("/api/v1/db/tombstones");
    assertEquals(names.size(), tomb.get("tables").size());
    for (String f : List.of("requested", "completed", "pinned", "skipped", "failed", "pending", "recent")) {
      assertTrue(tomb.get("compactions").has(f), f);
    }
    assertTrue(tomb.at("/tables/0").has("hotRanges"));
    assertEquals("embedded", get("/api/v1/db/status").get("mode").asText());
  }

  @Test
  void aLimitBeyondTheIntRangeIsTheCapLikeAnyLimitAboveIt() {
    // README: "-1 or more than the page cap = the cap"; 2^31 and beyond are more than the cap too.
    JsonNode capped = get("/api/v1/keys/open?limit=-1");
    for (String limit : List.of("2147483647", "2147483648", "99999999999", "99999999999999999999999")) {
      assertEquals(capped, get("/api/v1/keys/open?limit=" + limit), limit);
      assertEquals(get("/api/v1/keys/deletePending?limit=-1"),
          get("/api/v1/keys/deletePending?limit=" + limit), limit);
    }
    Reply tooSmall = send(HttpClient.newHttpClient(), "GET", "/api/v1/keys/open?limit=-99999999999");
    assertEquals(400, tooSmall.status(), tooSmall.body());
    assertTrue(tooSmall.body().contains("limit"), tooSmall.body());
  }

  @Test
  void anEmptyIncludeFlagIsAbsentLikeAnyOtherEmptyParameter() {
    // An empty value means "not given" for every parameter (limit=, prevKey=): the flags too, so
    // an empty form field neither turns the other flag off nor makes both false.
    JsonNode both = get("/api/v1/keys/open?limit=100");
    assertEquals(both, get("/api/v1/keys/open?limit=100&includeFso=&includeNonFso="));
    assertEquals(get("/api/v1/keys/open?limit=100&includeNonFso=true"),
        get("/api/v1/keys/open?limit=100&includeFso=&includeNonFso=true"));
    JsonNode fsoOnly = get("/api/v1/keys/open?limit=100&includeFso=true&includeNonFso=");
    assertEquals(ns.openFiles.size(), fsoOnly.get("fso").size());
    assertEquals(0, fsoOnly.get("nonFSO").size());
  }

  @Test
  void errorsAreJsonWithAReasonAndNoStackTrace() {
    record Case(String method, String path, int status, String mentions) { }
    List<Case> cases = List.of(
        new Case("GET", "/api/v1/nope", 404, "/api/v1/nope"),
        new Case("GET", "/nope.html", 404, "/nope.html"),
        new Case("GET", "/../etc/passwd", 400, ""),
        new Case("POST", "/api/v1/keys/open", 405, "GET"),
        new Case("DELETE", "/api/v1/keys/deletePending", 405, "read-only"),
        new Case("PUT", "/", 405, "GET"),
        new Case("GET", "/api/v1/keys/open?limit=abc", 400, "limit"),
        new Case("GET", "/api/v1/keys/open?limit=0", 400, "limit"),
        new Case("GET", "/api/v1/keys/open?limit=1&limit=2", 400, "once"),
        new Case("GET", "/api/v1/keys/open?includeFso=maybe", 400, "includeFso"),
        new Case("GET", "/api/v1/keys/open?includeFso=false&includeNonFso=false", 400, "both false"),
        new Case("GET", "/api/v1/keys/open?prevKey=x&prevKeyTable=keyTable", 400, "prevKeyTable"),
        new Case("GET", "/api/v1/keys/open?startPrefix=/vol-a", 400, "bucket level"),
        new Case("GET", "/api/v1/keys/deletePending?startPrefix=relative", 400, "start with"),
        new Case("GET", "/api/v1/keys/listKeys", 400, "startPrefix"),
        new Case("GET", "/api/v1/keys/listKeys?startPrefix=/", 400, "bucket"),
        new Case("GET", "/api/v1/keys/listKeys?startPrefix=/vol-a/obs1&keySize=-1", 400, "negative"),
        new Case("GET", "/api/v1/keys/listKeys?startPrefix=/vol-a/obs1&creationDate=yesterday", 400,
            "MM-dd-yyyy"),
        new Case("GET", "/api/v1/namespace/summary", 400, "path"),
        new Case("GET", "/api/v1/namespace/quota", 400, "path"),
        new Case("GET", "/api/v1/namespace/dist?path=vol", 400, "start with"),
        new Case("GET", "/api/v1/namespace/usage?path=vol", 400, "start with"),
        new Case("GET", "/api/v1/namespace/usage?path=/&files=perhaps", 400, "files"));
    for (Case c : cases) {
      // A fresh client each time: the server may close a connection after refusing a request.
      Reply r = send(HttpClient.newHttpClient(), c.method(), c.path());
      assertEquals(c.status(), r.status(), c + " -> " + r.body());
      assertTrue(r.contentType().startsWith("application/json"), c + " " + r.contentType());
      JsonNode body;
      try {
        body = json.readTree(r.body());
      } catch (IOException e) {
        throw new AssertionError(c + ": not JSON: " + r.body());
      }
      assertEquals(c.status(), body.get("code").asInt());
      assertTrue(body.get("message").asText().contains(c.mentions()), c + " -> " + body);
      assertFalse(r.body().contains("Exception") || r.body().contains("\tat ")
          || r.body().contains("at io.sediment"), "stack trace leaked: " + r.body());
    }
  }

  @Test
  void promExposesStoreJvmAndExtraMetricsInValidTextFormat() {
    get("/api/v1/keys/open/summary");
    Reply r = send("GET", "/prom");
    assertEquals(200, r.status());
    assertTrue(r.contentType().startsWith("text/plain"), r.contentType());
    PromText.Scrape s = PromText.parse(r.body());
    assertEquals("counter", s.types().get("sediment_rocksdb_ticker_total"));
    assertTrue(s.value("sediment_rocksdb_ticker_total", Map.of("ticker", "NUMBER_DB_SEEK")) > 0);
    assertEquals("gauge", s.types().get("sediment_table_estimated_keys"));
    assertTrue(s.has("sediment_table_point_tombstones"));
    assertEquals(ns.deleted.size(),
        s.value("sediment_namespace_objects", Map.of("counter", "deleted_keys")));
    assertEquals(3.0, s.value("sediment_grpc_test_calls_total", Map.of("method", "ListKeys")));
    assertTrue(s.types().keySet().stream().anyMatch(n -> n.startsWith("jvm_")), s.types().keySet()::toString);
    assertTrue(s.value("sediment_recon_http_requests_total",
        Map.of("endpoint", "/api/v1/keys/open/summary", "status", "200")) >= 1);
    assertTrue(s.has("sediment_targeted_compactions_total"));
    assertTrue(s.value("sediment_block_cache_bytes", Map.of("kind", "capacity")) > 0);
    // The test store opened new, with no files to judge by: AUTO did not pin.
    assertEquals(0.0, s.value("sediment_partitions_pinned", Map.of("requested", "auto")));
    assertEquals("gauge", s.types().get("sediment_store_out_of_space"));
    assertEquals(0.0, s.value("sediment_store_out_of_space", Map.of()));
  }

  @Test
  void aSingleNodeSaysSoInTheReplicationStatus() {
    JsonNode r = get("/api/v1/replication/status");
    assertFalse(r.get("replicated").asBoolean());
    assertEquals("SINGLE", r.get("role").asText());
    assertEquals(2, r.size(), "nothing else for a single node: " + r);
  }

  @Test
  void aReplicaShowsItsRoleTermAppliedIndexAndLagAsItsSupplierSaysAtEachRequest()
      throws IOException {
    java.util.concurrent.atomic.AtomicReference<GetReplicationStatusResponse> now =
        new java.util.concurrent.atomic.AtomicReference<>(GetReplicationStatusResponse.newBuilder()
            .setReplicated(true).setReplicaId("om2").setRole("FOLLOWER").setTerm(3)
            .setLeaderId("om1").setLeaderAddress("127.0.0.1:9862").setCommitIndex(42)
            .setAppliedIndex(40).build());
    try (ReconServer replica = ReconServer.start(ReconConfig.defaults().withPort(0),
        ReconSource.embedded(om), null, () -> {
          GetReplicationStatusResponse v = now.get();
          if (v == null) {
            throw new io.sediment.om.core.OmException(io.sediment.om.core.OmException.Code
                .UNAVAILABLE, "this replica's Raft server is not running");
          }
          return v;
        })) {
      ReconServer saved = recon;
      recon = replica;
      try {
        JsonNode r = get("/api/v1/replication/status");
        assertTrue(r.get("replicated").asBoolean());
        assertEquals("om2", r.get("replicaId").asText());
        assertEquals("FOLLOWER", r.get("role").asText());
        assertEquals(3, r.get("term").asLong());
        assertEquals("om1", r.get("leaderId").asText());
        assertEquals("127.0.0.1:9862", r.get("leaderAddress").asText());
        assertEquals(42, r.get("commitIndex").asLong());
        assertEquals(40, r.get("appliedIndex").asLong());
        assertEquals(2, r.get("applyLag").asLong());
        assertEquals(0, r.get("followerMatchIndex").size());

        now.set(now.get().toBuilder().setRole("LEADER").setLeaderId("om2").setAppliedIndex(42)
            .putFollowerMatchIndex("om1", 41).putFollowerMatchIndex("om3", 42).build());
        r = get("/api/v1/replication/status");
        assertEquals("LEADER", r.get("role").asText());
        assertEquals(0, r.get("applyLag").asLong());
        assertEquals(41, r.at("/followerMatchIndex/om1").asLong());
        assertEquals(42, r.at("/followerMatchIndex/om3").asLong());

        now.set(null);
        Reply down = send("GET", "/api/v1/replication/status");
        assertEquals(503, down.status(), down.body());
        assertTrue(down.body().contains("not running"), down.body());
      } finally {
        recon = saved;
      }
    }
  }

  @Test
  void thePageAndItsAssetsAreServedFromTheJar() {
    Reply page = send("GET", "/");
    assertEquals(200, page.status());
    assertTrue(page.contentType().startsWith("text/html"));
    assertTrue(page.body().contains("/lib/echarts.min.js") && page.body().contains("/app.js"));
    assertFalse(page.body().contains("http://") || page.body().contains("https://"),
        "no external address");
    Reply lib = send("GET", "/lib/echarts.min.js");
    assertEquals(200, lib.status());
    assertTrue(lib.body().length() > 500_000, "the ECharts build");
    assertEquals(200, send("GET", "/app.js").status());
    assertEquals(200, send("GET", "/app.css").status());
  }
}
