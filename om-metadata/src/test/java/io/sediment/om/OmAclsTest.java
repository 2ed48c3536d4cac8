package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.acl.AclEntries;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.testing.MutableClock;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * get / set / add / remove ACL on a volume, a bucket, an OBJECT_STORE key, an FSO file and an FSO
 * directory: each edit rewrites the one record (new update id, modification time now) and reads
 * back canonical; a missing target is NOT_FOUND, a bad entry or a DEFAULT entry on a key is
 * INVALID_ARGUMENT, and every rejected edit leaves every table unchanged.
 */
class OmAclsTest {

  private static final String V = "vol1";

  private final MutableClock clock = new MutableClock(1_000_000);
  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(OmStoreOptions.defaults()
      .withClock(clock).withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private OmAcls acls;

  @BeforeEach
  void open() {
    om = omStore.store();
    acls = new OmAcls(om);
    om.createVolume(V, "alice");
    om.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    OpenKeySession s = om.openKey(V, "obs", "a/key", "alice");
    om.commitKey(V, "obs", "a/key", s.clientId(), 3);
    OpenKeySession f = om.fso().createFile(V, "fso", "dir/file", "alice");
    om.fso().commitFile(V, "fso", "dir/file", f.clientId(), 3);
  }

  private static List<OmAcl> parse(String... texts) {
    return Arrays.stream(texts).map(AclText::parse).toList();
  }

  private static List<String> text(List<OmAcl> list) {
    return AclText.formatAll(list);
  }

  /** The update id and modification time of the record behind {@code t}. */
  private long[] version(AclTarget t) {
    return switch (t.kind()) {
      case VOLUME -> new long[] {om.getVolumeInfo(t.volume()).getUpdateId(),
          om.getVolumeInfo(t.volume()).getModificationTime()};
      case BUCKET -> new long[] {om.getBucketInfo(t.volume(), t.bucket()).getUpdateId(),
          om.getBucketInfo(t.volume(), t.bucket()).getModificationTime()};
      case KEY -> {
        if (t.bucket().equals("obs")) {
          KeyInfo k = om.lookupKey(t.volume(), t.bucket(), t.key());
          yield new long[] {k.getUpdateId(), k.getModificationTime()};
        }
        var s = om.fso().getFileStatus(t.volume(), t.bucket(), t.key());
        yield new long[] {s.objectId(), s.modificationTime()};
      }
      case PREFIX -> throw new AssertionError("no prefix here: " + t);
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"/vol1", "/vol1/obs", "/vol1/fso", "/vol1/obs/a/key",
      "/vol1/fso/dir/file", "/vol1/fso/dir"})
  void getSetAddRemoveOnEveryKindOfTarget(String path) {
    AclTarget t = target(path);
    assertEquals(List.of("user:alice:a"), text(acls.get(t)));

    clock.advance(1_000);
    long[] before = version(t);
    assertEquals(List.of("user:bob:rw", "group:dev:l"),
        text(acls.set(t, parse("group:dev:l", "user:bob:r", "user:bob:w"))));
    long[] after = version(t);
    assertEquals(List.of("user:bob:rw", "group:dev:l"), text(acls.get(t)));
    assertTrue(after[1] > before[1], "modification time moves on");
    if (!path.startsWith("/vol1/fso/")) {
      assertTrue(after[0] > before[0], "update id moves on");
    }

    assertEquals(List.of("user:bob:rwd", "group:dev:l", "world::r"),
        text(acls.add(t, parse("world::r", "user:bob:d"))));
    assertEquals(List.of("user:bob:w", "world::r"),
        text(acls.remove(t, parse("user:bob:rd", "group:dev:a", "user:nobody:r"))));
    assertEquals(List.of("user:bob:w", "world::r"), text(acls.get(t)));
    assertEquals(List.of(), text(acls.set(t, List.of())));
  }

  @Test
  void defaultEntriesBelongOnVolumesAndBucketsOnly() {
    List<OmAcl> defaults = parse("group:dev:r[DEFAULT]");
    assertEquals(List.of("user:alice:a", "group:dev:r[DEFAULT]"),
        text(acls.add(AclTarget.volume(V), defaults)));
    assertEquals(List.of("user:alice:a", "group:dev:r[DEFAULT]"),
        text(acls.add(AclTarget.bucket(V, "obs"), defaults)));
    for (String path : List.of("/vol1/obs/a/key", "/vol1/fso/dir/file", "/vol1/fso/dir")) {
      OmException e = assertRejected(om, Code.INVALID_ARGUMENT,
          () -> acls.add(target(path), defaults));
      assertTrue(e.getMessage().contains("ACCESS entries only"), e.getMessage());
    }
  }

  @Test
  void aMissingTargetIsNotFoundAndChangesNothing() {
    List<OmAcl> entry = parse("user:bob:r");
    for (String path : List.of("/nov", "/vol1/nob", "/nov/bkt/k", "/vol1/obs/nokey",
        "/vol1/fso/nofile", "/vol1/fso/nodir/file", "/vol1/fso/dir/file/below")) {
      AclTarget t = target(path);
      assertRejected(om, Code.NOT_FOUND, () -> acls.add(t, entry));
      assertRejected(om, Code.NOT_FOUND, () -> acls.set(t, entry));
      assertRejected(om, Code.NOT_FOUND, () -> acls.remove(t, entry));
      assertRejected(om, Code.NOT_FOUND, () -> acls.get(t));
    }
  }

  @Test
  void aBadEntryOrNameIsRefusedAndChangesNothing() {
    OmAcl namelessUser = OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setRights(2).build();
    for (String path : List.of("/vol1", "/vol1/obs", "/vol1/obs/a/key", "/vol1/fso/dir")) {
      AclTarget t = target(path);
      List<OmAcl> bad = List.of(AclText.parse("user:ok:r"), namelessUser);
      assertRejected(om, Code.INVALID_ARGUMENT, () -> acls.set(t, bad));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> acls.add(t, bad));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> acls.remove(t, bad));
    }
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> acls.add(AclTarget.volume("Bad_Name"), parse("user:a:r")));
    assertRejected(om, Code.INVALID_ARGUMENT,
        () -> acls.add(AclTarget.key(V, "fso", "/"), parse("user:a:r")));
    List<OmAcl> many = new ArrayList<>();
    for (int i = 0; i <= AclEntries.MAX_ENTRIES; i++) {
      many.add(AclText.parse("user:u" + i + ":r"));
    }
    assertRejected(om, Code.INVALID_ARGUMENT, () -> acls.set(AclTarget.volume(V), many));
  }

  @Test
  void anEditTouchesOnlyItsRecordAndSurvivesAReopen() {
    Map<String, List<String>> before = OmTestSupport.fullScan(om);
    acls.add(AclTarget.key(V, "obs", "a/key"), parse("user:bob:r"));
    Map<String, List<String>> after = OmTestSupport.fullScan(om);
    int changed = 0;
    for (String table : before.keySet()) {
      if (!before.get(table).equals(after.get(table))) {
        changed++;
        assertTrue(table.equals("keyTable") || table.equals("metaTable"), table);
      }
    }
    assertTrue(changed >= 1);
    om = omStore.reopen();
    assertEquals(List.of("user:alice:a", "user:bob:r"),
        text(new OmAcls(om).get(AclTarget.key(V, "obs", "a/key"))));
  }

  private static AclTarget target(String path) {
    String[] p = path.substring(1).split("/", 3);
    return new AclTarget(p[0], p.length > 1 ? p[1] : "", p.length > 2 ? p[2] : "");
  }
}
