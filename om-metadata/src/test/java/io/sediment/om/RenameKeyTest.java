package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.names;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * OBJECT_STORE/LEGACY {@code renameKey}: the keyTable row moves in one batch keeping its identity,
 * an existing destination is refused (as Ozone's OBS rename), a missing source is NOT_FOUND, the
 * counters do not change, and every rejected call leaves every table byte-for-byte unchanged.
 */
class RenameKeyTest {

  private static final String V = "vol1";
  private static final String B = "buck1";

  private OmMetadataStore om;
  private final MutableClock clock = new MutableClock(1_000_000);


  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withClock(clock)
          .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
  }

  @Test
  void renameMovesTheRowKeepingItsIdentityAndSize() {
    KeyInfo original = put(om, V, B, "dir/old name", 42);
    clock.advance(5_000);
    KeyInfo renamed = om.renameKey(V, B, "dir/old name", "other/new \u00e9");

    assertEquals("other/new \u00e9", renamed.getKeyName());
    assertEquals(original.getObjectId(), renamed.getObjectId());
    assertEquals(42, renamed.getDataSize());
    assertEquals(original.getCreationTime(), renamed.getCreationTime());
    assertEquals(original.getModificationTime() + 5_000, renamed.getModificationTime());
    assertTrue(renamed.getUpdateId() > original.getUpdateId(), "a rename is an update");
    assertEquals(renamed, om.lookupKey(V, B, "other/new \u00e9"));
    assertRejected(om, Code.NOT_FOUND, () -> om.lookupKey(V, B, "dir/old name"));
    assertEquals(List.of("other/new \u00e9"), names(om.listKeys(V, B, null, null, 10, null)));
  }

  @Test
  void renameLeavesCountersAndPendingDeletesUnchanged() {
    put(om, V, B, "a", 10);
    put(om, V, B, "b", 20);
    Map<OmCounter, Long> before = om.counters();
    Map<OmCounter, Long> bucketBefore = om.bucketCounters(V, B);
    om.renameKey(V, B, "a", "c");
    assertEquals(before, om.counters());
    assertEquals(bucketBefore, om.bucketCounters(V, B));
    assertEquals(om.countFromScan(), om.counters(), "maintained counters agree with a scan");
    assertEquals(0, om.counters().get(OmCounter.DELETED_KEYS), "a rename deletes no version");
  }

  @Test
  void anExistingDestinationIsRefusedAndNothingChanges() {
    put(om, V, B, "a", 1);
    put(om, V, B, "b", 2);
    OmException e = assertRejected(om, Code.ALREADY_EXISTS, () -> om.renameKey(V, B, "a", "b"));
    assertTrue(e.getMessage().contains("destination exists"), e.getMessage());
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.renameKey(V, B, "a", "a"));
    // The destination is checked first, as in Ozone: a missing source onto an existing key.
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.renameKey(V, B, "missing", "b"));
    assertEquals(1, om.lookupKey(V, B, "a").getDataSize());
    assertEquals(2, om.lookupKey(V, B, "b").getDataSize());
  }

  @Test
  void aMissingSourceIsNotFoundAndNothingChanges() {
    put(om, V, B, "a", 1);
    om.deleteKey(V, B, "a");
    assertRejected(om, Code.NOT_FOUND, () -> om.renameKey(V, B, "a", "b"));
    assertRejected(om, Code.NOT_FOUND, () -> om.renameKey(V, B, "never", "b"));
    // An open, uncommitted key is not renamed.
    om.openKey(V, B, "open", "alice");
    assertRejected(om, Code.NOT_FOUND, () -> om.renameKey(V, B, "open", "b"));
  }

  @Test
  void badInputIsRejectedWithTypedErrorsAndChangesNothing() {
    put(om, V, B, "a", 1);
    om.createBucket(V, "fso1", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey(V, B, "a", ""));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey(V, B, "a", null));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey(V, B, "", "b"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey(V, B, "a", "\uD800"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey(V, B, "a", "x".repeat(1025)));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey("Vol", B, "a", "b"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.renameKey(V, "b_", "a", "b"));
    assertRejected(om, Code.NOT_FOUND, () -> om.renameKey(V, "nope", "a", "b"));
    assertRejected(om, Code.NOT_FOUND, () -> om.renameKey("novol", B, "a", "b"));
    assertRejected(om, Code.UNIMPLEMENTED, () -> om.renameKey(V, "fso1", "a", "b"));
    assertEquals("a", om.lookupKey(V, B, "a").getKeyName());
  }

  @Test
  void renamedKeyCanBeOverwrittenAndRenamedBackAndSurvivesReopen() {
    KeyInfo first = put(om, V, B, "a", 1);
    om.renameKey(V, B, "a", "b");
    KeyInfo second = put(om, V, B, "a", 2);
    assertNotEquals(first.getObjectId(), second.getObjectId());
    assertRejected(om, Code.ALREADY_EXISTS, () -> om.renameKey(V, B, "b", "a"));
    om.deleteKey(V, B, "a");
    om.renameKey(V, B, "b", "a");
    om = omStore.reopen(OmStoreOptions.defaults());
    KeyInfo back = om.lookupKey(V, B, "a");
    assertEquals(first.getObjectId(), back.getObjectId());
    assertEquals(1, back.getDataSize());
    assertFalse(om.listKeys(V, B, null, null, 10, null).truncated());
    assertEquals(List.of("a"), names(om.listKeys(V, B, null, null, 10, null)));
    assertEquals(om.countFromScan(), om.counters());
  }

  @Test
  void aKeyStillOpenUnderTheOldNameCommitsUnderTheOldName() {
    put(om, V, B, "a", 1);
    OpenKeySession session = om.openKey(V, B, "a", "alice");
    om.renameKey(V, B, "a", "b");
    om.commitKey(V, B, "a", session.clientId(), 7);
    assertEquals(7, om.lookupKey(V, B, "a").getDataSize());
    assertEquals(1, om.lookupKey(V, B, "b").getDataSize());
    assertEquals(om.countFromScan(), om.counters());
  }
}
