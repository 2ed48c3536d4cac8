package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.openfiles.OpenFileEntry;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code listOpenFiles} for every bucket layout: openKeyTable for OBJECT_STORE and LEGACY,
 * openFileTable for FSO (rows written through the table inside a counted write, as the FSO
 * namespace will). Pages in table key order with exact truncation, a token bound to its bucket,
 * other buckets never listed, and a total that is the maintained counter (equal to a scan).
 */
class ListOpenFilesTest {

  private static final String V = "vol1";

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(
          OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
  }

  /** What a listing should show: path and client id, by table key. */
  record Open(String path, long clientId) {
  }

  /** Opens {@code path} in {@code bucket} the way its layout does; returns the table key. */
  private String openFile(String bucket, String path) {
    BucketInfo b = om.getBucketInfo(V, bucket);
    if (b.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      OpenKeySession s = om.openKey(V, bucket, path, null);
      return OmKeys.openKey(V, bucket, path, s.clientId());
    }
    OpenKeySession s = om.fso().createFile(V, bucket, path, null);
    int slash = path.lastIndexOf('/');
    long parent = slash < 0 ? b.getObjectId()
        : om.fso().getFileStatus(V, bucket, path.substring(0, slash)).objectId();
    return OmKeys.openFileKey(b.getVolumeId(), b.getObjectId(), parent,
        path.substring(slash + 1), s.clientId());
  }

  /**
   * An FSO openFileTable row {@code /volId/bucketId/parentId/leaf/<clientId>} written in one
   * counted write (OPEN_FILES), as FsoFiles writes it.
   */
  static String writeOpenFile(OmMetadataStore om, BucketInfo b, long parentId, String path,
      long size, long creationTime) {
    Table<String, KeyInfo> table = om.dbStore().getTable(OmDBDefinition.OPEN_FILE_TABLE);
    return om.context().write(txn -> {
      long objectId = txn.allocateId();
      long clientId = txn.allocateId();
      String leaf = path.substring(path.lastIndexOf('/') + 1);
      String key = OmKeys.openFileKey(b.getVolumeId(), b.getObjectId(), parentId, leaf, clientId);
      table.putWithBatch(txn.batch(), key, KeyInfo.newBuilder()
          .setVolumeName(b.getVolumeName())
          .setBucketName(b.getBucketName())
          .setKeyName(path)
          .setFileName(leaf)
          .setParentId(parentId)
          .setObjectId(objectId)
          .setClientId(clientId)
          .setDataSize(size)
          .setCreationTime(creationTime)
          .setModificationTime(creationTime)
          .build());
      txn.count(b.getObjectId(), OmCounter.OPEN_FILES, 1);
      return key;
    });
  }

