package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.StoreClosedException;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.purge.OmPurges;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-threaded stress of om-metadata: writers, purge steps, paging readers, snapshot
 * create/read/delete, bucket churn; checks exceptions, listing order and counters.
 */
class ConcurrencyStressTest {

  /** How long each case runs; the default suite keeps it short, {@code -Dstress.millis} soaks. */
  static final long RUN_MILLIS = Long.getLong("stress.millis", 1500);

  @TempDir
  Path dir;
  OmMetadataStore om;

  final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
  final AtomicBoolean stop = new AtomicBoolean();
  final AtomicLong ops = new AtomicLong();
  final java.util.concurrent.ConcurrentHashMap<String, Long> outcomes =
      new java.util.concurrent.ConcurrentHashMap<>();

  @AfterEach
  void close() {
    if (om != null) {
      om.close();
    }
  }

  interface Body {
    void run(ThreadLocalRandom r) throws Exception;
  }

  /** Runs the bodies, each in a loop on its own thread, until the deadline. */
  void runAll(long millis, List<Body> bodies) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    outcomes.clear();
    for (int bi = 0; bi < bodies.size(); bi++) {
      Body b = bodies.get(bi);
      String label = "body" + bi;
      Thread t = new Thread(() -> {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        while (!stop.get()) {
          try {
            b.run(r);
            ops.incrementAndGet();
            outcomes.merge(label + ":OK", 1L, Long::sum);
          } catch (OmException e) {
            outcomes.merge(label + ":" + e.code(), 1L, Long::sum);
            if (!allowed(e.code())) {
              failures.add(e);
            }
          } catch (Throwable e) {
            failures.add(e);
          }
        }
      });
      threads.add(t);
      t.start();
    }
    long opsBefore = ops.get();
    Thread.sleep(millis);
    stop.set(true);
    for (Thread t : threads) {
      t.join(60_000);
      assertTrue(!t.isAlive(), "a stress thread did not stop within 60 s");
    }
    report();
    assertTrue(ops.get() > opsBefore, "no call succeeded: nothing was stressed");
  }

  static boolean allowed(Code c) {
    return c == Code.NOT_FOUND || c == Code.ALREADY_EXISTS || c == Code.FAILED_PRECONDITION;
  }

  void report() {
    if (!failures.isEmpty()) {
      Throwable first = failures.peek();
      StringBuilder sb = new StringBuilder(failures.size() + " failures; distinct:\n");
      Set<String> seen = new HashSet<>();
      for (Throwable t : failures) {
        String s = t.toString();
        if (seen.add(s.length() > 200 ? s.substring(0, 200) : s) && seen.size() < 12) {
          sb.append("  ").append(s).append('\n');
        }
      }
      AssertionError e = new AssertionError(sb.toString(), first);
      throw e;
    }
  }

  void checkCounters() {
    OmInsight.Counters maintained = om.insight().maintainedCounters();
    OmInsight.Counters scanned = om.insight().scannedCounters();
    assertEquals(scanned.totals(), maintained.totals(), "store-wide counters");
    assertEquals(scanned.buckets(), maintained.buckets(), "per-bucket counters");
    assertEquals(om.countFromScan(), om.counters(), "in-memory counters vs scan");
  }

  static String etag(int n) {
    return String.format("%032x", n);
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void objectStoreWritersPurgesAndPagingReaders() throws Exception {
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withTokenMaxAge(Duration.ZERO));
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bk0", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "bk1", BucketLayout.LEGACY, null, 0);
    List<String> stable = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String k = String.format("m%02d/s", i);
      OmTestSupport.put(om, "vol", "bk0", k, i);
      stable.add(k);
    }
    List<Body> bodies = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      bodies.add(r -> {
        String b = r.nextBoolean() ? "bk0" : (r.nextInt(4) == 0 ? "bk2" : "bk1");
        String k = "k" + r.nextInt(60) + (r.nextBoolean() ? "/x" + r.nextInt(3) : "");
        switch (r.nextInt(9)) {
          case 0, 1, 2 -> OmTestSupport.put(om, "vol", b, k, r.nextInt(1000));
          case 3 -> om.openKey("vol", b, k, null);
          case 4 -> om.deleteKey("vol", b, k);
          case 5 -> om.renameKey("vol", b, k, "k" + r.nextInt(60));
          case 6 -> {
            String id = om.multipart().initiate("vol", b, k, null);
            int parts = 1 + r.nextInt(3);
            for (int p = 1; p <= parts; p++) {
              om.multipart().commitPart("vol", b, k, id, p, p < parts ? 5L << 20 : 10, etag(p));
              if (r.nextInt(3) == 0) {
                om.multipart().commitPart("vol", b, k, id, p, p < parts ? 5L << 20 : 10, etag(p));
              }
            }
            if (r.nextBoolean()) {
              List<CompletedPart> cp = new ArrayList<>();
              for (int p = 1; p <= parts; p++) {
                cp.add(new CompletedPart(p, etag(p)));
              }
              om.multipart().complete("vol", b, k, id, cp);
            } else if (r.nextBoolean()) {
              om.multipart().abort("vol", b, k, id);
            }
          }
          case 7 -> {
            OpenKeySession s = om.openKey("vol", b, k, null);
            om.commitKey("vol", b, k, s.clientId(), 7);
          }
          default -> om.lifecycle().step("scan1", "vol", b, "", ki -> ki.getDataSize() > 500,
              1 + r.nextInt(10));
        }
      });
    }
    // Bucket churn: b2 created, filled, emptied, deleted.
    bodies.add(r -> {
      switch (r.nextInt(6)) {
        case 0 -> om.createBucket("vol", "bk2", BucketLayout.OBJECT_STORE, null, 0);
        case 1 -> {
          // Empty it: delete keys, abort uploads.
          ListPage<KeyInfo> page = om.listKeys("vol", "bk2", "", null, 100, null);
          for (KeyInfo k : page.items()) {
            try {
              om.deleteKey("vol", "bk2", k.getKeyName());
            } catch (OmException e) {
              if (!allowed(e.code())) {
                throw e;
              }
            }
          }
          MultipartUploadListing ups = om.multipart().list("vol", "bk2", "", null, null, 100);
          for (MultipartUploadInfo u : ups.uploads()) {
            try {
              om.multipart().abort("vol", "bk2", u.getKeyName(), u.getUploadId());
            } catch (OmException e) {
              if (!allowed(e.code())) {
                throw e;
              }
            }
          }
          om.deleteBucket("vol", "bk2");
        }
        default -> Thread.sleep(1);
      }
    });
    // Purger.
    bodies.add(r -> {
      OmPurges p = om.purges();
      switch (r.nextInt(5)) {
        case 0, 1 -> p.purgeDeletedKeys(1 + r.nextInt(40));
        case 2 -> p.expireOpenKeys(Duration.ZERO, 1 + r.nextInt(20));
        case 3 -> p.abortExpiredUploads(Duration.ofMillis(r.nextInt(20)), 1 + r.nextInt(20));
        default -> {
          if (r.nextInt(20) == 0) {
            om.recount();
          }
        }
      }
    });
    // Paging readers.
    for (int i = 0; i < 2; i++) {
      bodies.add(r -> {
        String b = r.nextBoolean() ? "bk0" : "bk1";
        int size = 1 + r.nextInt(7);
        if (r.nextBoolean()) {
          List<String> all = new ArrayList<>();
          String token = null;
          do {
            ListPage<KeyInfo> page = om.listKeys("vol", b, "", null, size, token);
            List<String> names = OmTestSupport.names(page);
            all.addAll(names);
            token = page.nextToken();
            if (page.truncated() != (token != null)) {
              fail("truncated without token");
            }
          } while (token != null);
          checkIncreasing(all, b + " listKeys");
          if (b.equals("bk0")) {
            Set<String> got = new HashSet<>(all);
            for (String s : stable) {
              if (!got.contains(s)) {
                fail("stable key " + s + " missing from a paged listing: " + all);
              }
            }
          }
        } else {
          List<String> all = new ArrayList<>();
          String token = null;
          do {
            ListObjectsV2Result page = om.listObjectsV2(ListObjectsV2Request.of("vol", b)
                .withDelimiter("/").withMaxKeys(size).withContinuationToken(token));
            all.addAll(OmTestSupport.items(page));
            token = page.nextContinuationToken();
          } while (token != null);
          List<String> bare = new ArrayList<>();
          for (String s : all) {
            bare.add(s.substring(2));
          }
          checkIncreasing(bare, b + " listObjectsV2 " + all);
          if (b.equals("bk0")) {
            Set<String> got = new HashSet<>(all);
            for (String s : stable) {
              String cp = "P:" + s.substring(0, s.indexOf('/') + 1);
              if (!got.contains(cp)) {
                fail("stable prefix " + cp + " missing: " + all);
              }
            }
          }
        }
        om.openFiles().list("vol", b, 1 + r.nextInt(20), null);
        om.bucketCounters("vol", b);
      });
    }
    runAll(RUN_MILLIS, bodies);
    System.out.println("objectStore ops: " + ops.get() + " counters " + om.counters());
    checkCounters();
    // Drain and check again.
    while (om.purges().purgeDeletedKeys(1000).purged() > 0) {
      // drain
    }
    om.purges().expireOpenKeys(Duration.ZERO, 1000);
    om.purges().abortExpiredUploads(Duration.ZERO, 1000);
    while (om.purges().purgeDeletedKeys(1000).purged() > 0) {
      // drain
    }
    checkCounters();
    assertEquals(0L, om.counters().get(OmCounter.DELETED_KEYS));
  }

  static void checkIncreasing(List<String> names, String what) {
    for (int i = 1; i < names.size(); i++) {
      if (OmTestSupport.UTF8_ORDER.compare(names.get(i - 1), names.get(i)) >= 0) {
        fail(what + ": not strictly increasing at " + i + ": " + names);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void fsoWritersRenamesDirectoryPurgeAndRecursiveListings() throws Exception {
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withTokenMaxAge(Duration.ZERO));
    om.createVolume("vol", "alice");
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    List<String> stable = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 3; j++) {
        String p = "s/d" + i + "/f" + j;
        OpenKeySession s = om.fso().createFile("vol", "fso", p, null);
        om.fso().commitFile("vol", "fso", p, s.clientId(), j);
        stable.add(p);
      }
      stable.add("s/d" + i);
    }
    stable.add("s");
    List<Body> bodies = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      bodies.add(r -> {
        String a = "w/a" + r.nextInt(4);
        String bb = a + "/b" + r.nextInt(3);
        String file = (r.nextBoolean() ? a : bb) + "/f" + r.nextInt(4);
        switch (r.nextInt(10)) {
          case 0, 1, 2 -> {
            OpenKeySession s = om.fso().createFile("vol", "fso", file, null);
            om.fso().commitFile("vol", "fso", file, s.clientId(), r.nextInt(100));
          }
          case 3 -> om.fso().createFile("vol", "fso", file, null);
          case 4 -> om.fso().createDirectory("vol", "fso", bb + "/c" + r.nextInt(3));
          case 5 -> om.fso().deleteDirectory("vol", "fso", r.nextBoolean() ? a : bb, true);
          case 6 -> om.fso().deleteFile("vol", "fso", file);
          case 7 -> om.fso().rename("vol", "fso", r.nextBoolean() ? a : bb, "w/a" + r.nextInt(4));
          case 8 -> om.fso().rename("vol", "fso", bb, "w/a" + r.nextInt(4) + "/b" + r.nextInt(3));
          default -> {
            OpenKeySession s = om.fso().createFile("vol", "fso", file, null);
            Thread.yield();
            om.fso().commitFile("vol", "fso", file, s.clientId(), 1);
          }
        }
      });
    }
    bodies.add(r -> {
      switch (r.nextInt(4)) {
        case 0, 1 -> om.fso().purgeDeletedDirectories(1 + r.nextInt(8));
        case 2 -> om.purges().purgeDeletedKeys(1 + r.nextInt(30));
        default -> om.purges().expireOpenFiles(Duration.ofMillis(5), 1 + r.nextInt(10));
      }
    });
    for (int i = 0; i < 2; i++) {
      bodies.add(r -> {
        boolean recursive = r.nextInt(3) != 0;
        int size = 1 + r.nextInt(9);
        List<String> all = new ArrayList<>();
        String token = null;
        do {
          ListPage<FileStatus> page = om.fso().listStatus("vol", "fso", "", recursive, null, size, token);
          for (FileStatus s : page.items()) {
            all.add(s.path());
          }
          token = page.nextToken();
        } while (token != null);
        for (int k = 1; k < all.size(); k++) {
          if (FsoPath.LISTING_ORDER.compare(all.get(k - 1), all.get(k)) >= 0) {
            fail("listStatus not strictly increasing at " + k + ": " + all);
          }
        }
        if (recursive) {
          Set<String> got = new HashSet<>(all);
          for (String s : stable) {
            if (!got.contains(s)) {
              fail("stable path " + s + " missing: " + all);
            }
          }
        }
      });
    }
    runAll(RUN_MILLIS, bodies);
    System.out.println("fso ops: " + ops.get() + " counters " + om.counters());
    checkCounters();
    while (om.fso().purgeDeletedDirectories(1000) > 0) {
      // drain
    }
    om.purges().expireOpenFiles(Duration.ZERO, 1000);
    while (om.purges().purgeDeletedKeys(1000).purged() > 0) {
      // drain
    }
    checkCounters();
    assertEquals(0L, om.counters().get(OmCounter.DELETED_DIRECTORIES));
    // Every remaining row is reachable: delete everything through the API, then the bucket.
    for (FileStatus s : om.fso().listStatus("vol", "fso", "", false, null, 1000, null).items()) {
      if (s.isDirectory()) {
        om.fso().deleteDirectory("vol", "fso", s.path(), true);
      } else {
        om.fso().deleteFile("vol", "fso", s.path());
      }
    }
    while (om.fso().purgeDeletedDirectories(1000) > 0) {
      // drain
    }
    checkCounters();
    om.deleteBucket("vol", "fso");
    checkCounters();
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void snapshotsCreatedReadAndDeletedConcurrently() throws Exception {
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withTokenMaxAge(Duration.ZERO));
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 20; i++) {
      OmTestSupport.put(om, "vol", "bkt", "k" + i, i);
    }
    List<Body> bodies = new ArrayList<>();
    bodies.add(r -> om.snapshots().create("vol", "bkt", "snap" + r.nextInt(6)));
    bodies.add(r -> om.snapshots().delete("vol", "bkt", "snap" + r.nextInt(6)));
    bodies.add(r -> {
      OmTestSupport.put(om, "vol", "bkt", "k" + r.nextInt(20), r.nextInt(100));
      if (r.nextInt(10) == 0) {
        om.purges().purgeDeletedKeys(10);
      }
    });
    for (int i = 0; i < 2; i++) {
      bodies.add(r -> {
        String name = "snap" + r.nextInt(6);
        if (r.nextBoolean()) {
          KeyInfo k = om.snapshots().lookupKey("vol", "bkt", name, "k" + r.nextInt(20));
          assertTrue(k.getKeyName().startsWith("k"));
        } else {
          ListPage<KeyInfo> page = om.snapshots().listKeys("vol", "bkt", name, "", null, 25);
          if (page.items().size() != 20) {
            fail("snapshot " + name + " lists " + page.items().size() + " keys");
          }
        }
      });
    }
    bodies.add(r -> {
      ListPage<SnapshotInfo> page = om.snapshots().list("vol", "bkt", "", null, 3, null, r.nextBoolean());
      om.snapshots().info("vol", "bkt", "snap" + r.nextInt(6));
      if (r.nextInt(50) == 0) {
        om.deleteBucket("vol", "bkt");
      }
    });
    runAll(RUN_MILLIS, bodies);
    System.out.println("snapshot ops: " + ops.get() + " counters " + om.counters());
    checkCounters();
    Set<String> active = new HashSet<>();
    for (SnapshotInfo s : om.snapshots().list("vol", "bkt", "", null, 100, null, true).items()) {
      if (s.getStatus() == SnapshotStatus.SNAPSHOT_ACTIVE) {
        active.add(s.getSnapshotId());
      }
    }
    Set<String> dirs = new HashSet<>();
    try (Stream<Path> l = Files.list(om.areas().snapshotStores.root())) {
      l.forEach(p -> dirs.add(p.getFileName().toString()));
    }
    assertEquals(active, dirs, "checkpoint directories are exactly the ACTIVE snapshots");
    assertTrue(om.areas().snapshotStores.openCount() <= active.size(), "no store of a deleted snapshot");
  }

  // ---------------------------------------------------------------------------------------------

  @Test
  void servicesOnTinyIntervalsWithDurableWritesAndStartStopChurn() throws Exception {
    om = OmMetadataStore.open(dir, OmStoreOptions.defaults().withTokenMaxAge(Duration.ZERO));
    om.createVolume("vol", "alice");
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    io.sediment.om.service.OmServices services = io.sediment.om.service.OmServices.create(om,
        new io.sediment.om.service.OmServices.Config(Duration.ofMillis(1), 7, Duration.ofMillis(1),
            Duration.ofMillis(3), 5, Duration.ofMillis(1), Duration.ofMillis(3), 4,
            Duration.ofMillis(1), 3));
    services.start();
    try {
      List<Body> bodies = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        bodies.add(r -> {
          String k = "k" + r.nextInt(40);
          switch (r.nextInt(8)) {
            case 0, 1 -> OmTestSupport.put(om, "vol", "obs", k, r.nextInt(100));
            case 2 -> om.deleteKey("vol", "obs", k);
            case 3 -> {
              String id = om.multipart().initiate("vol", "obs", k, null);
              om.multipart().commitPart("vol", "obs", k, id, 1, 10, etag(1));
              om.multipart().complete("vol", "obs", k, id, List.of(new CompletedPart(1, etag(1))));
            }
            case 4 -> {
              String p = "d" + r.nextInt(3) + "/e" + r.nextInt(3) + "/f" + r.nextInt(3);
              OpenKeySession s = om.fso().createFile("vol", "fso", p, null);
              om.fso().commitFile("vol", "fso", p, s.clientId(), r.nextInt(50));
            }
            case 5 -> om.fso().deleteDirectory("vol", "fso", "d" + r.nextInt(3), true);
            case 6 -> om.fso().rename("vol", "fso", "d" + r.nextInt(3) + "/e" + r.nextInt(3), "d" + r.nextInt(3) + "/e" + r.nextInt(3));
            default -> om.openKey("vol", "obs", k, null);
          }
        });
      }
      bodies.add(r -> {
        io.sediment.om.service.BackgroundService s =
            services.services().get(r.nextInt(services.services().size()));
        if (r.nextBoolean()) {
          s.stop();
        } else {
          s.start();
        }
        if (r.nextInt(4) == 0) {
          s.runOnce();
        }
        Thread.sleep(2);
      });
      runAll(RUN_MILLIS, bodies);
    } finally {
      services.close();
    }
    System.out.println("services ops " + ops.get() + " " + services.metrics());
    for (var m : services.metrics().values()) {
      assertEquals(0, m.failures(), m.toString());
    }
    checkCounters();
  }

  @Test
  void closingTheStoreUnderLoadThrowsOnlyClosedErrors() throws Exception {
    for (int round = 0; round < 8; round++) {
      Path d = dir.resolve("r" + round);
      OmMetadataStore store = OmMetadataStore.open(d, OmStoreOptions.defaults()
          .withSyncPolicy(round % 2 == 0 ? SyncPolicy.DURABLE : SyncPolicy.PROCESS_CRASH_SAFE)
          .withTokenMaxAge(Duration.ZERO));
      store.createVolume("vol", "alice");
      store.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      store.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      for (int i = 0; i < 30; i++) {
        OmTestSupport.put(store, "vol", "obs", "k" + i, i);
      }
      store.snapshots().create("vol", "obs", "snap0");
      AtomicBoolean halt = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>();
      List<Body> bodies = List.of(
          r -> OmTestSupport.put(store, "vol", "obs", "k" + r.nextInt(30), 1),
          r -> store.listKeys("vol", "obs", "", null, 7, null),
          r -> store.snapshots().listKeys("vol", "obs", "snap0", "", null, 9),
          r -> {
            if (r.nextBoolean()) {
              store.snapshots().create("vol", "obs", "sn" + r.nextInt(3) + "x");
            } else {
              store.snapshots().delete("vol", "obs", "sn" + r.nextInt(3) + "x");
            }
          },
          r -> {
            store.purges().purgeDeletedKeys(5);
            store.fso().purgeDeletedDirectories(5);
          },
          r -> {
            String p = "a" + r.nextInt(3) + "/f" + r.nextInt(3);
            OpenKeySession s = store.fso().createFile("vol", "fso", p, null);
            store.fso().commitFile("vol", "fso", p, s.clientId(), 1);
            store.fso().listStatus("vol", "fso", "", true, null, 3, null);
            store.insight().summary("/");
          });
      for (Body b : bodies) {
        Thread t = new Thread(() -> {
          ThreadLocalRandom r = ThreadLocalRandom.current();
          while (!halt.get()) {
            try {
              b.run(r);
            } catch (OmException e) {
              if (!allowed(e.code()) && e.code() != Code.UNAVAILABLE) {
                failures.add(e);
              }
            } catch (StoreClosedException e) {
              // closed
            } catch (Throwable e) {
              failures.add(e);
            }
          }
        });
        threads.add(t);
        t.start();
      }
      Thread.sleep(100 + ThreadLocalRandom.current().nextInt(400));
      try {
        store.close();
      } catch (Throwable e) {
        failures.add(e);
      }
      Thread.sleep(50);
      halt.set(true);
      for (Thread t : threads) {
        t.join(60_000);
      }
    }
    report();
  }
}
