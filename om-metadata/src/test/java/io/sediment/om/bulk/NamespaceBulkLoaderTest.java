package io.sediment.om.bulk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link NamespaceBulkLoader} against the write path: a namespace bulk-loaded into one store and
 * the same namespace written call by call into another, under the same clock, hold the same rows
 * in every table byte for byte, the same next object id and the same counters, store-wide and per
 * bucket, and both pass the counter check of {@code sediment verify} (maintained counters equal a
 * full scan). Afterwards the bulk-loaded data takes writes, lookups, listings and deletes like any
 * other. A plan the store refuses changes nothing; a load that fails after its files were
 * ingested removes them again.
 */
class NamespaceBulkLoaderTest {

  private final MutableClock clock = new MutableClock();

  @RegisterExtension
  final OmStoreExtension bulkStore =
      OmStoreExtension.withOptions(() -> OmStoreOptions.defaults().withClock(clock));

  @RegisterExtension
  final OmStoreExtension writtenStore =
      OmStoreExtension.withOptions(() -> OmStoreOptions.defaults().withClock(clock));

  /**
   * Two volumes and two OBS buckets each whose names sort differently from their table keys
   * ({@code vol-b} before {@code vol}: '-' sorts below '/'), three uploads of two parts in each
   * OBS bucket, and a 60-entry tree of fanout 3 with 4 files per directory in each FSO bucket.
   */
  private static NamespacePlan plan() {
    return NamespacePlan.freon().volumes(List.of("vol", "vol-b")).owner("alice")
        .obsBuckets(List.of("obs", "obs-a")).fsoBuckets(List.of("fso"))
        .keysPerBucket(40).keySize(1000).uploadsPerBucket(3).partsPerUpload(2)
        .fsoEntries(60).fsoFanout(3).filesPerDirectory(4).fileSize(300).build();
  }

  @Test
  void aBulkLoadWritesTheRowsIdsAndCountersOfTheWritePath() {
    OmMetadataStore bulk = bulkStore.store();
    OmMetadataStore written = writtenStore.store();
    // Both stores start with the same next object id.
    NamespacePlan plan = plan();
    List<String> steps = new ArrayList<>();
    BulkLoadResult result = bulk.bulkLoader(2).load(plan, (step, message) -> steps.add(step
        + " " + message));
    writeThroughTheWritePath(written, plan);

    FsoTreeLayout tree = new FsoTreeLayout(60, 3, 4);
    assertEquals(12, tree.directories());
    assertEquals(48, tree.files());
    assertEquals(2 * 4 + 2 * 2 * (2 * 40 + 3 * 3) + 2 * (12 + 2 * 48), result.ids(),
        "volumes and buckets, then per OBS bucket 2 ids a key and 3 an upload, per FSO bucket "
            + "1 a directory and 2 a file");
    assertEquals(160 + 12 + 24 + 24 + 96, result.rows(),
        "keys, uploads, parts, directories and files");
    assertTrue(steps.get(0).startsWith("RESERVED"), steps.toString());
    assertTrue(steps.get(steps.size() - 1).startsWith("COMMITTED"), steps.toString());

    for (String table : bulk.dbStore().listTables()) {
      if (!table.equals(OmDBDefinition.META_TABLE.name())) {
        assertSameRows(table, rows(written, table), rows(bulk, table));
      }
    }
    assertEquals(2 * 12, rows(bulk, OmDBDefinition.DIRECTORY_TABLE.name()).size());
    assertEquals(nextId(written), nextId(bulk), "the next object id");
    assertEquals(written.counters(), bulk.counters());
    for (String v : plan.volumes()) {
      for (String b : List.of("obs", "obs-a", "fso")) {
        assertEquals(written.bucketCounters(v, b), bulk.bucketCounters(v, b), v + "/" + b);
      }
    }
    assertEquals(40L, bulk.bucketCounters("vol", "obs").get(OmCounter.KEYS));
    assertEquals(48L * 300, bulk.bucketCounters("vol-b", "fso").get(OmCounter.FILE_BYTES));
    assertCountersMatchAScan(bulk);
    assertCountersMatchAScan(written);
    assertEquals(listings(written), listings(bulk));
  }

