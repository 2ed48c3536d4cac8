package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.fullScan;
import static io.sediment.om.OmTestSupport.names;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.keys.ObjectKeys.Deletion;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code deleteKeys}, the batch delete of OBJECT_STORE/LEGACY keys, on real RocksDB: one outcome
 * per listed key in order, the rows and counters exactly those of one {@code deleteKey} per key,
 * one atomic write, and every rejection (bad names, an empty or oversized list, a missing bucket,
 * FSO, a failure in the middle of the batch) leaves every table unchanged.
 */
class DeleteKeysTest {

  private static final String V = "vol1";
  private static final String B = "buck1";
  private static final int CAP = 8;

  private final MutableClock clock = new MutableClock(1_000_000);

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(OmStoreOptions.defaults()
      .withClock(clock).withMaxListSize(CAP).withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));

  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    prepare(om);
  }

  /** The same volume, bucket and keys a..e (sizes 10..50) in any store with this test's clock. */
  private void prepare(OmMetadataStore store) {
    store.createVolume(V, "alice");
    store.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 5; i++) {
      put(store, V, B, String.valueOf((char) ('a' + i)), 10L * (i + 1));
    }
  }

  @Test
  void eachKeyIsReportedInRequestOrderAndOnlyExistingKeysAreDeleted() {
    List<Deletion> out = del(V, B, List.of("d", "missing", "a", "d", "b"));
    assertEquals(List.of(Deletion.DELETED, Deletion.NOT_FOUND, Deletion.DELETED,
        Deletion.NOT_FOUND, Deletion.DELETED), out, "a key named twice is deleted once");
    assertEquals(List.of("c", "e"), names(om.listKeys(V, B, null, null, CAP, null)));
    assertEquals(List.of("a", "b", "d"), deletedKeyNames(om));

    assertEquals(List.of(Deletion.NOT_FOUND, Deletion.DELETED),
        del(V, B, List.of("a", "e")), "deleting again reports the key gone");
  }

  /**
   * The batch goes through the delete-key write path: its rows (keyTable tombstones, deletedTable
   * entries with their deletion time) and counters are exactly those of one deleteKey per key
   * in a twin store.
   */
  @Test
  void aBatchWritesExactlyTheRowsAndCountersOfOneDeleteKeyPerKey() throws Exception {
    try (OmMetadataStore twin = OmMetadataStore.open(omStore.scratch("twin"),
        om.options())) {
      prepare(twin);
      clock.advance(7_000);
      del(V, B, List.of("e", "b", "nope", "c"));
      for (String k : List.of("e", "b", "c")) {
        twin.deleteKey(V, B, k);
      }
      Map<String, List<String>> batch = fullScan(om);
      Map<String, List<String>> single = fullScan(twin);
      // The meta table holds each store's random token secret; everything else must match.
      batch.remove(OmDBDefinition.META_TABLE.name());
      single.remove(OmDBDefinition.META_TABLE.name());
      assertEquals(single, batch);
      assertEquals(twin.counters(), om.counters());
      assertEquals(twin.bucketCounters(V, B), om.bucketCounters(V, B));
      try (TableIterator<String, ? extends KeyValue<String, KeyInfo>> it =
               om.dbStore().getTable(OmDBDefinition.DELETED_TABLE).iterator()) {
        while (it.hasNext()) {
          assertEquals(1_007_000, it.next().getValue().getDeletionTime(), "the write's time");
        }
      }
    }
  }

  @Test
  void countersStayExactAndTheDeletedTableHoldsEachVersionForThePurge() {
    Map<OmCounter, Long> before = om.counters();
    del(V, B, List.of("a", "c", "zzz"));
    Map<OmCounter, Long> after = om.counters();
    assertEquals(before.get(OmCounter.KEYS) - 2, after.get(OmCounter.KEYS));
    assertEquals(before.get(OmCounter.KEY_BYTES) - 40, after.get(OmCounter.KEY_BYTES));
    assertEquals(before.get(OmCounter.DELETED_KEYS) + 2, after.get(OmCounter.DELETED_KEYS));
    assertEquals(before.get(OmCounter.DELETED_KEY_BYTES) + 40,
        after.get(OmCounter.DELETED_KEY_BYTES));
    assertEquals(om.countFromScan(), after, "maintained counters agree with a scan");
    assertEquals(3L, om.bucketCounters(V, B).get(OmCounter.KEYS));

    assertEquals(2, om.purges().purgeDeletedKeys(CAP).purged(), "the purge takes both versions");
    assertEquals(List.of(), deletedKeyNames(om));
    assertEquals(om.countFromScan(), om.counters());
  }

  /** A whole page is one write: one batch committed, however many keys it deletes. */
  @Test
  void aFullPageIsOneAtomicWrite() {
    List<String> page = new ArrayList<>();
    for (int i = 0; i < CAP; i++) {
      String k = "page/" + i;
      put(om, V, B, k, i);
      page.add(k);
    }
    Collections.reverse(page);
    long writes = om.context().committer().writeCount();
    List<Deletion> out = del(V, B, page);
    assertEquals(Collections.nCopies(CAP, Deletion.DELETED), out);
    assertEquals(writes + 1, om.context().committer().writeCount(), "one batch for the page");
    assertEquals(List.of("a", "b", "c", "d", "e"), names(om.listKeys(V, B, null, null, CAP,
        null)));
    assertEquals(om.countFromScan(), om.counters());
  }

  /**
   * A failure in the middle of the batch (here the deleted-bytes counter would overflow at the
   * second key) rejects the whole write: the first key, already moved inside the batch, is still
   * live, and no table changed.
   */
  @Test
  void aFailureInTheMiddleOfTheBatchAppliesNothing() {
    long bucketId = om.getBucketInfo(V, B).getObjectId();
    om.context().write(txn -> {
      txn.count(bucketId, OmCounter.DELETED_KEY_BYTES, Long.MAX_VALUE - 15);
      return null;
    });
    assertRejected(om, Code.RESOURCE_EXHAUSTED, () -> del(V, B, List.of("a", "b")));
    assertEquals(List.of("a", "b", "c", "d", "e"), names(om.listKeys(V, B, null, null, CAP,
        null)));
  }

  @Test
  void badInputIsRejectedWholeAndChangesNothing() {
    var bad = assertRejected(om, Code.INVALID_ARGUMENT,
        () -> del(V, B, List.of("a", "", "b")));
    assertTrue(bad.getMessage().contains("Key 2 of 3"), bad.getMessage());
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> del(V, B, List.of("a", "lone\uD800surrogate")));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> del(V, B, List.of("x".repeat(1025))));
    var empty = assertRejected(om, Code.INVALID_ARGUMENT, () -> del(V, B, List.of()));
    assertTrue(empty.getMessage().contains("names no key"), empty.getMessage());
    List<String> tooMany = IntStream.rangeClosed(0, CAP).mapToObj(i -> "a").toList();
    var cap = assertRejected(om, Code.INVALID_ARGUMENT, () -> del(V, B, tooMany));
    assertTrue(cap.getMessage().contains("cap " + CAP), cap.getMessage());
    assertRejected(om, Code.INVALID_ARGUMENT, () -> del("", B, List.of("a")));
    assertRejected(om, Code.NOT_FOUND, () -> del(V, "nobucket", List.of("a")));
    assertRejected(om, Code.NOT_FOUND, () -> del("novol", B, List.of("a")));
    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    assertRejected(om, Code.UNIMPLEMENTED, () -> del(V, "fso", List.of("a")));
    assertEquals(5, names(om.listKeys(V, B, null, null, CAP, null)).size());
  }

  /** Skipped positions are validated with the rest but left alone, whatever the key. */
  @Test
  void aBatchReadsTheRowsOfItsKeysInOneMultiGetAndNoPointGet() {
    long gets = om.dbStore().getTickerCount("NUMBER_KEYS_READ");
    long multiGets = om.dbStore().getTickerCount("NUMBER_MULTIGET_CALLS");
    long multiKeys = om.dbStore().getTickerCount("NUMBER_MULTIGET_KEYS_READ");
    assertEquals(List.of(Deletion.DELETED, Deletion.SKIPPED, Deletion.NOT_FOUND,
            Deletion.DELETED), om.deleteKeys(V, B, List.of("a", "b", "nope", "e"), Set.of(1)));
    assertEquals(1, om.dbStore().getTickerCount("NUMBER_MULTIGET_CALLS") - multiGets);
    assertEquals(3, om.dbStore().getTickerCount("NUMBER_MULTIGET_KEYS_READ") - multiKeys,
        "the three keys not skipped");
    // The bucket's row comes from the parsed-row cache; the keys' rows only from the MultiGet.
    assertEquals(0, om.dbStore().getTickerCount("NUMBER_KEYS_READ") - gets);
  }

  @Test
  void skippedPositionsAreLeftAloneButStillValidated() {
    assertEquals(List.of(Deletion.SKIPPED, Deletion.DELETED, Deletion.SKIPPED),
        om.deleteKeys(V, B, List.of("a", "b", "nope"), Set.of(0, 2, 7)));
    assertEquals(List.of("a", "c", "d", "e"), names(om.listKeys(V, B, null, null, CAP, null)));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.deleteKeys(V, B, List.of("c", ""),
        Set.of(1)));
    assertEquals(om.countFromScan(), om.counters());
  }

  @Test
  void aLegacyBucketDeletesLikeAnObjectStoreBucket() {
    om.createBucket(V, "legacy", BucketLayout.LEGACY, null, 0);
    put(om, V, "legacy", "dir/k", 5);
    assertEquals(List.of(Deletion.DELETED), del(V, "legacy", List.of("dir/k")));
    assertEquals(om.countFromScan(), om.counters());
  }

  private List<Deletion> del(String volume, String bucket, List<String> keys) {
    return om.deleteKeys(volume, bucket, keys, Set.of());
  }

  /** The key names in deletedTable, in table order. */
  private static List<String> deletedKeyNames(OmMetadataStore store) {
    Map<String, String> rows = new TreeMap<>();
    try (TableIterator<String, ? extends KeyValue<String, KeyInfo>> it =
             store.dbStore().getTable(OmDBDefinition.DELETED_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, KeyInfo> kv = it.next();
        rows.put(kv.getKey(), kv.getValue().getKeyName());
      }
    }
    return new ArrayList<>(rows.values());
  }
}
