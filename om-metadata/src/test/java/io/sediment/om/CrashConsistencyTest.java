package io.sediment.om;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.KeyValue;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoDirectories;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.VolumeInfo;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the durability and atomicity claims of the om-metadata write path ({@link OmContext#write},
 * {@link io.sediment.om.core.GroupCommitter}) under a real process crash.
 *
 * <p>A child JVM opens an {@link OmMetadataStore} and runs concurrent writers, each in a volume of
 * its own: volume and bucket creation, OBS keys (open, commit, overwrite, delete, rename), FSO
 * trees (mkdir, create and commit file, delete file, rename of files and directories, recursive
 * directory delete) and multipart uploads (initiate, commit and replace parts, complete, abort),
 * while a purger thread runs the key and directory purge steps. Before each write a writer prints
 * the facts it expects the write to change ({@code BEGIN}); after the write returns (is
 * acknowledged) it prints the facts it did change, with every object id it was handed
 * ({@code ACK}). The parent kills the child with SIGKILL after a random delay, reopens the store and
 * proves:
 *
 * <ul>
 *   <li>every acknowledged write is visible with its object ids (so nothing acknowledged is lost,
 *       and nothing acknowledged as deleted or renamed away came back);
 *   <li>the one write per writer that was in flight at the kill applied entirely or not at all;
 *   <li>the maintained counters equal a full scan, store-wide and per bucket;
 *   <li>the next object id is above every id acknowledged and every id stored, and is the id the
 *       next write gets (ids are never reused);
 *   <li>the store reopens a second time with the same content and exact counters.
 * </ul>
 *
 * <p>Each writer's acknowledged order alone defines the expected state of its volume, since no
 * other writer touches it. Rounds reuse one store directory with fresh volumes, so every round also
 * re-proves the state of every earlier round after another crash recovery. A process crash keeps
 * whatever reached the WAL file (the OS holds it), so these rounds prove the claims for both
 * {@link SyncPolicy#DURABLE} and {@link SyncPolicy#PROCESS_CRASH_SAFE} (whose contract is exactly
 * "survives a process crash"); a power loss, which only {@code DURABLE} claims to survive, cannot be
 * produced by a kill. What {@code DURABLE} adds, acknowledging only after a WAL fsync covering
 * everything the acknowledgement reports, is checked without a crash, with a WAL sync held open, by
 * {@link #anIdempotentCreateDirectoryIsNotAcknowledgedBeforeTheSyncOfTheDirectoryItReports}.
 */
class CrashConsistencyTest {

  private static final int WRITERS = 4;
  private static final long MIN_KILL_MILLIS = 300;
  private static final long MAX_KILL_MILLIS = 2000;
  private static final long MIB = 1L << 20;

  @TempDir
  Path dir;

  @Test
  @Tag("long")
  void durableWritesAcknowledgedBeforeASigkillSurviveIt() throws Exception {
    crashRounds(SyncPolicy.DURABLE, 3, WRITERS);
  }

  @Test
  @Tag("long")
  void processCrashSafeWritesAcknowledgedBeforeASigkillSurviveIt() throws Exception {
    crashRounds(SyncPolicy.PROCESS_CRASH_SAFE, 2, WRITERS);
  }

  /** Soak: many more rounds, more writers, on one store directory per policy. */
  @Test
  @Tag("long")
  void manyCrashRoundsLoseNoAcknowledgedWriteAndKeepCountersExact() throws Exception {
    crashRounds(SyncPolicy.DURABLE, 40, 6);
    crashRounds(SyncPolicy.PROCESS_CRASH_SAFE, 25, 6);
  }

  /**
   * The harness itself: without a crash, the facts the writers report are exactly what the store
   * holds after a clean close. A failure here is a bug of the model, not of the store.
   */
  @Test
  void theWorkloadModelMatchesTheStoreAfterACleanShutdown() throws Exception {
    Path store = dir.resolve("clean");
    Recorder recorder = new Recorder();
    try (OmMetadataStore om = OmMetadataStore.open(store)) {
      Workload.run(om, 0, WRITERS, 42, 120, recorder);
    }
    assertTrue(recorder.errors.isEmpty(), String.join("\n", recorder.errors));
    assertTrue(recorder.inFlight.isEmpty(), "writers that finished left writes in flight");
    assertTrue(recorder.acks > WRITERS * 120, "acks " + recorder.acks);
    verifyReopened(store, SyncPolicy.DURABLE, recorder, 0);
  }

  /**
   * A {@code DURABLE} acknowledgement must follow a WAL fsync covering everything it reports. An
   * idempotent {@code createDirectory} of a directory another writer has just created (applied,
   * its fsync still running) writes no batch; it must still not return before that fsync, or a
   * power loss right after it loses a directory the caller was told exists. The fsync is held open
   * by a store whose {@code syncWal} waits for a latch.
   */
  @Test
  void anIdempotentCreateDirectoryIsNotAcknowledgedBeforeTheSyncOfTheDirectoryItReports()
      throws Exception {
    Path store = dir.resolve("gated");
    try (OmMetadataStore om = OmMetadataStore.open(store)) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    }
    CountDownLatch syncing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (DBStore real = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(store).build()) {
      FsoDirectories fso = new FsoDirectories(
          new OmContext(GatedSync.holding(real, syncing, release), OmStoreOptions.defaults()));
      Future<FileStatus> creator = pool.submit(() -> fso.create("vol", "fso", "d"));
      assertTrue(syncing.await(30, TimeUnit.SECONDS), "the creating write never reached its fsync");
      Future<FileStatus> again = pool.submit(() -> fso.create("vol", "fso", "d"));
      boolean acknowledgedBeforeSync = GatedSync.finishesWithin(again, 500);
      release.countDown();
      assertEquals(creator.get().objectId(), again.get().objectId());
      assertFalse(acknowledgedBeforeSync, "createDirectory acknowledged directory 'd' (object id "
          + again.get().objectId() + ") while the WAL fsync of the batch creating it had not "
          + "completed: a power loss at that moment loses a directory the caller was told exists");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Crash rounds (parent side)

  /** What one round did, for the test's output. */
  record RoundStats(SyncPolicy policy, int round, long killAfterMillis, int acks, int inFlight,
      int inFlightApplied) {
  }

  private void crashRounds(SyncPolicy policy, int rounds, int writers) throws Exception {
    Path store = dir.resolve("store-" + policy);
    Recorder recorder = new Recorder();
    Random random = new Random();
    List<RoundStats> stats = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      long killAfter = MIN_KILL_MILLIS + random.nextLong(MAX_KILL_MILLIS - MIN_KILL_MILLIS);
      long seed = random.nextLong();
      int acksBefore = recorder.acks;
      runChildAndKill(store, policy, round, writers, seed, killAfter, recorder);
      int inFlight = recorder.inFlight.size();
      int applied = verifyReopened(store, policy, recorder, round);
      stats.add(new RoundStats(policy, round, killAfter, recorder.acks - acksBefore, inFlight,
          applied));
    }
    stats.forEach(System.out::println);
    System.out.println(policy + ": " + rounds + " rounds, " + recorder.acks + " acknowledged writes, "
        + recorder.model.values.size() + " facts checked after the last crash");
  }

  /**
   * Runs the workload in a child JVM, feeds its lines to {@code recorder}, and SIGKILLs it
   * {@code killAfterMillis} after it reported the store open.
   */
  private void runChildAndKill(Path store, SyncPolicy policy, int round, int writers, long seed,
      long killAfterMillis, Recorder recorder) throws Exception {
    Path stderr = dir.resolve("child-" + policy + "-" + round + ".err");
    Process child = new ProcessBuilder(javaCommand(Child.class, killedTmp(), store.toString(), policy.name(),
        Integer.toString(round), Integer.toString(writers), Long.toString(seed)))
        .redirectError(stderr.toFile()).start();
    Thread reader = new Thread(() -> readLines(child, recorder), "child-stdout");
    reader.start();
    String context = policy + " round " + round + " (seed " + seed + ")";
    try {
      if (!recorder.ready.await(60, TimeUnit.SECONDS)) {
        fail(context + ": the child never opened the store\n" + Files.readString(stderr));
      }
      Thread.sleep(killAfterMillis);
      assertTrue(child.isAlive(), context + ": the child died before the kill\n"
          + String.join("\n", recorder.errors) + "\n" + Files.readString(stderr));
    } finally {
      // Through the handle: SIGKILL without closing our end of the pipe, so the lines the child
      // wrote before it died are still read.
      child.toHandle().destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
      reader.join(30_000);
      recorder.ready = new CountDownLatch(1);
    }
    assertEquals(128 + 9, child.exitValue(), context + ": the child was not ended by SIGKILL");
    assertTrue(recorder.errors.isEmpty(), context + ": a writer failed\n"
        + String.join("\n", recorder.errors) + "\n" + Files.readString(stderr));
  }

  private static void readLines(Process child, Recorder recorder) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        recorder.accept(line);
      }
    } catch (IOException e) {
      recorder.errors.add("reading the child's output: " + e);
    }
  }

  /**
   * The killed child's temporary directory, inside this test's: a JVM killed with SIGKILL leaves
   * the native library rocksdbjni unpacked for it, and it goes with the test's directory.
   */
  private Path killedTmp() throws java.io.IOException {
    return Files.createDirectories(dir.resolve("child-tmp"));
  }

  private static List<String> javaCommand(Class<?> main, Path tmp, String... args) {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-Dsediment.leakDetection=false",
        "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /**
   * Reopens the store (twice) and proves the claims against what {@code recorder} saw; resolves
   * each in-flight write to what the store holds. Returns how many in-flight writes had applied.
   */
  private static int verifyReopened(Path store, SyncPolicy policy, Recorder recorder, int round) {
    OmStoreOptions options = OmStoreOptions.defaults().withSyncPolicy(policy);
    int applied;
    try (OmMetadataStore om = OmMetadataStore.open(store, options)) {
      Set<String> inFlight = new LinkedHashSet<>();
      recorder.inFlight.values().forEach(e -> inFlight.addAll(recorder.model.touchedBy(e)));
      assertModelHolds(om, recorder.model, inFlight, "after crash " + round);
      applied = resolveInFlightWrites(om, recorder);
      assertCountersExact(om, "after crash " + round);
      assertIdsNeverReused(om, recorder, round);
    }
    try (OmMetadataStore om = OmMetadataStore.open(store, options)) {
      assertModelHolds(om, recorder.model, Set.of(), "second reopen after crash " + round);
      assertCountersExact(om, "second reopen after crash " + round);
    }
    return applied;
  }

  /**
   * Each write in flight at the kill applied entirely (every fact it touches as predicted) or not
   * at all (every fact as before); the model then takes what the store holds.
   */
  private static int resolveInFlightWrites(OmMetadataStore om, Recorder recorder) {
    int applied = 0;
    for (Map.Entry<Integer, List<String>> e : recorder.inFlight.entrySet()) {
      Facts before = recorder.model;
      Facts after = before.copy();
      e.getValue().forEach(after::apply);
      Map<String, String> seen = new TreeMap<>();
      boolean none = true;
      boolean all = true;
      for (String fact : before.touchedBy(e.getValue())) {
        String observed = observe(om, fact);
        seen.put(fact, observed == null ? Facts.ABSENT : observed);
        none &= Facts.matches(before.get(fact), before.get(fact), observed);
        all &= Facts.matches(after.get(fact), before.get(fact), observed);
      }
      assertTrue(none || all, "writer " + e.getKey() + "'s write in flight at the kill applied in "
          + "part: predicted " + e.getValue() + ", before " + before.restrictedTo(seen.keySet())
          + ", store holds " + seen);
      applied += none ? 0 : 1;
      seen.forEach(recorder.model::set);
    }
    recorder.inFlight.clear();
    return applied;
  }

  /** Every fact but those {@code undecided} (touched by a write in flight) holds in the store. */
  private static void assertModelHolds(OmMetadataStore om, Facts model, Set<String> undecided,
      String when) {
    List<String> wrong = new ArrayList<>();
    model.values.forEach((fact, expected) -> {
      String observed = undecided.contains(fact) ? null : observe(om, fact);
      if (!undecided.contains(fact) && !Facts.matches(expected, expected, observed)) {
        wrong.add(fact + ": expected " + expected + ", store holds " + observed);
      }
    });
    assertTrue(wrong.isEmpty(), when + ": " + wrong.size() + " of " + model.values.size()
        + " acknowledged facts do not hold:\n" + String.join("\n", wrong.subList(0,
        Math.min(40, wrong.size()))));
  }

  private static void assertCountersExact(OmMetadataStore om, String when) {
    OmInsight insight = om.insight();
    OmInsight.Counters maintained = insight.maintainedCounters();
    assertEquals(insight.scannedCounters(), maintained, when + ": maintained counters != scan");
    assertEquals(maintained.totals(), om.counters(), when + ": loaded counters != meta table");
    assertEquals(om.countFromScan(), om.counters(), when + ": countFromScan != counters");
  }

  /**
   * The persisted next object id is above every id acknowledged and every id stored, and the next
   * write gets exactly it. The probe volume joins the model.
   */
  private static void assertIdsNeverReused(OmMetadataStore om, Recorder recorder, int round) {
    byte[] raw = om.dbStore().getTable(OmDBDefinition.META_TABLE)
        .get(OmDBDefinition.META_NEXT_OBJECT_ID);
    long next = OmContext.decodeLong(raw);
    long stored = maxStoredId(om.dbStore());
    assertTrue(next > recorder.maxAckedId, "next object id " + next
        + " is not above the largest acknowledged id " + recorder.maxAckedId);
    assertTrue(next > stored, "next object id " + next + " is not above stored id " + stored);
    VolumeInfo probe = om.createVolume("probe-" + round, "alice");
    assertEquals(next, probe.getObjectId(), "the first write after reopening");
    recorder.model.set("vol/probe-" + round, Long.toString(probe.getObjectId()));
    recorder.maxAckedId = Math.max(recorder.maxAckedId, probe.getObjectId());
  }

  private static long maxStoredId(DBStore db) {
    ToLongFunction<KeyInfo> keyIds = k -> Math.max(k.getObjectId(),
        Math.max(k.getUpdateId(), k.getClientId()));
    long max = maxOver(db, OmDBDefinition.VOLUME_TABLE,
        v -> Math.max(v.getObjectId(), v.getUpdateId()));
    max = Math.max(max, maxOver(db, OmDBDefinition.BUCKET_TABLE,
        b -> Math.max(b.getObjectId(), b.getUpdateId())));
    max = Math.max(max, maxOver(db, OmDBDefinition.DIRECTORY_TABLE,
        d -> Math.max(d.getObjectId(), d.getUpdateId())));
    for (TableDefinition<String, KeyInfo> t : List.of(OmDBDefinition.KEY_TABLE,
        OmDBDefinition.FILE_TABLE, OmDBDefinition.OPEN_KEY_TABLE, OmDBDefinition.OPEN_FILE_TABLE,
        OmDBDefinition.DELETED_TABLE, OmDBDefinition.DELETED_DIRECTORY_TABLE)) {
      max = Math.max(max, maxOver(db, t, keyIds));
    }
    max = Math.max(max, maxOver(db, OmDBDefinition.MULTIPART_PARTS_TABLE,
        PartInfo::getObjectId));
    return Math.max(max, maxOver(db, OmDBDefinition.MULTIPART_INFO_TABLE,
        u -> Math.max(u.getObjectId(), u.getUpdateId())));
  }

  private static <V> long maxOver(DBStore db, TableDefinition<String, V> table,
      ToLongFunction<V> ids) {
    long max = 0;
    try (TableIterator<String, KeyValue<String, V>> it = db.getTable(table).iterator()) {
      while (it.hasNext()) {
        max = Math.max(max, ids.applyAsLong(it.next().getValue()));
      }
    }
    return max;
  }

  /**
   * What the store holds for one fact, read through the public API where there is one; {@code null}
   * if absent. Facts: {@code vol/V}, {@code bkt/V/B}, {@code key/V/B/K} (object id),
   * {@code fso/V/B/path} ({@code d:} or {@code f:} object id), {@code openkey/<openKeyTable key>},
   * {@code openfile/<openFileTable key>}, {@code mpu/V/B/K/uploadId}, {@code part/V/B/K/uploadId/n}.
   */
  static String observe(OmMetadataStore om, String fact) {
    String kind = fact.substring(0, fact.indexOf('/'));
    String rest = fact.substring(kind.length() + 1);
    String[] p = rest.split("/", kind.equals("fso") ? 3 : -1);
    DBStore db = om.dbStore();
    try {
      return switch (kind) {
        case "vol" -> Long.toString(om.getVolumeInfo(p[0]).getObjectId());
        case "bkt" -> Long.toString(om.getBucketInfo(p[0], p[1]).getObjectId());
        case "key" -> Long.toString(om.lookupKey(p[0], p[1], p[2]).getObjectId());
        case "fso" -> {
          FileStatus s = om.fso().getFileStatus(p[0], p[1], p[2]);
          yield (s.isDirectory() ? "d:" : "f:") + s.objectId();
        }
        case "openkey" -> idOf(db.getTable(OmDBDefinition.OPEN_KEY_TABLE).get(rest));
        case "openfile" -> idOf(db.getTable(OmDBDefinition.OPEN_FILE_TABLE).get(rest));
        case "mpu", "part" -> {
          MultipartUploadInfo u = db.getTable(OmDBDefinition.MULTIPART_INFO_TABLE)
              .get(OmKeys.multipartKey(p[0], p[1], p[2], p[3]));
          if (u == null || kind.equals("mpu")) {
            yield u == null ? null : Long.toString(u.getObjectId());
          }
          PartInfo part = db.getTable(OmDBDefinition.MULTIPART_PARTS_TABLE)
              .get(OmKeys.multipartPartKey(p[3], Integer.parseInt(p[4])));
          yield part == null ? null : Long.toString(part.getObjectId());
        }
        default -> throw new IllegalArgumentException("unknown fact " + fact);
      };
    } catch (OmException e) {
      if (e.code() == Code.NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  private static String idOf(KeyInfo row) {
    return row == null ? null : Long.toString(row.getObjectId());
  }

  // ---------------------------------------------------------------------------------------------
  // The model

  /**
   * Facts about the namespace, each a name and a value ({@link #ABSENT} for one that must not
   * exist). Effects change them: {@code SET fact value}, {@code DEL fact}, {@code DELTREE fact}
   * (the fact and every fact below it, {@code fact/...}) and {@code MOVETREE from to}. A predicted
   * value ending in {@link #NEW} stands for any value with that prefix other than the one before.
   */
  static final class Facts {
    static final String ABSENT = "-";
    static final String NEW = "?";

    final Map<String, String> values = new TreeMap<>();

    String get(String fact) {
      return values.getOrDefault(fact, ABSENT);
    }

    void set(String fact, String value) {
      values.put(fact, value);
    }

    Facts copy() {
      Facts c = new Facts();
      c.values.putAll(values);
      return c;
    }

    Map<String, String> restrictedTo(Set<String> facts) {
      Map<String, String> out = new TreeMap<>();
      facts.forEach(f -> out.put(f, get(f)));
      return out;
    }

    /** Live facts directly named {@code prefix + x}, as {@code x}, with their values. */
    Map<String, String> live(String prefix) {
      Map<String, String> out = new TreeMap<>();
      values.forEach((f, v) -> {
        if (f.startsWith(prefix) && !v.equals(ABSENT)) {
          out.put(f.substring(prefix.length()), v);
        }
      });
      return out;
    }

    private List<String> tree(String root) {
      return values.keySet().stream().filter(f -> f.equals(root) || f.startsWith(root + "/"))
          .toList();
    }

    void apply(String effect) {
      String[] e = effect.split(" ");
      switch (e[0]) {
        case "SET" -> set(e[1], e[2]);
        case "DEL" -> set(e[1], ABSENT);
        case "DELTREE" -> tree(e[1]).forEach(f -> set(f, ABSENT));
        case "MOVETREE" -> {
          Map<String, String> moved = new HashMap<>();
          for (String f : tree(e[1])) {
            moved.put(e[2] + f.substring(e[1].length()), get(f));
            set(f, ABSENT);
          }
          values.putAll(moved);
        }
        default -> throw new IllegalArgumentException("unknown effect " + effect);
      }
    }

    /** Every fact the effects may change, as far as this model knows the trees they name. */
    Set<String> touchedBy(List<String> effects) {
      Set<String> out = new LinkedHashSet<>();
      for (String effect : effects) {
        String[] e = effect.split(" ");
        switch (e[0]) {
          case "SET", "DEL" -> out.add(e[1]);
          case "DELTREE" -> {
            out.add(e[1]);
            out.addAll(tree(e[1]));
          }
          case "MOVETREE" -> {
            out.add(e[1]);
            out.add(e[2]);
            for (String f : tree(e[1])) {
              out.add(f);
              out.add(e[2] + f.substring(e[1].length()));
            }
          }
          default -> throw new IllegalArgumentException("unknown effect " + effect);
        }
      }
      return out;
    }

    /** Whether {@code observed} ({@code null}: absent) is {@code expected}, given the value before. */
    static boolean matches(String expected, String before, String observed) {
      if (expected.equals(ABSENT)) {
        return observed == null;
      }
      if (expected.endsWith(NEW)) {
        String prefix = expected.substring(0, expected.length() - NEW.length());
        return observed != null && observed.startsWith(prefix) && !observed.equals(before);
      }
      return expected.equals(observed);
    }
  }

  /**
   * The parent's reading of the writers' lines: the facts every acknowledged write established,
   * the predicted effects of each writer's write in flight, the largest acknowledged id.
   */
  static final class Recorder implements Consumer<String> {
    final Facts model = new Facts();
    final Map<Integer, List<String>> inFlight = new TreeMap<>();
    final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    volatile CountDownLatch ready = new CountDownLatch(1);
    long maxAckedId;
    int acks;

    @Override
    public synchronized void accept(String line) {
      String[] f = line.split("\t", -1);
      if (f.length < 2 || !f[f.length - 1].equals(".")) {
        return;
      }
      switch (f[0]) {
        case "READY" -> ready.countDown();
        case "ERROR" -> errors.add(line);
        case "BEGIN" -> inFlight.put(Integer.parseInt(f[1]), effects(f));
        case "ACK" -> {
          inFlight.remove(Integer.parseInt(f[1]));
          effects(f).forEach(model::apply);
          for (String id : f[3].isEmpty() ? new String[0] : f[3].split(",")) {
            maxAckedId = Math.max(maxAckedId, Long.parseLong(id));
          }
          acks++;
        }
        default -> {
        }
      }
    }

    private static List<String> effects(String[] fields) {
      return List.of(fields).subList(4, fields.length - 1);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The workload (child side, also run in-process by the clean-shutdown test)

  /** Child JVM: args {@code storeDir policy round writers seed}; writes until killed. */
  static final class Child {
    public static void main(String[] args) throws Exception {
      PrintStream out = new PrintStream(
          new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, UTF_8);
      Consumer<String> lines = line -> {
        synchronized (out) {
          out.print(line + "\n");
          out.flush();
        }
      };
      OmMetadataStore om = OmMetadataStore.open(Path.of(args[0]),
          OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.valueOf(args[1])));
      lines.accept("READY\t.");
      Workload.run(om, Integer.parseInt(args[2]), Integer.parseInt(args[3]),
          Long.parseLong(args[4]), Long.MAX_VALUE, lines);
      om.close();
    }
  }

  /** Writers, each in its own volume, and one purger, until every writer did {@code steps}. */
  static final class Workload {
    static void run(OmMetadataStore om, int round, int writers, long seed, long steps,
        Consumer<String> lines) throws InterruptedException {
      AtomicBoolean done = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        Writer writer = new Writer(om, w, "r" + round + "-w" + w, new Random(seed + w), lines);
        threads.add(new Thread(() -> writer.run(steps), "writer-" + w));
      }
      Thread purger = new Thread(() -> purge(om, done, lines), "purger");
      threads.forEach(Thread::start);
      purger.start();
      for (Thread t : threads) {
        t.join();
      }
      done.set(true);
      purger.join();
    }

    private static void purge(OmMetadataStore om, AtomicBoolean done, Consumer<String> lines) {
      try {
        while (!done.get()) {
          om.purges().purgeDeletedKeys(32);
          om.fso().purgeDeletedDirectories(32);
          Thread.sleep(5);
        }
      } catch (Throwable t) {
        lines.accept("ERROR\tpurger\t" + describe(t) + "\t.");
      }
    }
  }

  static String describe(Throwable t) {
    StringWriter s = new StringWriter();
    t.printStackTrace(new PrintWriter(s));
    return s.toString().replace('\t', ' ').replace('\n', '|');
  }

  /** One writer: random valid writes in its own volume, each reported before and after. */
  static final class Writer {
    private static final int KEY_POOL = 8;
    private static final int MAX_DEPTH = 6;

    private final OmMetadataStore om;
    private final int id;
    private final String vol;
    private final Random rnd;
    private final Consumer<String> lines;
    private final Facts facts = new Facts();
    private int names;
    private int buckets;
    private long volumeId;
    private long fsoBucketId;

    Writer(OmMetadataStore om, int id, String vol, Random rnd, Consumer<String> lines) {
      this.om = om;
      this.id = id;
      this.vol = vol;
      this.rnd = rnd;
      this.lines = lines;
    }

    void run(long steps) {
      try {
        setUp();
        for (long i = 0; i < steps; i++) {
          step();
        }
      } catch (Throwable t) {
        lines.accept("ERROR\t" + id + "\t" + describe(t) + "\t.");
      }
    }

    /** One write: reports its predicted effects, runs it, applies and reports its effects. */
    @SafeVarargs
    private <T> T write(String op, List<String> predicted, Supplier<T> body,
        Function<T, List<String>> effects, ToLongFunction<T>... ids) {
      lines.accept(line("BEGIN", op, "", predicted));
      T result = body.get();
      List<String> done = effects.apply(result);
      done.forEach(facts::apply);
      StringJoiner idList = new StringJoiner(",");
      for (ToLongFunction<T> f : ids) {
        idList.add(Long.toString(f.applyAsLong(result)));
      }
      lines.accept(line("ACK", op, idList.toString(), done));
      return result;
    }

    private String line(String type, String op, String ids, List<String> effects) {
      List<String> fields = new ArrayList<>(List.of(type, Integer.toString(id), op, ids));
      fields.addAll(effects);
      fields.add(".");
      return String.join("\t", fields);
    }

    private void setUp() {
      volumeId = write("createVolume", List.of(set("vol/" + vol, Facts.NEW)),
          () -> om.createVolume(vol, "alice"),
          v -> List.of(set("vol/" + vol, v.getObjectId())), VolumeInfo::getObjectId)
          .getObjectId();
      createBucket("obs", BucketLayout.OBJECT_STORE);
      fsoBucketId = createBucket("fso", BucketLayout.FILE_SYSTEM_OPTIMIZED).getObjectId();
    }

    private BucketInfo createBucket(String name, BucketLayout layout) {
      String fact = "bkt/" + vol + "/" + name;
      return write("createBucket", List.of(set(fact, Facts.NEW)),
          () -> om.createBucket(vol, name, layout, null, 0),
          b -> List.of(set(fact, b.getObjectId())), BucketInfo::getObjectId);
    }

    private void step() {
      int r = rnd.nextInt(100);
      if (r < 20) {
        putKey(randomKeyName());
      } else if (r < 28) {
        deleteKey();
      } else if (r < 36) {
        renameKey();
      } else if (r < 48) {
        makeDirectory();
      } else if (r < 62) {
        putFile();
      } else if (r < 70) {
        renameEntry();
      } else if (r < 75) {
        deleteDirectoryRecursively();
      } else if (r < 79) {
        deleteFile();
      } else if (r < 97) {
        multipartUpload();
      } else {
        createBucket("bkt" + buckets++, BucketLayout.OBJECT_STORE);
      }
    }

    // ---- OBS keys

    private String keyFact(String key) {
      return "key/" + vol + "/obs/" + key;
    }

    private String randomKeyName() {
      return "k" + rnd.nextInt(KEY_POOL);
    }

    private void putKey(String key) {
      OpenKeySession s = write("openKey", List.of(), () -> om.openKey(vol, "obs", key, null),
          o -> List.of(set(openKeyFact(key, o.clientId()), o.openKey().getObjectId())),
          o -> o.openKey().getObjectId(), OpenKeySession::clientId);
      long objectId = s.openKey().getObjectId();
      List<String> effects = List.of(set(keyFact(key), objectId),
          "DEL " + openKeyFact(key, s.clientId()));
      write("commitKey", effects,
          () -> om.commitKey(vol, "obs", key, s.clientId(), rnd.nextInt(1 << 20)),
          k -> List.of(set(keyFact(key), k.getObjectId()), "DEL " + openKeyFact(key, s.clientId())),
          KeyInfo::getObjectId, KeyInfo::getUpdateId);
    }

    private String openKeyFact(String key, long clientId) {
      return "openkey/" + OmKeys.openKey(vol, "obs", key, clientId);
    }

    private void deleteKey() {
      String key = pick(facts.live("key/" + vol + "/obs/").keySet());
      if (key == null) {
        putKey(randomKeyName());
        return;
      }
      write("deleteKey", List.of("DEL " + keyFact(key)), () -> {
        om.deleteKey(vol, "obs", key);
        return 0L;
      }, x -> List.of("DEL " + keyFact(key)));
    }

    private void renameKey() {
      Map<String, String> live = facts.live("key/" + vol + "/obs/");
      String from = pick(live.keySet());
      String to = randomKeyName();
      if (from == null || live.containsKey(to)) {
        putKey(to);
        return;
      }
      List<String> effects = List.of("DEL " + keyFact(from), set(keyFact(to), live.get(from)));
      write("renameKey", effects, () -> om.renameKey(vol, "obs", from, to),
          k -> List.of("DEL " + keyFact(from), set(keyFact(to), k.getObjectId())),
          KeyInfo::getObjectId, KeyInfo::getUpdateId);
    }

    // ---- FSO

    private String fsoFact(String path) {
      return "fso/" + vol + "/fso/" + path;
    }

    private List<String> directories() {
      return facts.live("fso/" + vol + "/fso/").entrySet().stream()
          .filter(e -> e.getValue().startsWith("d:")).map(Map.Entry::getKey).toList();
    }

    private List<String> files() {
      return facts.live("fso/" + vol + "/fso/").entrySet().stream()
          .filter(e -> e.getValue().startsWith("f:")).map(Map.Entry::getKey).toList();
    }

    /** A random existing directory (or the root, {@code ""}) shallow enough to create below. */
    private String randomParent() {
      List<String> dirs = new ArrayList<>(directories().stream()
          .filter(d -> d.split("/").length < MAX_DEPTH).toList());
      dirs.add("");
      return dirs.get(rnd.nextInt(dirs.size()));
    }

    private static String child(String parent, String name) {
      return parent.isEmpty() ? name : parent + "/" + name;
    }

    private void makeDirectory() {
      List<String> dirs = directories();
      boolean again = !dirs.isEmpty() && rnd.nextInt(10) == 0;
      String path = again ? dirs.get(rnd.nextInt(dirs.size()))
          : child(randomParent(), "d" + names++);
      String fact = fsoFact(path);
      String predicted = again ? facts.get(fact) : "d:" + Facts.NEW;
      write(again ? "createDirectory(existing)" : "createDirectory", List.of(set(fact, predicted)),
          () -> om.fso().createDirectory(vol, "fso", path),
          s -> List.of(set(fact, "d:" + s.objectId())), FileStatus::objectId);
    }

    private void putFile() {
      List<String> existing = files();
      String path = !existing.isEmpty() && rnd.nextInt(5) == 0
          ? existing.get(rnd.nextInt(existing.size())) : child(randomParent(), "f" + names++);
      String leaf = path.substring(path.lastIndexOf('/') + 1);
      OpenKeySession s = write("createFile", List.of(), () -> om.fso().createFile(vol, "fso", path, null),
          o -> List.of(set(openFileFact(o, leaf), o.openKey().getObjectId())),
          o -> o.openKey().getObjectId(), OpenKeySession::clientId);
      String fact = fsoFact(path);
      List<String> effects = List.of(set(fact, "f:" + s.openKey().getObjectId()),
          "DEL " + openFileFact(s, leaf));
      write("commitFile", effects,
          () -> om.fso().commitFile(vol, "fso", path, s.clientId(), rnd.nextInt(1 << 20)),
          k -> List.of(set(fact, "f:" + k.getObjectId()), "DEL " + openFileFact(s, leaf)),
          KeyInfo::getObjectId, KeyInfo::getUpdateId);
    }

    private String openFileFact(OpenKeySession s, String leaf) {
      return "openfile/" + OmKeys.openFileKey(volumeId, fsoBucketId, s.openKey().getParentId(),
          leaf, s.clientId());
    }

    private void deleteFile() {
      String path = pick(files());
      if (path == null) {
        putFile();
        return;
      }
      List<String> effects = List.of("DEL " + fsoFact(path));
      write("deleteFile", effects, () -> {
        om.fso().deleteFile(vol, "fso", path);
        return 0L;
      }, x -> effects);
    }

    private void renameEntry() {
      String from = pick(facts.live("fso/" + vol + "/fso/").keySet());
      if (from == null) {
        makeDirectory();
        return;
      }
      List<String> parents = new ArrayList<>(directories().stream()
          .filter(d -> !d.equals(from) && !d.startsWith(from + "/"))
          .filter(d -> d.split("/").length < MAX_DEPTH).toList());
      parents.add("");
      String to = child(parents.get(rnd.nextInt(parents.size())), "r" + names++);
      List<String> effects = List.of("MOVETREE " + fsoFact(from) + " " + fsoFact(to));
      write("rename", effects, () -> om.fso().rename(vol, "fso", from, to), s -> effects,
          FileStatus::objectId);
    }

    private void deleteDirectoryRecursively() {
      String path = pick(directories());
      if (path == null) {
        makeDirectory();
        return;
      }
      List<String> effects = List.of("DELTREE " + fsoFact(path));
      write("deleteDirectory(recursive)", effects, () -> {
        om.fso().deleteDirectory(vol, "fso", path, true);
        return 0L;
      }, x -> effects);
    }

    // ---- multipart uploads

    private void multipartUpload() {
      String key = randomKeyName();
      String upload = write("initiateMultipartUpload", List.of(),
          () -> om.multipart().initiate(vol, "obs", key, null),
          u -> List.of(set(uploadFact(key, u), Long.parseUnsignedLong(u, 16))),
          u -> Long.parseUnsignedLong(u, 16));
      int count = 1 + rnd.nextInt(3);
      Map<Integer, String> etags = new TreeMap<>();
      for (int n = 1; n <= count; n++) {
        commitPart(key, upload, n, count, etags);
      }
      if (count > 1 && rnd.nextInt(5) == 0) {
        commitPart(key, upload, 1, count, etags);
      }
      int outcome = rnd.nextInt(10);
      List<String> gone = new ArrayList<>(List.of("DEL " + uploadFact(key, upload)));
      etags.keySet().forEach(n -> gone.add("DEL " + partFact(key, upload, n)));
      if (outcome < 7) {
        List<String> effects = new ArrayList<>(gone);
        effects.add(set(keyFact(key), Long.parseUnsignedLong(upload, 16)));
        List<CompletedPart> parts = etags.entrySet().stream()
            .map(e -> new CompletedPart(e.getKey(), e.getValue())).toList();
        write("completeMultipartUpload", effects,
            () -> om.multipart().complete(vol, "obs", key, upload, parts),
            k -> {
              List<String> done = new ArrayList<>(gone);
              done.add(set(keyFact(key), k.getObjectId()));
              return done;
            }, KeyInfo::getObjectId, KeyInfo::getUpdateId);
      } else if (outcome < 9) {
        write("abortMultipartUpload", gone, () -> {
          om.multipart().abort(vol, "obs", key, upload);
          return 0L;
        }, x -> gone);
      }
    }

    private String uploadFact(String key, String upload) {
      return "mpu/" + vol + "/obs/" + key + "/" + upload;
    }

    private String partFact(String key, String upload, int n) {
      return "part/" + vol + "/obs/" + key + "/" + upload + "/" + n;
    }

    private void commitPart(String key, String upload, int n, int count,
        Map<Integer, String> etags) {
      String fact = partFact(key, upload, n);
      String etag = "etag-" + n + "-" + names++;
      long size = n < count ? 5 * MIB : rnd.nextInt(1 << 20);
      write("commitPart", List.of(set(fact, Facts.NEW)),
          () -> om.multipart().commitPart(vol, "obs", key, upload, n, size, etag),
          p -> List.of(set(fact, p.getObjectId())), PartInfo::getObjectId);
      etags.put(n, etag);
    }

    // ---- helpers

    private String pick(Collection<String> from) {
      if (from.isEmpty()) {
        return null;
      }
      List<String> list = List.copyOf(from);
      return list.get(rnd.nextInt(list.size()));
    }

    private static String set(String fact, Object value) {
      return "SET " + fact + " " + value;
    }
  }
}
