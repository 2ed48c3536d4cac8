package io.sediment.om;

import static io.sediment.om.FsoTestSupport.listAll;
import static io.sediment.om.FsoTestSupport.paths;
import static io.sediment.om.FsoTestSupport.putFile;
import static io.sediment.om.OmTestSupport.assertRejected;
import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.insight.OmInsight;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Names at and past the 1,024-byte limit: what a listing hands out (a token, a last key, a path)
 * is accepted back, and what exists stays reachable, while new names keep the limit.
 */
class LongNamesTest {

  private static final String V = "vol";
  private static final String OBS = "obs";
  private static final String FSO = "fso";
  private static final String BIG = "x".repeat(1000);

  @RegisterExtension
  final OmStoreExtension omStore =
      OmStoreExtension.withOptions(OmStoreOptions.defaults().withSyncPolicy(
          SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;

  @BeforeEach
  void open() {
    om = omStore.store();
    om.createVolume(V, "alice");
    om.createBucket(V, OBS, BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, FSO, BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
  }

  private static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** a/b/c/f renamed level by level to names of 1,001 bytes: paths of 1, 2 and 3 KiB. */
  private List<String> growPathsByRenames() {
    putFile(om, V, FSO, "a/b/c/f", 1);
    putFile(om, V, FSO, "z", 1);
    om.fso().rename(V, FSO, "a/b/c", "a/b/" + BIG + "c");
    om.fso().rename(V, FSO, "a/b", "a/" + BIG + "b");
    om.fso().rename(V, FSO, "a", BIG + "a");
    String a = BIG + "a";
    String b = a + "/" + BIG + "b";
    String c = b + "/" + BIG + "c";
    return List.of(a, b, c, c + "/f", "z");
  }

  @Test
  void aRecursiveListingPagesByOneThroughPathsLongerThanAnyTokenOfOneKiB() {
    List<String> expected = growPathsByRenames();
    assertTrue(bytes(expected.get(3)) > 3000);
    assertEquals(expected, paths(listAll(om, V, FSO, "", true, null, 1)));
  }

  @Test
  void pathsGrownPastTheLimitCanBeListedUsedAsStartKeysLookedUpAndDeleted() {
    List<String> p = growPathsByRenames();
    String c = p.get(2);
    String file = p.get(3);
    assertEquals(List.of(c), paths(om.fso().listStatus(V, FSO, p.get(1), false, null, 10, null)));
    assertEquals(List.of(file, "z"), paths(om.fso().listStatus(V, FSO, "", true, c, 10, null)));
    assertEquals(file, om.fso().getFileStatus(V, FSO, file).path());
    assertEquals(file, om.fso().lookupFile(V, FSO, file).getKeyName());
    om.fso().deleteFile(V, FSO, file);
    om.fso().deleteDirectory(V, FSO, p.get(0), true);
    assertEquals(List.of("z"), paths(listAll(om, V, FSO, "", true, null, 1)));
  }

  @Test
  void aNewPathOrARenameDestinationIsStillAtMost1024Bytes() {
    List<String> p = growPathsByRenames();
    String c = p.get(2);
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().createDirectory(V, FSO, c + "/d"));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().createFile(V, FSO, c + "/g", null));
    assertRejected(om, Code.INVALID_ARGUMENT, () -> om.fso().rename(V, FSO, "z", c + "/z"));
    // Moving the long subtree to a short name is allowed: the destination is short.
    om.fso().rename(V, FSO, p.get(0), "short");
    assertTrue(om.fso().getFileStatus(V, FSO, "short/" + BIG + "b").isDirectory());
  }

  @Test
  void insightListingsContinueFromTheLastKeyOfAMaximalKey() {
    String longKey = "k".repeat(OmValidation.MAX_KEY_BYTES);
    put(om, V, OBS, longKey, 1);
    put(om, V, OBS, "z", 1);
    om.openKey(V, OBS, longKey, null);
    om.openKey(V, OBS, "z", null);
    put(om, V, OBS, longKey, 2);
    put(om, V, OBS, longKey, 3);
    OmInsight in = om.insight();
    List<String> keys = new ArrayList<>();
    OmInsight.Page page = in.listKeys("/vol/obs", null, 1, 0, 0);
    assertTrue(bytes(page.lastKey()) > OmValidation.MAX_KEY_BYTES);
    OmInsight.Page next = in.listKeys("/vol/obs", page.lastKey(), 1, 0, 0);
    assertEquals(List.of("/vol/obs/z"), next.rows().stream().map(OmInsight.Row::key).toList());
    OmInsight.Page open = in.openKeys("", null, null, 1, true, true);
    assertTrue(bytes(open.lastKey()) > OmValidation.MAX_KEY_BYTES);
    assertEquals(1, in.openKeys("", open.lastKey(), open.lastKeyTable(), 1, true, true)
        .rows().size());
    OmInsight.Page deleted = in.deletedKeys("", null, 1);
    assertTrue(deleted.hasMore());
    for (OmInsight.Page d = deleted; ; d = in.deletedKeys("", d.lastKey(), 1)) {
      d.rows().forEach(r -> keys.add(r.key()));
      if (!d.hasMore()) {
        break;
      }
    }
    assertEquals(2, keys.size());
  }

  @Test
  void anInsightStartPrefixMustNameTheBucketExactly() {
    put(om, V, OBS, "dir0/k", 1);
    put(om, V, OBS, "dir1/k", 1);
    put(om, V, OBS, "a//b", 1);
    OmInsight in = om.insight();
    for (String bad : new String[] {"//vol/obs/dir0", "/vol//obs/dir0", "//vol/obs",
        "//vol/fso", "/vol//fso/x", "//vol/missing"}) {
      assertRejected(om, Code.INVALID_ARGUMENT, () -> in.listKeys(bad, null, 10, 0, 0));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> in.deletedKeys(bad, null, 10));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> in.deletedDirectories(bad, null, 10));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> in.openKeys(bad, null, null, 10, true, true));
    }
    assertEquals(3, in.listKeys("/vol/obs", null, 10, 0, 0).rows().size());
    assertEquals(3, in.listKeys("/vol/obs/", null, 10, 0, 0).rows().size());
    assertEquals(List.of("/vol/obs/dir0/k"), in.listKeys("/vol/obs/dir0", null, 10, 0, 0)
        .rows().stream().map(OmInsight.Row::key).toList());
    // The part after the bucket is a key prefix as given: empty components are part of names.
    assertEquals(List.of("/vol/obs/a//b"), in.listKeys("/vol/obs/a//", null, 10, 0, 0)
        .rows().stream().map(OmInsight.Row::key).toList());
    assertFalse(in.listKeys("/vol/obs/a//", null, 10, 0, 0).hasMore());
  }
}
