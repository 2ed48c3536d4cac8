package io.sediment.om;

import static io.sediment.om.OmTestSupport.UTF8_ORDER;
import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.MultipartUploadInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * S3 ListMultipartUploads against a sorted model: order by key (UTF-8 bytes) then upload id
 * (initiation order), including keys that extend another by a character below {@code /}
 * ({@code a-b}, {@code a.txt}, {@code a b}, NUL) where a {@code key/uploadId} layout would sort
 * wrongly; key-marker alone (exclusive of the whole key, so {@code key10} follows {@code key1});
 * key-marker with upload-id-marker; prefixes; exact truncation and next markers; paging to the end.
 */
class ListMultipartUploadsTest {

  private static final String V = "vol1";
  private static final String B = "buck1";
  private static final String[] KEYS = {"key1", "key10", "key2", "key1/part", "a", "a-b",
      "a.txt", "a b", "a/b", "a\u0000", "a\u0000b", "ab", "photos/x.jpg", "photos/y.jpg",
      "\uD83D\uDE00", "z"};

  /** An upload as the model sees it. */
  record Upload(String key, String uploadId) {
  }

  private static final Comparator<Upload> S3_ORDER =
      Comparator.comparing(Upload::key, UTF8_ORDER).thenComparing(Upload::uploadId);

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(
          OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private final TreeSet<Upload> model = new TreeSet<>(S3_ORDER);

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "other", BucketLayout.LEGACY, null, 0);
    // Interleave initiations so that upload-id order differs from key order.
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < KEYS.length; i++) {
        if ((i + round) % 3 != 2) {
          initiate(KEYS[i]);
        }
      }
    }
    om.multipart().initiate(V, "other", "a", null);
  }

  private String initiate(String key) {
    String id = om.multipart().initiate(V, B, key, null);
    model.add(new Upload(key, id));
    return id;
  }

  private static List<Upload> uploads(MultipartUploadListing page) {
    List<Upload> out = new ArrayList<>();
    for (MultipartUploadInfo u : page.uploads()) {
      out.add(new Upload(u.getKeyName(), u.getUploadId()));
    }
    return out;
  }

  /** The model's answer: every upload after the markers whose key starts with the prefix. */
  private List<Upload> expected(String prefix, String keyMarker, String uploadIdMarker) {
    List<Upload> out = new ArrayList<>();
    for (Upload u : model) {
      if (prefix != null && !u.key().startsWith(prefix)) {
        continue;
      }
      if (keyMarker != null && !keyMarker.isEmpty()) {
        int c = UTF8_ORDER.compare(u.key(), keyMarker);
        boolean after = uploadIdMarker != null && !uploadIdMarker.isEmpty()
            ? c > 0 || (c == 0 && u.uploadId().compareTo(uploadIdMarker) > 0)
            : c > 0;
        if (!after) {
          continue;
        }
      }
      out.add(u);
    }
    return out;
  }

  /** Asserts one page against the model: items, exact truncation and next markers. */
  private void assertPage(String prefix, String keyMarker, String uploadIdMarker, int max) {
    List<Upload> all = expected(prefix, keyMarker, uploadIdMarker);
    MultipartUploadListing page = om.multipart().list(V, B, prefix, keyMarker,
        uploadIdMarker, max);
    List<Upload> want = all.subList(0, Math.min(max, all.size()));
    String what = "prefix=" + prefix + " keyMarker=" + keyMarker + " uploadIdMarker="
        + uploadIdMarker + " max=" + max;
    assertEquals(want, uploads(page), what);
    assertEquals(all.size() > max, page.truncated(), what);
    if (page.truncated()) {
      assertEquals(want.get(want.size() - 1).key(), page.nextKeyMarker(), what);
      assertEquals(want.get(want.size() - 1).uploadId(), page.nextUploadIdMarker(), what);
    } else {
      assertNull(page.nextKeyMarker(), what);
      assertNull(page.nextUploadIdMarker(), what);
    }
  }

  /** Pages to the end with the returned markers. */
  private List<Upload> pageToTheEnd(String prefix, int max) {
    List<Upload> out = new ArrayList<>();
    String keyMarker = null;
    String uploadIdMarker = null;
    while (true) {
      MultipartUploadListing page = om.multipart().list(V, B, prefix, keyMarker,
          uploadIdMarker, max);
      out.addAll(uploads(page));
      if (!page.truncated()) {
        return out;
      }
      assertEquals(max, page.uploads().size());
      keyMarker = page.nextKeyMarker();
      uploadIdMarker = page.nextUploadIdMarker();
    }
  }

  @Test
  void aFullListingIsOrderedByKeyThenInitiation() {
    assertPage(null, null, null, 1000);
    List<Upload> listed = uploads(om.multipart().list(V, B, "", null, null, 1000));
    assertEquals(new ArrayList<>(model), listed);
    int a = listed.indexOf(new Upload("a", model.stream().filter(u -> u.key().equals("a"))
        .findFirst().orElseThrow().uploadId()));
    int ab = listed.stream().map(Upload::key).toList().indexOf("a-b");
    assertTrue(a < ab, "a sorts before a-b as in S3 (a key/uploadId layout would invert them)");
  }

  @Test
  void keyMarkerAloneListsOnlyKeysStrictlyAfterIt() {
    MultipartUploadListing page = om.multipart().list(V, B, null, "key1", null, 1000);
    List<String> keys = uploads(page).stream().map(Upload::key).distinct().toList();
    assertEquals(List.of("key1/part", "key10", "key2", "photos/x.jpg", "photos/y.jpg", "z",
        "\uD83D\uDE00"), keys, "key10 and key1/part follow key1; key1 itself is done");
    for (String marker : new String[] {"a", "a\u0000", "a-b", "a/b", "key", "key1/", "zz", "",
        "\uD83D\uDE00", "0"}) {
      assertPage(null, marker, null, 1000);
    }
  }

  @Test
  void keyAndUploadIdMarkersResumeInsideTheKeyThenGoOn() {
    List<Upload> key1 = expected("key1", null, null).stream()
        .filter(u -> u.key().equals("key1")).toList();
    assertTrue(key1.size() >= 2);
    MultipartUploadListing page = om.multipart().list(V, B, null, "key1",
        key1.get(0).uploadId(), 1000);
    List<Upload> got = uploads(page);
    assertEquals(key1.subList(1, key1.size()), got.subList(0, key1.size() - 1),
        "the rest of key1's uploads first");
    assertEquals("key1/part", got.get(key1.size() - 1).key());
    for (Upload u : model) {
      assertPage(null, u.key(), u.uploadId(), 1000);
      assertPage(null, u.key(), u.uploadId(), 2);
    }
    // A marker id that is no upload is a position all the same.
    assertPage(null, "key1", OmKeys.id(0), 5);
    assertPage(null, "key1", "ffffffffffffffff", 5);
  }

  @Test
  void prefixSelectsKeysThatStartWithIt() {
    for (String prefix : new String[] {"a", "a\u0000", "key1", "photos/", "q",
        "\uD83D\uDE00"}) {
      assertPage(prefix, null, null, 1000);
      assertPage(prefix, "a", null, 1000);
      assertPage(prefix, "key1", model.first().uploadId(), 3);
    }
    assertTrue(om.multipart().list(V, B, "nothing", null, null, 10).uploads().isEmpty());
    assertEquals(1, om.multipart().list(V, "other", null, null, null, 10).uploads().size(),
        "the other bucket's upload is not listed here, and vice versa");
  }

  @Test
  void pagingToTheEndByOneTwoOrThreeIsTheFullListing() {
    for (int max = 1; max <= 3; max++) {
      assertEquals(new ArrayList<>(model), pageToTheEnd(null, max), "page size " + max);
      assertEquals(expected("a", null, null), pageToTheEnd("a", max), "prefix a, size " + max);
    }
    assertPage(null, null, null, model.size());
    assertFalse(om.multipart().list(V, B, null, null, null, model.size()).truncated(),
        "a page that ends exactly at the last upload is not truncated");
    assertTrue(om.multipart().list(V, B, null, null, null, model.size() - 1).truncated());
  }

  @Test
  void randomMarkersAgreeWithTheModel() {
    Random random = new Random(42);
    List<Upload> all = new ArrayList<>(model);
    String[] extra = {"", "a", "a\u0000\u0000", "key", "key15", "photos", "photos/", "zzz", " "};
    for (int i = 0; i < 150; i++) {
      Upload u = all.get(random.nextInt(all.size()));
      String keyMarker = random.nextBoolean() ? u.key() : extra[random.nextInt(extra.length)];
      String uploadIdMarker = random.nextInt(3) == 0 ? null
          : random.nextBoolean() ? u.uploadId() : OmKeys.id(random.nextInt(80));
      String prefixOf = all.get(random.nextInt(all.size())).key();
      String prefix = random.nextInt(3) == 0 ? null : random.nextBoolean() ? ""
          : prefixOf.substring(0, prefixOf.offsetByCodePoints(0, 1));
      assertPage(prefix, keyMarker, uploadIdMarker, 1 + random.nextInt(6));
    }
  }

  @Test
  void uploadIdMarkerWithoutKeyMarkerIsIgnoredAsInS3() {
    assertEquals(uploads(om.multipart().list(V, B, null, null, null, 5)),
        uploads(om.multipart().list(V, B, null, null, model.last().uploadId(), 5)));
    assertEquals(uploads(om.multipart().list(V, B, null, null, null, 5)),
        uploads(om.multipart().list(V, B, null, "", "not-an-id", 5)));
  }

  @Test
  void aPageIsOneIteratorPositionedOnce() {
    long seeksBefore = om.dbStore().getTickerCount("NUMBER_DB_SEEK");
    long nextsBefore = om.dbStore().getTickerCount("NUMBER_DB_NEXT");
    MultipartUploadListing page = om.multipart().list(V, B, null, "key1",
        model.first().uploadId(), 3);
    long seeks = om.dbStore().getTickerCount("NUMBER_DB_SEEK") - seeksBefore;
    long nexts = om.dbStore().getTickerCount("NUMBER_DB_NEXT") - nextsBefore;
    assertTrue(page.truncated());
    assertEquals(1, seeks, "positioned once");
    assertTrue(nexts <= 4, "walked " + nexts + " entries for a page of 3");
  }

  @Test
  void badArgumentsAreRejected() {
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.multipart().list(V, B, null, null, null, -1));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.multipart().list(V, B, null, "k", "not-an-id", 5));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.multipart().list(V, B, "\uD800", null, null, 5));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.multipart().list(V, "missing", null, null, null, 5));
    assertEquals(model.size(),
        om.multipart().list(V, B, null, null, null, Integer.MAX_VALUE).uploads().size(),
        "max-uploads above the cap is clamped, not rejected");
  }
}
