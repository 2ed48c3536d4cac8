package io.sediment.om.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.Table;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cache's guard against a slow miss: a reader that read a row before a write replaced it
 * returns that row (its read began before the write) but does not put it back in the cache.
 */
class VolumeBucketCacheTest {

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withDefaults();

  @Test
  void aMissThatReadTheRowBeforeAWriteDoesNotCacheTheOldRow() throws Exception {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    BucketInfo old = om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 1);
    Table<String, BucketInfo> table = om.dbStore().getTable(OmDBDefinition.BUCKET_TABLE);
    String key = OmKeys.bucketKey("vol", "bkt");
    CountDownLatch readDone = new CountDownLatch(1);
    CountDownLatch written = new CountDownLatch(1);
    VolumeBucketCache cache = new VolumeBucketCache(10,
        om.dbStore().getTable(OmDBDefinition.VOLUME_TABLE),
        pausingAfterFirstGet(table, readDone, written));
    CompletableFuture<BucketInfo> reader =
        CompletableFuture.supplyAsync(() -> cache.bucket("vol", "bkt"));
    assertTrue(readDone.await(10, TimeUnit.SECONDS));

    BucketInfo replaced = old.toBuilder().setQuotaInBytes(2).build();
    cache.beginChange(List.of(), Set.of(key));
    table.put(key, replaced);
    cache.invalidate(List.of(), Set.of(key));
    written.countDown();

    assertEquals(1, reader.get(10, TimeUnit.SECONDS).getQuotaInBytes(),
        "the slow read returns what it read");
    assertEquals(2, cache.bucket("vol", "bkt").getQuotaInBytes(), "the next read sees the write");
    assertEquals(2, cache.bucket("vol", "bkt").getQuotaInBytes());
    assertEquals(1, cache.hits(), "the write's row was cached by the read after it");
  }

  @Test
  void aRowIsVouchedForAViewOnlyWhileNoWriteHasChangedTheRowsSinceTheStamp() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    BucketInfo row = om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 1);
    VolumeBucketCache cache = cacheOf(om, 10);
    String key = OmKeys.bucketKey("vol", "bkt");

    long before = cache.stamp();
    assertEquals(row, cache.bucketAsOf(before, "vol", "bkt"), "a miss, read from the table");
    assertEquals(row, cache.bucketAsOf(before, "vol", "bkt"), "a hit");
    assertNull(cache.bucketAsOf(before, "vol", "other"), "an absent bucket is the view's to read");

    cache.beginChange(List.of(), Set.of(key));
    long during = cache.stamp();
    assertNull(cache.bucketAsOf(during, "vol", "bkt"), "a stamp taken while a write applies");
    assertNull(cache.bucketAsOf(before, "vol", "bkt"), "a write began since the stamp");
    cache.invalidate(List.of(), Set.of(key));
    assertNull(cache.bucketAsOf(during, "vol", "bkt"));
    assertNull(cache.bucketAsOf(before, "vol", "bkt"), "a write changed the rows since the stamp");
    long after = cache.stamp();
    assertEquals(row, cache.bucketAsOf(after, "vol", "bkt"), "a stamp taken after it");

    cache.beginChange(List.of(), Set.of());
    cache.invalidate(List.of(), Set.of());
    assertEquals(row, cache.bucketAsOf(after, "vol", "bkt"),
        "a write that changes no volume or bucket row moves nothing");

    VolumeBucketCache disabled = cacheOf(om, 0);
    assertNull(disabled.bucketAsOf(disabled.stamp(), "vol", "bkt"),
        "a disabled cache vouches for nothing");
  }

  /**
   * A miss while a write is being applied returns the row it read but keeps nothing: the row may
   * predate the write, whose remove may already have run before the install, and then nothing
   * would ever take the old row out of the cache again.
   */
  @Test
  void aMissWhileAWriteIsAppliedReturnsTheRowButDoesNotKeepIt() {
    OmMetadataStore om = omStore.store();
    om.createVolume("vol", "alice");
    BucketInfo row = om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 1);
    VolumeBucketCache cache = cacheOf(om, 10);
    String key = OmKeys.bucketKey("vol", "bkt");

    cache.beginChange(List.of(), Set.of(key));
    assertEquals(row, cache.bucket("vol", "bkt"));
    assertEquals(0, cache.size(), "nothing is kept while a write is being applied");
    cache.invalidate(List.of(), Set.of(key));
    assertEquals(row, cache.bucket("vol", "bkt"));
    assertEquals(1, cache.size(), "a miss after the write keeps the row");
    assertThrows(IllegalStateException.class, () -> cache.invalidate(List.of(), Set.of(key)),
        "an invalidation without its beginChange");
  }

  @Test
  void aNegativeCapacityIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new VolumeBucketCache(-1, null, null));
  }

  /** A cache of {@code capacity} rows over the store's own volume and bucket tables. */
  private static VolumeBucketCache cacheOf(OmMetadataStore om, int capacity) {
    return new VolumeBucketCache(capacity, om.dbStore().getTable(OmDBDefinition.VOLUME_TABLE),
        om.dbStore().getTable(OmDBDefinition.BUCKET_TABLE));
  }

  /**
   * {@code table}, whose first get signals {@code readDone} after reading, then waits for
   * {@code go}.
   */
  @SuppressWarnings("unchecked")
  private static Table<String, BucketInfo> pausingAfterFirstGet(Table<String, BucketInfo> table,
      CountDownLatch readDone, CountDownLatch go) {
    return (Table<String, BucketInfo>) Proxy.newProxyInstance(Table.class.getClassLoader(),
        new Class<?>[] {Table.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(table, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("get") && readDone.getCount() > 0) {
            readDone.countDown();
            if (!go.await(10, TimeUnit.SECONDS)) {
              throw new AssertionError("the write did not happen");
            }
          }
          return result;
        });
  }
}
