package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.modelListing;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * S3 ListObjects (version 1): the marker is exclusive and need not exist; a marker in (or equal
 * to) a common prefix skips that prefix; NextMarker is returned only with a delimiter and only
 * when truncated; common prefixes count toward max-keys; paging with NextMarker (or the last key
 * without a delimiter) to the end equals one full listing. The oracle is a TreeSet model in UTF-8
 * byte order where an item (key or common prefix) is listed iff it sorts after the marker.
 */
class ListObjectsV1Test {

  private static final String V = "vol1";
  private static final String B = "buck1";

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults()
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
  }

  private TreeSet<String> putAll(String... keys) {
    TreeSet<String> set = new TreeSet<>(UTF8_ORDER);
    for (String k : keys) {
      put(om, V, B, k, k.length());
      set.add(k);
    }
    return set;
  }

  /** The model: the full listing's items (K:key, P:prefix) that sort after the marker. */
  private static List<String> model(TreeSet<String> keys, String prefix, String delimiter,
      String marker) {
    List<String> all = modelListing(keys, prefix, delimiter, null);
    if (marker == null || marker.isEmpty()) {
      return all;
    }
    List<String> out = new ArrayList<>();
    for (String item : all) {
      if (UTF8_ORDER.compare(item.substring(2), marker) > 0) {
        out.add(item);
      }
    }
    return out;
  }

  /** One page as model items, in order (keys and prefixes merged). */
  private static List<String> items(ListObjectsV1Result page) {
    List<String> out = new ArrayList<>();
    for (KeyInfo k : page.contents()) {
      out.add("K:" + k.getKeyName());
    }
    for (String p : page.commonPrefixes()) {
      out.add("P:" + p);
    }
    out.sort((a, b) -> UTF8_ORDER.compare(a.substring(2), b.substring(2)));
    return out;
  }

  private static List<String> keyNames(ListObjectsV1Result page) {
    return page.contents().stream().map(KeyInfo::getKeyName).toList();
  }

  /**
   * Pages to the end as a V1 client does (NextMarker with a delimiter, else the last key),
   * checking every page's size, exact IsTruncated and the NextMarker rule.
   */
  private List<String> pageToEnd(ListObjectsV1Request request, List<String> expected) {
    List<String> all = new ArrayList<>();
    String marker = request.marker();
    boolean delimited = request.delimiter() != null && !request.delimiter().isEmpty();
    for (int guard = 0; guard < 10_000; guard++) {
      ListObjectsV1Result page = om.listObjectsV1(request.withMarker(marker));
      List<String> items = items(page);
      all.addAll(items);
      assertEquals(all.size() < expected.size(), page.truncated(),
          () -> "IsTruncated must be exact after " + all);
      if (!page.truncated()) {
        assertNull(page.nextMarker(), "no NextMarker on the last page");
        return all;
      }
      assertEquals(request.maxKeys(), items.size(), "a truncated page is full");
      if (delimited) {
        assertEquals(items.get(items.size() - 1).substring(2), page.nextMarker(),
            "NextMarker is the last key or common prefix of the page");
        marker = page.nextMarker();
      } else {
        assertNull(page.nextMarker(), "NextMarker only with a delimiter");
        List<String> keys = keyNames(page);
        marker = keys.get(keys.size() - 1);
      }
    }
    throw new AssertionError("listing did not end");
  }

  @Test
  void markerIsExclusiveAndNeedNotExist() {
    putAll("a", "b", "c", "d");
    ListObjectsV1Request req = ListObjectsV1Request.of(V, B);
    assertEquals(List.of("c", "d"), keyNames(om.listObjectsV1(req.withMarker("b"))));
    assertEquals(List.of("c", "d"), keyNames(om.listObjectsV1(req.withMarker("bb"))));
    assertEquals(List.of("a", "b", "c", "d"), keyNames(om.listObjectsV1(req.withMarker(""))));
    assertEquals(List.of("a", "b", "c", "d"), keyNames(om.listObjectsV1(req.withMarker("0"))));
    ListObjectsV1Result after = om.listObjectsV1(req.withMarker("d"));
    assertEquals(List.of(), keyNames(after));
    assertFalse(after.truncated());
    assertNull(after.nextMarker());
    // A marker outside the prefix: below it starts at the prefix, above it is empty.
    putAll("p/1", "p/2", "q");
    assertEquals(List.of("p/1", "p/2"),
        keyNames(om.listObjectsV1(req.withPrefix("p/").withMarker("b"))));
    assertEquals(List.of(), keyNames(om.listObjectsV1(req.withPrefix("p/").withMarker("pz"))));
    assertEquals(List.of("p/2"),
        keyNames(om.listObjectsV1(req.withPrefix("p/").withMarker("p/1"))));
  }

  @Test
  void nextMarkerIsReturnedOnlyWithADelimiterAndOnlyWhenTruncated() {
    putAll("a/1", "a/2", "b", "c/1", "d");
    ListObjectsV1Request req = ListObjectsV1Request.of(V, B).withMaxKeys(2);

    ListObjectsV1Result plain = om.listObjectsV1(req);
    assertEquals(List.of("a/1", "a/2"), keyNames(plain));
    assertTrue(plain.truncated());
    assertNull(plain.nextMarker(), "S3 returns NextMarker only when a delimiter is given");

    ListObjectsV1Result delimited = om.listObjectsV1(req.withDelimiter("/"));
    assertEquals(List.of("a/"), delimited.commonPrefixes());
    assertEquals(List.of("b"), keyNames(delimited));
    assertTrue(delimited.truncated());
    assertEquals("b", delimited.nextMarker(), "the last item is a key");

    ListObjectsV1Result second = om.listObjectsV1(req.withDelimiter("/").withMarker("b"));
    assertEquals(List.of("c/"), second.commonPrefixes());
    assertEquals(List.of("d"), keyNames(second));
    assertFalse(second.truncated(), "exact: d is the last item");
    assertNull(second.nextMarker());

    ListObjectsV1Result endsOnPrefix = om.listObjectsV1(req.withDelimiter("/").withMaxKeys(1));
    assertEquals(List.of("a/"), endsOnPrefix.commonPrefixes());
    assertEquals("a/", endsOnPrefix.nextMarker(), "the last item is a common prefix");
  }

  @Test
  void aMarkerInOrEqualToACommonPrefixSkipsEverythingUnderIt() {
    putAll("photos/", "photos/2006/jan/a.jpg", "photos/2006/feb/b.jpg", "photos/2007/c.jpg",
        "photos/d.jpg", "photos0", "readme");
    ListObjectsV1Request req = ListObjectsV1Request.of(V, B).withDelimiter("/");

    ListObjectsV1Result afterPhotos = om.listObjectsV1(req.withMarker("photos/"));
    assertEquals(List.of(), afterPhotos.commonPrefixes(), "photos/ is not listed again");
    assertEquals(List.of("photos0", "readme"), keyNames(afterPhotos));

    ListObjectsV1Request photos = req.withPrefix("photos/");
    ListObjectsV1Result inside = om.listObjectsV1(photos.withMarker("photos/2006/feb/b.jpg"));
    assertEquals(List.of("photos/2007/"), inside.commonPrefixes(),
        "a marker inside photos/2006/ skips that common prefix (it sorts before the marker)");
    assertEquals(List.of("photos/d.jpg"), keyNames(inside));

    ListObjectsV1Result atPrefix = om.listObjectsV1(photos.withMarker("photos/2006/"));
    assertEquals(List.of("photos/2007/"), atPrefix.commonPrefixes());

    // Without a delimiter the same marker is an ordinary exclusive key position.
    ListObjectsV1Result flat = om.listObjectsV1(ListObjectsV1Request.of(V, B)
        .withMarker("photos/"));
    assertEquals(List.of("photos/2006/feb/b.jpg", "photos/2006/jan/a.jpg", "photos/2007/c.jpg",
        "photos/d.jpg", "photos0", "readme"), keyNames(flat));
  }

  @Test
  void commonPrefixesCountTowardMaxKeys() {
    TreeSet<String> keys = putAll("a/1", "a/2", "a/3", "b/1", "c", "d/x/y", "e");
    ListObjectsV1Request req = ListObjectsV1Request.of(V, B).withDelimiter("/");
    ListObjectsV1Result three = om.listObjectsV1(req.withMaxKeys(3));
    assertEquals(List.of("a/", "b/"), three.commonPrefixes());
    assertEquals(List.of("c"), keyNames(three));
    assertTrue(three.truncated());
    assertEquals("c", three.nextMarker());
    List<String> expected = model(keys, null, "/", null);
    assertEquals(List.of("P:a/", "P:b/", "K:c", "P:d/", "K:e"), expected);
    for (int max = 1; max <= 6; max++) {
      assertEquals(expected, pageToEnd(req.withMaxKeys(max), expected), "max-keys " + max);
    }
  }

  @Test
  void pagingToTheEndEqualsOneFullListingOfTheModel() {
    // Small alphabet with '/', '-', a two-byte and a three-byte character: many shared prefixes.
    String[] alphabet = {"a", "b", "/", "-", "\u00e9", "\u4e2d"};
    Random random = new Random(42);
    TreeSet<String> keys = new TreeSet<>(UTF8_ORDER);
    while (keys.size() < 150) {
      StringBuilder k = new StringBuilder();
      int length = 1 + random.nextInt(6);
      for (int i = 0; i < length; i++) {
        k.append(alphabet[random.nextInt(alphabet.length)]);
      }
      keys.add(k.toString());
    }
    for (String k : keys) {
      put(om, V, B, k, 1);
    }
    String[] prefixes = {null, "a", "a/", "/", "\u00e9", "b-", "zz"};
    String[] delimiters = {null, "/", "-", "a/", "\u4e2d"};
    int[] sizes = {1, 2, 7, 1000};
    int checked = 0;
    for (String prefix : prefixes) {
      for (String delimiter : delimiters) {
        List<String> full = model(keys, prefix, delimiter, null);
        ListObjectsV1Request req = ListObjectsV1Request.of(V, B).withPrefix(prefix)
            .withDelimiter(delimiter);
        for (int size : sizes) {
          assertEquals(full, pageToEnd(req.withMaxKeys(size), full),
              "prefix " + prefix + ", delimiter " + delimiter + ", max-keys " + size);
          checked++;
        }
        // Arbitrary markers (existing keys, common prefixes, absent names) against the model.
        List<String> markers = new ArrayList<>(List.of("a", "a/", "a/b", "b", "/", "\u00e9/",
            "\u4e2d\u4e2d"));
        for (int i = 0; i < 5; i++) {
          markers.add(keys.stream().skip(random.nextInt(keys.size())).findFirst().orElseThrow());
        }
        for (String marker : markers) {
          assertEquals(model(keys, prefix, delimiter, marker),
              items(om.listObjectsV1(req.withMarker(marker))),
              "prefix " + prefix + ", delimiter " + delimiter + ", marker " + marker);
          List<String> rest = model(keys, prefix, delimiter, marker);
          assertEquals(rest, pageToEnd(req.withMarker(marker).withMaxKeys(3), rest));
        }
      }
    }
    assertEquals(prefixes.length * delimiters.length * sizes.length, checked);
  }

  @Test
  void specialAndUnicodeKeyNamesAndSlashes() {
    String emoji = "\uD83D\uDE00";
    TreeSet<String> keys = putAll("plain", "with space", "tab\there", "new\nline", "nul\u0000byte",
        "percent%20", "q?x=1&y=2", "quote\"'", "\u00e9t\u00e9", "\u4e2d\u6587/\u8def\u5f84",
        "\uFFFD", emoji + "smile", emoji + "/x", "\uFFFF", "/", "//", "/a", "a//b", "a/", "a");
    ListObjectsV1Request req = ListObjectsV1Request.of(V, B);
    List<String> full = model(keys, null, null, null);
    assertEquals(full, pageToEnd(req.withMaxKeys(3), full));
    assertTrue(full.indexOf("K:\uFFFD") < full.indexOf("K:" + emoji + "smile"),
        "UTF-8 byte order, not UTF-16 order");

    List<String> delimited = model(keys, null, "/", null);
    assertTrue(delimited.contains("P:" + emoji + "/"));
    assertTrue(delimited.contains("P:/"));
    assertTrue(delimited.contains("P:\u4e2d\u6587/"));
    for (int max = 1; max <= 4; max++) {
      assertEquals(delimited, pageToEnd(req.withDelimiter("/").withMaxKeys(max), delimited));
    }
    ListObjectsV1Result afterEmojiPrefix = om.listObjectsV1(req.withDelimiter("/")
        .withMarker(emoji + "/"));
    assertEquals(model(keys, null, "/", emoji + "/"), items(afterEmojiPrefix));
    assertFalse(items(afterEmojiPrefix).contains("P:" + emoji + "/"));

    ListObjectsV1Result slashPrefix = om.listObjectsV1(req.withPrefix("a/").withDelimiter("/"));
    assertEquals(List.of("a/"), keyNames(slashPrefix), "the key equal to the prefix is content");
    assertEquals(List.of("a//"), slashPrefix.commonPrefixes());
  }

  @Test
  void maxKeysAboveTheCapIsClampedToIt() {
    om = omStore.reopen(OmStoreOptions.defaults().withMaxListSize(3)
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
    putAll("a", "b", "c", "d");
    ListObjectsV1Result page = om.listObjectsV1(ListObjectsV1Request.of(V, B).withMaxKeys(50));
    assertEquals(List.of("a", "b", "c"), keyNames(page));
    assertTrue(page.truncated());
  }

  @Test
  void badRequestsAreRejectedWithTypedErrorsAndChangeNothing() {
    putAll("a");
    om.createBucket(V, "fso1", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    ListObjectsV1Request req = ListObjectsV1Request.of(V, B);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV1(req.withMaxKeys(-1)));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV1(req.withMarker("\uD800")));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV1(req.withMarker("x".repeat(1025))));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV1(req.withPrefix("\uDC00")));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV1(req.withDelimiter("\uD800")));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.listObjectsV1(ListObjectsV1Request.of(V, "Bad_Bucket")));
    assertRejected(om, Code.NOT_FOUND, () -> om.listObjectsV1(ListObjectsV1Request.of(V, "nope")));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.listObjectsV1(ListObjectsV1Request.of("novol", B)));
    assertRejected(om, Code.UNIMPLEMENTED,
        () -> om.listObjectsV1(ListObjectsV1Request.of(V, "fso1")));
  }
}
