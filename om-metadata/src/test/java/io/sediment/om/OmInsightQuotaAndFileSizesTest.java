package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.insight.FileSizeBins;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link OmInsight#quota} and {@link OmInsight#fileSizes} as Ozone Recon answers them: quotas of
 * root, volumes and buckets (-1 for none) beside the counters' used bytes, not applicable below a
 * bucket; distributions of OBS and FSO namespaces with files at bin edges, written through the
 * write paths, whose counts add up to the summary's keys at every level, within one walk budget
 * for all the buckets a path covers.
 */
class OmInsightQuotaAndFileSizesTest {

  private static final long GIB = 1L << 30;
  /** The largest data size a write takes (S3's 50 TiB), in bin 36: above 2^45, up to 2^46. */
  private static final long MAX_SIZE = 50L << 40;

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(
      OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));

  private OmMetadataStore om;
  private OmInsight in;

  @BeforeEach
  void load() {
    om = omStore.store();
    om.createVolume("vol", "alice");
    om.createVolume("capped", "bob");
    om.createVolume("empty", "carol");
    om.setVolumeProperties("capped", null, 10 * GIB, null);
    om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 1 << 20);
    om.createBucket("capped", "cc1", BucketLayout.LEGACY, null, 5000);
    // Each side of the first bin edges, and of 1 GiB (the end of bin 20).
    for (long size : new long[] {0, 1024, 1025, 2048, 2049, GIB, GIB + 1}) {
      key("vol", "obs", "k" + size, size);
    }
    key("capped", "cc1", "only", 3000);
    file("a/x", 4096);
    file("a/b/y", 4097);
    file("a/b/huge", MAX_SIZE);
    file("top", 1);
    // A recursively deleted directory's files wait for the purge, still in the bucket's counters.
    file("gone/z", 5000);
    om.fso().deleteDirectory("vol", "fso", "gone", true);
    in = om.insight();
  }

  private void key(String volume, String bucket, String key, long size) {
    OpenKeySession s = om.openKey(volume, bucket, key, null);
    om.commitKey(volume, bucket, key, s.clientId(), size);
  }

  private void file(String path, long size) {
    OpenKeySession s = om.fso().createFile("vol", "fso", path, null);
    om.fso().commitFile("vol", "fso", path, s.clientId(), size);
  }

  /** Counts by bin, as a distribution lists them. */
  private static List<Long> bins(Map<Integer, Long> counts) {
    List<Long> out = new ArrayList<>(Collections.nCopies(FileSizeBins.COUNT, 0L));
    counts.forEach(out::set);
    return out;
  }

  private static List<Long> plus(List<Long> a, List<Long> b) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      out.add(a.get(i) + b.get(i));
    }
    return out;
  }

  @Test
  void filesAtBinEdgesLandInOzonesBins() {
    List<Long> obs = bins(Map.of(0, 2L, 1, 2L, 2, 1L, 20, 1L, 21, 1L));
    assertEquals(obs, in.fileSizes("/vol/obs").counts());
    List<Long> dirA = bins(Map.of(2, 1L, 3, 1L, 36, 1L));
    OmInsight.FileSizes a = in.fileSizes("/vol/fso/a/");
    assertEquals(OmInsight.PathType.DIRECTORY, a.type());
    assertEquals(dirA, a.counts());
    List<Long> fso = plus(dirA, bins(Map.of(0, 1L, 3, 1L)));
    assertEquals(fso, in.fileSizes("/vol/fso").counts(),
        "the deleted directory's file counts until the purge, as in the counters");
    assertEquals(plus(obs, fso), in.fileSizes("/vol").counts());
    OmInsight.FileSizes root = in.fileSizes("/");
    assertEquals(OmInsight.PathType.ROOT, root.type());
    assertEquals(plus(plus(obs, fso), bins(Map.of(2, 1L))), root.counts());
  }

  @Test
  void theCountsAddUpToTheSummarysKeysAtEveryLevelBeforeAndAfterThePurge() {
    assertCountsAreTheSummarysKeys();
    assertTrue(om.fso().purgeDeletedDirectories(100) > 0);
    assertEquals(bins(Map.of(0, 1L, 2, 1L, 3, 1L, 36, 1L)), in.fileSizes("/vol/fso").counts(),
        "the purge took the deleted directory's file");
    assertCountsAreTheSummarysKeys();
  }

  private void assertCountsAreTheSummarysKeys() {
    for (String path : List.of("/", "/vol", "/capped", "/empty", "/vol/obs", "/vol/fso",
        "/vol/fso/a", "/vol/fso/a/b", "/capped/cc1")) {
      long files = in.fileSizes(path).counts().stream().mapToLong(Long::longValue).sum();
      assertEquals(in.summary(path).numKey(), files, path);
    }
  }

  @Test
  void aKeyOrAMissingPathHasEveryBinZero() {
    List<Long> zeros = bins(Map.of());
    for (String[] c : new String[][] {{"/vol/obs/k1024", "KEY"}, {"/vol/fso/a/x", "KEY"},
        {"/vol/obs/nope", "UNKNOWN"}, {"/vol/fso/gone", "UNKNOWN"}, {"/nope", "UNKNOWN"},
        {"/vol/nope", "UNKNOWN"}, {"/vol/nope/deeper", "UNKNOWN"}}) {
      OmInsight.FileSizes d = in.fileSizes(c[0]);
      assertEquals(c[1], d.type().name(), c[0]);
      assertEquals(zeros, d.counts(), c[0]);
    }
    assertEquals(OmException.Code.INVALID_ARGUMENT,
        assertThrows(OmException.class, () -> in.fileSizes("vol")).code());
  }

  @Test
  void oneBudgetBoundsTheRowsReadForAllTheBucketsOfAPath() {
    // /vol/obs holds 7 keys: a budget of 7 reads it all, not the rest of the volume as well.
    OmInsight seven = OmInsight.over(om.dbStore(), 1000, 7);
    assertEquals(7, seven.fileSizes("/vol/obs").counts().stream().mapToLong(Long::longValue).sum());
    for (String path : List.of("/vol", "/")) {
      OmException e = assertThrows(OmException.class, () -> seven.fileSizes(path));
      assertEquals(OmException.Code.RESOURCE_EXHAUSTED, e.code());
      assertTrue(e.getMessage().contains("'" + path + "'") && e.getMessage().contains("7 rows"),
          e.getMessage());
    }
    // A path whose counters hold more keys than the budget is refused before its keys are read:
    // iterator steps for its counters only, far fewer than the budget.
    om.createBucket("vol", "many", BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 200; i++) {
      key("vol", "many", "k" + i, i);
    }
    long steps = om.dbStore().getTickerCount("NUMBER_DB_NEXT");
    OmException early = assertThrows(OmException.class,
        () -> OmInsight.over(om.dbStore(), 1000, 100).fileSizes("/vol/many"));
    assertEquals(OmException.Code.RESOURCE_EXHAUSTED, early.code());
    long refused = om.dbStore().getTickerCount("NUMBER_DB_NEXT") - steps;
    assertTrue(refused < 50, refused + " iterator steps: the keys were read");
    OmException tree = assertThrows(OmException.class,
        () -> OmInsight.over(om.dbStore(), 1000, 2).fileSizes("/vol/fso/a"));
    assertEquals(OmException.Code.RESOURCE_EXHAUSTED, tree.code());
    assertTrue(tree.getMessage().contains("file-size distribution"), tree.getMessage());
  }

  @Test
  void quotasOfRootVolumesAndBucketsAreOzones() {
    long obsBytes = 1024 + 1025 + 2048 + 2049 + GIB + GIB + 1;
    long fsoBytes = 4096 + 4097 + MAX_SIZE + 1 + 5000;
    OmInsight.Quota bucket = in.quota("/vol/fso");
    assertEquals(new OmInsight.Quota("/vol/fso", OmInsight.PathType.BUCKET, 1 << 20, fsoBytes),
        bucket);
    assertEquals(OmInsight.Quota.UNLIMITED, in.quota("/vol/obs").allowed(), "0 is stored for none");
    assertEquals(new OmInsight.Quota("/capped/cc1", OmInsight.PathType.BUCKET, 5000, 3000),
        in.quota("//capped/cc1/"));
    assertEquals(new OmInsight.Quota("/vol", OmInsight.PathType.VOLUME, -1, obsBytes + fsoBytes),
        in.quota("/vol"));
    assertEquals(new OmInsight.Quota("/capped", OmInsight.PathType.VOLUME, 10 * GIB, 3000),
        in.quota("/capped"));
    OmInsight.Quota root = in.quota("/");
    assertEquals(-1, root.allowed(), "a volume without a quota makes the root's unlimited");
    assertEquals(obsBytes + fsoBytes + 3000, root.used());
    assertEquals(in.summary("/").size(), root.used());
    om.setVolumeProperties("vol", null, 7L, null);
    om.setVolumeProperties("empty", null, 11L, null);
    assertEquals(10 * GIB + 18, in.quota("/").allowed(), "every volume capped: their sum");
  }

  @Test
  void belowABucketAQuotaIsNotApplicableAndAMissingPathIsUnknown() {
    assertEquals(new OmInsight.Quota("/vol/fso/a", OmInsight.PathType.DIRECTORY, 0, 0),
        in.quota("/vol/fso/a"));
    assertEquals(new OmInsight.Quota("/vol/obs/k0", OmInsight.PathType.KEY, 0, 0),
        in.quota("/vol/obs/k0"));
    assertEquals(new OmInsight.Quota("/vol/none", OmInsight.PathType.UNKNOWN, 0, 0),
        in.quota("/vol/none"));
    assertEquals(OmInsight.PathType.UNKNOWN, in.quota("/none").type());
  }
}
