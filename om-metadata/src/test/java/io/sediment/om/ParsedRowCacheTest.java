package io.sediment.om;

import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.Table;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.listing.ListObjectsV2Request;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Volume and bucket rows kept parsed in memory: a LookupKey reads exactly one row from RocksDB (the
 * key's), every write that changes a volume or bucket row is seen by the next read, and the cache
 * stays within its bound.
 */
class ParsedRowCacheTest {

  private static final String READS = "NUMBER_KEYS_READ";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(OmStoreOptions.defaults()
      .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));

  @Test
  void aLookupKeyReadsOnlyTheKeysRowFromRocksDb() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    put(om, "vol", "bkt", "key", 7);
    om.lookupKey("vol", "bkt", "key");

    for (int i = 0; i < 3; i++) {
      long before = om.dbStore().getTickerCount(READS);
      assertEquals(7, om.lookupKey("vol", "bkt", "key").getDataSize());
      assertEquals(1, om.dbStore().getTickerCount(READS) - before, "RocksDB gets per LookupKey");
    }
  }

  @Test
  void withoutTheCacheALookupKeyAlsoReadsTheBucketsRow() {
    OmMetadataStore om = omStore.reopen(omStore.store().options().withMetadataCacheSize(0));
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    put(om, "vol", "bkt", "key", 7);
    om.lookupKey("vol", "bkt", "key");

    long before = om.dbStore().getTickerCount(READS);
    om.lookupKey("vol", "bkt", "key");
    assertEquals(2, om.dbStore().getTickerCount(READS) - before);
    assertEquals(0, om.parsedRows().hits());
  }

  @Test
  void aListingTakesItsBucketFromMemoryUnlessAWriteChangedTheBucketRows() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 3; i++) {
      put(om, "vol", "bkt", "key" + i, i);
    }
    ListObjectsV2Request first = ListObjectsV2Request.of("vol", "bkt").withMaxKeys(2);
    om.listObjectsV2(first);

    long before = om.dbStore().getTickerCount(READS);
    ListObjectsV2Result page = om.listObjectsV2(first);
    assertEquals(0, om.dbStore().getTickerCount(READS) - before,
        "RocksDB gets of a page whose bucket row no write changed");
    assertEquals(2, page.keyCount());

    // The bucket re-created under the same name: the page reads the new bucket, whose object id
    // refuses the old bucket's token.
    String token = page.nextContinuationToken();
    for (int i = 0; i < 3; i++) {
      om.deleteKey("vol", "bkt", "key" + i);
    }
    om.deleteBucket("vol", "bkt");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    put(om, "vol", "bkt", "other", 1);
    assertEquals(OmException.Code.INVALID_ARGUMENT, assertThrows(OmException.class,
        () -> om.listObjectsV2(first.withContinuationToken(token))).code());
    assertEquals(List.of("other"), om.listObjectsV2(first).contents().stream()
        .map(k -> k.getKeyName()).toList());
  }

  @Test
  void everyChangeToAVolumeOrBucketIsSeenByTheNextRead() {
    OmMetadataStore om = omStore.store();
    OmAcls acls = new OmAcls(om);
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    om.getVolumeInfo("vol");
    om.getBucketInfo("vol", "bkt");

    om.setVolumeProperties("vol", "bob", 10L, null);
    assertEquals("bob", om.getVolumeInfo("vol").getOwner());
    om.setBucketProperties("vol", "bkt", "carol", 20L, null);
    assertEquals("carol", om.getBucketInfo("vol", "bkt").getOwner());
    assertEquals(20L, om.parsedRows().bucket("vol", "bkt").getQuotaInBytes());

    acls.add(AclTarget.bucket("vol", "bkt"), List.of(AclText.parse("user:dave:rl")));
    assertTrue(AclText.formatAll(om.getBucketInfo("vol", "bkt").getAclsList())
        .contains("user:dave:rl"), "the bucket's ACL after add");
    acls.set(AclTarget.volume("vol"), List.of(AclText.parse("user:erin:a")));
    assertEquals(List.of("user:erin:a"),
        AclText.formatAll(om.getVolumeInfo("vol").getAclsList()));

    om.deleteBucket("vol", "bkt");
    assertNull(om.parsedRows().bucket("vol", "bkt"));
    assertThrows(OmException.class, () -> om.lookupKey("vol", "bkt", "key"));
    om.createBucket("vol", "bkt", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    assertEquals(BucketLayout.FILE_SYSTEM_OPTIMIZED, om.getBucketInfo("vol", "bkt").getLayout());
    assertEquals(OmException.Code.UNIMPLEMENTED,
        assertThrows(OmException.class, () -> om.lookupKey("vol", "bkt", "key")).code(),
        "an OBJECT_STORE read of the recreated FSO bucket");

    om.deleteBucket("vol", "bkt");
    om.deleteVolume("vol");
    assertNull(om.parsedRows().volume("vol"));
    om.createVolume("vol", "frank");
    assertEquals("frank", om.getVolumeInfo("vol").getOwner());
  }

  @Test
  void underConcurrentWritesNoReadReturnsARowOlderThanTheLastAcknowledgedWrite() throws Exception {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
    AtomicLong acknowledged = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    List<CompletableFuture<Long>> readers = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      readers.add(CompletableFuture.supplyAsync(() -> {
        long reads = 0;
        while (!done.get()) {
          long floor = acknowledged.get();
          long seen = om.getBucketInfo("vol", "bkt").getQuotaInBytes();
          if (seen < floor) {
            throw new AssertionError("read quota " + seen + " after write " + floor + " was acked");
          }
          reads++;
        }
        return reads;
      }));
    }
    try {
      for (long quota = 1; quota <= 400; quota++) {
        om.setBucketProperties("vol", "bkt", null, quota, null);
        acknowledged.set(quota);
      }
    } finally {
      done.set(true);
    }
    for (CompletableFuture<Long> reader : readers) {
      assertTrue(reader.get(30, TimeUnit.SECONDS) > 0);
    }
    assertEquals(400, om.getBucketInfo("vol", "bkt").getQuotaInBytes());
  }

  @Test
  void randomWritesLeaveEveryCachedRowEqualToItsTableRow() {
    OmMetadataStore om = omStore.reopen(omStore.store().options().withMetadataCacheSize(3));
    OmAcls acls = new OmAcls(om);
    Table<String, VolumeInfo> volumeTable = om.dbStore().getTable(OmDBDefinition.VOLUME_TABLE);
    Table<String, BucketInfo> bucketTable = om.dbStore().getTable(OmDBDefinition.BUCKET_TABLE);
    List<String> names = List.of("a", "bkt", "c", "d");
    Random random = new Random(0x5ED1);
    for (int step = 0; step < 600; step++) {
      String v = names.get(random.nextInt(2));
      String b = names.get(random.nextInt(names.size()));
      try {
        switch (random.nextInt(9)) {
          case 0 -> om.createVolume(v, "owner" + step);
          case 1 -> om.deleteVolume(v);
          case 2 -> om.setVolumeProperties(v, "owner" + step, (long) step, null);
          case 3 -> om.createBucket(v, b, BucketLayout.OBJECT_STORE, null, step);
          case 4 -> om.deleteBucket(v, b);
          case 5 -> om.setBucketProperties(v, b, null, (long) step, (long) step);
          case 6 -> acls.add(AclTarget.bucket(v, b), List.of(AclText.parse("user:u" + step + ":r")));
          case 7 -> acls.remove(AclTarget.volume(v), List.of(AclText.parse("user:owner"
              + (step - 1) + ":a")));
          default -> { }
        }
      } catch (OmException rejected) {
        // Absent, present or not empty: a rejected write changes nothing, which the check covers.
      }
      for (String vol : names.subList(0, 2)) {
        assertEquals(volumeTable.get(OmKeys.volumeKey(vol)), om.parsedRows().volume(vol),
            "volume " + vol + " after step " + step);
        for (String bucket : names) {
          assertEquals(bucketTable.get(OmKeys.bucketKey(vol, bucket)),
              om.parsedRows().bucket(vol, bucket), "bucket " + vol + "/" + bucket + " after step " + step);
        }
      }
    }
    assertTrue(om.parsedRows().hits() > 0, "the cache answered some reads");
    assertTrue(om.parsedRows().size() <= 6, "at most 3 volumes and 3 buckets: "
        + om.parsedRows().size());
  }
}
