package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link OmInsight}: listings page to the end with no gap or duplicate (in the order of a
 * TreeMap model), a deleted {@code prevKey} resumes at the next live row, maintained counters
 * (store-wide and per bucket) equal a full scan after random workloads and after
 * {@link OmMetadataStore#recount()}, and namespace summary/usage figures.
 */
class OmInsightTest {

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(
      OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));

  /** The test's store; closing it early is harmless, the extension closes it again. */
  private OmMetadataStore open() {
    return omStore.store();
  }

  /** Pages through a listing with {@code prevKey}; asserts order, no duplicates, exact hasMore. */
  private static List<String> pageAll(Function<String, OmInsight.Page> next) {
    List<String> out = new ArrayList<>();
    String prev = "";
    for (int guard = 0; guard < 10_000; guard++) {
      OmInsight.Page p = next.apply(prev);
      for (OmInsight.Row r : p.rows()) {
        out.add(r.key());
      }
      if (!p.hasMore()) {
        assertTrue(next.apply(p.lastKey().isEmpty() ? prev : p.lastKey()).rows().isEmpty()
            || p.lastKey().isEmpty(), "hasMore=false but another page follows");
        return out;
      }
      assertFalse(p.rows().isEmpty(), "hasMore with an empty page");
      prev = p.lastKey();
    }
    throw new AssertionError("no end");
  }

  @Test
  void countersMaintainedByRandomWorkloadsEqualAFullScanPerBucket() {
    try (OmMetadataStore om = open()) {
      Random rnd = new Random(42);
      List<String[]> buckets = new ArrayList<>();
      for (String v : List.of("vol-a", "vol-b")) {
        om.createVolume(v, "alice");
        for (String b : List.of("bk1", "bk2", "bk3")) {
          om.createBucket(v, b, BucketLayout.OBJECT_STORE, null, 0);
          buckets.add(new String[] {v, b});
        }
      }
      Map<String, OpenKeySession> open = new TreeMap<>();
      for (int i = 0; i < 600; i++) {
        String[] vb = buckets.get(rnd.nextInt(buckets.size()));
        String key = "k" + rnd.nextInt(40);
        String id = vb[0] + "/" + vb[1] + "/" + key;
        try {
          switch (rnd.nextInt(10)) {
            case 0, 1, 2 -> open.put(id + "#" + i, om.openKey(vb[0], vb[1], key, null));
            case 3, 4, 5 -> {
              String pick = open.keySet().stream().filter(s -> s.startsWith(vb[0] + "/" + vb[1] + "/"))
                  .findFirst().orElse(null);
              if (pick != null) {
                OpenKeySession s = open.remove(pick);
                String k = pick.substring(pick.indexOf('/', pick.indexOf('/') + 1) + 1, pick.indexOf('#'));
                om.commitKey(vb[0], vb[1], k, s.clientId(), rnd.nextInt(5000));
              }
            }
            case 6, 7 -> om.deleteKey(vb[0], vb[1], key);
            case 8 -> {
              om.deleteBucket(vb[0], vb[1]);
              open.keySet().removeIf(s -> s.startsWith(vb[0] + "/" + vb[1] + "/"));
              om.createBucket(vb[0], vb[1], BucketLayout.LEGACY, null, 0);
            }
            default -> {
              for (String k : om.listKeys(vb[0], vb[1], null, null, 1000, null).items().stream()
                  .map(KeyInfo::getKeyName).toList()) {
                om.deleteKey(vb[0], vb[1], k);
              }
            }
          }
        } catch (OmException e) {
          assertTrue(e.code() == OmException.Code.NOT_FOUND
              || e.code() == OmException.Code.FAILED_PRECONDITION, e::getMessage);
        }
      }
      OmInsight insight = om.insight();
      OmInsight.Counters maintained = insight.maintainedCounters();
      assertEquals(insight.scannedCounters(), maintained);
      assertEquals(maintained.totals(), om.counters());
      assertTrue(maintained.totals().get(OmCounter.DELETED_KEYS) > 0);
      for (String[] vb : buckets) {
        Map<OmCounter, Long> facade = om.bucketCounters(vb[0], vb[1]);
        maintained.buckets().get("/" + vb[0] + "/" + vb[1]).forEach((c, v) ->
            assertEquals(v, facade.get(c), c + " of " + vb[0] + "/" + vb[1]));
      }
    }
  }

  @Test
  void recountRebuildsPerBucketCountersIncludingFsoRowsAttributedByBucketId() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      BucketInfo fso = om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      OpenKeySession s = om.openKey("vol", "obs", "a", null);
      om.commitKey("vol", "obs", "a", s.clientId(), 10);
      FsoRows rows = new FsoRows(om, fso, 1L << 40);
      long d1 = rows.dir(rows.root(), "d1");
      rows.file(d1, "f1", 100);
      rows.file(rows.root(), "f0", 7);
      rows.openFile(d1, "f2", "d1/f2");
      rows.deletedDir(rows.root(), "gone", "gone");
      // Direct writes bypass the counters; a stale per-bucket row must go away too.
      om.dbStore().getTable(OmDBDefinition.META_TABLE).put(
          OmCounter.KEYS.bucketMetaKey(999_999), OmContext.encodeLong(5));
      assertTrue(!om.insight().maintainedCounters().equals(om.insight().scannedCounters()));

      Map<OmCounter, Long> totals = om.recount();
      OmInsight.Counters after = om.insight().maintainedCounters();
      assertEquals(om.insight().scannedCounters(), after);
      assertEquals(totals, after.totals());
      Map<OmCounter, Long> f = om.bucketCounters("vol", "fso");
      assertEquals(2L, f.get(OmCounter.FILES));
      assertEquals(107L, f.get(OmCounter.FILE_BYTES));
      assertEquals(1L, f.get(OmCounter.DIRECTORIES));
      assertEquals(1L, f.get(OmCounter.OPEN_FILES));
      assertEquals(1L, f.get(OmCounter.DELETED_DIRECTORIES));
      assertEquals(1L, om.bucketCounters("vol", "obs").get(OmCounter.KEYS));
      assertEquals(0L, om.context().bucketCountersOf(999_999).get(OmCounter.KEYS));
    }
  }

  @Test
  void pendingDeletesOfABucketDeletedAndRecreatedUnderItsNameStayWithTheOldBucket() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      OpenKeySession s = om.openKey("vol", "bkt", "k", null);
      om.commitKey("vol", "bkt", "k", s.clientId(), 5);
      om.deleteKey("vol", "bkt", "k");
      om.deleteBucket("vol", "bkt");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      OmInsight.Counters scanned = om.insight().scannedCounters();
      assertEquals(0L, scanned.buckets().get("/vol/bkt").get(OmCounter.DELETED_KEYS));
      assertEquals(1L, scanned.totals().get(OmCounter.DELETED_KEYS));
      assertEquals(scanned, om.insight().maintainedCounters());
    }
  }

  @Test
  void openKeysPageAcrossBothTablesToTheEndAndADeletedPrevKeyResumesAtTheNextLiveKey() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      BucketInfo fso = om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      List<String> expected = new ArrayList<>();
      TreeMap<String, Long> obs = new TreeMap<>(OmTestSupport.UTF8_ORDER);
      for (int i = 0; i < 23; i++) {
        String key = "key-" + (i * 7 % 23);
        obs.put(OmKeys.openKey("vol", "obs", key, om.openKey("vol", "obs", key, null).clientId()), 0L);
      }
      expected.addAll(obs.keySet());
      FsoRows rows = new FsoRows(om, fso, 1L << 40);
      long d = rows.dir(rows.root(), "dir");
      TreeMap<String, Long> files = new TreeMap<>(OmTestSupport.UTF8_ORDER);
      for (int i = 0; i < 11; i++) {
        files.put(rows.openFile(i % 2 == 0 ? d : rows.root(), "f" + i, "x"), 0L);
      }
      expected.addAll(files.keySet());
      OmInsight insight = om.insight();
      for (int limit : new int[] {1, 4, 23, 1000}) {
        assertEquals(expected, pageAll(prev -> insight.openKeys("", prev, null, limit, true, true)),
            "limit " + limit);
      }
      assertEquals(new ArrayList<>(files.keySet()),
          pageAll(prev -> insight.openKeys("", prev, null, 3, true, false)));
      assertEquals(new ArrayList<>(obs.keySet()),
          pageAll(prev -> insight.openKeys("/vol/obs", prev, null, 5, false, true)));
      // startPrefix inside the FSO bucket: the subtree of dir only.
      assertEquals(files.keySet().stream().filter(k -> k.contains("/" + OmKeys.id(d) + "/")).toList(),
          pageAll(prev -> insight.openKeys("/vol/fso/dir/", prev, null, 2, true, true)));
      OmInsight.Row fsoRow = insight.openKeys("/vol/fso/", "", null, 1, true, false).rows().get(0);
      assertEquals("/vol/fso/x", fsoRow.path());
      assertTrue(fsoRow.fso());

      // Deleted prevKey: the page after it starts at its live successor (Recon would skip one).
      OmInsight.Page first = insight.openKeys("", "", null, 5, true, true);
      String cursor = first.lastKey();
      String successor = expected.get(5);
      String deletedSuccessorPredecessor = cursor;
      om.dbStore().getTable(OmDBDefinition.OPEN_KEY_TABLE).delete(deletedSuccessorPredecessor);
      OmInsight.Page next = insight.openKeys("", cursor, null, 5, true, true);
      assertEquals(successor, next.rows().get(0).key());
      // Same across the table boundary: the last OBS open key deleted, FSO keys follow.
      String lastObs = obs.lastKey();
      om.dbStore().getTable(OmDBDefinition.OPEN_KEY_TABLE).delete(lastObs);
      assertEquals(files.firstKey(), insight.openKeys("", lastObs, null, 1, true, true)
          .rows().get(0).key());
      assertEquals(files.firstKey(), insight.openKeys("", lastObs, "openKeyTable", 1, true, true)
          .rows().get(0).key());
      String firstFso = files.firstKey();
      om.dbStore().getTable(OmDBDefinition.OPEN_FILE_TABLE).delete(firstFso);
      assertEquals(files.higherKey(firstFso),
          insight.openKeys("", firstFso, null, 1, true, true).rows().get(0).key());
    }
  }

  @Test
  void deletedKeysAndDirectoriesPageWithStartPrefix() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol", "bkt2", BucketLayout.OBJECT_STORE, null, 0);
      Set<String> inB = new HashSet<>();
      for (int i = 0; i < 30; i++) {
        String bucket = i % 3 == 0 ? "bkt2" : "bkt";
        OpenKeySession s = om.openKey("vol", bucket, "k" + i, null);
        KeyInfo k = om.commitKey("vol", bucket, "k" + i, s.clientId(), i);
        om.deleteKey("vol", bucket, "k" + i);
        if (bucket.equals("bkt")) {
          inB.add(OmKeys.deletedKey("vol", "bkt", "k" + i, k.getObjectId()));
        }
      }
      OmInsight insight = om.insight();
      assertEquals(30, pageAll(prev -> insight.deletedKeys("", prev, 7)).size());
      List<String> b = pageAll(prev -> insight.deletedKeys("/vol/bkt", prev, 4));
      assertEquals(inB, new HashSet<>(b));
      assertEquals(inB.size(), b.size());
      OmInsight.Page p = insight.deletedKeys("/vol/bkt/k1", "", 100);
      assertTrue(p.rows().stream().allMatch(r -> r.path().startsWith("/vol/bkt/k1")));
      assertEquals(p.rows().stream().mapToLong(r -> r.info().getDataSize()).sum(), p.dataSize());

      BucketInfo fso = om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      FsoRows rows = new FsoRows(om, fso, 1L << 40);
      List<String> dirs = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        dirs.add(rows.deletedDir(rows.root(), "d" + i, "d" + i));
      }
      dirs.sort(OmTestSupport.UTF8_ORDER);
      assertEquals(dirs, pageAll(prev -> insight.deletedDirectories("", prev, 2)));
      assertEquals(dirs, pageAll(prev -> insight.deletedDirectories("/vol/fso", prev, 4)));
      assertEquals(List.of(dirs.get(3)), pageAll(prev -> insight.deletedDirectories("/vol/fso/d3", prev, 4)));
      assertEquals("/vol/fso/d3", insight.deletedDirectories("/vol/fso/d3", "", 4).rows().get(0).path());
    }
  }

  @Test
  void listKeysCoversObsAndFsoSubtreesWithFullPaths() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      TreeMap<String, Long> model = new TreeMap<>(OmTestSupport.UTF8_ORDER);
      for (int i = 0; i < 25; i++) {
        String key = (i % 2 == 0 ? "a/" : "b/") + i;
        OpenKeySession s = om.openKey("vol", "obs", key, null);
        om.commitKey("vol", "obs", key, s.clientId(), i);
        model.put("/vol/obs/" + key, (long) i);
      }
      OmInsight insight = om.insight();
      assertEquals(new ArrayList<>(model.keySet()), pageAll(prev -> insight.listKeys("/vol/obs", prev, 6, 0, 0)));
      assertEquals(model.keySet().stream().filter(k -> k.startsWith("/vol/obs/a/")).toList(),
          pageAll(prev -> insight.listKeys("/vol/obs/a/", prev, 6, 0, 0)));
      assertEquals(model.values().stream().filter(v -> v >= 20).count(),
          pageAll(prev -> insight.listKeys("/vol/obs/", prev, 3, 20, 0)).size());

      BucketInfo fso = om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      FsoRows rows = new FsoRows(om, fso, 1L << 40);
      long a = rows.dir(rows.root(), "a");
      long ab = rows.dir(a, "b");
      long c = rows.dir(rows.root(), "c");
      Set<String> all = new HashSet<>();
      Set<String> underA = new HashSet<>();
      for (int i = 0; i < 5; i++) {
        all.add("/vol/fso/f" + i);
        rows.file(rows.root(), "f" + i, i);
        all.add("/vol/fso/a/x" + i);
        underA.add("/vol/fso/a/x" + i);
        rows.file(a, "x" + i, i);
        all.add("/vol/fso/a/b/y" + i);
        underA.add("/vol/fso/a/b/y" + i);
        rows.file(ab, "y" + i, i);
        all.add("/vol/fso/c/z" + i);
        rows.file(c, "z" + i, i);
      }
      List<String> paths = new ArrayList<>();
      List<String> keys = pageAll(prev -> {
        OmInsight.Page p = insight.listKeys("/vol/fso", prev, 4, 0, 0);
        p.rows().forEach(r -> paths.add(r.path()));
        return p;
      });
      assertEquals(all, new HashSet<>(paths));
      assertEquals(all.size(), paths.size());
      List<String> sorted = new ArrayList<>(keys);
      sorted.sort(OmTestSupport.UTF8_ORDER);
      assertEquals(sorted, keys, "DB-key order");
      List<String> aPaths = new ArrayList<>();
      pageAll(prev -> {
        OmInsight.Page p = insight.listKeys("/vol/fso/a/", prev, 3, 0, 0);
        p.rows().forEach(r -> aPaths.add(r.path()));
        return p;
      });
      assertEquals(underA, new HashSet<>(aPaths));
      assertEquals(10, aPaths.size());
      assertTrue(insight.listKeys("/vol/fso/nope/", "", 3, 0, 0).rows().isEmpty(),
          "a prefix inside a bucket that names nothing: an empty page");
    }
  }

  @Test
  void aListingOfAMissingVolumeOrBucketIsNotFoundNamingIt() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol", "gone", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      OpenKeySession s = om.openKey("vol", "gone", "k", null);
      om.commitKey("vol", "gone", "k", s.clientId(), 5);
      om.deleteKey("vol", "gone", "k");
      om.deleteBucket("vol", "gone");
      OmInsight in = om.insight();
      List<Function<String, OmInsight.Page>> listings = List.of(
          p -> in.openKeys(p, "", "", 10, true, true),
          p -> in.openKeys(p, "", "", 10, false, true),
          p -> in.openKeys(p, "", "", 10, true, false),
          p -> in.deletedKeys(p, "", 10),
          p -> in.deletedDirectories(p, "", 10),
          p -> in.listKeys(p, "", 10, 0, 0));
      for (Function<String, OmInsight.Page> listing : listings) {
        for (String[] c : new String[][] {
            {"/nov/obs", "Volume 'nov' does not exist"},
            {"/nov/obs/k", "Volume 'nov' does not exist"},
            {"/vol/nob", "Bucket 'nob' does not exist in volume 'vol'"},
            {"/vol/nob/", "Bucket 'nob' does not exist in volume 'vol'"},
            {"/vol/nob/dir/k", "Bucket 'nob' does not exist in volume 'vol'"}}) {
          OmException e = assertThrows(OmException.class, () -> listing.apply(c[0]), c[0]);
          assertEquals(OmException.Code.NOT_FOUND, e.code(), c[0]);
          assertEquals(c[1], e.detail(), c[0]);
        }
        // Existing buckets of either layout list (possibly nothing): never NOT_FOUND.
        listing.apply("/vol/obs");
        listing.apply("/vol/fso/");
      }
      // A deleted bucket's versions still waiting for the purge are listed by its old name.
      assertEquals(1, in.deletedKeys("/vol/gone", "", 10).rows().size());
      assertEquals(OmException.Code.NOT_FOUND,
          assertThrows(OmException.class, () -> in.listKeys("/vol/gone", "", 10, 0, 0)).code());
    }
  }

  @Test
  void namespaceSummaryAndUsageComeFromCountersAndBoundedWalks() {
    try (OmMetadataStore om = open()) {
      om.createVolume("vol", "o");
      om.createVolume("empty", "o");
      om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
      for (int i = 0; i < 4; i++) {
        OpenKeySession s = om.openKey("vol", "obs", "k" + i, null);
        om.commitKey("vol", "obs", "k" + i, s.clientId(), 100);
      }
      BucketInfo fso = om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      FsoRows rows = new FsoRows(om, fso, 1L << 40);
      long a = rows.dir(rows.root(), "a");
      long ab = rows.dir(a, "b");
      rows.file(ab, "deep", 1000);
      rows.file(a, "mid", 10);
      rows.file(rows.root(), "top", 1);
      om.recount();
      OmInsight in = om.insight();

      OmInsight.Summary root = in.summary("/");
      assertEquals(OmInsight.PathType.ROOT, root.type());
      assertEquals(2, root.numVolume());
      assertEquals(2, root.numBucket());
      assertEquals(2, root.numDir());
      assertEquals(7, root.numKey());
      OmInsight.Summary vol = in.summary("/vol/");
      assertEquals(OmInsight.PathType.VOLUME, vol.type());
      assertEquals(2, vol.numBucket());
      assertEquals(7, vol.numKey());
      assertEquals(1411, vol.size());
      OmInsight.Summary bucket = in.summary("//vol//fso");
      assertEquals("/vol/fso", bucket.path());
      assertEquals(OmInsight.PathType.BUCKET, bucket.type());
      assertEquals(2, bucket.numDir());
      assertEquals(3, bucket.numKey());
      OmInsight.Summary dir = in.summary("/vol/fso/a");
      assertEquals(OmInsight.PathType.DIRECTORY, dir.type());
      assertEquals(1, dir.numDir());
      assertEquals(2, dir.numKey());
      assertEquals(1010, dir.size());
      assertEquals(OmInsight.PathType.KEY, in.summary("/vol/fso/a/b/deep").type());
      assertEquals(OmInsight.PathType.KEY, in.summary("/vol/obs/k1").type());
      assertEquals(OmInsight.PathType.UNKNOWN, in.summary("/vol/obs/nope").type());
      assertEquals(OmInsight.PathType.UNKNOWN, in.summary("/nope").type());
      assertEquals(OmInsight.PathType.UNKNOWN, in.summary("/vol/fso/a/zz").type());

      OmInsight.Usage u = in.usage("/", false, 0);
      assertEquals(1411, u.size());
      assertEquals(List.of(new OmInsight.SubPath("/empty", 0, false),
          new OmInsight.SubPath("/vol", 1411, false)), u.subPaths());
      OmInsight.Usage uv = in.usage("/vol", false, 1);
      assertEquals(2, uv.subPathCount());
      assertEquals(List.of(new OmInsight.SubPath("/vol/fso", 1011, false)), uv.subPaths());
      OmInsight.Usage ub = in.usage("/vol/fso", true, 0);
      assertEquals(1011, ub.size());
      assertEquals(1, ub.sizeDirectKey());
      assertEquals(List.of(new OmInsight.SubPath("/vol/fso/a", 1010, false),
          new OmInsight.SubPath("/vol/fso/top", 1, true)), ub.subPaths());
      assertEquals(1, in.usage("/vol/fso", false, 0).subPaths().size());
      assertEquals(4, in.usage("/vol/obs", true, 0).subPaths().size());
      assertEquals(OmInsight.PathType.DIRECTORY, in.usage("/vol/fso/a", false, 0).type());

      // A walk past its budget is refused, not run.
      OmInsight tight = OmInsight.over(om.dbStore(), 1000, 2);
      OmException e = assertThrows(OmException.class, () -> tight.summary("/vol/fso/a"));
      assertEquals(OmException.Code.RESOURCE_EXHAUSTED, e.code());
      assertEquals(3, tight.summary("/vol/fso").numKey(), "bucket level needs no walk");
    }
  }

  @Test
  void badArgumentsAreRejectedWithReasons() {
    try (OmMetadataStore om = open()) {
      OmInsight in = om.insight();
      for (int bad : new int[] {0, -2}) {
        OmException e = assertThrows(OmException.class, () -> in.deletedKeys("", "", bad));
        assertTrue(e.getMessage().contains("limit"), e.getMessage());
      }
      assertEquals(OmException.Code.INVALID_ARGUMENT,
          assertThrows(OmException.class, () -> in.listKeys("/vol", "", 10, 0, 0)).code());
      assertEquals(OmException.Code.INVALID_ARGUMENT,
          assertThrows(OmException.class, () -> in.listKeys(null, "", 10, 0, 0)).code());
      assertEquals(OmException.Code.INVALID_ARGUMENT,
          assertThrows(OmException.class, () -> in.summary("vol")).code());
      assertEquals(OmException.Code.INVALID_ARGUMENT,
          assertThrows(OmException.class, () -> in.openKeys("", "", "nope", 1, true, true)).code());
      assertEquals(OmException.Code.INVALID_ARGUMENT,
          assertThrows(OmException.class, () -> in.openKeys("", "", null, 1, false, false)).code());
      assertEquals(OmException.Code.INVALID_ARGUMENT,
          assertThrows(OmException.class, () -> in.deletedKeys("/vol", "", 1)).code());
      assertTrue(in.deletedKeys("", "", -1).rows().isEmpty(), "-1 means the cap");
    }
  }
}
