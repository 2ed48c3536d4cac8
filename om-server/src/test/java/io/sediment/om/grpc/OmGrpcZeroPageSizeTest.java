package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListBucketsResponse;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListMultipartUploadsRequest;
import io.sediment.proto.om.ListMultipartUploadsResponse;
import io.sediment.proto.om.ListObjectsV1Request;
import io.sediment.proto.om.ListObjectsV1Response;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListOpenFilesResponse;
import io.sediment.proto.om.ListPartsRequest;
import io.sediment.proto.om.ListPartsResponse;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListSnapshotsResponse;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page-size fields of every listing RPC have presence: left absent (as a client built before
 * they had it sends a 0) they ask for the server's page cap; an explicit 0 asks for the empty page
 * S3 answers to max-keys=0: no entries, not truncated, no token or next marker. Each listing is
 * seeded so that its cap page is full and truncated, and a 0 page still gets the errors of its
 * request (missing bucket, forged token).
 */
class OmGrpcZeroPageSizeTest {

  private static final int CAP = 3;
  private static final String V = "vol";
  private static final ByteString FORGED = ByteString.copyFromUtf8("forged");

  @TempDir Path dir;
  private GrpcFixture f;
  private String uploadId;

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"), OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxListSize(CAP),
        OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES);
    for (int i = 0; i < 4; i++) {
      f.store.createVolume(V + i, "o");
    }
    f.store.createVolume(V, "o");
    f.store.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    f.store.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (int i = 0; i < 4; i++) {
      f.store.createBucket(V, "more" + i, BucketLayout.OBJECT_STORE, null, 0);
      f.store.commitKey(V, "obs", "k" + i,
          f.store.openKey(V, "obs", "k" + i, null).clientId(), i);
      f.store.commitKey(V, "obs", "d" + i + "/x",
          f.store.openKey(V, "obs", "d" + i + "/x", null).clientId(), i);
      f.store.fso().commitFile(V, "fso", "dir/f" + i,
          f.store.fso().createFile(V, "fso", "dir/f" + i, null).clientId(), i);
      f.store.openKey(V, "obs", "open" + i, null);
      f.store.snapshots().create(V, "obs", "snap" + i);
      f.store.multipart().initiate(V, "obs", "up" + i, null);
    }
    uploadId = f.store.multipart().initiate(V, "obs", "big", null);
    for (int part = 1; part <= 4; part++) {
      f.store.multipart().commitPart(V, "obs", "big", uploadId, part, 10, "e" + part);
    }
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void listVolumesAndBuckets() {
    ListVolumesResponse cap = f.om.listVolumes(ListVolumesRequest.getDefaultInstance());
    assertEquals(CAP, cap.getVolumesCount(), "absent: the page cap");
    assertTrue(cap.getTruncated());
    ListVolumesResponse zero = f.om.listVolumes(
        ListVolumesRequest.newBuilder().setMaxResults(0).build());
    assertEquals(0, zero.getVolumesCount());
    assertFalse(zero.getTruncated());

    ListBucketsRequest buckets = ListBucketsRequest.newBuilder().setVolume(V).build();
    ListBucketsResponse capBuckets = f.om.listBuckets(buckets);
    assertEquals(CAP, capBuckets.getBucketsCount());
    assertTrue(capBuckets.getTruncated());
    ListBucketsResponse zeroBuckets = f.om.listBuckets(buckets.toBuilder().setMaxResults(0)
        .build());
    assertEquals(0, zeroBuckets.getBucketsCount());
    assertFalse(zeroBuckets.getTruncated());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listBuckets(buckets.toBuilder()
        .setVolume("novol").setMaxResults(0).build()));
  }

  @Test
  void listKeys() {
    ListKeysRequest req = ListKeysRequest.newBuilder().setVolume(V).setBucket("obs").build();
    ListKeysResponse cap = f.om.listKeys(req);
    assertEquals(CAP, cap.getKeysCount());
    assertTrue(cap.getTruncated());
    for (ByteString token : new ByteString[] {ByteString.EMPTY, cap.getNextPageToken()}) {
      ListKeysResponse zero = f.om.listKeys(req.toBuilder().setMaxKeys(0).setPageToken(token)
          .build());
      assertEquals(0, zero.getKeysCount());
      assertFalse(zero.getTruncated());
      assertTrue(zero.getNextPageToken().isEmpty());
    }
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listKeys(req.toBuilder().setMaxKeys(0)
        .setPageToken(FORGED).build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listKeys(req.toBuilder().setBucket("none")
        .setMaxKeys(0).build()));
  }

  @Test
  void listObjectsV2AnswersMaxKeysZeroAsS3() {
    for (String delimiter : new String[] {"", "/"}) {
      ListObjectsV2Request req = ListObjectsV2Request.newBuilder().setVolume(V).setBucket("obs")
          .setDelimiter(delimiter).build();
      ListObjectsV2Response cap = f.om.listObjectsV2(req);
      assertEquals(CAP, cap.getKeyCount());
      assertTrue(cap.getIsTruncated());
      for (ByteString token : new ByteString[] {ByteString.EMPTY,
          cap.getNextContinuationToken()}) {
        ListObjectsV2Response zero = f.om.listObjectsV2(req.toBuilder().setMaxKeys(0)
            .setContinuationToken(token).build());
        assertEquals(0, zero.getKeyCount());
        assertEquals(0, zero.getContentsCount());
        assertEquals(0, zero.getCommonPrefixesCount());
        assertFalse(zero.getIsTruncated(), "IsTruncated false, as S3");
        assertTrue(zero.getNextContinuationToken().isEmpty());
      }
      assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listObjectsV2(req.toBuilder()
          .setMaxKeys(0).setContinuationToken(FORGED).build()));
    }
  }

  @Test
  void listObjectsV1AnswersMaxKeysZeroAsS3() {
    for (String delimiter : new String[] {"", "/"}) {
      ListObjectsV1Request req = ListObjectsV1Request.newBuilder().setVolume(V).setBucket("obs")
          .setDelimiter(delimiter).build();
      ListObjectsV1Response cap = f.om.listObjectsV1(req);
      assertEquals(CAP, cap.getContentsCount() + cap.getCommonPrefixesCount());
      assertTrue(cap.getIsTruncated());
      ListObjectsV1Response zero = f.om.listObjectsV1(req.toBuilder().setMaxKeys(0).build());
      assertEquals(0, zero.getContentsCount() + zero.getCommonPrefixesCount());
      assertFalse(zero.getIsTruncated());
      assertEquals("", zero.getNextMarker());
    }
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listObjectsV1(ListObjectsV1Request
        .newBuilder().setVolume(V).setBucket("none").setMaxKeys(0).build()));
  }

  @Test
  void listStatusIsEmptyEvenForAFile() {
    ListStatusRequest req = ListStatusRequest.newBuilder().setVolume(V).setBucket("fso")
        .setPath("dir").build();
    ListStatusResponse cap = f.om.listStatus(req);
    assertEquals(CAP, cap.getStatusesCount());
    assertTrue(cap.getTruncated());
    ListStatusResponse zero = f.om.listStatus(req.toBuilder().setNumEntries(0)
        .setPageToken(cap.getNextPageToken()).build());
    assertEquals(0, zero.getStatusesCount());
    assertFalse(zero.getTruncated());
    assertTrue(zero.getNextPageToken().isEmpty());
    ListStatusRequest file = req.toBuilder().setPath("dir/f0").build();
    assertEquals(1, f.om.listStatus(file).getStatusesCount());
    assertEquals(0, f.om.listStatus(file.toBuilder().setNumEntries(0).build())
        .getStatusesCount());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listStatus(req.toBuilder().setPath("nope")
        .setNumEntries(0).build()));
  }

  @Test
  void listPartsAndListMultipartUploadsAnswerZeroAsS3() {
    ListPartsRequest parts = ListPartsRequest.newBuilder().setVolume(V).setBucket("obs")
        .setKey("big").setUploadId(uploadId).build();
    assertTrue(f.om.listParts(parts).getIsTruncated());
    ListPartsResponse zeroParts = f.om.listParts(parts.toBuilder().setMaxParts(0)
        .setPartNumberMarker(1).build());
    assertEquals(0, zeroParts.getPartsCount());
    assertFalse(zeroParts.getIsTruncated());
    assertEquals(0, zeroParts.getNextPartNumberMarker());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listParts(parts.toBuilder()
        .setUploadId("00000000000000ff").setMaxParts(0).build()));

    ListMultipartUploadsRequest uploads = ListMultipartUploadsRequest.newBuilder().setVolume(V)
        .setBucket("obs").build();
    ListMultipartUploadsResponse cap = f.om.listMultipartUploads(uploads);
    assertEquals(CAP, cap.getUploadsCount());
    assertTrue(cap.getIsTruncated());
    ListMultipartUploadsResponse zero = f.om.listMultipartUploads(uploads.toBuilder()
        .setMaxUploads(0).setKeyMarker(cap.getNextKeyMarker())
        .setUploadIdMarker(cap.getNextUploadIdMarker()).build());
    assertEquals(0, zero.getUploadsCount());
    assertFalse(zero.getIsTruncated());
    assertEquals("", zero.getNextKeyMarker());
    assertEquals("", zero.getNextUploadIdMarker());
  }

  @Test
  void listOpenFilesAndListSnapshots() {
    ListOpenFilesRequest open = ListOpenFilesRequest.newBuilder().setVolume(V).setBucket("obs")
        .build();
    ListOpenFilesResponse cap = f.om.listOpenFiles(open);
    assertEquals(CAP, cap.getOpenKeysCount());
    assertTrue(cap.getTruncated());
    ListOpenFilesResponse zero = f.om.listOpenFiles(open.toBuilder().setMaxKeys(0).build());
    assertEquals(0, zero.getOpenKeysCount());
    assertFalse(zero.getTruncated());
    assertTrue(zero.getNextPageToken().isEmpty());
    assertEquals(cap.getTotalOpenKeyCount(), zero.getTotalOpenKeyCount(),
        "the count is still reported");
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listOpenFiles(open.toBuilder()
        .setMaxKeys(0).setPageToken(FORGED).build()));

    ListSnapshotsRequest snaps = ListSnapshotsRequest.newBuilder().setVolume(V).setBucket("obs")
        .build();
    ListSnapshotsResponse capSnaps = f.om.listSnapshots(snaps);
    assertEquals(CAP, capSnaps.getSnapshotsCount());
    assertTrue(capSnaps.getTruncated());
    ListSnapshotsResponse zeroSnaps = f.om.listSnapshots(snaps.toBuilder().setMaxEntries(0)
        .setPageToken(capSnaps.getNextPageToken()).build());
    assertEquals(0, zeroSnaps.getSnapshotsCount());
    assertFalse(zeroSnaps.getTruncated());
    assertTrue(zeroSnaps.getNextPageToken().isEmpty());
  }

  @Test
  void anExplicitSizeAboveTheCapIsStillRefusedOrClamped() {
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listKeys(ListKeysRequest.newBuilder()
        .setVolume(V).setBucket("obs").setMaxKeys(CAP + 1).build()));
    assertEquals(CAP, f.om.listObjectsV2(ListObjectsV2Request.newBuilder().setVolume(V)
        .setBucket("obs").setMaxKeys(-1).build()).getKeyCount(),
        "S3 max-keys 2^32-1 is clamped to the cap");
  }

  private static void assertStatus(Status.Code code, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e::getMessage);
  }
}
