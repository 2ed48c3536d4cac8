package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static io.sediment.om.OmTestSupport.items;
import static io.sediment.om.OmTestSupport.modelListing;
import static io.sediment.om.OmTestSupport.names;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
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
 * Scenario tests of {@code listKeys} and S3 {@code listObjectsV2}: paging across deletes, special
 * and Unicode key names, {@code /} in OBJECT_STORE keys, delimiter and start-after cases, common
 * prefixes counted in max-keys, exact {@code IsTruncated}, and that a page reads lazily (one
 * entry per item, one seek per skipped common prefix).
 */
class ListingScenarioTest {

  private static final String V = "vol1";
  private static final String B = "buck1";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();
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

  /** All pages of a V2 listing as model items, checking KeyCount and exact IsTruncated. */
  private List<String> pageV2(ListObjectsV2Request request, List<String> expected) {
    List<String> all = new ArrayList<>();
    String token = null;
    for (int guard = 0; guard < 10_000; guard++) {
      ListObjectsV2Result page = om.listObjectsV2(request.withContinuationToken(token));
      List<String> items = items(page);
      assertEquals(items.size(), page.keyCount());
      assertTrue(page.keyCount() <= request.maxKeys());
      all.addAll(items);
      assertEquals(all.size() < expected.size(), page.truncated(),
          "IsTruncated must be exact after " + all);
      if (!page.truncated()) {
        assertNull(page.nextContinuationToken());
        return all;
      }
      assertEquals(request.maxKeys(), page.keyCount(), "a truncated page is full");
      token = page.nextContinuationToken();
    }
    throw new AssertionError("listing did not end");
  }

