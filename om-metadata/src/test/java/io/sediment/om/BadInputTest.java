package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input: every rejected call throws {@link OmException} with the documented code and leaves
 * every table byte-for-byte unchanged (a full scan of all tables before and after).
 */
class BadInputTest {

  private static final String V = "vol1";
  private static final String B = "buck1";

  private OmMetadataStore om;
  private final MutableClock clock = new MutableClock(1_700_000_000_000L);
  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(() -> OmStoreOptions.defaults().withMaxListSize(50)
          .withTokenMaxAge(Duration.ofHours(1)).withClock(clock));

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "buck2", BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 5; i++) {
      put(om, V, B, "dir/k" + i, i);
      put(om, V, "buck2", "dir/k" + i, i);
    }
  }

  @Test
  void bucketAndVolumeNamesFollowS3Rules() {
    List<String> bad = List.of("ab", "a".repeat(64), "Upper", "under_score", "-start", "end-",
        ".start", "end.", "two..dots", "dot.-dash", "dash-.dot", "192.168.1.1", "xn--punycode",
        "sthree-x", "amzn-s3-demo-x", "x-s3alias", "x--ol-s3", "x.mrap", "x--x-s3",
        "x--table-s3", "sp ace", "sl/ash", "\u00e9t\u00e9", "");
    for (String name : bad) {
      OmException e = assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.createBucket(V, name, BucketLayout.OBJECT_STORE, null, 0));
      assertTrue(e.getMessage().contains("Bucket name"), e.getMessage());
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.createVolume(name, "x"));
    }
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, null, BucketLayout.OBJECT_STORE, null, 0));
    // The limits themselves are accepted.
    om.createBucket(V, "abc", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "a".repeat(63), BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "1.2.3.4x", BucketLayout.OBJECT_STORE, null, 0);
  }

  @Test
  void bucketLayoutOwnerAndQuotaAreChecked() {
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, "newbuck", BucketLayout.BUCKET_LAYOUT_UNSPECIFIED, null, 0));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.createBucket(V, "newbuck", null, null, 0));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, "newbuck", BucketLayout.OBJECT_STORE, null, -1));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.createBucket(V, "newbuck", BucketLayout.OBJECT_STORE, "bad\uD800", 0));
  }

  @Test
  void sizesAboveS3sLimitsAreRejectedAndChangeNothing() {
    OpenKeySession s = om.openKey(V, B, "huge", null);
    OmException e = assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.commitKey(V, B, "huge", s.clientId(), OmValidation.MAX_OBJECT_BYTES + 1));
    assertTrue(e.getMessage().contains("EntityTooLarge"), e.getMessage());
    assertEquals(OmValidation.MAX_OBJECT_BYTES,
        om.commitKey(V, B, "huge", s.clientId(), OmValidation.MAX_OBJECT_BYTES).getDataSize());
    String upload = om.multipart().initiate(V, B, "mpu", null);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().commitPart(V, B, "mpu", upload, 1,
        OmValidation.MAX_PART_BYTES + 1, "e1"));
    om.multipart().commitPart(V, B, "mpu", upload, 1, OmValidation.MAX_PART_BYTES, "e1");
  }

  /** The overflow guard behind the size limits: a write taking a counter past a long. */
  @Test
  void aWriteThatWouldOverflowACounterIsRejectedAndChangesNothing() {
    long bucketId = om.getBucketInfo(V, B).getObjectId();
    long before = om.insight().counters().get(OmCounter.KEY_BYTES);
    OmException e = assertRejected(om, Code.RESOURCE_EXHAUSTED, () -> om.context().write(txn -> {
      txn.count(bucketId, OmCounter.KEY_BYTES, Long.MAX_VALUE);
      return null;
    }));
    assertTrue(e.getMessage().contains("KEY_BYTES"), e.getMessage());
    assertRejected(om, Code.RESOURCE_EXHAUSTED, () -> om.context().write(txn -> {
      txn.count(OmCounter.DELETED_KEYS, Long.MAX_VALUE);
      txn.count(OmCounter.DELETED_KEYS, 1);
      return null;
    }));
    assertEquals(before, om.insight().counters().get(OmCounter.KEY_BYTES));
  }

  @Test
  void keyNamesMustBeNonEmptyValidUtf8AndAtMost1024Bytes() {
    String max = "\u00e9".repeat(512);
    assertEquals(1024, max.getBytes(StandardCharsets.UTF_8).length);
    for (String key : new String[] {"", null, "x".repeat(1025), "\u20ac".repeat(342),
        "lone\uD800surrogate", "\uDC00", "end\uD83D"}) {
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openKey(V, B, key, null));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.lookupKey(V, B, key));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.deleteKey(V, B, key));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.commitKey(V, B, key, 1, 1));
    }
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> OmValidation.decodeKeyName(new byte[] {'a', (byte) 0xC0, (byte) 0x80}));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> OmValidation.decodeKeyName(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> OmValidation.decodeKeyName(new byte[] {'a', (byte) 0xE2, (byte) 0x82}));
    assertEquals("\u20ac", OmValidation.decodeKeyName(new byte[] {(byte) 0xE2, (byte) 0x82, (byte) 0xAC}));
    put(om, V, B, max, 1);
    assertEquals(max, om.lookupKey(V, B, max).getKeyName());
  }

  @Test
  void listingArgumentsAreChecked() {
    // 0 is the empty page (ZeroPageSizeTest).
    for (int bad : new int[] {-1, Integer.MIN_VALUE, 51}) {
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, B, null, null, bad, null));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listBuckets(V, null, null, bad));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listVolumes(null, null, bad));
    }
    for (int bad : new int[] {-1, Integer.MIN_VALUE}) {
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.listObjectsV2(ListObjectsV2Request.of(V, B).withMaxKeys(bad)));
    }
    // S3 clamps max-keys above the cap instead.
    assertEquals(5, om.listObjectsV2(ListObjectsV2Request.of(V, B).withMaxKeys(10_000)).keyCount());
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.listKeys(V, B, "bad\uD800", null, 5, null));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.listKeys(V, B, null, "x".repeat(1025), 5, null));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.listObjectsV2(ListObjectsV2Request.of(V, B).withDelimiter("\uDFFF")));
  }

  @Test
  void missingVolumeOrBucketIsNotFound() {
    assertRejected(om, Code.NOT_FOUND, () -> om.getVolumeInfo("novol"));
    assertRejected(om, Code.NOT_FOUND, () -> om.getBucketInfo(V, "nobuck"));
    assertRejected(om, Code.NOT_FOUND, () -> om.getBucketInfo("novol", B));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.createBucket("novol", "newbuck", BucketLayout.OBJECT_STORE, null, 0));
    assertRejected(om, Code.NOT_FOUND, () -> om.openKey(V, "nobuck", "k", null));
    assertRejected(om, Code.NOT_FOUND, () -> om.openKey("novol", B, "k", null));
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey(V, "nobuck", "k"));
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey(V, B, "nokey"));
    assertRejected(om, Code.NOT_FOUND, () -> om.deleteKey(V, B, "nokey"));
    assertRejected(om, Code.NOT_FOUND, () -> om.listKeys(V, "nobuck", null, null, 5, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.listKeys("novol", B, null, null, 5, null));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.listObjectsV2(ListObjectsV2Request.of(V, "nobuck")));
    assertRejected(om, Code.NOT_FOUND, () -> om.listBuckets("novol", null, null, 5));
    assertRejected(om, Code.NOT_FOUND, () -> om.deleteBucket(V, "nobuck"));
    assertRejected(om, Code.NOT_FOUND, () -> om.deleteVolume("novol"));
  }

  @Test
  void nonEmptyDeletesAreRefused() {
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteBucket(V, B));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteVolume(V));
  }

  @Test
  void doubleCommitAndWrongClientIdAreRefused() {
    OpenKeySession s = om.openKey(V, B, "new", null);
    assertRejected(om, Code.FAILED_PRECONDITION,
        () -> om.commitKey(V, B, "new", s.clientId() + 1, 1));
    assertRejected(om, Code.NOT_FOUND, () -> om.commitKey(V, B, "other", s.clientId(), 1));
    assertRejected(om, Code.NOT_FOUND, () -> om.commitKey(V, B, "ne", s.clientId(), 1));
    assertRejected(om, Code.NOT_FOUND, () -> om.commitKey(V, "buck2", "new", s.clientId(), 1));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.commitKey(V, B, "new", s.clientId(), -1));
    om.commitKey(V, B, "new", s.clientId(), 1);
    assertRejected(om, Code.NOT_FOUND, () -> om.commitKey(V, B, "new", s.clientId(), 1));
  }

  @Test
  void forgedTruncatedAndForeignTokensAreRejected() {
    String token = om.listKeys(V, B, "dir/", null, 2, null).nextToken();
    byte[] raw = Base64.getUrlDecoder().decode(token);
    Base64.Encoder enc = Base64.getUrlEncoder().withoutPadding();
    // Every single-bit flip is detected.
    for (int i = 0; i < raw.length; i++) {
      byte[] flipped = raw.clone();
      flipped[i] ^= 0x01;
      String forged = enc.encodeToString(flipped);
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, B, "dir/", null, 2, forged));
    }
    for (int cut : new int[] {1, 16, 32, raw.length - 1}) {
      String truncated = enc.encodeToString(java.util.Arrays.copyOf(raw, raw.length - cut));
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.listKeys(V, B, "dir/", null, 2, truncated));
    }
    for (String junk : new String[] {"!!!", "a", "AAAA", token.substring(0, token.length() - 1),
        token + "A", "x".repeat(5000)}) {
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, B, "dir/", null, 2, junk));
    }
    // Replayed against another bucket, prefix or listing.
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, "buck2", "dir/", null, 2, token));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, B, "dir/k", null, 2, token));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, B, null, null, 2, token));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV2(
        ListObjectsV2Request.of(V, B).withPrefix("dir/").withContinuationToken(token)));
    String v2 = om.listObjectsV2(ListObjectsV2Request.of(V, B).withPrefix("dir/")
        .withDelimiter("/").withMaxKeys(1)).nextContinuationToken();
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV2(ListObjectsV2Request
        .of(V, B).withPrefix("dir/").withMaxKeys(1).withContinuationToken(v2)));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listObjectsV2(ListObjectsV2Request
        .of(V, B).withPrefix("dir/").withDelimiter("k").withMaxKeys(1).withContinuationToken(v2)));
    // A token of another store (another secret) is rejected.
    try (OmMetadataStore other = OmMetadataStore.open(omStore.scratch("other"))) {
      other.createVolume(V, "alice");
      other.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
      for (int i = 0; i < 5; i++) {
        put(other, V, B, "dir/k" + i, i);
      }
      String foreign = other.listKeys(V, B, "dir/", null, 2, null).nextToken();
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, B, "dir/", null, 2, foreign));
    }
    // The genuine token still works.
    assertEquals(2, om.listKeys(V, B, "dir/", null, 2, token).items().size());
  }

  @Test
  void staleTokensAreRejected() {
    String token = om.listKeys(V, "buck2", null, null, 2, null).nextToken();
    clock.advance(Duration.ofHours(2));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, "buck2", null, null, 2, token));
    String fresh = om.listKeys(V, "buck2", null, null, 2, null).nextToken();
    // Re-creating the bucket under the same name invalidates its tokens.
    for (int i = 0; i < 5; i++) {
      om.deleteKey(V, "buck2", "dir/k" + i);
    }
    om.deleteBucket(V, "buck2");
    om.createBucket(V, "buck2", BucketLayout.OBJECT_STORE, null, 0);
    put(om, V, "buck2", "dir/k0", 1);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, "buck2", null, null, 2, fresh));
  }
}
