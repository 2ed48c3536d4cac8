package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartParts;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.multipart.PartListing;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.PartInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Multipart uploads: initiate → commit parts (a re-upload replaces a part and hands the old one to
 * deletedTable) → list parts → complete (the key's size is the sum, the previous version and the
 * parts left out go to deletedTable, the upload row goes) or abort; every rejected completion
 * leaves every table unchanged; counters stay equal to a full scan.
 */
class MultipartUploadTest {

  private static final String V = "vol1";
  private static final String B = "buck1";
  private static final long MIB = 1L << 20;
  private static final long MIN = MultipartUploads.MIN_PART_SIZE;

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(
          OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
  }

  private Map<String, KeyInfo> deletedRows() {
    Map<String, KeyInfo> out = new TreeMap<>();
    try (TableIterator<String, KeyValue<String, KeyInfo>> it =
             om.dbStore().getTable(OmDBDefinition.DELETED_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, KeyInfo> kv = it.next();
        out.put(kv.getKey(), kv.getValue());
      }
    }
    return out;
  }

  private void assertCountersMatchScan() {
    assertEquals(om.countFromScan(), om.counters());
  }

  /**
   * Parts are rows of their own: a part commit rewrites no earlier part (the upload row keeps its
   * size however many parts follow), and completion (of 40 parts, past the range-delete
   * threshold) or abort (of 2) leaves no part row behind.
   */
  @Test
  void aPartCommitWritesOnePartRowAndCompletionOrAbortRemovesThemAll() {
    String big = om.multipart().initiate(V, B, "big", null);
    String small = om.multipart().initiate(V, B, "small", null);
    byte[] uploadKey = OmKeys.utf8(OmKeys.multipartKey(V, B, "big", big));
    Table<byte[], byte[]> rawUploads =
        om.dbStore().getTable(OmDBDefinition.MULTIPART_INFO_TABLE.name());
    om.multipart().commitPart(V, B, "big", big, 1, MIN, "e1");
    int rowAfterOne = rawUploads.get(uploadKey).length;
    for (int n = 2; n <= 40; n++) {
      om.multipart().commitPart(V, B, "big", big, n, MIN, "e" + n);
    }
    om.multipart().commitPart(V, B, "small", small, 1, MIN, "s1");
    om.multipart().commitPart(V, B, "small", small, 2, MIN, "s2");
    assertEquals(rowAfterOne, rawUploads.get(uploadKey).length,
        "the upload row does not grow with its parts");
    assertEquals(40, FsoTestSupport.keys(om, OmDBDefinition.MULTIPART_PARTS_TABLE,
        OmKeys.multipartPartsPrefix(big)).size());
    PartListing page = om.multipart().listParts(V, B, "big", big, 17, 5);
    assertEquals(List.of(18, 19, 20, 21, 22),
        page.parts().stream().map(PartInfo::getPartNumber).toList());
    assertEquals(22, page.nextPartNumberMarker());

    List<CompletedPart> all = new ArrayList<>();
    for (int n = 1; n <= 40; n++) {
      all.add(new CompletedPart(n, "e" + n));
    }
    om.multipart().complete(V, B, "big", big, all);
    om.multipart().abort(V, B, "small", small);
    assertEquals(List.of(), FsoTestSupport.keys(om, OmDBDefinition.MULTIPART_PARTS_TABLE));
    assertEquals(2, deletedRows().size(), "the aborted upload's two parts await the purge");
    assertCountersMatchScan();
  }

  /** A store written before multipartPartsTable kept parts inline: opening it moves them. */
  @Test
  @SuppressWarnings("deprecation")
  void inlinePartsOfAnOlderStoreAreMovedToTheirOwnRowsWhenItOpens() {
    String uploadId = om.multipart().initiate(V, B, "old", null);
    String key = OmKeys.multipartKey(V, B, "old", uploadId);
    Table<String, MultipartUploadInfo> uploads =
        om.dbStore().getTable(OmDBDefinition.MULTIPART_INFO_TABLE);
    MultipartUploadInfo.Builder inline = uploads.get(key).toBuilder();
    for (int n = 1; n <= 3; n++) {
      inline.addLegacyParts(PartInfo.newBuilder().setPartNumber(n).setSize(MIN)
          .setEtag("e" + n).setObjectId(1000 + n));
    }
    uploads.put(key, inline.build());
    om = omStore.reopen(OmStoreOptions.defaults());
    assertEquals(0, om.dbStore().getTable(OmDBDefinition.MULTIPART_INFO_TABLE).get(key)
        .getLegacyPartsCount());
    assertEquals(List.of(1, 2, 3), om.multipart().listParts(V, B, "old", uploadId, 0, 10).parts().stream()
        .map(PartInfo::getPartNumber).toList());
    KeyInfo done = om.multipart().complete(V, B, "old", uploadId, List.of(
        new CompletedPart(1, "e1"), new CompletedPart(2, "e2"), new CompletedPart(3, "e3")));
    assertEquals(3 * MIN, done.getDataSize());
    assertEquals(0, new MultipartParts(om.context()).moveInlineParts(), "nothing left to move");
    assertCountersMatchScan();
  }