  private static long nextId(OmMetadataStore om) {
    Table<String, byte[]> meta = om.dbStore().getTable(OmDBDefinition.META_TABLE);
    return OmContext.decodeLong(meta.get(OmDBDefinition.META_NEXT_OBJECT_ID));
  }

  /**
   * The writes a bulk load of {@code plan} stands for, in {@link NamespaceLayout}'s order: the
   * volumes with their buckets, then each bucket's contents; the FSO tree derived here on its
   * own from the shape {@link FsoTreeLayout} documents.
   */
  private static void writeThroughTheWritePath(OmMetadataStore om, NamespacePlan plan) {
    List<String[]> buckets = new ArrayList<>();
    for (String v : plan.volumes()) {
      om.createVolume(v, plan.owner());
      for (String b : plan.obsBuckets()) {
        om.createBucket(v, b, BucketLayout.OBJECT_STORE, null, 0);
        buckets.add(new String[] {v, b, "obs"});
      }
      for (String b : plan.fsoBuckets()) {
        om.createBucket(v, b, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
        buckets.add(new String[] {v, b, "fso"});
      }
    }
    for (String[] b : buckets) {
      if (b[2].equals("obs")) {
        for (long i = 0; i < plan.keysPerBucket(); i++) {
          OpenKeySession s = om.openKey(b[0], b[1], plan.keyName(i), null);
          om.commitKey(b[0], b[1], plan.keyName(i), s.clientId(), plan.keySize());
        }
        for (long u = 0; u < plan.uploadsPerBucket(); u++) {
          String key = plan.uploadKey(u);
          String uploadId = om.multipart().initiate(b[0], b[1], key, null);
          long id = OmKeys.parseId(uploadId);
          for (int p = 1; p <= plan.partsPerUpload(); p++) {
            om.multipart().commitPart(b[0], b[1], key, uploadId, p, plan.partSize(),
                NamespaceRows.etag(id + p));
          }
        }
      } else {
        writeTree(om, b[0], b[1], plan);
      }
    }
  }

  /** Directories in preorder, then the files of each container in preorder, F at a time. */
  private static void writeTree(OmMetadataStore om, String v, String b, NamespacePlan plan) {
    long f = plan.filesPerDirectory();
    long dirs = 0;
    while (dirs + (dirs + 1) * f < plan.fsoEntries()) {
      dirs++;
    }
    List<String> preorder = new ArrayList<>();
    preorder.add("");
    collect(0, "", dirs, plan.fsoFanout(), preorder);
    for (String dir : preorder.subList(1, preorder.size())) {
      om.fso().createDirectory(v, b, dir);
    }
    long files = plan.fsoEntries() - dirs;
    for (int c = 0; c < preorder.size() && files > 0; c++) {
      for (long i = 0; i < f && files > 0; i++, files--) {
        String leaf = String.format("f%010d", i);
        String path = preorder.get(c).isEmpty() ? leaf : preorder.get(c) + "/" + leaf;
        OpenKeySession s = om.fso().createFile(v, b, path, null);
        om.fso().commitFile(v, b, path, s.clientId(), plan.fileSize());
      }
    }
  }

  private static void collect(long node, String path, long dirs, long fanout, List<String> out) {
    for (long c = fanout * node + 1; c <= Math.min(dirs, fanout * node + fanout); c++) {
      String child = (path.isEmpty() ? "" : path + "/") + String.format("d%010d", c);
      out.add(child);
      collect(c, child, dirs, fanout, out);
    }
  }

  /** The two lists of rows are equal; else names the first that differs, not the whole table. */
  private static void assertSameRows(String table, List<String> expected, List<String> actual) {
    for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
      assertEquals(expected.get(i), actual.get(i), table + " row " + i);
    }
    assertEquals(expected.size(), actual.size(), table + " rows");
  }

