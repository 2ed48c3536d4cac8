package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.names;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes of {@link OmMetadataStore}: volume and bucket create/info/delete, the key lifecycle open
 * → commit (overwrite → deletedTable) → lookup → delete (→ deletedTable), emptiness checks that
 * tombstones cannot fool, and what survives a restart (ids, the token secret).
 */
class OmMetadataStoreTest {

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume("vol1", "alice");
    om.createBucket("vol1", "buck1", BucketLayout.OBJECT_STORE, null, 0);
  }

  private Map<String, KeyInfo> table(String name) {
    Map<String, KeyInfo> out = new TreeMap<>();
    try (TableIterator<String, KeyValue<String, KeyInfo>> it = om.dbStore()
        .getTable(name.equals("deletedTable") ? OmDBDefinition.DELETED_TABLE
            : name.equals("openKeyTable") ? OmDBDefinition.OPEN_KEY_TABLE : OmDBDefinition.KEY_TABLE)
        .iterator()) {
      while (it.hasNext()) {
        KeyValue<String, KeyInfo> kv = it.next();
        out.put(kv.getKey(), kv.getValue());
      }
    }
    return out;
  }

  @Test
  void volumesAndBucketsAreCreatedReadAndListed() {
    VolumeInfo v = om.getVolumeInfo("vol1");
    assertEquals("alice", v.getOwner());
    BucketInfo b = om.getBucketInfo("vol1", "buck1");
    assertEquals(BucketLayout.OBJECT_STORE, b.getLayout());
    assertEquals("alice", b.getOwner(), "a bucket without owner gets the volume's");
    assertEquals(v.getObjectId(), b.getVolumeId());
    assertNotEquals(v.getObjectId(), b.getObjectId());
    om.createBucket("vol1", "buck2", BucketLayout.LEGACY, "bob", 1024);
    om.createBucket("vol1", "fso1", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    om.createVolume("vol2", "carol");
    ListPage<BucketInfo> buckets = om.listBuckets("vol1", null, null, 10);
    assertEquals(List.of("buck1", "buck2", "fso1"),
        buckets.items().stream().map(BucketInfo::getBucketName).toList());
    assertFalse(buckets.truncated());
    assertEquals(List.of("buck2"), om.listBuckets("vol1", "buck", "buck1", 10).items().stream()
        .map(BucketInfo::getBucketName).toList());
    ListPage<BucketInfo> first = om.listBuckets("vol1", null, null, 2);
    assertTrue(first.truncated());
    ListPage<BucketInfo> second = om.listBuckets("vol1", null, "buck2", 2);
    assertEquals(List.of("fso1"), second.items().stream().map(BucketInfo::getBucketName).toList());
    assertFalse(second.truncated());
    ListPage<VolumeInfo> vols = om.listVolumes("", null, 1);
    assertEquals(List.of("vol1"), vols.items().stream().map(VolumeInfo::getName).toList());
    assertTrue(vols.truncated());
    ListPage<VolumeInfo> rest = om.listVolumes("", "vol1", 1);
    assertEquals(List.of("vol2"), rest.items().stream().map(VolumeInfo::getName).toList());
    assertFalse(rest.truncated(), "exact: nothing after vol2");
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.createVolume("vol1", "x"));
    assertRejected(om, Code.ALREADY_EXISTS,
        () -> om.createBucket("vol1", "buck1", BucketLayout.OBJECT_STORE, null, 0));
  }

  @Test
  void commitMovesTheOpenKeyAndAnOverwrittenVersionGoesToDeletedTable() {
    OpenKeySession s1 = om.openKey("vol1", "buck1", "k", "bob");
    assertEquals(1, table("openKeyTable").size());
    assertTrue(table("openKeyTable").containsKey(OmKeys.openKey("vol1", "buck1", "k", s1.clientId())));
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey("vol1", "buck1", "k"));
    KeyInfo v1 = om.commitKey("vol1", "buck1", "k", s1.clientId(), 10);
    assertEquals(0, v1.getClientId());
    assertEquals(10, v1.getDataSize());
    assertEquals("bob", v1.getOwner());
    assertEquals(v1, om.lookupKey("vol1", "buck1", "k"));
    assertTrue(table("openKeyTable").isEmpty());

    KeyInfo v2 = put(om, "vol1", "buck1", "k", 20);
    assertNotEquals(v1.getObjectId(), v2.getObjectId());
    assertEquals(v2, om.lookupKey("vol1", "buck1", "k"));
    Map<String, KeyInfo> deleted = table("deletedTable");
    assertEquals(1, deleted.size());
    KeyInfo moved = deleted.get(OmKeys.deletedKey("vol1", "buck1", "k", v1.getObjectId()));
    assertNotNull(moved, "the overwritten version is kept under its object id");
    assertEquals(10, moved.getDataSize());

    om.deleteKey("vol1", "buck1", "k");
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey("vol1", "buck1", "k"));
    deleted = table("deletedTable");
    assertEquals(2, deleted.size(), "two versions, two rows: versions never collide");
    assertNotNull(deleted.get(OmKeys.deletedKey("vol1", "buck1", "k", v2.getObjectId())));
    assertRejected(om, Code.NOT_FOUND, () -> om.deleteKey("vol1", "buck1", "k"));
  }

  @Test
  void twoOpenSessionsOfOneKeyCommitIndependently() {
    OpenKeySession a = om.openKey("vol1", "buck1", "k", null);
    OpenKeySession b = om.openKey("vol1", "buck1", "k", null);
    assertNotEquals(a.clientId(), b.clientId());
    om.commitKey("vol1", "buck1", "k", b.clientId(), 2);
    om.commitKey("vol1", "buck1", "k", a.clientId(), 1);
    assertEquals(1, om.lookupKey("vol1", "buck1", "k").getDataSize(), "last commit wins");
    assertEquals(1, table("deletedTable").size());
  }

  @Test
  void deletesAreNotFooledByTombstones() {
    for (int i = 0; i < 50; i++) {
      put(om, "vol1", "buck1", "k" + i, i);
    }
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteBucket("vol1", "buck1"));
    for (int i = 0; i < 50; i++) {
      om.deleteKey("vol1", "buck1", "k" + i);
    }
    om.dbStore().flush();
    // 50 tombstones under the bucket prefix, no live key: the bucket is empty.
    assertRejected(om, Code.FAILED_PRECONDITION, () -> om.deleteVolume("vol1"));
    om.deleteBucket("vol1", "buck1");
    assertRejected(om, Code.NOT_FOUND, () -> om.getBucketInfo("vol1", "buck1"));
    om.deleteVolume("vol1");
    assertRejected(om, Code.NOT_FOUND, () -> om.getVolumeInfo("vol1"));
    assertEquals(50, table("deletedTable").size(), "deleted versions wait for the purge service");
  }

  @Test
  void aKeyInASiblingBucketDoesNotMakeABucketNonEmpty() {
    om.createBucket("vol1", "buck10", BucketLayout.OBJECT_STORE, null, 0);
    put(om, "vol1", "buck10", "k", 1);
    om.deleteBucket("vol1", "buck1");
    assertEquals(1, om.listKeys("vol1", "buck10", null, null, 10, null).items().size());
  }

  @Test
  void deletingABucketDiscardsItsOpenKeysAtomically() {
    OpenKeySession s = om.openKey("vol1", "buck1", "pending", null);
    om.createBucket("vol1", "other", BucketLayout.OBJECT_STORE, null, 0);
    OpenKeySession keep = om.openKey("vol1", "other", "pending", null);
    om.deleteBucket("vol1", "buck1");
    Map<String, KeyInfo> open = table("openKeyTable");
    assertEquals(1, open.size());
    assertTrue(open.containsKey(OmKeys.openKey("vol1", "other", "pending", keep.clientId())));
    om.createBucket("vol1", "buck1", BucketLayout.OBJECT_STORE, null, 0);
    assertRejected(om, Code.NOT_FOUND,
        () -> om.commitKey("vol1", "buck1", "pending", s.clientId(), 1));
  }

  @Test
  void idsAndTokensSurviveARestart() {
    KeyInfo before = null;
    for (int i = 0; i < 5; i++) {
      before = put(om, "vol1", "buck1", "k" + i, i);
    }
    ListPage<KeyInfo> page = om.listKeys("vol1", "buck1", null, null, 2, null);
    om = omStore.reopen(OmStoreOptions.defaults());
    KeyInfo after = put(om, "vol1", "buck1", "k9", 9);
    assertTrue(after.getObjectId() > before.getObjectId(), "the id counter is persisted");
    ListPage<KeyInfo> next = om.listKeys("vol1", "buck1", null, null, 2, page.nextToken());
    assertEquals(List.of("k2", "k3"), names(next));
  }

  @Test
  void fsoBucketsRejectKeyOperationsAsUnimplemented() {
    om.createBucket("vol1", "fso1", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.openKey("vol1", "fso1", "a/b", null));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.listKeys("vol1", "fso1", null, null, 5, null));
    om.deleteBucket("vol1", "fso1");
  }

  @Test
  void overwritesKeepOneLiveRowPerKeyAndOneDeletedRowPerReplacedVersion() {
    for (int i = 0; i < 20; i++) {
      put(om, "vol1", "buck1", "k" + (i % 7), i);
    }
    assertEquals(7, table("keyTable").size());
    assertEquals(13, table("deletedTable").size());
    assertTrue(table("openKeyTable").isEmpty());
    for (int k = 0; k < 7; k++) {
      int latest = k + 7 * ((19 - k) / 7);
      assertEquals(latest, om.lookupKey("vol1", "buck1", "k" + k).getDataSize(), "latest wins");
    }
  }

  @Test
  void ownersAndQuotasAreUpdatedInPlace() {
    VolumeInfo v = om.setVolumeProperties("vol1", "bob", 1L << 30, null);
    assertEquals("bob", v.getOwner());
    assertEquals(1L << 30, v.getQuotaInBytes());
    assertEquals(v, om.getVolumeInfo("vol1"));
    BucketInfo b = om.setBucketProperties("vol1", "buck1", null, 5L, 100L);
    assertEquals("alice", b.getOwner(), "a null owner leaves it unchanged");
    assertEquals(5, b.getQuotaInBytes());
    assertEquals(100, b.getQuotaInNamespace());
    assertEquals(b, om.getBucketInfo("vol1", "buck1"));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.setBucketProperties("vol1", "buck1", null, -1L, null));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.setVolumeProperties("vol1", "bad\uD800", null, null));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.setBucketProperties("vol1", "nobuck", "x", null, null));
    assertRejected(om, Code.NOT_FOUND, () -> om.setVolumeProperties("novol", "x", null, null));
  }

  @Test
  void legacyBucketsStoreAndListKeysLikeObjectStore() {
    om.createBucket("vol1", "legacy1", BucketLayout.LEGACY, null, 0);
    put(om, "vol1", "legacy1", "a/b", 1);
    put(om, "vol1", "legacy1", "a/c", 2);
    assertEquals(List.of("a/b", "a/c"), names(om.listKeys("vol1", "legacy1", "a/", null, 5, null)));
    ListObjectsV2Result r = om.listObjectsV2(ListObjectsV2Request.of("vol1", "legacy1")
        .withDelimiter("/"));
    assertEquals(List.of("a/"), r.commonPrefixes());
  }

  @Test
  void concurrentWritersGetUniqueIdsAndListingsStayOrdered() throws Exception {
    int threads = 4;
    int perThread = 50;
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    try {
      List<Future<List<Long>>> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        writers.add(pool.submit(() -> {
          List<Long> ids = new ArrayList<>();
          for (int i = 0; i < perThread; i++) {
            ids.add(put(om, "vol1", "buck1", "t" + id + "/k" + i, i).getObjectId());
          }
          return ids;
        }));
      }
      Future<Integer> lister = pool.submit(() -> {
        int rounds = 0;
        while (!writers.stream().allMatch(Future::isDone) || rounds == 0) {
          List<String> all = new ArrayList<>();
          String token = null;
          do {
            ListPage<KeyInfo> page = om.listKeys("vol1", "buck1", null, null, 7, token);
            all.addAll(names(page));
            token = page.nextToken();
          } while (token != null);
          for (int i = 1; i < all.size(); i++) {
            assertTrue(all.get(i - 1).compareTo(all.get(i)) < 0, "ordered, no duplicates");
          }
          rounds++;
        }
        return rounds;
      });
      Set<Long> ids = new HashSet<>();
      for (Future<List<Long>> f : writers) {
        ids.addAll(f.get(60, TimeUnit.SECONDS));
      }
      assertTrue(lister.get(60, TimeUnit.SECONDS) >= 1);
      assertEquals(threads * perThread, ids.size(), "object ids are unique");
      assertEquals(threads * perThread, table("keyTable").size());
    } finally {
      pool.shutdownNow();
    }
  }
}
