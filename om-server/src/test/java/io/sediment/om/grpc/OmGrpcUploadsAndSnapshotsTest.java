package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.service.OmServices;
import io.sediment.proto.om.AbortMultipartUploadRequest;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitMultipartPartRequest;
import io.sediment.proto.om.CompleteMultipartUploadRequest;
import io.sediment.proto.om.CompletedPart;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteSnapshotRequest;
import io.sediment.proto.om.GetCountersRequest;
import io.sediment.proto.om.GetServiceStatsRequest;
import io.sediment.proto.om.GetServiceStatsResponse;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListMultipartUploadsRequest;
import io.sediment.proto.om.ListMultipartUploadsResponse;
import io.sediment.proto.om.ListObjectsV1Request;
import io.sediment.proto.om.ListObjectsV1Response;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListOpenFilesResponse;
import io.sediment.proto.om.ListPartsRequest;
import io.sediment.proto.om.ListPartsResponse;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListSnapshotsResponse;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.LookupSnapshotKeyRequest;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.OpenKeyEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.PartInfo;
import io.sediment.proto.om.RenameKeyRequest;
import io.sediment.proto.om.ServiceStats;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.SnapshotStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RPCs over OBS rename, S3 ListObjects V1, multipart uploads, open files, snapshots and the
 * background-service report, each driven through a real channel: listings paged to the end against
 * a model, and the statuses of the facade's errors (a rejected write changes nothing).
 */
class OmGrpcUploadsAndSnapshotsTest {

  private static final int CAP = 100;
  private static final long MIB5 = 5L << 20;

