package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.purge.LifecycleCursors;
import io.sediment.om.purge.LifecycleStep;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Lifecycle scans step through a bucket from a persisted cursor, once per key per pass. */
class LifecycleScanTest {

  private static final String V = "vol";
  private static final String B = "bucket";

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withSyncPolicy(
          SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
    for (int i = 0; i < 25; i++) {
      OmTestSupport.put(om, V, B, String.format("logs/%02d", i), i % 2 == 0 ? 100 : 5);
    }
    OmTestSupport.put(om, V, B, "other", 100);
  }

  private static List<String> names(List<KeyInfo> keys) {
    List<String> out = new ArrayList<>();
    keys.forEach(k -> out.add(k.getKeyName()));
    return out;
  }

  @Test
  void stepsCoverThePrefixOncePerPassAndResumeAfterARestart() {
    List<String> matched = new ArrayList<>();
    LifecycleStep s1 = om.lifecycle().step("expire", V, B, "logs/", k -> k.getDataSize() > 50, 10);
    assertEquals(10, s1.examined());
    assertFalse(s1.passComplete());
    matched.addAll(names(s1.matched()));
    om = omStore.reopen(OmStoreOptions.defaults());
    // A key already examined is deleted, and one ahead of the cursor too: neither disturbs the scan.
    om.deleteKey(V, B, "logs/02");
    om.deleteKey(V, B, "logs/12");
    LifecycleStep s2 = om.lifecycle().step("expire", V, B, "logs/", k -> k.getDataSize() > 50, 10);
    LifecycleStep s3 = om.lifecycle().step("expire", V, B, "logs/", k -> k.getDataSize() > 50, 10);
    matched.addAll(names(s2.matched()));
    matched.addAll(names(s3.matched()));
    assertFalse(s2.passComplete());
    assertTrue(s3.passComplete());
    assertEquals(10 + 10 + 4, s1.examined() + s2.examined() + s3.examined());
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i += 2) {
      if (i != 12) {
        expected.add(String.format("logs/%02d", i));
      }
    }
    assertEquals(expected, matched, "each matching key once, 'other' outside the prefix never");
    // The next step starts a new pass.
    LifecycleStep again = om.lifecycle().step("expire", V, B, "logs/", k -> true, 3);
    assertEquals(List.of("logs/00", "logs/01", "logs/03"), names(again.matched()));
  }

  @Test
  void namedScansKeepSeparateCursors() {
    om.lifecycle().step("a", V, B, null, k -> true, 20);
    LifecycleStep b = om.lifecycle().step("b", V, B, null, k -> true, 20);
    assertEquals("logs/00", b.matched().get(0).getKeyName());
    LifecycleStep a = om.lifecycle().step("a", V, B, null, k -> true, 20);
    assertEquals(6, a.examined());
    assertTrue(a.passComplete());
  }

  @Test
  void aStepWithAnotherPrefixStartsANewPassInsteadOfResumingOutsideItsRange() {
    OmTestSupport.put(om, V, B, "a/1", 1);
    OmTestSupport.put(om, V, B, "a/2", 1);
    OmTestSupport.put(om, V, B, "a/3", 1);
    assertFalse(om.lifecycle().step("expire", V, B, "logs/", k -> true, 1).passComplete());
    // The rule's prefix changed: the cursor "logs/00" lies past "a/", which must not end the pass.
    LifecycleStep other = om.lifecycle().step("expire", V, B, "a/", k -> true, 2);
    assertEquals(List.of("a/1", "a/2"), names(other.matched()));
    assertFalse(other.passComplete());
    assertEquals(List.of("a/3"),
        names(om.lifecycle().step("expire", V, B, "a/", k -> true, 2).matched()));
    // Back to the first prefix: a new pass from its head, not from a cursor of the other prefix.
    assertEquals(List.of("logs/00"),
        names(om.lifecycle().step("expire", V, B, "logs/", k -> true, 1).matched()));
  }

  @Test
  void aSavedCursorIsReadOnlyForThePrefixItWasSavedWith() {
    byte[] saved = LifecycleCursors.value("a\u0000b/", "a\u0000b/x");
    assertEquals("a\u0000b/x", LifecycleCursors.lastKey(saved, "a\u0000b/"));
    assertEquals(null, LifecycleCursors.lastKey(saved, "a\u0000b"));
    assertEquals(null, LifecycleCursors.lastKey(saved, ""));
    assertEquals("k", LifecycleCursors.lastKey(LifecycleCursors.value("", "k"), ""));
    for (byte[] junk : new byte[][] {{}, {1}, {0, 0, 0, 9, 'a'}, {(byte) 0xff, 0, 0, 0}}) {
      assertEquals(null, LifecycleCursors.lastKey(junk, "a"));
    }
  }

  @Test
  void deletingTheBucketRemovesItsCursors() {
    om.createBucket(V, "other", BucketLayout.OBJECT_STORE, null, 0);
    OmTestSupport.put(om, V, "other", "a", 1);
    OmTestSupport.put(om, V, "other", "b", 1);
    long id = om.getBucketInfo(V, "other").getObjectId();
    assertFalse(om.lifecycle().step("expire", V, "other", null, k -> true, 1).passComplete());
    assertFalse(om.lifecycle().step("archive", V, "other", null, k -> true, 1).passComplete());
    String prefix = LifecycleCursors.prefix(id);
    assertEquals(2, FsoTestSupport.keys(om, OmDBDefinition.META_TABLE, prefix).size());
    om.deleteKey(V, "other", "a");
    om.deleteKey(V, "other", "b");
    om.deleteBucket(V, "other");
    assertEquals(List.of(), FsoTestSupport.keys(om, OmDBDefinition.META_TABLE, prefix));
  }

  @Test
  void aPassDoneInOneStepFromTheStartWritesNothing() {
    long writes = om.context().committer().writeCount();
    LifecycleStep whole = om.lifecycle().step("once", V, B, null, k -> true, 100);
    assertTrue(whole.passComplete());
    assertEquals(26, whole.examined());
    assertEquals(writes, om.context().committer().writeCount());
    LifecycleStep part = om.lifecycle().step("twice", V, B, null, k -> true, 20);
    assertFalse(part.passComplete());
    assertEquals(writes + 1, om.context().committer().writeCount(), "the cursor is saved");
  }

  @Test
  void badArgumentsAreRejected() {
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.lifecycle().step("bad name", V, B, null, k -> true, 10));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> om.lifecycle().step("ok", V, B, null, k -> true, 0));
    assertRejected(om, Code.NOT_FOUND,
        () -> om.lifecycle().step("ok", V, "missing", null, k -> true, 10));
  }
}
