package io.sediment.om;

import static io.sediment.om.FsoTestSupport.paths;
import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static io.sediment.om.OmTestSupport.items;
import static io.sediment.om.OmTestSupport.modelListing;
import static io.sediment.om.OmTestSupport.names;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.fso.FsoPath;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.multipart.PartListing;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.om.purge.LifecycleStep;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ozone's listing test scenarios (special and whitespace key names, a prefix equal to a whole
 * name, empty buckets, cursors around deletes and inserts, the neighbour-bucket traps of
 * listOpenFiles and lifecycle scans) and edge code points, each checked against the S3 model or
 * paged by one against one page.
 */
class OzoneListingScenariosTest {
  static final String V = "vol1";
  static final String B = "buck1";
  static final String F = "fso1";
  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();
  OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, F, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
  }
  private TreeSet<String> putAll(String b, String... keys) {
    TreeSet<String> set = new TreeSet<>(UTF8_ORDER);
    for (String k : keys) { put(om, V, b, k, 1); set.add(k); }
    return set;
  }

  private List<String> v2All(ListObjectsV2Request req) {
    List<String> all = new ArrayList<>();
    String token = null;
    for (int g = 0; g < 1000; g++) {
      ListObjectsV2Result r = om.listObjectsV2(req.withContinuationToken(token));
      all.addAll(items(r));
      if (!r.truncated()) { assertNull(r.nextContinuationToken()); return all; }
      token = r.nextContinuationToken();
    }
    throw new AssertionError("runaway");
  }

  private List<String> v1All(ListObjectsV1Request req) {
    List<String> all = new ArrayList<>();
    String marker = null;
    for (int g = 0; g < 1000; g++) {
      ListObjectsV1Result r = om.listObjectsV1(req.withMarker(marker));
      List<String> page = new ArrayList<>();
      for (KeyInfo k : r.contents()) page.add("K:" + k.getKeyName());
      for (String c : r.commonPrefixes()) page.add("P:" + c);
      page.sort((a, b) -> UTF8_ORDER.compare(a.substring(2), b.substring(2)));
      all.addAll(page);
      if (!r.truncated()) { assertNull(r.nextMarker()); return all; }
      marker = r.nextMarker() != null ? r.nextMarker() : all.get(all.size() - 1).substring(2);
    }
    throw new AssertionError("runaway");
  }

  private List<String> keysAll(String prefix, String startAfter, int max) {
    List<String> all = new ArrayList<>();
    String token = null;
    for (int g = 0; g < 1000; g++) {
      ListPage<KeyInfo> p = om.listKeys(V, B, prefix, startAfter, max, token);
      all.addAll(names(p));
      if (!p.truncated()) { assertNull(p.nextToken()); return all; }
      token = p.nextToken();
    }
    throw new AssertionError("runaway");
  }

  /** Ozone testListKeysSpecialKeyNames + testListKeysWithWhitespaceAndNewlinePrefix. */
  @Test
  void specialCharacterAndWhitespaceKeysListInByteOrderUnderEveryPrefixAndDelimiter() {
    TreeSet<String> keys = putAll(B, " ", "\"", "$", "%", "&", "'", "<", ">", "_", "_ ", "_ _",
        "__", "  y", " x", "\nbar", "\n", "x y", "x\ny");
    assertEquals(new ArrayList<>(keys), keysAll(null, null, 1000));
    assertEquals(List.of(" ", "  y", " x"), keysAll(" ", null, 1000));
    assertEquals(List.of(" ", "  y", " x"), keysAll(" ", null, 1));
    assertEquals(List.of("\n", "\nbar"), keysAll("\n", null, 1));
    assertEquals(List.of("_", "_ ", "_ _", "__"), keysAll("_", null, 1));
    assertEquals(List.of("  y", " x"), keysAll(" ", " ", 1), "a start-after of one space is honoured");
    assertEquals(List.of(" x"), keysAll(" ", "  y", 10));
    for (String d : new String[] {null, " ", "_", "\n"}) {
      for (String pre : new String[] {"", " ", "_", "\n", "x"}) {
        List<String> exp = modelListing(keys, pre, d, null);
        ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix(pre).withDelimiter(d);
        assertEquals(exp, v2All(req.withMaxKeys(1)), pre + "|" + d);
        assertEquals(exp, v2All(req), pre + "|" + d);
        assertEquals(exp, v1All(ListObjectsV1Request.of(V, B).withPrefix(pre).withDelimiter(d).withMaxKeys(1)), pre + "|" + d);
      }
    }
  }

  /** Edge bytes U+0000, U+FFFF, U+10FFFF and '/' in keys, prefixes and delimiters; page 1 == one page. */
  @Test
  void edgeCodePointsInKeysPrefixesAndDelimitersPageByOneAsInOnePage() {
    TreeSet<String> keys = putAll(B, "a", "a\u0000", "a\u0000/x", "a\u0000\u0000", "a/",
        "a/\uFFFF", "a/\uFFFF/b", "a\uFFFF", "a\uFFFF/x", "a\uFFFF\uFFFF", "\uFFFF",
        "\uFFFF/", "\uFFFF\uFFFF/z", "\uDBFF\uDFFF", "/", "//", "\u0001", "a\uFFFFb");
    String[] prefixes = {"", "a", "a\u0000", "a/", "a\uFFFF", "\uFFFF", "/", "a/\uFFFF"};
    String[] delims = {null, "/", "\u0000", "\uFFFF", "\uFFFF/", "\uDBFF\uDFFF"};
    String[] starts = {null, "a", "a\u0000", "a\uFFFF", "a\uFFFF/", "\uFFFF", "\uFFFF\uFFFF", "\uDBFF\uDFFF"};
    for (String pre : prefixes) {
      for (String d : delims) {
        for (String sa : starts) {
          List<String> exp = modelListing(keys, pre, d, sa);
          ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix(pre).withDelimiter(d)
              .withStartAfter(sa);
          String what = "p=" + esc(pre) + " d=" + esc(d) + " sa=" + esc(sa);
          assertEquals(exp, items(om.listObjectsV2(req)), what);
          assertEquals(exp, v2All(req.withMaxKeys(1)), what + " by 1");
          if (d == null) {
            assertEquals(exp.stream().map(x -> x.substring(2)).toList(), keysAll(pre, sa, 1), what);
          }
        }
        List<String> exp = modelListing(keys, pre, d, null);
        assertEquals(exp, v1All(ListObjectsV1Request.of(V, B).withPrefix(pre).withDelimiter(d).withMaxKeys(1)),
            "V1 p=" + esc(pre) + " d=" + esc(d));
      }
    }
  }

  static String esc(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder();
    s.codePoints().forEach(c -> b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04X", c) : String.valueOf((char) c)));
    return b.toString();
  }

  /** A prefix equal to a full key (and to a full snapshot name / upload key). */
  @Test
  void aPrefixEqualToAWholeNameListsThatNameAndEverythingExtendingIt() {
    TreeSet<String> keys = putAll(B, "a/b", "a/b/c", "a/b/", "a/b0", "a/bc", "a/b-x", "a/a");
    assertEquals(List.of("a/b", "a/b-x", "a/b/", "a/b/c", "a/b0", "a/bc"), keysAll("a/b", null, 1));
    List<String> exp = modelListing(keys, "a/b", "/", null);
    assertEquals(List.of("K:a/b", "K:a/b-x", "P:a/b/", "K:a/b0", "K:a/bc"), exp);
    ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix("a/b").withDelimiter("/");
    assertEquals(exp, v2All(req.withMaxKeys(1)));
    assertEquals(exp, v1All(ListObjectsV1Request.of(V, B).withPrefix("a/b").withDelimiter("/").withMaxKeys(1)));
    assertEquals(List.of("K:a/b/"), v2All(ListObjectsV2Request.of(V, B).withPrefix("a/b/").withDelimiter("/").withStartAfter("a/b").withMaxKeys(1)).subList(0, 1));
    // start-after equal to the prefix (and to the key): exclusive
    assertEquals(List.of("a/b-x", "a/b/", "a/b/c", "a/b0", "a/bc"), keysAll("a/b", "a/b", 2));
    // uploads
    om.multipart().initiate(V, B, "u/k", null);
    om.multipart().initiate(V, B, "u/k", null);
    om.multipart().initiate(V, B, "u/k0", null);
    om.multipart().initiate(V, B, "u/k/x", null);
    MultipartUploadListing mu = om.multipart().list(V, B, "u/k", null, null, 1);
    assertTrue(mu.truncated());
    List<String> ups = new ArrayList<>();
    String km = null, um = null;
    while (true) {
      MultipartUploadListing p = om.multipart().list(V, B, "u/k", km, um, 1);
      p.uploads().forEach(u -> ups.add(u.getKeyName()));
      if (!p.truncated()) break;
      km = p.nextKeyMarker(); um = p.nextUploadIdMarker();
    }
    assertEquals(List.of("u/k", "u/k", "u/k/x", "u/k0"), ups);
    assertEquals(List.of("u/k/x", "u/k0"), om.multipart().list(V, B, "u/k", "u/k", null, 10)
        .uploads().stream().map(u -> u.getKeyName()).toList());
    // snapshots
    om.snapshots().create(V, B, "snap");
    om.snapshots().create(V, B, "snap-1");
    om.snapshots().create(V, B, "snap1");
    assertEquals(List.of("snap", "snap-1", "snap1"), om.snapshots().list(V, B, "snap", null, 10)
        .items().stream().map(x -> x.getName()).toList());
    assertEquals(List.of("snap-1", "snap1"), om.snapshots().list(V, B, "snap", "snap", 10)
        .items().stream().map(x -> x.getName()).toList());
  }

  /** Every listing of an empty bucket (and volume) is an empty, untruncated page without a token. */
  @Test
  void everyListingOfAnEmptyBucketIsOneUntruncatedEmptyPage() {
    om.createBucket(V, "buck10", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "buck", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "fso10", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.createVolume("vol10", "bob");
    om.createVolume("empty", "bob");
    // neighbours with content, plus tombstones inside the empty bucket
    put(om, V, "buck10", "x", 1);
    put(om, V, "buck", "x", 1);
    put(om, V, B, "gone", 1);
    om.deleteKey(V, B, "gone");
    om.openKey(V, "buck10", "o", null);
    om.multipart().initiate(V, "buck10", "u", null);
    om.snapshots().create(V, "buck10", "snap1");
    putFile(om, V, "fso10", "d/f", 1);
    putFile(om, V, F, "gone", 1);
    om.fso().deleteFile(V, F, "gone");
    for (int max : new int[] {1, 1000}) {
      ListPage<KeyInfo> k = om.listKeys(V, B, null, null, max, null);
      assertTrue(k.items().isEmpty() && !k.truncated() && k.nextToken() == null);
      ListObjectsV2Result v2 = om.listObjectsV2(ListObjectsV2Request.of(V, B).withDelimiter("/").withMaxKeys(max));
      assertTrue(v2.contents().isEmpty() && v2.commonPrefixes().isEmpty() && !v2.truncated()
          && v2.nextContinuationToken() == null && v2.keyCount() == 0);
      ListObjectsV1Result v1 = om.listObjectsV1(ListObjectsV1Request.of(V, B).withDelimiter("/").withMaxKeys(max));
      assertTrue(v1.contents().isEmpty() && v1.commonPrefixes().isEmpty() && !v1.truncated() && v1.nextMarker() == null);
      for (boolean rec : new boolean[] {false, true}) {
        ListPage<FileStatus> st = om.fso().listStatus(V, F, "", rec, null, max, null);
        assertTrue(st.items().isEmpty() && !st.truncated() && st.nextToken() == null, "fso rec=" + rec);
      }
      OpenFilesPage of = om.openFiles().list(V, B, max, null);
      assertTrue(of.entries().isEmpty() && !of.truncated() && of.nextToken() == null && of.totalOpenKeyCount() == 0);
      OpenFilesPage off = om.openFiles().list(V, F, max, null);
      assertTrue(off.entries().isEmpty() && !off.truncated() && off.totalOpenKeyCount() == 0);
      MultipartUploadListing mu = om.multipart().list(V, B, null, null, null, max);
      assertTrue(mu.uploads().isEmpty() && !mu.truncated() && mu.nextKeyMarker() == null);
      ListPage<?> sn = om.snapshots().list(V, B, null, null, max, null, true);
      assertTrue(sn.items().isEmpty() && !sn.truncated() && sn.nextToken() == null);
      ListPage<?> bk = om.listBuckets("empty", null, null, max);
      assertTrue(bk.items().isEmpty() && !bk.truncated());
      ListPage<?> vs = om.listVolumes("vol1x", null, max);
      assertTrue(vs.items().isEmpty() && !vs.truncated());
      OmInsight.Page ik = om.insight().listKeys("/" + V + "/" + B, null, max, 0, 0);
      assertTrue(ik.rows().isEmpty() && !ik.hasMore());
      OmInsight.Page ikf = om.insight().listKeys("/" + V + "/" + F, null, max, 0, 0);
      assertTrue(ikf.rows().isEmpty() && !ikf.hasMore());
      OmInsight.Page io = om.insight().openKeys("/" + V + "/" + B, null, null, max, true, true);
      assertTrue(io.rows().isEmpty() && !io.hasMore());
    }
    String up = om.multipart().initiate(V, B, "k", null);
    PartListing pl = om.multipart().listParts(V, B, "k", up, 0, 1);
    assertTrue(pl.parts().isEmpty() && !pl.truncated() && pl.nextPartNumberMarker() == 0);
    om.snapshots().create(V, B, "sss");
    ListPage<KeyInfo> sk = om.snapshots().listKeys(V, B, "sss", null, null, 1);
    assertTrue(sk.items().isEmpty() && !sk.truncated());
    LifecycleStep ls = om.lifecycle().step("x", V, B, null, k -> true, 1);
    assertTrue(ls.passComplete() && ls.examined() == 0);
  }

  /** FSO names with U+0000, U+FFFF, U+10FFFF and chars below '/': page 1 == one page == model. */
  @Test
  void fsoEdgeNamesPagedByOneOrByStartKeyEqualOnePageInListingOrder() {
    String[] files = {"a/x", "a\u0000/x", "a\u0000\u0000", "a-/x", "a.b", "a b/c/d", "a\uFFFF/y",
        "a\uFFFF\uFFFF", "\uFFFF/\uFFFF", "\uDBFF\uDFFF/q", "a\u0001", "b"};
    List<String> model = new ArrayList<>();
    for (String f : files) {
      putFile(om, V, F, f, 1);
      String[] c = f.split("/");
      for (int i = 1; i <= c.length; i++) {
        String pth = String.join("/", java.util.Arrays.copyOf(c, i));
        if (!model.contains(pth)) model.add(pth);
      }
    }
    model.sort(FsoPath.LISTING_ORDER);
    List<String> big = paths(FsoTestSupport.listAll(om, V, F, "", true, null, 1000));
    assertEquals(model, big);
    assertEquals(big, paths(FsoTestSupport.listAll(om, V, F, "", true, null, 1)));
    List<String> top = model.stream().filter(x -> !x.contains("/")).toList();
    assertEquals(top, paths(FsoTestSupport.listAll(om, V, F, "", false, null, 1)));
    // paging by start key (exclusive) of each single entry gives the same
    List<String> bySk = new ArrayList<>();
    String sk = null;
    while (true) {
      List<String> p1 = paths(om.fso().listStatus(V, F, "", true, sk, 1, null));
      if (p1.isEmpty()) break;
      bySk.addAll(p1);
      sk = p1.get(0);
    }
    assertEquals(model, bySk);
  }

  /** Continuation after the cursor was deleted / entries inserted before and after it. */
  @Test
  void aContinuationResumesAfterItsCursorWhateverWasDeletedOrInsertedAroundIt() {
    putAll(B, "b", "d", "f", "h");
    ListPage<KeyInfo> p = om.listKeys(V, B, null, null, 2, null);
    assertEquals(List.of("b", "d"), names(p));
    om.deleteKey(V, B, "d");
    put(om, V, B, "c", 1);   // before the cursor: not listed
    put(om, V, B, "d0", 1);  // right after the deleted cursor
    put(om, V, B, "d", 1);   // the cursor itself re-created: not listed again
    assertEquals(List.of("d0", "f", "h"), keysAllFrom(p.nextToken()));
    // V2 whose cursor is a common prefix: keys added inside it are not re-reported
    putAll(B, "p/1", "p/2", "p1", "q");
    ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix("p").withDelimiter("/").withMaxKeys(1);
    ListObjectsV2Result r = om.listObjectsV2(req);
    assertEquals(List.of("p/"), r.commonPrefixes());
    put(om, V, B, "p/0", 1);
    put(om, V, B, "p/3", 1);
    put(om, V, B, "p0", 1);
    ListObjectsV2Result r2 = om.listObjectsV2(req.withContinuationToken(r.nextContinuationToken()).withMaxKeys(10));
    assertEquals(List.of("K:p0", "K:p1"), items(r2));
    // FSO: token after the last entry deleted and a sibling inserted after it
    putFile(om, V, F, "m/1", 1); putFile(om, V, F, "m/2", 1); putFile(om, V, F, "m/4", 1);
    ListPage<FileStatus> s1 = om.fso().listStatus(V, F, "m", false, null, 2, null);
    om.fso().deleteFile(V, F, "m/2");
    putFile(om, V, F, "m/0", 1);
    putFile(om, V, F, "m/3", 1);
    assertEquals(List.of("m/3", "m/4"), paths(om.fso().listStatus(V, F, "m", false, null, 10, s1.nextToken())));
    // open files and snapshots
    OpenKeySession o1 = om.openKey(V, B, "o1", null);
    om.openKey(V, B, "o3", null);
    OpenFilesPage of = om.openFiles().list(V, B, 1, null);
    om.commitKey(V, B, "o1", o1.clientId(), 1);
    om.openKey(V, B, "o0", null);
    om.openKey(V, B, "o2", null);
    assertEquals(List.of("o2", "o3"), om.openFiles().list(V, B, 10, of.nextToken()).entries().stream()
        .map(e -> e.path()).toList());
  }

  private List<String> keysAllFrom(String token) {
    List<String> all = new ArrayList<>();
    while (token != null) {
      ListPage<KeyInfo> p = om.listKeys(V, B, null, null, 1, token);
      all.addAll(names(p));
      token = p.nextToken();
    }
    return all;
  }

  /** Ozone listOpenFiles scans to the end of the table on short pages; here it must not. */
  @Test
  void listOpenFilesOfASmallBucketDoesNotWalkItsNeighbours() {
    om.createBucket(V, "buck10", BucketLayout.OBJECT_STORE, null, 0);
    om.openKey(V, B, "a", null);
    for (int i = 0; i < 300; i++) om.openKey(V, "buck10", "k" + i, null);
    long nexts = om.dbStore().getTickerCount("NUMBER_DB_NEXT");
    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    OpenFilesPage p = om.openFiles().list(V, B, 100, null);
    long dn = om.dbStore().getTickerCount("NUMBER_DB_NEXT") - nexts;
    assertEquals(1, p.entries().size());
    assertEquals(1, p.totalOpenKeyCount());
    assertTrue(dn <= 3, "walked " + dn);
  }

  /** Ozone's lifecycle iterator prefix '/vol/bucket' also matched '/vol/bucket2/...'. */
  @Test
  void aLifecycleScanNeverExaminesKeysOfABucketWhoseNameExtendsItsOwn() {
    om.createBucket(V, "buck10", BucketLayout.OBJECT_STORE, null, 0);
    putAll(B, "a", "b");
    putAll("buck10", "a", "c");
    List<String> seen = new ArrayList<>();
    LifecycleStep st;
    do {
      st = om.lifecycle().step("s", V, B, null, k -> true, 1);
      st.matched().forEach(k -> seen.add(k.getBucketName() + "/" + k.getKeyName()));
    } while (!st.passComplete());
    assertEquals(List.of("buck1/a", "buck1/b"), seen);
  }

}