  @TempDir Path dir;
  private GrpcFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"), OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxListSize(CAP),
        OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES);
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("o").build());
    bucket("obs", BucketLayout.OBJECT_STORE);
    bucket("fso", BucketLayout.FILE_SYSTEM_OPTIMIZED);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  // ---- RenameKey --------------------------------------------------------------------------------

  @Test
  void renameKeyMovesTheRowAndRefusesAnExistingDestinationOrMissingSource() {
    KeyInfo original = commit("obs", "a/one", 7);
    commit("obs", "a/two", 8);
    KeyInfo renamed = f.om.renameKey(rename("obs", "a/one", "b/one")).getKey();
    assertEquals("b/one", renamed.getKeyName());
    assertEquals(original.getObjectId(), renamed.getObjectId());
    assertEquals(7, renamed.getDataSize());
    assertEquals(renamed, f.om.lookupKey(lookup("obs", "b/one")).getKey());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.lookupKey(lookup("obs", "a/one")));

    assertStatus(Status.Code.ALREADY_EXISTS, () -> f.om.renameKey(rename("obs", "b/one", "a/two")));
    assertStatus(Status.Code.ALREADY_EXISTS, () -> f.om.renameKey(rename("obs", "a/two", "a/two")));
    assertEquals(8, f.om.lookupKey(lookup("obs", "a/two")).getKey().getDataSize(),
        "a refused rename changes nothing");
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.renameKey(rename("obs", "nope", "x")));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.renameKey(rename("obs", "a/two", "")));
    assertStatus(Status.Code.UNIMPLEMENTED, () -> f.om.renameKey(rename("fso", "a", "b")));
  }

  // ---- ListObjectsV1 ----------------------------------------------------------------------------

  @Test
  void listObjectsV1PagesToTheEndWithNextMarkerOrLastKeyLikeTheModel() {
    TreeSet<String> keys = new TreeSet<>();
    for (int i = 0; i < 6; i++) {
      for (int j = 0; j < 5; j++) {
        keys.add("photos/" + i + "/img" + j);
      }
      keys.add("photos/top" + i);
    }
    keys.add("other/x");
    keys.add("photos");
    keys.forEach(k -> commit("obs", k, 1));

    for (String delimiter : List.of("/", "")) {
      for (int pageSize : List.of(1, 4, 7)) {
        List<String> listed = new ArrayList<>();
        String marker = "";
        int pages = 0;
        while (true) {
          ListObjectsV1Response r = f.om.listObjectsV1(ListObjectsV1Request.newBuilder()
              .setVolume("vol").setBucket("obs").setPrefix("photos/").setDelimiter(delimiter)
              .setMarker(marker).setMaxKeys(pageSize).build());
          pages++;
          List<String> page = pageItems(r);
          assertTrue(page.size() <= pageSize);
          listed.addAll(page);
          if (!r.getIsTruncated()) {
            assertEquals("", r.getNextMarker(), "NextMarker only while truncated");
            break;
          }
          if (delimiter.isEmpty()) {
            assertEquals("", r.getNextMarker(), "S3: no NextMarker without a delimiter");
            marker = r.getContents(r.getContentsCount() - 1).getKeyName();
          } else {
            assertEquals(page.get(page.size() - 1).substring(2), r.getNextMarker());
            marker = r.getNextMarker();
          }
          assertTrue(pages < 100, "paging ends");
        }
        assertEquals(v1Model(keys, "photos/", delimiter), listed,
            "delimiter '" + delimiter + "', pages of " + pageSize);
      }
    }
    ListObjectsV1Response all = f.om.listObjectsV1(ListObjectsV1Request.newBuilder()
        .setVolume("vol").setBucket("obs").setMaxKeys(1_000_000).build());
    assertEquals(keys.size(), all.getContentsCount(), "max-keys is clamped to the cap, not refused");
    assertEquals(keys.size(), f.om.listObjectsV1(ListObjectsV1Request.newBuilder()
        .setVolume("vol").setBucket("obs").build()).getContentsCount(), "0 means the cap");
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listObjectsV1(ListObjectsV1Request.newBuilder()
        .setVolume("vol").setBucket("nobucket").build()));
    assertStatus(Status.Code.UNIMPLEMENTED, () -> f.om.listObjectsV1(ListObjectsV1Request
        .newBuilder().setVolume("vol").setBucket("fso").build()));
  }

  // ---- Multipart uploads ------------------------------------------------------------------------

  @Test
  void multipartUploadCompletesIntoAKeyAndBadPartsChangeNothing() {
    String id = initiate("obs", "big/object");
    assertTrue(id.matches("[0-9a-f]{16}"), id);
    PartInfo p1 = part("obs", "big/object", id, 1, MIB5, "e1");
    assertEquals(1, p1.getPartNumber());
    part("obs", "big/object", id, 2, MIB5, "e2-old");
    part("obs", "big/object", id, 2, MIB5, "e2");
    part("obs", "big/object", id, 3, 100, "e3");
    part("obs", "big/object", id, 4, 100, "e4");

    // Every rejected completion leaves the upload and its parts as they were.
    List<PartInfo> before = allParts("obs", "big/object", id, 2);
    assertEquals(List.of(1, 2, 3, 4), before.stream().map(PartInfo::getPartNumber).toList());
    assertEquals("e2", before.get(1).getEtag(), "an uploaded-again part replaces the old one");
    assertBadCompletion(id, "ETag", parts(1, "e1", 2, "e2-old"));
    assertBadCompletion(id, "never uploaded", parts(1, "e1", 5, "e5"));
    assertBadCompletion(id, "ascending", parts(2, "e2", 1, "e1"));
    assertBadCompletion(id, "at least", parts(1, "e1", 3, "e3", 4, "e4"));
    assertBadCompletion(id, "at least one part", List.of());
    assertEquals(before, allParts("obs", "big/object", id, 3));

    KeyInfo key = f.om.completeMultipartUpload(complete("obs", "big/object", id,
        parts(1, "\"e1\"", 2, "e2", 3, "e3"))).getKey();
    assertEquals(2 * MIB5 + 100, key.getDataSize());
    assertTrue(key.getMetadataOrThrow("ETag").endsWith("-3"), key.getMetadataMap().toString());
    assertEquals(key, f.om.lookupKey(lookup("obs", "big/object")).getKey());
    assertEquals(1L, f.admin.getCounters(GetCountersRequest.newBuilder().setVolume("vol")
        .setBucket("obs").build()).getCountersOrThrow("KEYS"));

    assertStatus(Status.Code.NOT_FOUND, () -> f.om.completeMultipartUpload(complete("obs",
        "big/object", id, parts(1, "e1"))));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listParts(ListPartsRequest.newBuilder()
        .setVolume("vol").setBucket("obs").setKey("big/object").setUploadId(id).build()));
  }

  @Test
  void abortRemovesTheUploadAndUnknownOrMalformedUploadsAreRejected() {
    String id = initiate("obs", "k");
    part("obs", "k", id, 1, 10, "e");
    f.om.abortMultipartUpload(abort("obs", "k", id));
    assertEquals(0, uploads("obs", "", "", "", null).getUploadsCount());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.abortMultipartUpload(abort("obs", "k", id)));
    String unknown = "00000000000fffff";
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.abortMultipartUpload(abort("obs", "k", unknown)));
    assertStatus(Status.Code.NOT_FOUND, () -> part("obs", "k", unknown, 1, 1, "e"));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.completeMultipartUpload(complete("obs", "k",
        unknown, parts(1, "e"))));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.abortMultipartUpload(abort("obs", "k",
        "not-an-upload")));

    String live = initiate("obs", "k");
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> part("obs", "k", live, 0, 1, "e"));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> part("obs", "k", live, 10_001, 1, "e"));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> part("obs", "k", live, -1, 1, "e"));
    StatusRuntimeException huge = assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> part("obs", "k", live, 1, -1L, "e"));
    assertTrue(huge.getStatus().getDescription().contains("18446744073709551615"),
        huge.getMessage());
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> part("obs", "k", live, 1, 1, ""));
    assertEquals(0, f.om.listParts(ListPartsRequest.newBuilder().setVolume("vol").setBucket("obs")
        .setKey("k").setUploadId(live).build()).getPartsCount(), "rejected parts change nothing");

    StatusRuntimeException inProgress = assertStatus(Status.Code.FAILED_PRECONDITION,
        () -> f.om.deleteBucket(DeleteBucketRequest.newBuilder().setVolume("vol").setBucket("obs")
            .build()));
    assertTrue(inProgress.getStatus().getDescription().contains("multipart"),
        inProgress.getMessage());
    assertStatus(Status.Code.UNIMPLEMENTED, () -> initiate("fso", "k"));
    assertStatus(Status.Code.NOT_FOUND, () -> initiate("nobucket", "k"));
  }

  @Test
  void listPartsPagesWithTheNextPartNumberMarkerToTheEnd() {
    String id = initiate("obs", "parts");
    List<Integer> numbers = new ArrayList<>();
    for (int n = 1; n <= 40; n += 3) {
      part("obs", "parts", id, n, n, "etag-" + n);
      numbers.add(n);
    }
    // null: max_parts absent, the page cap.
    for (Integer pageSize : Arrays.asList(1, 5, 14, null)) {
      List<Integer> listed = new ArrayList<>();
      int marker = 0;
      while (true) {
        ListPartsRequest.Builder req = ListPartsRequest.newBuilder().setVolume("vol")
            .setBucket("obs").setKey("parts").setUploadId(id).setPartNumberMarker(marker);
        if (pageSize != null) {
          req.setMaxParts(pageSize);
        }
        ListPartsResponse r = f.om.listParts(req.build());
        r.getPartsList().forEach(p -> listed.add(p.getPartNumber()));
        if (!r.getIsTruncated()) {
          assertEquals(0, r.getNextPartNumberMarker());
          break;
        }
        assertEquals(r.getParts(r.getPartsCount() - 1).getPartNumber(),
            r.getNextPartNumberMarker());
        marker = r.getNextPartNumberMarker();
      }
      assertEquals(numbers, listed, "pages of " + pageSize);
    }
    assertEquals(List.of(28, 31, 34, 37, 40), f.om.listParts(ListPartsRequest.newBuilder()
        .setVolume("vol").setBucket("obs").setKey("parts").setUploadId(id).setPartNumberMarker(27)
        .build()).getPartsList().stream().map(PartInfo::getPartNumber).toList());
    assertEquals(numbers.size(), f.om.listParts(ListPartsRequest.newBuilder().setVolume("vol")
        .setBucket("obs").setKey("parts").setUploadId(id).setMaxParts(1_000_000).build())
        .getPartsCount(), "max-parts is clamped to the cap");
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listParts(ListPartsRequest.newBuilder()
        .setVolume("vol").setBucket("obs").setKey("parts").setUploadId(id)
        .setPartNumberMarker(10_001).build()));
  }

  @Test
  void listMultipartUploadsPagesWithNextMarkersToTheEndLikeTheModel() {
    TreeMap<String, List<String>> model = new TreeMap<>();
    for (int k = 0; k < 9; k++) {
      String key = (k % 3 == 0 ? "logs/" : "data/") + "file-" + k;
      for (int u = 0; u <= k % 3; u++) {
        model.computeIfAbsent(key, x -> new ArrayList<>()).add(initiate("obs", key));
      }
    }
    for (Integer pageSize : Arrays.asList(1, 4, null)) {
      for (String prefix : List.of("", "data/")) {
        List<String> listed = new ArrayList<>();
        String keyMarker = "";
        String uploadMarker = "";
        while (true) {
          ListMultipartUploadsResponse r = uploads("obs", prefix, keyMarker, uploadMarker,
              pageSize);
          for (MultipartUploadInfo u : r.getUploadsList()) {
            listed.add(u.getKeyName() + "#" + u.getUploadId());
          }
          if (!r.getIsTruncated()) {
            assertEquals("", r.getNextKeyMarker());
            assertEquals("", r.getNextUploadIdMarker());
            break;
          }
          MultipartUploadInfo last = r.getUploads(r.getUploadsCount() - 1);
          assertEquals(last.getKeyName(), r.getNextKeyMarker());
          assertEquals(last.getUploadId(), r.getNextUploadIdMarker());
          keyMarker = r.getNextKeyMarker();
          uploadMarker = r.getNextUploadIdMarker();
        }
        List<String> expected = new ArrayList<>();
        model.forEach((key, ids) -> {
          if (key.startsWith(prefix)) {
            ids.forEach(id -> expected.add(key + "#" + id));
          }
        });
        assertEquals(expected, listed, "prefix '" + prefix + "', pages of " + pageSize);
      }
    }
    // A key marker alone skips every upload of that key.
    String first = model.firstKey();
    ListMultipartUploadsResponse after = uploads("obs", "", first, "", null);
    assertEquals(model.higherKey(first), after.getUploads(0).getKeyName());
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> uploads("obs", "", first, "bad-id", null));
    assertStatus(Status.Code.UNIMPLEMENTED, () -> uploads("fso", "", "", "", null));
  }

  // ---- ListOpenFiles ----------------------------------------------------------------------------

  @Test
  void listOpenFilesPagesWithTokensAndReportsTheMaintainedTotal() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      String key = String.format("open-%03d", i);
      int sessions = i % 4 == 0 ? 2 : 1;
      for (int s = 0; s < sessions; s++) {
        OpenKeyResponse open = f.om.openKey(OpenKeyRequest.newBuilder().setVolume("vol")
            .setBucket("obs").setKey(key).build());
        expected.add(key + "#" + open.getClientId());
      }
    }
    OpenKeyResponse committed = f.om.openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket("obs").setKey("gone").build());
    f.om.commitKey(CommitKeyRequest.newBuilder().setVolume("vol").setBucket("obs").setKey("gone")
        .setClientId(committed.getClientId()).setDataSize(1).build());
    // Built in (key, client id) order: keys ascending, a key's sessions in opening order.

    // null: max_keys absent, the page cap.
    for (Integer pageSize : Arrays.asList(1, 6, null)) {
      List<String> listed = new ArrayList<>();
      ByteString token = ByteString.EMPTY;
      do {
        ListOpenFilesRequest.Builder req = ListOpenFilesRequest.newBuilder()
            .setVolume("vol").setBucket("obs").setPageToken(token);
        if (pageSize != null) {
          req.setMaxKeys(pageSize);
        }
        ListOpenFilesResponse r = f.om.listOpenFiles(req.build());
        assertEquals(expected.size(), r.getTotalOpenKeyCount());
        assertEquals(r.getTruncated(), !r.getNextPageToken().isEmpty());
        for (OpenKeyEntry e : r.getOpenKeysList()) {
          assertEquals(e.getPath(), e.getKey().getKeyName());
          listed.add(e.getPath() + "#" + e.getClientId());
        }
        token = r.getNextPageToken();
      } while (!token.isEmpty());
      assertEquals(expected, listed, "pages of " + pageSize);
    }
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listOpenFiles(ListOpenFilesRequest
        .newBuilder().setVolume("vol").setBucket("obs").setMaxKeys(CAP + 1).build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listOpenFiles(ListOpenFilesRequest
        .newBuilder().setVolume("vol").setBucket("obs").setPageToken(ByteString.copyFromUtf8("x"))
        .build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.listOpenFiles(ListOpenFilesRequest.newBuilder()
        .setVolume("vol").setBucket("nobucket").build()));
    ListOpenFilesResponse fso = f.om.listOpenFiles(ListOpenFilesRequest.newBuilder()
        .setVolume("vol").setBucket("fso").build());
    assertEquals(0, fso.getOpenKeysCount());
    assertEquals(0, fso.getTotalOpenKeyCount());
  }

  // ---- Snapshots --------------------------------------------------------------------------------

  @Test
  void snapshotKeepsKeysAsTheyWereAndDuplicatesOrUnknownSnapshotsAreRejected() {
    KeyInfo before = commit("obs", "doc", 10);
    SnapshotInfo snap = f.om.createSnapshot(snapshot("obs", "snap-1")).getSnapshot();
    assertEquals("snap-1", snap.getName());
    assertEquals(SnapshotStatus.SNAPSHOT_ACTIVE, snap.getStatus());
    commit("obs", "doc", 20);
    f.om.deleteKey(DeleteKeyRequest.newBuilder().setVolume("vol").setBucket("obs").setKey("doc")
        .build());

    assertEquals(before, f.om.lookupSnapshotKey(snapKey("snap-1", "doc")).getKey());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.lookupKey(lookup("obs", "doc")));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.lookupSnapshotKey(snapKey("snap-1", "other")));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.lookupSnapshotKey(snapKey("snap-9", "doc")));
    assertStatus(Status.Code.ALREADY_EXISTS,
        () -> f.om.createSnapshot(snapshot("obs", "snap-1")));
    assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> f.om.createSnapshot(snapshot("obs", "Bad_Name")));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.createSnapshot(snapshot("nobucket", "s-1")));

    SnapshotInfo deleted = f.om.deleteSnapshot(DeleteSnapshotRequest.newBuilder()
        .setVolume("vol").setBucket("obs").setName("snap-1").build()).getSnapshot();
    assertEquals(SnapshotStatus.SNAPSHOT_DELETED, deleted.getStatus());
    assertEquals(snap.getSnapshotId(), deleted.getSnapshotId());
    assertTrue(deleted.getDeletionTime() > 0);
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.lookupSnapshotKey(snapKey("snap-1", "doc")));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.deleteSnapshot(DeleteSnapshotRequest
        .newBuilder().setVolume("vol").setBucket("obs").setName("snap-1").build()));
    assertNotEquals(snap.getSnapshotId(), f.om.createSnapshot(snapshot("obs", "snap-1"))
        .getSnapshot().getSnapshotId(), "a deleted snapshot's name can be used again");

    SnapshotInfo unnamed = f.om.createSnapshot(snapshot("fso", "")).getSnapshot();
    assertTrue(unnamed.getName().matches("s\\d{8}-\\d{6}\\.\\d{3}"), unnamed.getName());
    assertEquals("fso", unnamed.getBucketName());
  }

  @Test
  void listSnapshotsPagesWithTokensOrPreviousSnapshotAndHidesDeletedOnes() {
    List<String> names = List.of("daily-1", "daily-2", "daily-3", "daily-4", "weekly-1");
    for (String n : names) {
      f.om.createSnapshot(snapshot("obs", n));
    }
    f.om.deleteSnapshot(DeleteSnapshotRequest.newBuilder().setVolume("vol").setBucket("obs")
        .setName("daily-2").build());

    for (boolean includeDeleted : List.of(false, true)) {
      List<String> viaTokens = new ArrayList<>();
      ByteString token = ByteString.EMPTY;
      do {
        ListSnapshotsResponse r = f.om.listSnapshots(ListSnapshotsRequest.newBuilder()
            .setVolume("vol").setBucket("obs").setPrefix("daily-").setMaxEntries(2)
            .setIncludeDeleted(includeDeleted).setPageToken(token).build());
        assertEquals(r.getTruncated(), !r.getNextPageToken().isEmpty());
        r.getSnapshotsList().forEach(s -> viaTokens.add(s.getName()));
        token = r.getNextPageToken();
      } while (!token.isEmpty());
      assertEquals(includeDeleted ? List.of("daily-1", "daily-2", "daily-3", "daily-4")
          : List.of("daily-1", "daily-3", "daily-4"), viaTokens);
    }

    List<String> viaPrevious = new ArrayList<>();
    String previous = "";
    while (true) {
      ListSnapshotsResponse r = f.om.listSnapshots(ListSnapshotsRequest.newBuilder()
          .setVolume("vol").setBucket("obs").setPreviousSnapshot(previous).setMaxEntries(3)
          .build());
      r.getSnapshotsList().forEach(s -> viaPrevious.add(s.getName()));
      if (!r.getTruncated()) {
        break;
      }
      previous = r.getSnapshots(r.getSnapshotsCount() - 1).getName();
    }
    assertEquals(List.of("daily-1", "daily-3", "daily-4", "weekly-1"), viaPrevious);

    ByteString dailyToken = f.om.listSnapshots(ListSnapshotsRequest.newBuilder().setVolume("vol")
        .setBucket("obs").setPrefix("daily-").setMaxEntries(1).build()).getNextPageToken();
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listSnapshots(ListSnapshotsRequest
        .newBuilder().setVolume("vol").setBucket("obs").setPrefix("weekly-")
        .setPageToken(dailyToken).build()));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listSnapshots(ListSnapshotsRequest
        .newBuilder().setVolume("vol").setBucket("obs").setMaxEntries(CAP + 1).build()));
    assertEquals(0, f.om.listSnapshots(ListSnapshotsRequest.newBuilder().setVolume("vol")
        .setBucket("fso").build()).getSnapshotsCount());
  }

  @Test
  void generatedSnapshotNamesAreUtcTimesToTheMillisecond() {
    assertEquals("s20250131-235959.123",
        SnapshotRpcs.generatedSnapshotName(Instant.parse("2025-01-31T23:59:59.123Z")));
  }

  // ---- GetServiceStats --------------------------------------------------------------------------

  @Test
  void serviceStatsAreEmptyWithoutServicesAndReportRunsWithThem() throws Exception {
    assertEquals(0, f.admin.getServiceStats(GetServiceStatsRequest.getDefaultInstance())
        .getServicesCount());

    commit("obs", "purged", 1);
    f.om.deleteKey(DeleteKeyRequest.newBuilder().setVolume("vol").setBucket("obs")
        .setKey("purged").build());
    OmMetadataStore store = f.store;
    OmServices.Config config = new OmServices.Config(Duration.ofHours(1), 10, Duration.ofHours(2),
        Duration.ofDays(7), 10, Duration.ofHours(3), Duration.ofDays(30), 10, Duration.ofHours(4),
        10);
    try (OmServices services = OmServices.create(store, config)) {
      OmGrpcServer second = OmGrpcServer.builder(store).port(0).services(services).build().start();
      var channel = io.grpc.Grpc.newChannelBuilderForAddress("127.0.0.1", second.port(),
          io.grpc.InsecureChannelCredentials.create()).build();
      try {
        AdminServiceGrpc.AdminServiceBlockingStub admin = AdminServiceGrpc.newBlockingStub(channel)
            .withDeadlineAfter(30, TimeUnit.SECONDS);
        services.start();
        assertEquals(1, services.keyDeleting().runOnce());
        GetServiceStatsResponse r = admin.getServiceStats(GetServiceStatsRequest.getDefaultInstance());
        assertEquals(List.of("KeyDeletingService", "OpenKeyCleanupService",
            "MultipartUploadCleanupService", "DirectoryDeletingService"), r.getServicesList().stream().map(ServiceStats::getName)
            .toList());
        ServiceStats keyDeleting = r.getServices(0);
        assertTrue(keyDeleting.getRunning());
        assertEquals(Duration.ofHours(1).toMillis(), keyDeleting.getIntervalMillis());
        assertEquals(1, keyDeleting.getRuns());
        assertEquals(1, keyDeleting.getBatches(), "1 row, a batch that was not full");
        assertEquals(1, keyDeleting.getItemsProcessed());
        assertTrue(keyDeleting.getRowsPerSecond() > 0, keyDeleting.toString());
        assertFalse(keyDeleting.getRunInProgress());
        // The same on /prom's registry, one series per service.
        assertEquals(1.0, scraped(second, "sediment_background_items", "KeyDeletingService"));
        assertEquals(1.0, scraped(second, "sediment_background_batches", "KeyDeletingService"));
        assertEquals(1.0, scraped(second, "sediment_background_runs", "KeyDeletingService"));
        assertEquals(0.0, scraped(second, "sediment_background_runs", "DirectoryDeletingService"));
        assertEquals(keyDeleting.getRowsPerSecond(),
            scraped(second, "sediment_background_rows_per_second", "KeyDeletingService"), 1e-9);
        assertEquals(0, keyDeleting.getFailures());
        assertEquals("", keyDeleting.getLastFailure());
        assertEquals(Duration.ofHours(3).toMillis(), r.getServices(2).getIntervalMillis());
        assertEquals(Duration.ofHours(4).toMillis(), r.getServices(3).getIntervalMillis());
        services.stop();
        assertFalse(admin.getServiceStats(GetServiceStatsRequest.getDefaultInstance())
            .getServices(0).getRunning());
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        second.shutdown(Duration.ofSeconds(5));
      }
    }
    assertEquals(0L, f.admin.getCounters(GetCountersRequest.getDefaultInstance())
        .getCountersOrThrow("DELETED_KEYS"));
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** The value of metric {@code name} (its Prometheus name) for {@code service} on the registry. */
  private static double scraped(OmGrpcServer server, String name, String service) {
    for (var snapshot : server.registry().scrape()) {
      if (!snapshot.getMetadata().getPrometheusName().equals(name)) {
        continue;
      }
      for (var point : snapshot.getDataPoints()) {
        if (service.equals(point.getLabels().get("service"))) {
          if (point instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot
              .CounterDataPointSnapshot c) {
            return c.getValue();
          }
          return ((io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot)
              point).getValue();
        }
      }
    }
    throw new AssertionError("no " + name + " for " + service);
  }

  private void bucket(String name, BucketLayout layout) {
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket(name)
        .setLayout(layout).build());
  }

  private KeyInfo commit(String bucket, String key, long size) {
    OpenKeyResponse open = f.om.openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket(bucket).setKey(key).build());
    return f.om.commitKey(CommitKeyRequest.newBuilder().setVolume("vol").setBucket(bucket)
        .setKey(key).setClientId(open.getClientId()).setDataSize(size).build()).getKey();
  }

  private static LookupKeyRequest lookup(String bucket, String key) {
    return LookupKeyRequest.newBuilder().setVolume("vol").setBucket(bucket).setKey(key).build();
  }

  private static RenameKeyRequest rename(String bucket, String from, String to) {
    return RenameKeyRequest.newBuilder().setVolume("vol").setBucket(bucket).setFromKey(from)
        .setToKey(to).build();
  }

  /** The page's keys (K:) and common prefixes (P:) merged in name order. */
  private static List<String> pageItems(ListObjectsV1Response r) {
    TreeMap<String, String> items = new TreeMap<>();
    r.getContentsList().forEach(k -> items.put(k.getKeyName(), "K:" + k.getKeyName()));
    r.getCommonPrefixesList().forEach(p -> items.put(p, "P:" + p));
    assertEquals(r.getContentsCount() + r.getCommonPrefixesCount(), items.size());
    return new ArrayList<>(items.values());
  }

  /** S3 V1 over a sorted key set: keys under the prefix, rolled up at the first delimiter. */
  private static List<String> v1Model(TreeSet<String> keys, String prefix, String delimiter) {
    List<String> out = new ArrayList<>();
    for (String k : keys) {
      if (!k.startsWith(prefix)) {
        continue;
      }
      int at = delimiter.isEmpty() ? -1 : k.indexOf(delimiter, prefix.length());
      String item = at < 0 ? "K:" + k : "P:" + k.substring(0, at + delimiter.length());
      if (out.isEmpty() || !out.get(out.size() - 1).equals(item)) {
        out.add(item);
      }
    }
    return out;
  }

  private String initiate(String bucket, String key) {
    return f.om.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder()
        .setVolume("vol").setBucket(bucket).setKey(key).build()).getUploadId();
  }

  private PartInfo part(String bucket, String key, String id, int n, long size, String etag) {
    return f.om.commitMultipartPart(CommitMultipartPartRequest.newBuilder().setVolume("vol")
        .setBucket(bucket).setKey(key).setUploadId(id).setPartNumber(n).setSize(size)
        .setEtag(etag).build()).getPart();
  }

  /** Pairs of (part number, ETag). */
  private static List<CompletedPart> parts(Object... pairs) {
    List<CompletedPart> out = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.add(CompletedPart.newBuilder().setPartNumber((Integer) pairs[i])
          .setEtag((String) pairs[i + 1]).build());
    }
    return out;
  }

  private static CompleteMultipartUploadRequest complete(String bucket, String key, String id,
      List<CompletedPart> parts) {
    return CompleteMultipartUploadRequest.newBuilder().setVolume("vol").setBucket(bucket)
        .setKey(key).setUploadId(id).addAllParts(parts).build();
  }

  private void assertBadCompletion(String id, String says, List<CompletedPart> parts) {
    StatusRuntimeException e = assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> f.om.completeMultipartUpload(complete("obs", "big/object", id, parts)));
    assertTrue(e.getStatus().getDescription().contains(says), e.getMessage());
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.lookupKey(lookup("obs", "big/object")));
  }

  private static AbortMultipartUploadRequest abort(String bucket, String key, String id) {
    return AbortMultipartUploadRequest.newBuilder().setVolume("vol").setBucket(bucket).setKey(key)
        .setUploadId(id).build();
  }

  private List<PartInfo> allParts(String bucket, String key, String id, int pageSize) {
    List<PartInfo> out = new ArrayList<>();
    int marker = 0;
    while (true) {
      ListPartsResponse r = f.om.listParts(ListPartsRequest.newBuilder().setVolume("vol")
          .setBucket(bucket).setKey(key).setUploadId(id).setPartNumberMarker(marker)
          .setMaxParts(pageSize).build());
      out.addAll(r.getPartsList());
      if (!r.getIsTruncated()) {
        return out;
      }
      marker = r.getNextPartNumberMarker();
    }
  }

  /** With {@code max} null, max_uploads is left absent: the page cap. */
  private ListMultipartUploadsResponse uploads(String bucket, String prefix, String keyMarker,
      String uploadMarker, Integer max) {
    ListMultipartUploadsRequest.Builder req = ListMultipartUploadsRequest.newBuilder()
        .setVolume("vol").setBucket(bucket).setPrefix(prefix).setKeyMarker(keyMarker)
        .setUploadIdMarker(uploadMarker);
    if (max != null) {
      req.setMaxUploads(max);
    }
    return f.om.listMultipartUploads(req.build());
  }

  private static CreateSnapshotRequest snapshot(String bucket, String name) {
    return CreateSnapshotRequest.newBuilder().setVolume("vol").setBucket(bucket).setName(name)
        .build();
  }

  private static LookupSnapshotKeyRequest snapKey(String snapshot, String key) {
    return LookupSnapshotKeyRequest.newBuilder().setVolume("vol").setBucket("obs")
        .setSnapshotName(snapshot).setKey(key).build();
  }

  private static StatusRuntimeException assertStatus(Status.Code code, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getMessage());
    assertTrue(e.getStatus().getDescription() != null && !e.getStatus().getDescription().isEmpty(),
        "a message says what to fix");
    return e;
  }
}