  private long scanCount(BucketInfo b) {
    boolean fso = b.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
    String prefix = fso ? OmKeys.fsoBucketPrefix(b.getVolumeId(), b.getObjectId())
        : OmKeys.bucketPrefix(b.getVolumeName(), b.getBucketName());
    long n = 0;
    try (TableIterator<String, KeyValue<String, KeyInfo>> it = om.dbStore()
        .getTable(fso ? OmDBDefinition.OPEN_FILE_TABLE : OmDBDefinition.OPEN_KEY_TABLE)
        .iterator(prefix, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  private static List<Open> opens(OpenFilesPage page) {
    List<Open> out = new ArrayList<>();
    for (OpenFileEntry e : page.entries()) {
      assertEquals(e.clientId(), e.info().getClientId());
      out.add(new Open(e.path(), e.clientId()));
    }
    return out;
  }

  private List<Open> pageToTheEnd(String bucket, int max, long expectedTotal) {
    List<Open> out = new ArrayList<>();
    String token = null;
    while (true) {
      OpenFilesPage page = om.openFiles().list(V, bucket, max, token);
      assertEquals(expectedTotal, page.totalOpenKeyCount(), "the total is the same on every page");
      out.addAll(opens(page));
      if (!page.truncated()) {
        assertNull(page.nextToken());
        return out;
      }
      assertEquals(max, page.entries().size());
      token = page.nextToken();
      assertNotNull(token);
    }
  }

  @ParameterizedTest
  @EnumSource(value = BucketLayout.class, names = {"OBJECT_STORE", "LEGACY",
      "FILE_SYSTEM_OPTIMIZED"})
  void pagesListEveryOpenEntryOfTheBucketOnceInKeyOrder(BucketLayout layout) {
    om.createBucket(V, "buck1", layout, null, 0);
    om.createBucket(V, "buck1-x", layout, null, 0);
    TreeMap<String, Open> model = new TreeMap<>(OmTestSupport.UTF8_ORDER);
    for (String path : new String[] {"b", "a", "c", "a", "dir/x", "z z"}) {
      String key = openFile("buck1", path);
      model.put(key, new Open(path, OmKeys.suffixId(key)));
    }
    openFile("buck1-x", "a");
    BucketInfo b = om.getBucketInfo(V, "buck1");

    OpenFilesPage all = om.openFiles().list(V, "buck1", 100, null);
    assertEquals(new ArrayList<>(model.values()), opens(all));
    assertFalse(all.truncated());
    assertNull(all.nextToken());
    OmCounter counter = layout == BucketLayout.FILE_SYSTEM_OPTIMIZED ? OmCounter.OPEN_FILES
        : OmCounter.OPEN_KEYS;
    assertEquals(6, all.totalOpenKeyCount());
    assertEquals(om.bucketCounters(V, "buck1").get(counter), all.totalOpenKeyCount());
    assertEquals(scanCount(b), all.totalOpenKeyCount());
    long now = om.options().clock().millis();
    for (OpenFileEntry e : all.entries()) {
      assertTrue(e.creationTime() > 0 && e.creationTime() <= now);
    }

    for (int max = 1; max <= 4; max++) {
      assertEquals(new ArrayList<>(model.values()), pageToTheEnd("buck1", max, 6),
          "page size " + max);
    }
    OpenFilesPage first = om.openFiles().list(V, "buck1", 5, null);
    assertTrue(first.truncated(), "5 of 6");
    OpenFilesPage last = om.openFiles().list(V, "buck1", 5, first.nextToken());
    assertEquals(1, last.entries().size());
    assertFalse(last.truncated());
    assertFalse(om.openFiles().list(V, "buck1", 6, null).truncated(), "an exactly full page");
  }

  @Test
  void committedKeysLeaveTheListingAndTheTotal() {
    om.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    OpenKeySession a = om.openKey(V, "obs", "a", null);
    om.openKey(V, "obs", "b", null);
    OpenFilesPage first = om.openFiles().list(V, "obs", 1, null);
    om.commitKey(V, "obs", "a", a.clientId(), 10);
    OpenFilesPage next = om.openFiles().list(V, "obs", 1, first.nextToken());
    assertEquals(List.of("b"), next.entries().stream().map(OpenFileEntry::path).toList(),
        "the token resumes after a key committed meanwhile");
    assertEquals(1, next.totalOpenKeyCount());
    assertEquals(scanCount(om.getBucketInfo(V, "obs")), next.totalOpenKeyCount());
  }

  /**
   * An FSO open file belongs to its parent directory by object id: after an ancestor is renamed
   * the listing (and Recon's) shows the path the commit now takes; a file whose directory was
   * deleted shows the path it was opened at until the purge discards it.
   */
  @Test
  void fsoOpenFilesAreListedAtTheirCurrentPathAfterAnAncestorIsRenamed() {
    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    OpenKeySession deep = om.fso().createFile(V, "fso", "a/b/f", null);
    OpenKeySession top = om.fso().createFile(V, "fso", "g", null);
    om.fso().createFile(V, "fso", "gone/h", null);
    FsoTestSupport.putFile(om, V, "fso", "gone/kept", 1);
    om.fso().rename(V, "fso", "a/b", "a/c");
    om.fso().rename(V, "fso", "a", "x");
    om.fso().deleteDirectory(V, "fso", "gone", true);
    assertEquals(List.of("g", "gone/h", "x/c/f"), om.openFiles().list(V, "fso", 10, null).entries()
        .stream().map(OpenFileEntry::path).sorted().toList());
    for (int page = 1; page <= 3; page++) {
      List<String> paged = new java.util.ArrayList<>();
      String token = null;
      do {
        OpenFilesPage p = om.openFiles().list(V, "fso", page, token);
        p.entries().forEach(e -> paged.add(e.path()));
        token = p.nextToken();
      } while (token != null);
      assertEquals(List.of("g", "gone/h", "x/c/f"), paged.stream().sorted().toList());
    }
    assertEquals(List.of("/vol1/fso/g", "/vol1/fso/gone/h", "/vol1/fso/x/c/f"),
        om.insight().openKeys("/vol1/fso", null, null, 10, true, false).rows().stream()
            .map(OmInsight.Row::path).sorted().toList());
    // A walk budget too small for the bucket's tree keeps the recorded path of a moved file.
    assertEquals(List.of("/vol1/fso/a/b/f", "/vol1/fso/g", "/vol1/fso/gone/h"),
        OmInsight.over(om.dbStore(), 10, 1).openKeys("/vol1/fso", null, null, 10, true, false)
            .rows().stream().map(OmInsight.Row::path).sorted().toList());
    // The listed path is the one a commit takes.
    assertEquals("x/c/f", om.fso().commitFile(V, "fso", "x/c/f", deep.clientId(), 1).getKeyName());
    assertEquals("g", om.fso().commitFile(V, "fso", "g", top.clientId(), 1).getKeyName());
  }

  @Test
  void aTokenIsBoundToItsBucket() {
    om.createBucket(V, "one", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "two", BucketLayout.OBJECT_STORE, null, 0);
    for (String k : new String[] {"a", "b", "c"}) {
      om.openKey(V, "one", k, null);
      om.openKey(V, "two", k, null);
    }
    String token = om.openFiles().list(V, "one", 1, null).nextToken();
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openFiles().list(V, "two", 1, token));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.listKeys(V, "one", null, null, 1, token));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openFiles().list(V, "one", 1, "garbage"));
    assertEquals(1, om.openFiles().list(V, "one", 1, token).entries().size());
  }

  @Test
  void badArgumentsAreRejected() {
    om.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openFiles().list(V, "obs", -1, null));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.openFiles().list(V, "obs", OmStoreOptions.DEFAULT_MAX_LIST_SIZE + 1, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.openFiles().list(V, "missing", 10, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.openFiles().list("novol", "obs", 10, null));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openFiles().list(V, "B", 10, null));
    OpenFilesPage empty = om.openFiles().list(V, "obs", 10, null);
    assertTrue(empty.entries().isEmpty());
    assertEquals(0, empty.totalOpenKeyCount());
  }
}