  /** Every row of a table as base64 key and value, in key order. */
  private static List<String> rows(OmMetadataStore om, String table) {
    List<String> out = new ArrayList<>();
    Base64.Encoder b64 = Base64.getEncoder();
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
             om.dbStore().getTable(table).iterator(null, IteratorType.KEY_AND_VALUE)) {
      it.forEachRemaining(kv -> out.add(b64.encodeToString(kv.getKey()) + "="
          + b64.encodeToString(kv.getValue())));
    }
    return out;
  }

  /** What {@code sediment verify} checks of the counters: maintained equals a full scan. */
  static void assertCountersMatchAScan(OmMetadataStore om) {
    OmInsight.CounterComparison c = om.insight().compareCounters();
    assertEquals(nonZero(c.scanned().totals()), nonZero(c.maintained().totals()), "store");
    Map<String, Map<OmCounter, Long>> scanned = new HashMap<>();
    Map<String, Map<OmCounter, Long>> maintained = new HashMap<>();
    c.scanned().buckets().forEach((b, m) -> scanned.put(b, nonZero(m)));
    c.maintained().buckets().forEach((b, m) -> maintained.put(b, nonZero(m)));
    assertEquals(scanned, maintained, "buckets");
  }

  private static Map<OmCounter, Long> nonZero(Map<OmCounter, Long> m) {
    Map<OmCounter, Long> out = new HashMap<>();
    if (m != null) {
      m.forEach((k, v) -> {
        if (v != 0) {
          out.put(k, v);
        }
      });
    }
    return out;
  }

  /** Every listing of the namespace: ListObjectsV2 pages, uploads, recursive ListStatus. */
  private static List<String> listings(OmMetadataStore om) {
    List<String> out = new ArrayList<>();
    for (String v : List.of("vol", "vol-b")) {
      for (String b : List.of("obs", "obs-a")) {
        String token = null;
        do {
          ListObjectsV2Result page = om.listObjectsV2(ListObjectsV2Request.of(v, b)
              .withMaxKeys(7).withContinuationToken(token));
          page.contents().forEach(k -> out.add(v + "/" + b + "/" + k.getKeyName() + " "
              + k.getDataSize() + " " + k.getObjectId()));
          token = page.truncated() ? page.nextContinuationToken() : null;
        } while (token != null);
        MultipartUploadListing uploads = om.multipart().list(v, b, "", null, null, 1000);
        for (MultipartUploadInfo u : uploads.uploads()) {
          out.add(u.getKeyName() + " " + u.getUploadId() + " "
              + om.multipart().listParts(v, b, u.getKeyName(), u.getUploadId(), 0, 100)
                  .parts().size());
        }
      }
      ListPage<FileStatus> tree = om.fso().listStatus(v, "fso", "", true, null, 1000, null);
      tree.items().forEach(s -> out.add(s.path() + " " + s.isDirectory() + " " + s.size()));
    }
    return out;
  }

  @Test
  void bulkLoadedDataTakesWritesLookupsListingsAndDeletes() {
    OmMetadataStore om = bulkStore.store();
    NamespacePlan plan = NamespacePlan.freon().keysPerBucket(2_000).uploadsPerBucket(5)
        .partsPerUpload(2).fsoEntries(500).fsoFanout(4).filesPerDirectory(10).build();
    om.bulkLoader(3).load(plan, (step, message) -> { });
    assertEquals(2_000L, om.bucketCounters("freon", "obs").get(OmCounter.KEYS));

    KeyInfo k = om.lookupKey("freon", "obs", "key-0000001234");
    assertEquals(4096, k.getDataSize());
    OpenKeySession s = om.openKey("freon", "obs", "key-0000001234", null);
    assertTrue(s.clientId() > k.getObjectId(), "new ids come after the loaded ones");
    om.commitKey("freon", "obs", "key-0000001234", s.clientId(), 7);
    om.deleteKey("freon", "obs", "key-0000000000");
    s = om.openKey("freon", "obs", "new-key", null);
    om.commitKey("freon", "obs", "new-key", s.clientId(), 9);
    ListObjectsV2Result first = om.listObjectsV2(ListObjectsV2Request.of("freon", "obs")
        .withMaxKeys(3));
    assertEquals(List.of("key-0000000001", "key-0000000002", "key-0000000003"),
        first.contents().stream().map(KeyInfo::getKeyName).toList());
    ListObjectsV2Result last = om.listObjectsV2(ListObjectsV2Request.of("freon", "obs")
        .withPrefix("n"));
    assertEquals(List.of("new-key"), last.contents().stream().map(KeyInfo::getKeyName).toList());

    String upload = om.multipart().list("freon", "obs", "", null, null, 10).uploads().get(2)
        .getUploadId();
    String uploadKey = plan.uploadKey(2);
    long uploadNumber = OmKeys.parseId(upload);
    om.multipart().commitPart("freon", "obs", uploadKey, upload, 3, 10, "etag-3");
    KeyInfo completed = om.multipart().complete("freon", "obs", uploadKey, upload, List.of(
        new CompletedPart(1, NamespaceRows.etag(uploadNumber + 1)),
        new CompletedPart(2, NamespaceRows.etag(uploadNumber + 2)),
        new CompletedPart(3, "etag-3")));
    assertEquals(2 * plan.partSize() + 10, completed.getDataSize());

    assertTrue(om.fso().getFileStatus("freon", "fso", "f0000000009").size() == 4096);
    String dir = "d0000000001/d0000000005";
    assertTrue(om.fso().getFileStatus("freon", "fso", dir).isDirectory());
    ListPage<FileStatus> children = om.fso().listStatus("freon", "fso", dir, false, null, 100,
        null);
    assertEquals(10 + 4, children.items().size(), "its four subdirectories and ten files");
    s = om.fso().createFile("freon", "fso", dir + "/added", null);
    om.fso().commitFile("freon", "fso", dir + "/added", s.clientId(), 5);
    om.fso().deleteFile("freon", "fso", dir + "/f0000000000");
    om.fso().deleteDirectory("freon", "fso", "d0000000002", true);
    while (om.fso().purgeDeletedDirectories(1000) > 0) {
      // drain the subtree
    }
    assertThrows(OmException.class, () -> om.fso().getFileStatus("freon", "fso",
        "d0000000002/f0000000000"));
    assertCountersMatchAScan(om);
    Map<OmCounter, Long> counters = om.counters();
    OmMetadataStore reopened = bulkStore.reopen();
    assertEquals(counters, reopened.counters());
    assertEquals(counters, reopened.recount(), "a recount finds what was maintained");
    assertEquals(7, reopened.lookupKey("freon", "obs", "key-0000001234").getDataSize());
  }

  @Test
  void aPlanTheStoreRefusesChangesNothing() {
    OmMetadataStore om = bulkStore.store();
    om.createVolume("freon", "bob");
    Map<OmCounter, Long> before = om.counters();
    long next = nextId(om);
    OmException exists = assertThrows(OmException.class, () -> om.bulkLoader(1).load(
        NamespacePlan.freon().keysPerBucket(10).build(), (step, message) -> { }));
    assertEquals(OmException.Code.ALREADY_EXISTS, exists.code());
    OmMetadataStore shallow = bulkStore.reopen(OmStoreOptions.defaults().withClock(clock)
        .withMaxPathDepth(2));
    OmException deep = assertThrows(OmException.class, () -> shallow.bulkLoader(1).load(
        NamespacePlan.freon().volumes(List.of("other")).fsoEntries(100).fsoFanout(2)
            .filesPerDirectory(1).build(), (step, message) -> { }));
    assertEquals(OmException.Code.INVALID_ARGUMENT, deep.code());
    assertTrue(deep.getMessage().contains("maximum path depth"), deep.getMessage());
    assertThrows(OmException.class, () -> NamespacePlan.freon().volumes(List.of("a", "bb"))
        .build(), "bad volume names");
    assertThrows(OmException.class, () -> NamespacePlan.freon().obsBuckets(List.of("fso"))
        .build(), "a bucket named twice");
    assertThrows(OmException.class, () -> NamespacePlan.freon().keysPerBucket(-1).build());
    assertEquals(before, shallow.counters());
    assertEquals(next, nextId(shallow), "no id was spent");
    assertTrue(shallow.dbStore().getTable(OmDBDefinition.KEY_TABLE).isEmpty());
  }

  @Test
  void anInterruptedLoadStopsItsGeneratorsIngestsNothingAndLeavesNoFile() throws Exception {
    OmMetadataStore om = bulkStore.store();
    NamespacePlan plan = NamespacePlan.freon().keysPerBucket(200_000).uploadsPerBucket(1_000)
        .fsoEntries(50_000).build();
    try {
      IllegalStateException stopped = assertThrows(IllegalStateException.class,
          () -> om.bulkLoader(3).load(plan, (step, message) -> {
            if (step == NamespaceBulkLoader.Step.RESERVED) {
              Thread.currentThread().interrupt();
            }
          }));
      assertTrue(stopped.getMessage().contains("Interrupted"), stopped.getMessage());
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
    } finally {
      Thread.interrupted();
    }
    for (String table : List.of("keyTable", "multipartInfoTable", "fileTable")) {
      assertTrue(om.dbStore().getTable(table).isEmpty(), table);
    }
    try (var files = java.nio.file.Files.list(om.dbStore().getPath())) {
      assertEquals(List.of(), files.filter(f -> f.getFileName().toString()
          .startsWith("bulk-load-")).toList(), "no work directory is left");
    }
    assertEquals(0L, om.counters().get(OmCounter.VOLUMES));
    assertTrue(nextId(om) > 400_000, "only the reserved ids are spent");
    om.bulkLoader(3).load(NamespacePlan.freon().keysPerBucket(10).build(), (step, message) -> { });
    assertEquals(10L, om.bucketCounters("freon", "obs").get(OmCounter.KEYS), "a new load works");
  }

  @Test
  void aLoadThatFailsAfterIngestingRemovesWhatItIngested() {
    OmMetadataStore om = bulkStore.store();
    NamespacePlan plan = NamespacePlan.freon().keysPerBucket(300).uploadsPerBucket(4)
        .partsPerUpload(3).fsoEntries(200).build();
    RuntimeException failure = assertThrows(RuntimeException.class, () -> om.bulkLoader(3)
        .load(plan, (step, message) -> {
          if (step == NamespaceBulkLoader.Step.INGESTED && message.contains("fileTable")) {
            // Another writer takes the volume's name while the load is between steps.
            om.createVolume("freon", "mallory");
          }
        }));
    assertTrue(failure instanceof OmException e
        && e.code() == OmException.Code.ALREADY_EXISTS, String.valueOf(failure));
    for (String table : List.of("keyTable", "multipartInfoTable", "multipartPartsTable",
        "directoryTable", "fileTable")) {
      assertTrue(om.dbStore().getTable(table).isEmpty(), table + " holds nothing of the load");
    }
    assertEquals(1L, om.counters().get(OmCounter.VOLUMES));
    assertEquals(0L, om.counters().get(OmCounter.KEYS));
    assertCountersMatchAScan(om);
    BucketInfo created = om.createBucket("freon", "obs", BucketLayout.OBJECT_STORE, null, 0);
    assertTrue(om.listObjectsV2(ListObjectsV2Request.of("freon", "obs")).contents().isEmpty(),
        "a bucket of the load's name starts empty: " + created.getBucketName());
  }
}