  @Test
  void wholeLifecycleCommitsTheSumOfThePartsAsTheKey() {
    String uploadId = om.multipart().initiate(V, B, "big/object", "bob");
    assertEquals(OmKeys.ID_WIDTH, uploadId.length());
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.MULTIPART_UPLOADS));
    om.multipart().commitPart(V, B, "big/object", uploadId, 1, 6 * MIB, "etag-1");
    om.multipart().commitPart(V, B, "big/object", uploadId, 3, 2 * MIB, "etag-3");
    om.multipart().commitPart(V, B, "big/object", uploadId, 2, MIN, "etag-2");

    PartListing parts = om.multipart().listParts(V, B, "big/object", uploadId, 0, 100);
    assertEquals(List.of(1, 2, 3), parts.parts().stream().map(PartInfo::getPartNumber).toList(),
        "parts are listed in part number order whatever the upload order");
    assertFalse(parts.truncated());

    KeyInfo key = om.multipart().complete(V, B, "big/object", uploadId, List.of(
        new CompletedPart(1, "etag-1"), new CompletedPart(2, "\"etag-2\""),
        new CompletedPart(3, "etag-3")));
    assertEquals(6 * MIB + MIN + 2 * MIB, key.getDataSize());
    assertEquals("bob", key.getOwner());
    assertTrue(key.getMetadataOrThrow("ETag").endsWith("-3"), "S3 multipart ETag ends in -N");
    assertEquals(key, om.lookupKey(V, B, "big/object"));
    assertEquals(OmKeys.parseId(uploadId), key.getObjectId(),
        "the key takes the upload's object id");

    assertTrue(om.multipart().list(V, B, null, null, null, 10).uploads().isEmpty());
    assertRejected(om, Code.NOT_FOUND,
        () -> om.multipart().listParts(V, B, "big/object", uploadId, 0, 10));
    Map<OmCounter, Long> bucket = om.bucketCounters(V, B);
    assertEquals(0, bucket.get(OmCounter.MULTIPART_UPLOADS));
    assertEquals(1, bucket.get(OmCounter.KEYS));
    assertEquals(key.getDataSize(), bucket.get(OmCounter.KEY_BYTES));
    assertTrue(deletedRows().isEmpty(), "every part became the key: nothing to purge");
    assertCountersMatchScan();
  }

  @Test
  void reuploadingAPartReplacesItAndHandsTheOldDataToTheKeyPurge() {
    String uploadId = om.multipart().initiate(V, B, "k", null);
    PartInfo first = om.multipart().commitPart(V, B, "k", uploadId, 1, 7 * MIB, "old");
    PartInfo second = om.multipart().commitPart(V, B, "k", uploadId, 1, 8 * MIB, "new");
    assertNotEquals(first.getObjectId(), second.getObjectId());

    List<PartInfo> parts = om.multipart().listParts(V, B, "k", uploadId, 0, 10).parts();
    assertEquals(List.of(second), parts, "one part 1: the re-upload");
    Map<String, KeyInfo> deleted = deletedRows();
    assertEquals(1, deleted.size());
    KeyInfo old = deleted.get(OmKeys.deletedKey(V, B, "k", first.getObjectId()));
    assertEquals(7 * MIB, old.getDataSize());
    assertEquals(uploadId, old.getMetadataOrThrow("multipartUploadId"));
    assertEquals("1", old.getMetadataOrThrow("partNumber"));
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.DELETED_KEYS));
    assertEquals(7 * MIB, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));

    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().complete(V, B, "k",
        uploadId, List.of(new CompletedPart(1, "old"))));
    om.multipart().complete(V, B, "k", uploadId, List.of(new CompletedPart(1, "new")));
    assertEquals(8 * MIB, om.lookupKey(V, B, "k").getDataSize());
    assertCountersMatchScan();
  }

  @Test
  void completingOverAnExistingKeyMovesItAndTheUnlistedPartsToDeletedTable() {
    KeyInfo previous = put(om, V, B, "k", 123);
    String uploadId = om.multipart().initiate(V, B, "k", null);
    om.multipart().commitPart(V, B, "k", uploadId, 1, MIN, "a");
    PartInfo unlisted = om.multipart().commitPart(V, B, "k", uploadId, 2, 9, "b");
    om.multipart().commitPart(V, B, "k", uploadId, 3, 10, "c");

    KeyInfo key = om.multipart().complete(V, B, "k", uploadId,
        List.of(new CompletedPart(1, "a"), new CompletedPart(3, "c")));
    assertEquals(MIN + 10, key.getDataSize(), "part 2 is left out");
    Map<String, KeyInfo> deleted = deletedRows();
    assertEquals(2, deleted.size());
    assertEquals(123, deleted.get(OmKeys.deletedKey(V, B, "k", previous.getObjectId()))
        .getDataSize());
    assertEquals(9, deleted.get(OmKeys.deletedKey(V, B, "k", unlisted.getObjectId()))
        .getDataSize());
    assertEquals(1, om.bucketCounters(V, B).get(OmCounter.KEYS));
    assertEquals(132, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));
    assertCountersMatchScan();
  }

  @Test
  void abortHandsEveryPartToTheKeyPurgeAndForgetsTheUpload() {
    String uploadId = om.multipart().initiate(V, B, "k", null);
    om.multipart().commitPart(V, B, "k", uploadId, 1, 5, "a");
    om.multipart().commitPart(V, B, "k", uploadId, 2, 6, "b");
    om.multipart().abort(V, B, "k", uploadId);

    assertEquals(2, deletedRows().size());
    assertEquals(0, om.bucketCounters(V, B).get(OmCounter.MULTIPART_UPLOADS));
    assertEquals(11, om.bucketCounters(V, B).get(OmCounter.DELETED_KEY_BYTES));
    assertRejected(om, Code.NOT_FOUND, () -> om.multipart().abort(V, B, "k", uploadId));
    assertRejected(om, Code.NOT_FOUND, () -> om.multipart().commitPart(V, B, "k", uploadId, 1, 1, "x"));
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey(V, B, "k"));
    assertCountersMatchScan();
  }

  @Test
  void everyInvalidCompletionIsRejectedAndChangesNothing() {
    String uploadId = om.multipart().initiate(V, B, "k", null);
    om.multipart().commitPart(V, B, "k", uploadId, 1, MIN, "a");
    om.multipart().commitPart(V, B, "k", uploadId, 2, MIN - 1, "b");
    om.multipart().commitPart(V, B, "k", uploadId, 3, 1, "c");

    List<List<CompletedPart>> invalid = List.of(
        List.of(),
        List.of(new CompletedPart(2, "b"), new CompletedPart(1, "a")),
        List.of(new CompletedPart(1, "a"), new CompletedPart(1, "a")),
        List.of(new CompletedPart(1, "a"), new CompletedPart(4, "d")),
        List.of(new CompletedPart(1, "wrong")),
        List.of(new CompletedPart(2, "b"), new CompletedPart(3, "c")),
        List.of(new CompletedPart(0, "a")),
        List.of(new CompletedPart(1, "")));
    for (List<CompletedPart> parts : invalid) {
      OmException e = assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.multipart().complete(V, B, "k", uploadId, parts));
      assertFalse(e.getMessage().isEmpty());
    }
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.multipart().complete(V, B, "k", uploadId, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.multipart().complete(V, B, "other",
        uploadId, List.of(new CompletedPart(1, "a"))));
    assertRejected(om, Code.NOT_FOUND, () -> om.multipart().complete(V, B, "k",
        OmKeys.id(999_999), List.of(new CompletedPart(1, "a"))));

    // The upload is still intact: the smallest valid completion works.
    KeyInfo key = om.multipart().complete(V, B, "k", uploadId,
        List.of(new CompletedPart(1, "a"), new CompletedPart(2, "b")));
    assertEquals(2 * MIN - 1, key.getDataSize(), "the last part may be small");
    assertCountersMatchScan();
  }

  @Test
  void badArgumentsAreRejectedWithoutChangingTheStore() {
    String uploadId = om.multipart().initiate(V, B, "k", null);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().commitPart(V, B, "k", uploadId, 0, 1, "e"));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.multipart().commitPart(V, B, "k", uploadId, 10_001, 1, "e"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().commitPart(V, B, "k", uploadId, 1, -1, "e"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().commitPart(V, B, "k", uploadId, 1, 1, null));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().commitPart(V, B, "k", "xyz", 1, 1, "e"));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.multipart().commitPart(V, B, "k", "00000000000000AB", 1, 1, "e"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().commitPart(V, B, "", uploadId, 1, 1, "e"));
    assertRejected(om, Code.NOT_FOUND, () -> om.multipart().commitPart(V, "nope", "k", uploadId, 1, 1, "e"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().listParts(V, B, "k", uploadId, -1, 10));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.multipart().listParts(V, B, "k", uploadId, 0, -1));
    assertRejected(om, Code.NOT_FOUND, () -> om.multipart().initiate(V, "nope", "k", null));
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteBucket(V, B));

    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.multipart().initiate(V, "fso", "k", null));
    assertRejected(om, Code.UNIMPLEMENTED,
        () -> om.multipart().list(V, "fso", null, null, null, 10));
  }

  @Test
  void partsArePagedByPartNumberMarker() {
    String uploadId = om.multipart().initiate(V, B, "k", null);
    List<Integer> numbers = List.of(1, 2, 5, 9, 10, 11, 100, 10_000);
    for (int n : numbers) {
      om.multipart().commitPart(V, B, "k", uploadId, n, n, "e" + n);
    }
    for (int pageSize = 1; pageSize <= 4; pageSize++) {
      List<Integer> seen = new ArrayList<>();
      int marker = 0;
      while (true) {
        PartListing page = om.multipart().listParts(V, B, "k", uploadId, marker, pageSize);
        page.parts().forEach(p -> seen.add(p.getPartNumber()));
        if (!page.truncated()) {
          assertEquals(0, page.nextPartNumberMarker());
          break;
        }
        assertEquals(pageSize, page.parts().size());
        marker = page.nextPartNumberMarker();
        assertEquals(seen.get(seen.size() - 1), marker);
      }
      assertEquals(numbers, seen, "page size " + pageSize);
    }
    assertEquals(List.of(9, 10), om.multipart().listParts(V, B, "k", uploadId, 6, 2).parts().stream()
        .map(PartInfo::getPartNumber).toList(), "a marker between parts");
    assertTrue(om.multipart().listParts(V, B, "k", uploadId, 10_000, 5).parts().isEmpty());
  }

  @Test
  void uploadIdsAreUniqueAndIncreaseWithInitiation() {
    String a = om.multipart().initiate(V, B, "k", null);
    String b = om.multipart().initiate(V, B, "k", null);
    String c = om.multipart().initiate(V, B, "j", null);
    assertTrue(a.compareTo(b) < 0 && b.compareTo(c) < 0);
    om.multipart().abort(V, B, "k", a);
    assertEquals(List.of(c, b), om.multipart().list(V, B, null, null, null, 10).uploads()
        .stream().map(u -> u.getUploadId()).toList(), "key order, then initiation order");
    assertCountersMatchScan();
  }

  @Test
  void concurrentPartCommitsToOneUploadAreAllKept() throws Exception {
    String uploadId = om.multipart().initiate(V, B, "k", null);
    int threads = 8;
    int perThread = 25;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t * perThread + 1;
        done.add(pool.submit(() -> {
          for (int n = first; n < first + perThread; n++) {
            om.multipart().commitPart(V, B, "k", uploadId, n, n, "e" + n);
          }
        }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<Integer> numbers = om.multipart().listParts(V, B, "k", uploadId, 0, 1000).parts().stream()
        .map(PartInfo::getPartNumber).toList();
    assertEquals(threads * perThread, numbers.size(), "no part commit lost an update");
    for (int i = 0; i < numbers.size(); i++) {
      assertEquals(i + 1, numbers.get(i));
    }
  }
}
