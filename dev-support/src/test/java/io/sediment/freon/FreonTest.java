package io.sediment.freon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * Each workload for a few hundred operations against the in-process server: the summary adds up,
 * its JSON parses, nothing fails and both floors are measured. Checks behaviour, not speed.
 */
class FreonTest {

  private static final int COUNT = 200;

  @TempDir
  Path dir;

  private record Outcome(int exit, String text, String err, Map<String, Object> json) { }

  private Outcome freon(String... args) throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new Freon());
    cmd.setOut(new PrintWriter(out));
    cmd.setErr(new PrintWriter(err));
    Path json = dir.resolve("summary.json");
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--json", json.toString(), "--dir", dir.toString(), "--quiet"));
    int exit = cmd.execute(all.toArray(String[]::new));
    Map<String, Object> parsed = Files.exists(json) ? parse(Files.readString(json)) : null;
    Files.deleteIfExists(json);
    return new Outcome(exit, out.toString(), err.toString(), parsed);
  }

  @Test
  void theHelpFormatsWithoutAWarning() {
    java.io.ByteArrayOutputStream stderr = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    StringWriter out = new StringWriter();
    System.setErr(new java.io.PrintStream(stderr, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      // picocli reports a description that does not format on System.err, then prints it raw.
      new CommandLine(new Freon()).usage(new PrintWriter(out));
    } finally {
      System.setErr(saved);
    }
    assertEquals("", stderr.toString(java.nio.charset.StandardCharsets.UTF_8));
    assertTrue(out.toString().contains("mixed (60% lookup, 20% create"),
        out.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"create", "lookup", "list", "delete", "mixed"})
  void aWorkloadsSummaryAddsUpWithBothFloorsOverRounds(String workload) throws IOException {
    Outcome o = freon(workload, "--clients", "4", "--count", String.valueOf(COUNT),
        "--prefill", "1200", "--fso-prefill", "1000", "--warmup", "0s", "--rounds", "2",
        "--distribution", "zipfian");
    assertEquals(0, o.exit(), o.err());
    assertTrue(o.text().contains("service/floor"), o.text());
    Map<String, Object> json = o.json();
    assertEquals(workload, json.get("workload"));
    for (String run : List.of("service", "echo", "raw")) {
      Map<String, Object> r = map(json, run);
      assertEquals(Map.of(), r.get("errors"), run + " failed: " + o.text());
      assertEquals(COUNT, number(r, "operations"), run);
      long byType = 0;
      for (Object t : map(r, "by_type").values()) {
        byType += number(cast(t), "operations");
      }
      assertEquals(COUNT, byType, run + ": the kinds add up to the total");
      Map<String, Object> lat = map(r, "latency_us");
      assertTrue(number(lat, "p50") > 0 && number(lat, "p50") <= number(lat, "p99")
          && number(lat, "p99") <= number(lat, "max"), run + " percentiles ordered: " + lat);
      assertTrue(number(r, "throughput") > 0, run);
    }
    double floorP50 = number(map(json, "floor"), "latency_us", "p50");
    assertEquals(number(map(json, "echo"), "latency_us", "p50")
        + number(map(json, "raw"), "latency_us", "p50"), floorP50, 0.01);
    assertTrue(number(map(json, "ratio"), "throughput") > 0);
    // Time per call in the server and in the client's parse: the service's methods and the
    // echo's (the raw floor makes no call), each above zero and below what the client waited.
    double waitedAtMost = number(map(json, "service"), "latency_us", "max");
    Map<String, Object> serverUs = map(map(json, "service"), "server_call_us");
    assertFalse(serverUs.isEmpty(), o.text());
    for (String where : List.of("server_call_us", "client_parse_us")) {
      Map<String, Object> us = map(map(json, "service"), where);
      assertEquals(serverUs.keySet(), us.keySet(), where + ": " + o.text());
      for (Object perCall : us.values()) {
        double v = ((Number) perCall).doubleValue();
        assertTrue(v > 0 && v < waitedAtMost, where + ": " + us);
      }
      assertEquals(Set.of("Echo"), map(map(json, "echo"), where).keySet(), where);
      assertEquals(Map.of(), map(map(json, "raw"), where), where);
    }
    if (workload.equals("list")) {
      assertEquals(Set.of("ListObjectsV2", "ListStatus"), serverUs.keySet());
      assertEquals(3, map(map(json, "service"), "by_type").size(),
          "list, list with a delimiter and ListStatus");
      assertEquals("basic", json.get("list_view"));
    }
  }

  @Test
  void aListRunAsksForThePageAsColumnsWhenTold() throws IOException {
    Outcome o = freon("list", "--clients", "2", "--count", "30", "--prefill", "1200",
        "--fso-prefill", "1000", "--warmup", "0s", "--no-floors", "--list-view", "columns");
    assertEquals(0, o.exit(), o.err());
    assertEquals("columns", o.json().get("list_view"));
    assertEquals(Map.of(), map(o.json(), "service").get("errors"), o.text());
  }

  @Test
  void deletesEndTheRunWhenNoKeyIsLeft() throws IOException {
    Outcome o = freon("delete", "--clients", "2", "--count", "1000", "--prefill", "120",
        "--warmup", "0s", "--no-floors");
    assertRanOutOfKeysAfter(o, 120, "every key deleted once, no more");
    assertFalse(o.json().containsKey("floor"));
    assertTrue(o.text().contains("no key was left to delete"), o.text());
  }

  @Test
  void aBatchDeleteRunDeletesWholeBatchesAndMeasuresBothFloors() throws IOException {
    Outcome o = freon("delete-batch", "--clients", "2", "--count", "20", "--batch", "10",
        "--prefill", "1200", "--warmup", "0s", "--rounds", "2");
    assertEquals(0, o.exit(), o.err());
    Map<String, Object> json = o.json();
    assertEquals("delete-batch", json.get("workload"));
    assertEquals(10, number(json, "batch"));
    for (String run : List.of("service", "echo", "raw")) {
      Map<String, Object> r = map(json, run);
      // A key a DeleteKeys call did not delete fails its operation.
      assertEquals(Map.of(), r.get("errors"), run + " failed: " + o.text());
      assertEquals(20, number(r, "operations"), run);
      assertEquals(Set.of("delete-batch"), map(r, "by_type").keySet(), run);
    }
    assertTrue(o.text().contains("keys deleted per second (10 per call)"), o.text());
  }

  @Test
  void aBatchDeleteRunEndsWithAShortBatchWhenKeysRunOut() throws IOException {
    Outcome o = freon("delete-batch", "--clients", "1", "--count", "100", "--batch", "10",
        "--prefill", "25", "--warmup", "0s", "--no-floors");
    assertRanOutOfKeysAfter(o, 3, "10, 10, then the last 5 keys");
  }

  @Test
  void aWarmUpOfDeletesLeavesThreeQuartersOfTheKeysToTheMeasuredRun() throws IOException {
    // Without its cap, a minute's warm-up would delete all 400 keys before the run.
    Outcome o = freon("delete", "--clients", "2", "--count", "1000", "--prefill", "400",
        "--warmup", "60s", "--no-floors");
    assertRanOutOfKeysAfter(o, 300, "the warm-up deleted 100 keys, no more");
  }

  /** A service run that completed, ran out of keys after {@code operations}, none failing. */
  private static void assertRanOutOfKeysAfter(Outcome o, long operations, String why) {
    assertEquals(0, o.exit(), o.err());
    Map<String, Object> service = map(o.json(), "service");
    assertEquals(operations, number(service, "operations"), why);
    assertEquals(Map.of(), service.get("errors"));
    assertEquals(Boolean.TRUE, service.get("exhausted"));
  }

  @Test
  void badOptionsAreRefusedBeforeAnythingStarts() throws IOException {
    assertEquals(2, freon("lookup", "--count", "10", "--duration", "5s").exit());
    assertEquals(2, freon("scan", "--count", "10").exit());
    assertEquals(2, freon("lookup", "--distribution", "pareto").exit());
    assertEquals(2, freon("list", "--list-view", "light").exit());
    assertEquals(2, freon("delete-batch", "--batch", "0").exit());
    assertEquals(2, freon("delete-batch", "--batch", "1001").exit());
    assertEquals(2, freon("list", "--prefill", "10").exit());
    assertEquals(2, freon("lookup", "--duration", "5").exit());
    assertEquals(2, freon("lookup", "--rounds", "0").exit());
    assertEquals(2, freon("mixed", "--purge-backlog", "10", "--target", "localhost:1").exit());
    assertEquals(2, freon("mixed", "--no-purge").exit());
    assertEquals(2, freon("mixed", "--purge-backlog", "10", "--purge-batch", "0").exit());
    assertEquals(2, freon("mixed", "--purge-backlog", "10", "--purge-rate", "-1").exit());
    assertEquals(2, freon("mixed", "--purge-backlog", "10", "--purge-pause", "11m").exit());
    assertEquals(2, freon("mixed", "--purge-backlog", "-1").exit());
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "no store was made");
    }
  }

  @Test
  void aPurgeRunReportsItsBacklogAndTheBaselineLeavesItWhole() throws IOException {
    // 2,000 deleted keys, and 1,500 files in 2 directories below a deleted one: 3,503 rows.
    long backlog = 2_000 + 1_500 + 2 + 1;
    Outcome baseline = freon("mixed", "--clients", "2", "--count", "100", "--prefill", "1100",
        "--warmup", "0s", "--purge-backlog", "2000", "--purge-fso-backlog", "1500", "--no-purge");
    assertEquals(0, baseline.exit(), baseline.err());
    assertTrue(baseline.text().contains("purge: services off (baseline)"), baseline.text());
    assertFalse(baseline.text().contains("service/floor"), "no floors in a purge run");
    Map<String, Object> off = map(baseline.json(), "purge");
    assertEquals(false, off.get("enabled"));
    assertEquals(backlog, number(off, "left_at_start"));
    assertEquals(backlog, number(off, "left_at_end"));
    assertEquals(0, number(off, "key_purge_rows"));

    Outcome purged = freon("mixed", "--clients", "2", "--duration", "3s", "--prefill", "1100",
        "--warmup", "0s", "--purge-backlog", "2000", "--purge-fso-backlog", "1500",
        "--purge-batch", "500", "--purge-pause", "0s");
    assertEquals(0, purged.exit(), purged.err());
    assertEquals(Map.of(), map(purged.json(), "service").get("errors"), purged.text());
    Map<String, Object> on = map(purged.json(), "purge");
    assertEquals(true, on.get("enabled"));
    assertEquals(500, number(on, "batch"));
    assertEquals(backlog, number(on, "left_at_start"));
    assertTrue(number(on, "left_at_end") < backlog, "the services purged during the run: " + on);
    assertTrue(number(on, "key_purge_rows") > 0 && number(on, "key_purge_rows_per_second") > 0,
        on.toString());
    assertTrue(purged.text().contains("key purge rate"), purged.text());
  }

  @Test
  void zipfianFavoursTheFirstKeysAndStaysInBounds() {
    Zipfian z = new Zipfian(10_000, 0.99);
    SplittableRandom r = new SplittableRandom(1);
    int first = 0;
    for (int i = 0; i < 100_000; i++) {
      long v = z.next(r, 10_000);
      assertTrue(v >= 0 && v < 10_000);
      if (v < 100) {
        first++;
      }
      assertTrue(z.next(r, 7) < 7);
    }
    // The first 1 % of ranks carry about half the draws at skew 0.99 (uniform: 1 %).
    assertTrue(first > 40_000 && first < 70_000, "draws in the first 100 ranks: " + first);
  }

  private static double number(Map<String, Object> m, String... path) {
    Map<String, Object> at = m;
    for (int i = 0; i < path.length - 1; i++) {
      at = map(at, path[i]);
    }
    return ((Number) at.get(path[path.length - 1])).doubleValue();
  }

  private static Map<String, Object> map(Map<String, Object> m, String key) {
    return cast(m.get(key));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Object o) {
    return (Map<String, Object>) o;
  }

  private static Map<String, Object> parse(String text) throws IOException {
    try (JsonParser p = new JsonFactory().createParser(text)) {
      assertEquals(JsonToken.START_OBJECT, p.nextToken());
      Map<String, Object> m = object(p);
      assertEquals(null, p.nextToken(), "one object");
      return m;
    }
  }

  private static Map<String, Object> object(JsonParser p) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      Object v = switch (t) {
        case START_OBJECT -> object(p);
        case VALUE_STRING -> p.getText();
        case VALUE_NUMBER_INT -> p.getLongValue();
        case VALUE_NUMBER_FLOAT -> p.getDoubleValue();
        case VALUE_TRUE -> Boolean.TRUE;
        case VALUE_FALSE -> Boolean.FALSE;
        case VALUE_NULL -> null;
        default -> throw new IOException("unexpected " + t);
      };
      m.put(name, v);
    }
    return m;
  }
}