  @Test
  void pagingByTenAcrossDeletesReturnsEveryKeyPresentThroughoutExactlyOnce() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 95; i++) {
      keys.add(String.format("key-%03d", i));
      put(om, V, B, keys.get(i), i);
    }
    List<String> seen = new ArrayList<>();
    TreeSet<String> deleted = new TreeSet<>();
    String token = null;
    int pages = 0;
    do {
      ListPage<KeyInfo> page = om.listKeys(V, B, null, null, 10, token);
      pages++;
      seen.addAll(names(page));
      token = page.nextToken();
      if (page.truncated()) {
        // Delete the cursor key itself and two keys of the next page.
        String last = seen.get(seen.size() - 1);
        om.deleteKey(V, B, last);
        deleted.add(last);
        int next = keys.indexOf(last) + 2;
        for (int j = next; j < Math.min(next + 2, keys.size()); j++) {
          om.deleteKey(V, B, keys.get(j));
          deleted.add(keys.get(j));
        }
      }
    } while (token != null);
    List<String> expected = new ArrayList<>(keys);
    expected.removeIf(k -> deleted.contains(k) && !seen.contains(k));
    assertEquals(expected, seen, "no gap, no duplicate");
    assertTrue(pages >= 8);
  }

  @Test
  void aDeletedCursorResumesAtTheNextLiveKey() {
    putAll("a", "b", "c", "d", "e");
    ListPage<KeyInfo> first = om.listKeys(V, B, null, null, 2, null);
    assertEquals(List.of("a", "b"), names(first));
    om.deleteKey(V, B, "b");
    om.deleteKey(V, B, "c");
    ListPage<KeyInfo> second = om.listKeys(V, B, null, null, 2, first.nextToken());
    assertEquals(List.of("d", "e"), names(second));
    assertFalse(second.truncated(), "exact: e is the last key");
  }

  @Test
  void truncatedIsExactWhenThePageEndsOnTheLastKey() {
    putAll("a", "b", "c");
    ListPage<KeyInfo> page = om.listKeys(V, B, null, null, 3, null);
    assertEquals(3, page.items().size());
    assertFalse(page.truncated(), "Ozone says 'more' here and then returns an empty page");
    assertNull(page.nextToken());
    ListPage<KeyInfo> two = om.listKeys(V, B, null, "a", 2, null);
    assertEquals(List.of("b", "c"), names(two));
    assertFalse(two.truncated());
  }

  @Test
  void unicodeAndSpecialKeyNamesAreListedInUtf8ByteOrder() {
    String emoji = "\uD83D\uDE00";
    TreeSet<String> keys = putAll("plain", "with space", "tab\there", "new\nline", "nul\u0000byte",
        "percent%20", "plus+sign", "q?x=1&y=2", "hash#frag", "back\\slash", "quote\"'",
        "\u00e9t\u00e9", "e\u0301te", "\u4e2d\u6587/\u8def\u5f84", "\uFFFD", emoji + "smile",
        "\uFFFF", "~tilde", "*", ".", "..", "a..b");
    List<String> listed = new ArrayList<>();
    String token = null;
    do {
      ListPage<KeyInfo> page = om.listKeys(V, B, null, null, 4, token);
      listed.addAll(names(page));
      token = page.nextToken();
    } while (token != null);
    assertEquals(new ArrayList<>(keys), listed);
    // UTF-8 order, not Java's UTF-16 order: U+FFFD sorts before U+1F600 here.
    assertTrue(listed.indexOf("\uFFFD") < listed.indexOf(emoji + "smile"));
    assertTrue("\uFFFD".compareTo(emoji) > 0, "Java's String order would differ");
    for (String k : keys) {
      assertEquals(k, om.lookupKey(V, B, k).getKeyName());
    }
    assertEquals(List.of(emoji + "smile"),
        names(om.listKeys(V, B, emoji, null, 10, null)));
    assertEquals(List.of("\u00e9t\u00e9"), names(om.listKeys(V, B, "\u00e9", null, 10, null)));
  }

  @Test
  void slashesInObjectStoreKeysAreOrdinaryCharacters() {
    putAll("a", "a/", "a//b", "a/b", "a/b/c", "/a", "//", "ab");
    assertEquals(List.of("a/", "a//b", "a/b", "a/b/c"),
        names(om.listKeys(V, B, "a/", null, 10, null)));
    assertEquals(List.of("//", "/a"), names(om.listKeys(V, B, "/", null, 10, null)));
    assertEquals("a//b", om.lookupKey(V, B, "a//b").getKeyName());
    ListObjectsV2Result r = om.listObjectsV2(ListObjectsV2Request.of(V, B).withPrefix("a/")
        .withDelimiter("/"));
    assertEquals(List.of("a/", "a/b"), r.contents().stream().map(KeyInfo::getKeyName).toList(),
        "the key equal to the prefix is content");
    assertEquals(List.of("a//", "a/b/"), r.commonPrefixes());
  }

  @Test
  void delimiterRollsUpCommonPrefixesThatCountTowardMaxKeys() {
    TreeSet<String> keys = putAll("photos/2006/jan/a.jpg", "photos/2006/feb/b.jpg",
        "photos/2007/c.jpg", "photos/d.jpg", "photos/", "readme", "photos");
    ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix("photos/")
        .withDelimiter("/");
    ListObjectsV2Result all = om.listObjectsV2(req);
    assertEquals(List.of("photos/2006/", "photos/2007/"), all.commonPrefixes());
    assertEquals(List.of("photos/", "photos/d.jpg"),
        all.contents().stream().map(KeyInfo::getKeyName).toList());
    assertEquals(4, all.keyCount());
    assertFalse(all.truncated());

    List<String> expected = modelListing(keys, "photos/", "/", null);
    for (int max = 1; max <= 5; max++) {
      assertEquals(expected, pageV2(req.withMaxKeys(max), expected), "max-keys " + max);
    }
    ListObjectsV2Result two = om.listObjectsV2(req.withMaxKeys(2));
    assertEquals(List.of("photos/", "photos/2006/"), items(two).stream()
        .map(s -> s.substring(2)).toList());
    assertTrue(two.truncated());

    List<String> root = modelListing(keys, "", "/", null);
    assertEquals(List.of("K:photos", "P:photos/", "K:readme"), root);
    assertEquals(root, pageV2(ListObjectsV2Request.of(V, B).withDelimiter("/").withMaxKeys(1), root));
  }

  @Test
  void startAfterCases() {
    TreeSet<String> keys = putAll("photos/2006/jan/a.jpg", "photos/2006/feb/b.jpg",
        "photos/2007/c.jpg", "photos/d.jpg", "zzz");
    ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix("photos/")
        .withDelimiter("/");
    for (String startAfter : new String[] {"photos/2006/feb/b.jpg", "photos/2006/jan/a.jpg",
        "photos/2006/", "photos/2006", "a", "photos/", "photos/d.jpg", "q", "photos/2007/c.jpg!",
        "photos/2006/feb/b.jpg\u0000", "\uD83D\uDE00"}) {
      List<String> expected = modelListing(keys, "photos/", "/", startAfter);
      assertEquals(expected, items(om.listObjectsV2(req.withStartAfter(startAfter))),
          "start-after " + startAfter);
      assertEquals(expected, pageV2(req.withStartAfter(startAfter).withMaxKeys(1), expected),
          "start-after " + startAfter + " paged by 1");
    }
    // start-after inside a common prefix re-reports the prefix when keys remain under it.
    assertEquals(List.of("P:photos/2006/", "P:photos/2007/", "K:photos/d.jpg"),
        items(om.listObjectsV2(req.withStartAfter("photos/2006/feb/b.jpg"))));
    assertEquals(List.of("P:photos/2007/", "K:photos/d.jpg"),
        items(om.listObjectsV2(req.withStartAfter("photos/2006/jan/a.jpg"))));
    // A token wins over start-after.
    ListObjectsV2Result first = om.listObjectsV2(req.withMaxKeys(1));
    ListObjectsV2Result next = om.listObjectsV2(req.withMaxKeys(1).withStartAfter("zz")
        .withContinuationToken(first.nextContinuationToken()));
    assertEquals(List.of("photos/2007/"), next.commonPrefixes());
    // listKeys: start-after past the prefix range is an empty, untruncated page.
    ListPage<KeyInfo> none = om.listKeys(V, B, "photos/", "q", 10, null);
    assertTrue(none.items().isEmpty());
    assertFalse(none.truncated());
  }

  @Test
  void multiCharacterAndUnicodeDelimiters() {
    TreeSet<String> keys = putAll("a--b--c", "a--d", "a-e", "x\u00e9y\u00e9z", "x\u00e9w", "xy");
    for (String delimiter : new String[] {"--", "\u00e9", "-", "y"}) {
      for (String prefix : new String[] {"", "a", "a--", "x", "x\u00e9"}) {
        List<String> expected = modelListing(keys, prefix, delimiter, null);
        ListObjectsV2Request req = ListObjectsV2Request.of(V, B).withPrefix(prefix)
            .withDelimiter(delimiter);
        assertEquals(expected, items(om.listObjectsV2(req)), prefix + " / " + delimiter);
        assertEquals(expected, pageV2(req.withMaxKeys(1), expected), prefix + " / " + delimiter);
      }
    }
  }

  @Test
  void aCommonPrefixIsSkippedWithOneSeekNotByWalkingItsKeys() {
    for (int i = 0; i < 300; i++) {
      put(om, V, B, String.format("big/%04d", i), i);
    }
    put(om, V, B, "c", 1);
    put(om, V, B, "d", 1);
    long nextBefore = om.dbStore().getTickerCount("NUMBER_DB_NEXT");
    long seekBefore = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    ListObjectsV2Result r = om.listObjectsV2(ListObjectsV2Request.of(V, B).withDelimiter("/")
        .withMaxKeys(2));
    long nexts = om.dbStore().getTickerCount("NUMBER_DB_NEXT") - nextBefore;
    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK") - seekBefore;
    assertEquals(List.of("big/"), r.commonPrefixes());
    assertEquals(List.of("c"), r.contents().stream().map(KeyInfo::getKeyName).toList());
    assertTrue(r.truncated());
    assertTrue(nexts <= 3, "walked " + nexts + " entries");
    assertTrue(seeks <= 3, seeks + " seeks");
  }

  @Test
  void aPageReadsOnlyTheEntriesItReturnsPlusOneLookahead() {
    for (int i = 0; i < 500; i++) {
      put(om, V, B, String.format("k%04d", i), i);
    }
    ListPage<KeyInfo> first = om.listKeys(V, B, null, null, 5, null);
    long nextBefore = om.dbStore().getTickerCount("NUMBER_DB_NEXT");
    long seekBefore = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    ListPage<KeyInfo> page = om.listKeys(V, B, null, null, 5, first.nextToken());
    long nexts = om.dbStore().getTickerCount("NUMBER_DB_NEXT") - nextBefore;
    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK") - seekBefore;
    assertEquals(List.of("k0005", "k0006", "k0007", "k0008", "k0009"), names(page));
    assertTrue(page.truncated());
    assertEquals(1, seeks, "positioned once");
    assertTrue(nexts <= 6, "walked " + nexts + " entries for a page of 5");
  }
}
