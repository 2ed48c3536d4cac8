package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.om.acl.AclTarget;
import io.sediment.om.acl.AclText;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploads;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.OmAcl;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ACL every record is created with: the owner gets ALL; a volume's DEFAULT entries reach a
 * new bucket as ACCESS and as DEFAULT entries; a bucket's DEFAULT entries reach new keys, files,
 * directories (also those made as a file's missing parents) and completed multipart keys as
 * ACCESS entries only; ACCESS entries of a parent are not inherited; an overwritten key carries
 * the ACL of the new version's creation.
 */
class DefaultAclsAtCreationTest {

  private static final String V = "vol1";

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(
      OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private OmAcls acls;

  @BeforeEach
  void open() {
    om = omStore.store();
    acls = new OmAcls(om);
    om.createVolume(V, "alice");
  }

  private static List<OmAcl> parse(String... texts) {
    return Arrays.stream(texts).map(AclText::parse).toList();
  }

  private static List<String> text(List<OmAcl> list) {
    return AclText.formatAll(list);
  }

  @Test
  void aVolumeIsOwnedWithAll() {
    assertEquals(List.of("user:alice:a"), text(om.getVolumeInfo(V).getAclsList()));
  }

  @Test
  void aBucketGetsItsOwnerAndTheVolumeDefaultsAsAccessAndDefault() {
    om.createBucket(V, "plain", BucketLayout.OBJECT_STORE, null, 0);
    assertEquals(List.of("user:alice:a"), text(om.getBucketInfo(V, "plain").getAclsList()));

    acls.add(AclTarget.volume(V), parse("group:dev:rl[DEFAULT]", "user:eve:r"));
    om.createBucket(V, "bkt", BucketLayout.OBJECT_STORE, "bob", 0);
    assertEquals(List.of("user:bob:a", "group:dev:rl", "group:dev:rl[DEFAULT]"),
        text(om.getBucketInfo(V, "bkt").getAclsList()));
  }

  @Test
  void keysFilesDirectoriesAndUploadsGetTheBucketDefaultsAsAccessEntries() throws Exception {
    acls.add(AclTarget.volume(V), parse("group:dev:rl[DEFAULT]"));
    om.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket(V, "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (String b : List.of("obs", "fso")) {
      acls.add(AclTarget.bucket(V, b), parse("world::r[DEFAULT]", "user:carol:w"));
    }
    List<String> expected = List.of("user:bob:a", "group:dev:rl", "world::r");

    OpenKeySession s = om.openKey(V, "obs", "k", "bob");
    assertEquals(expected, text(s.openKey().getAclsList()));
    assertEquals(expected, text(om.commitKey(V, "obs", "k", s.clientId(), 1).getAclsList()));

    OpenKeySession f = om.fso().createFile(V, "fso", "d1/d2/f", "bob");
    assertEquals(expected, text(om.fso().commitFile(V, "fso", "d1/d2/f", f.clientId(), 1)
        .getAclsList()));
    assertEquals(expected, text(acls.get(AclTarget.key(V, "fso", "d1/d2"))));
    om.fso().createDirectory(V, "fso", "top/sub");
    // A directory made on its own is owned by the bucket's owner, as the write path sets today.
    assertEquals(List.of("user:alice:a", "group:dev:rl", "world::r"),
        text(acls.get(AclTarget.key(V, "fso", "top/sub"))));

    String upload = om.multipart().initiate(V, "obs", "mpu", "bob");
    om.multipart().commitPart(V, "obs", "mpu", upload, 1, MultipartUploads.MIN_PART_SIZE, "e1");
    assertEquals(expected, text(om.multipart().complete(V, "obs", "mpu", upload,
        List.of(new CompletedPart(1, "e1"))).getAclsList()));
  }

  @Test
  void anOverwrittenKeyCarriesTheAclOfTheNewVersion() {
    om.createBucket(V, "obs", BucketLayout.OBJECT_STORE, null, 0);
    OpenKeySession s = om.openKey(V, "obs", "k", "bob");
    om.commitKey(V, "obs", "k", s.clientId(), 1);
    acls.add(AclTarget.key(V, "obs", "k"), parse("user:eve:r"));
    acls.add(AclTarget.bucket(V, "obs"), parse("group:ops:d[DEFAULT]"));

    OpenKeySession again = om.openKey(V, "obs", "k", "carol");
    om.commitKey(V, "obs", "k", again.clientId(), 2);
    assertEquals(List.of("user:carol:a", "group:ops:d"),
        text(om.lookupKey(V, "obs", "k").getAclsList()));
  }
}
