package io.sediment.om;

import static io.sediment.om.OmTestSupport.fullScan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Applying replicated log entries: two stores with different clocks that apply the same entries
 * in the same order end up byte-for-byte identical, with the last applied position recorded in
 * the same batch as each change.
 */
class AppliedLogTest {

  private final MutableClock clockA = new MutableClock(1_000_000L);
  private final MutableClock clockB = new MutableClock(1_005_000L);

  @RegisterExtension
  final OmStoreExtension storeA =
      OmStoreExtension.withOptions(() -> OmStoreOptions.defaults().withClock(clockA));
  @RegisterExtension
  final OmStoreExtension storeB =
      OmStoreExtension.withOptions(() -> OmStoreOptions.defaults().withClock(clockB));

  private static final byte[] GROUP_SECRET = "the group's secret, 32 bytes ...".getBytes();

  /** One entry: a write of the store API, with the time the leader decided for it. */
  private record Entry(LogPosition position, long time, Function<OmMetadataStore, Object> write) {}

  private static List<Entry> workload() {
    List<Function<OmMetadataStore, Object>> writes = new ArrayList<>();
    writes.add(om -> om.createVolume("vol", "alice"));
    writes.add(om -> om.createBucket("vol", "obs", BucketLayout.OBJECT_STORE, "alice", 0));
    writes.add(om -> om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, "alice", 0));
    writes.add(om -> commit(om, "obs", "a/1", 10));
    writes.add(om -> commit(om, "obs", "a/2", 20));
    writes.add(om -> om.createVolume("vol", "bob")); // rejected: exists
    writes.add(om -> om.openKey("vol", "obs", "a/open", "alice"));
    writes.add(om -> om.renameKey("vol", "obs", "a/1", "b/1"));
    writes.add(om -> {
      om.deleteKey("vol", "obs", "a/2");
      return null;
    });
    writes.add(om -> om.snapshots().create("vol", "obs", "snap1"));
    writes.add(om -> om.fso().createDirectory("vol", "fso", "d1/d2"));
    writes.add(om -> {
      OpenKeySession s = om.fso().createFile("vol", "fso", "d1/d2/f", "alice");
      return om.fso().commitFile("vol", "fso", "d1/d2/f", s.clientId(), 5);
    });
    writes.add(om -> {
      String upload = om.multipart().initiate("vol", "obs", "mpu", "alice");
      om.multipart().commitPart("vol", "obs", "mpu", upload, 1, 1, "etag1");
      return om.multipart().complete("vol", "obs", "mpu", upload,
          List.of(new CompletedPart(1, "etag1")));
    });
    writes.add(om -> om.fso().rename("vol", "fso", "d1", "e1"));
    writes.add(om -> om.snapshots().delete("vol", "obs", "snap1"));
    writes.add(om -> {
      om.appliedLog().adoptTokenSecret(GROUP_SECRET);
      return null;
    });
    List<Entry> entries = new ArrayList<>();
    long index = 5;
    for (Function<OmMetadataStore, Object> w : writes) {
      entries.add(new Entry(new LogPosition(2, index), 1_700_000_000_000L + index * 1000, w));
      index += 3;
    }
    return entries;
  }

  private static KeyInfo commit(OmMetadataStore om, String bucket, String key, long size) {
    OpenKeySession s = om.openKey("vol", bucket, key, "alice");
    return om.commitKey("vol", bucket, key, s.clientId(), size);
  }

  /** Applies each entry; returns the position of the last entry that did not reject. */
  private static LogPosition applyAll(OmMetadataStore om, List<Entry> entries) {
    LogPosition lastAccepted = null;
    for (Entry e : entries) {
      try {
        om.appliedLog().apply(e.position(), e.time(), () -> e.write().apply(om));
        lastAccepted = e.position();
      } catch (OmException rejected) {
        // A rejection is part of the deterministic outcome: the same on every replica.
      }
    }
    return lastAccepted;
  }

  @Test
  void storesApplyingTheSameEntriesAreIdenticalWhateverTheirClocks() {
    List<Entry> entries = workload();
    LogPosition lastA = applyAll(storeA.store(), entries);
    LogPosition lastB = applyAll(storeB.store(), entries);

    assertEquals(lastA, lastB);
    assertEquals(fullScan(storeA.store()), fullScan(storeB.store()));
    assertEquals(Optional.of(lastA), storeA.store().appliedLog().lastApplied());
  }

  @Test
  void rowsCarryTheDecidedTimeNotTheReplicaClock() {
    OmMetadataStore om = storeA.store();
    om.appliedLog().apply(new LogPosition(1, 1), 42_000L, () -> om.createVolume("vol", "alice"));
    om.appliedLog().apply(new LogPosition(1, 2), 43_000L,
        () -> om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, "alice", 0));
    KeyInfo key = om.appliedLog().apply(new LogPosition(1, 3), 44_000L,
        () -> commit(om, "bkt", "k", 1));

    assertEquals(42_000L, om.getVolumeInfo("vol").getCreationTime());
    assertEquals(43_000L, om.getBucketInfo("vol", "bkt").getCreationTime());
    assertEquals(44_000L, key.getModificationTime());
    // Outside an applied entry, the store's clock decides again.
    assertEquals(clockA.millis(), commit(om, "bkt", "k2", 1).getModificationTime());
  }

  @Test
  void aRejectedEntryRecordsNothingAndChangesNothing() {
    OmMetadataStore om = storeA.store();
    om.appliedLog().apply(new LogPosition(1, 1), 1L, () -> om.createVolume("vol", "alice"));
    var before = fullScan(om);

    OmException e = assertThrows(OmException.class, () -> om.appliedLog().apply(
        new LogPosition(1, 2), 2L, () -> om.createVolume("vol", "bob")));

    assertEquals(OmException.Code.ALREADY_EXISTS, e.code());
    assertEquals(before, fullScan(om));
    assertEquals(Optional.of(new LogPosition(1, 1)), om.appliedLog().lastApplied());
  }

  @Test
  void theAppliedPositionSurvivesARestartAndOnlyMovesForward() {
    // storeB: the extension registered last may reopen (the other's leak check would count it).
    OmMetadataStore om = storeB.store();
    assertEquals(Optional.empty(), om.appliedLog().lastApplied());
    om.appliedLog().apply(new LogPosition(3, 10), 1L, () -> om.createVolume("vol", "alice"));
    om.appliedLog().recordApplied(new LogPosition(3, 12));
    om.appliedLog().recordApplied(new LogPosition(3, 11)); // behind: ignored

    OmMetadataStore reopened = storeB.reopen();

    assertEquals(Optional.of(new LogPosition(3, 12)), reopened.appliedLog().lastApplied());
  }

  @Test
  void tokensVerifyOnEveryStoreThatAdoptedTheGroupSecret() {
    for (OmMetadataStore om : List.of(storeA.store(), storeB.store())) {
      om.createVolume("vol", "alice");
      om.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, "alice", 0);
      commit(om, "bkt", "k1", 1);
      commit(om, "bkt", "k2", 1);
    }
    OmMetadataStore a = storeA.store();
    OmMetadataStore b = storeB.store();
    String ownToken = a.listKeys("vol", "bkt", "", "", 1, null).nextToken();
    assertThrows(OmException.class, () -> b.listKeys("vol", "bkt", "", "", 1, ownToken),
        "each store signs with its own secret until it adopts the group's");
    assertFalse(a.appliedLog().tokenSecretAdopted());

    a.appliedLog().adoptTokenSecret(GROUP_SECRET);
    b.appliedLog().adoptTokenSecret(GROUP_SECRET);

    assertTrue(a.appliedLog().tokenSecretAdopted());
    OmException stale = assertThrows(OmException.class,
        () -> a.listKeys("vol", "bkt", "", "", 1, ownToken));
    assertEquals(OmException.Code.INVALID_ARGUMENT, stale.code());
    String groupToken = a.listKeys("vol", "bkt", "", "", 1, null).nextToken();
    assertEquals("k2", b.listKeys("vol", "bkt", "", "", 1, groupToken).items().get(0).getKeyName());
    assertEquals("k2", storeB.reopen().listKeys("vol", "bkt", "", "", 1, groupToken)
        .items().get(0).getKeyName(), "the adopted secret is durable");
  }

  @Test
  void aTooShortGroupSecretIsRefused() {
    OmMetadataStore om = storeA.store();
    var before = fullScan(om);
    assertEquals(OmException.Code.INVALID_ARGUMENT, assertThrows(OmException.class,
        () -> om.appliedLog().adoptTokenSecret(new byte[15])).code());
    assertEquals(before, fullScan(om));
  }
}
