package io.sediment.om;

import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.listing.ListObjectsV1Request;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.multipart.PartListing;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A page size of 0 on every facade listing: the empty page S3 answers to max-keys=0 (and to
 * max-uploads=0, max-parts=0) and Ozone to a listing of 0 entries: no entries, not truncated, no
 * token or next marker, although the same listing at the cap is full and truncated. The request
 * is still checked as any other: a missing bucket, upload or path and a bad token are refused.
 */
class ZeroPageSizeTest {

  private static final String V = "vol1";
  private static final String OBS = "obs";
  private static final String FSO = "fso";
  private static final int CAP = 3;

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withMaxListSize(CAP)
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private String uploadId;

  @BeforeEach
  void open() {
    om = omStore.store();
    for (int i = 0; i < 5; i++) {
      om.createVolume("vol" + (i + 1), "alice");
    }
    om.createBucket(V, OBS, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, FSO, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (int i = 0; i < 4; i++) {
      om.createBucket(V, "more" + i, BucketLayout.OBJECT_STORE, null, 0);
      put(om, V, OBS, "k" + i, i);
      put(om, V, OBS, "dir" + i + "/x", i);
      putFile(om, V, FSO, "d/f" + i, i);
      om.openKey(V, OBS, "open" + i, null);
      om.snapshots().create(V, OBS, "snap" + i);
    }
    uploadId = om.multipart().initiate(V, OBS, "big", null);
    for (int part = 1; part <= 5; part++) {
      om.multipart().commitPart(V, OBS, "big", uploadId, part, 100, "e" + part);
      om.multipart().initiate(V, OBS, "upload" + part, null);
    }
  }

  @Test
  void listVolumesAndBuckets() {
    assertTrue(om.listVolumes(null, null, CAP).truncated(), "the cap page is truncated");
    assertEmpty(om.listVolumes(null, null, 0));
    assertEmpty(om.listVolumes("vol", "vol1", 0));
    assertTrue(om.listBuckets(V, null, null, CAP).truncated());
    assertEmpty(om.listBuckets(V, null, null, 0));
    assertRejected(om, Code.NOT_FOUND, () -> om.listBuckets("novol", null, null, 0));
  }

  @Test
  void listKeysAndListKeysInSnapshot() {
    ListPage<?> first = om.listKeys(V, OBS, null, null, CAP, null);
    assertTrue(first.truncated());
    assertEmpty(om.listKeys(V, OBS, null, null, 0, null));
    List<?> second = om.listKeys(V, OBS, null, null, CAP, first.nextToken()).items();
    assertEmpty(om.listKeys(V, OBS, null, null, 0, first.nextToken()));
    assertEquals(second, om.listKeys(V, OBS, null, null, CAP, first.nextToken()).items(),
        "the token still resumes where it did");
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, OBS, null, null, 0, "forged"));
    assertRejected(om, Code.NOT_FOUND, () -> om.listKeys(V, "nobucket", null, null, 0, null));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.listKeys(V, FSO, null, null, 0, null));

    assertTrue(om.snapshots().listKeys(V, OBS, "snap3", null, null, CAP).truncated());
    assertEmpty(om.snapshots().listKeys(V, OBS, "snap3", null, null, 0));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.snapshots().listKeys(V, OBS, "nosnap", null, null, 0));
  }

  @Test
  void listObjectsV2IsTheEmptyPageOfS3MaxKeysZero() {
    for (String delimiter : new String[] {null, "/"}) {
      ListObjectsV2Request request = ListObjectsV2Request.of(V, OBS).withDelimiter(delimiter);
      ListObjectsV2Result full = om.listObjectsV2(request.withMaxKeys(CAP));
      assertTrue(full.truncated());
      ListObjectsV2Result zero = om.listObjectsV2(request.withMaxKeys(0));
      assertTrue(zero.contents().isEmpty(), "no keys");
      assertTrue(zero.commonPrefixes().isEmpty(), "no common prefixes");
      assertEquals(0, zero.keyCount());
      assertFalse(zero.truncated(), "IsTruncated false, as S3");
      assertNull(zero.nextContinuationToken());
      ListObjectsV2Result resumed = om.listObjectsV2(request.withMaxKeys(0)
          .withContinuationToken(full.nextContinuationToken()));
      assertEquals(0, resumed.keyCount());
      assertFalse(resumed.truncated());
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.listObjectsV2(request.withMaxKeys(0).withContinuationToken("forged")));
    }
    assertRejected(om, Code.NOT_FOUND,
        () -> om.listObjectsV2(ListObjectsV2Request.of(V, "nobucket").withMaxKeys(0)));
  }

  @Test
  void listObjectsV1IsTheEmptyPageOfS3MaxKeysZero() {
    for (String delimiter : new String[] {null, "/"}) {
      ListObjectsV1Request request = ListObjectsV1Request.of(V, OBS).withDelimiter(delimiter);
      assertTrue(om.listObjectsV1(request.withMaxKeys(CAP)).truncated());
      for (String marker : new String[] {null, "dir0/", "k0"}) {
        ListObjectsV1Result zero = om.listObjectsV1(request.withMarker(marker).withMaxKeys(0));
        assertTrue(zero.contents().isEmpty());
        assertTrue(zero.commonPrefixes().isEmpty());
        assertFalse(zero.truncated());
        assertNull(zero.nextMarker());
      }
    }
    assertRejected(om, Code.NOT_FOUND,
        () -> om.listObjectsV1(ListObjectsV1Request.of(V, "nobucket").withMaxKeys(0)));
  }

  @Test
  void listPartsAndListMultipartUploads() {
    assertTrue(om.multipart().listParts(V, OBS, "big", uploadId, 0, CAP).truncated());
    PartListing parts = om.multipart().listParts(V, OBS, "big", uploadId, 1, 0);
    assertTrue(parts.parts().isEmpty());
    assertFalse(parts.truncated());
    assertEquals(0, parts.nextPartNumberMarker());
    assertRejected(om, Code.NOT_FOUND,
        () -> om.multipart().listParts(V, OBS, "big", "00000000000000ff", 0, 0));

    assertTrue(om.multipart().list(V, OBS, null, null, null, CAP).truncated());
    MultipartUploadListing uploads = om.multipart().list(V, OBS, null, "big", uploadId, 0);
    assertTrue(uploads.uploads().isEmpty());
    assertFalse(uploads.truncated());
    assertNull(uploads.nextKeyMarker());
    assertNull(uploads.nextUploadIdMarker());
    assertRejected(om, Code.NOT_FOUND,
        () -> om.multipart().list(V, "nobucket", null, null, null, 0));
  }

  @Test
  void listStatusIsEmptyEvenForAFile() {
    ListPage<FileStatus> full = om.fso().listStatus(V, FSO, "d", false, null, CAP, null);
    assertTrue(full.truncated());
    assertEmpty(om.fso().listStatus(V, FSO, "d", false, null, 0, null));
    String subtreeToken = om.fso().listStatus(V, FSO, "", true, null, CAP, null).nextToken();
    assertNotNull(subtreeToken);
    assertEmpty(om.fso().listStatus(V, FSO, "", true, null, 0, subtreeToken));
    assertEquals(1, om.fso().listStatus(V, FSO, "d/f0", false, null, CAP, null).items().size());
    assertEmpty(om.fso().listStatus(V, FSO, "d/f0", false, null, 0, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.fso().listStatus(V, FSO, "nope", false, null, 0, null));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.fso().listStatus(V, FSO, "d", false, null, 0, "forged"));
  }

  @Test
  void listOpenFilesStillReportsTheTotal() {
    OpenFilesPage full = om.openFiles().list(V, OBS, CAP, null);
    assertTrue(full.truncated());
    OpenFilesPage zero = om.openFiles().list(V, OBS, 0, null);
    assertTrue(zero.entries().isEmpty());
    assertFalse(zero.truncated());
    assertNull(zero.nextToken());
    assertEquals(full.totalOpenKeyCount(), zero.totalOpenKeyCount());
    assertTrue(zero.totalOpenKeyCount() > CAP);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openFiles().list(V, OBS, 0, "forged"));
  }

  @Test
  void listSnapshots() {
    ListPage<?> full = om.snapshots().list(V, OBS, "snap", null, CAP, null, false);
    assertTrue(full.truncated());
    assertEmpty(om.snapshots().list(V, OBS, "snap", null, 0, null, false));
    assertEmpty(om.snapshots().list(V, OBS, "snap", null, 0, full.nextToken(), false));
    assertEmpty(om.snapshots().list(V, OBS, null, "snap0", 0));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.snapshots().list(V, OBS, "snap", null, 0, "forged", false));
  }

  private static void assertEmpty(ListPage<?> page) {
    assertNotNull(page);
    assertTrue(page.items().isEmpty(), () -> "no entries: " + page.items());
    assertFalse(page.truncated(), "an empty page asked for with 0 is not truncated");
    assertNull(page.nextToken(), "and has no token");
  }
}
