package io.sediment.om.authz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.auth.Principal;
import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclResource;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.AddAclRequest;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CompactTableRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.GetAclRequest;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.GetCountersRequest;
import io.sediment.proto.om.GetFileStatusRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.SetAclRequest;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Authorization of single RPCs through a real server: who may do what, and what a denial says. */
class AuthorizationRpcTest {

  private static final Principal ROOT = Principal.user("root");
  private static final Principal ALICE = Principal.user("alice");
  private static final Principal BOB = new Principal("bob", Set.of("staff"));

  @TempDir
  Path dir;
  private AuthzFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new AuthzFixture(dir.resolve("om"), true);
    f.store.createVolume("vol", "alice");
    f.store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, "alice", 0);
    long id = f.store.openKey("vol", "bkt", "k1", "alice").clientId();
    f.store.commitKey("vol", "bkt", "k1", id, 1);
    id = f.store.openKey("vol", "bkt", "k2", "alice").clientId();
    f.store.commitKey("vol", "bkt", "k2", id, 1);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static OmAcl acl(AclIdentityType type, String name, AclRight... rights) {
    int bits = 0;
    for (AclRight r : rights) {
      bits |= 1 << r.getNumber();
    }
    return OmAcl.newBuilder().setType(type).setName(name).setRights(bits)
        .setScope(AclScope.ACL_ACCESS).build();
  }

  private StatusRuntimeException denied(Executable call) {
    byte[] before = f.digest();
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), e.getMessage());
    assertArrayEquals(before, f.digest(), "a denied call changed nothing");
    return e;
  }

  @Test
  void adminServiceIsForAdministratorsOnly() {
    StatusRuntimeException e = denied(() -> f.admin(ALICE).getCounters(
        GetCountersRequest.getDefaultInstance()));
    assertTrue(e.getStatus().getDescription().contains("administrators"), e.getMessage());
    denied(() -> f.admin(Principal.ANONYMOUS).compactTable(
        CompactTableRequest.newBuilder().setTable("keyTable").build()));
    assertDoesNotThrow(() -> f.admin(ROOT).getCounters(GetCountersRequest.getDefaultInstance()));
    Principal inAdminGroup = new Principal("carol", Set.of("admins"));
    assertDoesNotThrow(() -> f.admin(inAdminGroup).getCounters(
        GetCountersRequest.getDefaultInstance()));
  }

  @Test
  void aclsAreReadWithReadAclAndEditedWithWriteAclOrByTheOwner() {
    AclResource key = AclResource.newBuilder().setVolume("vol").setBucket("bkt").setKey("k1")
        .build();
    OmAcl bobReads = acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ);
    StatusRuntimeException e = denied(() -> f.om(BOB).addAcl(AddAclRequest.newBuilder()
        .setTarget(key).addAcls(bobReads).build()));
    assertTrue(e.getStatus().getDescription().contains("ACL_WRITE_ACL"), e.getMessage());
    denied(() -> f.om(BOB).getAcl(GetAclRequest.newBuilder().setTarget(key).build()));
    // The owner edits: bob may now read the key's ACL... once the volume and bucket let him in.
    assertDoesNotThrow(() -> f.om(ALICE).addAcl(AddAclRequest.newBuilder().setTarget(key)
        .addAcls(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ_ACL)).build()));
    denied(() -> f.om(BOB).getAcl(GetAclRequest.newBuilder().setTarget(key).build()));
    for (AclResource r : new AclResource[] {
        AclResource.newBuilder().setVolume("vol").build(),
        AclResource.newBuilder().setVolume("vol").setBucket("bkt").build()}) {
      f.om(ALICE).addAcl(AddAclRequest.newBuilder().setTarget(r).addAcls(bobReads).build());
    }
    assertTrue(f.om(BOB).getAcl(GetAclRequest.newBuilder().setTarget(key).build()).getAclsList()
        .stream().anyMatch(a -> a.getName().equals("bob")));
    denied(() -> f.om(BOB).setAcl(SetAclRequest.newBuilder().setTarget(key).build()));
  }

  @Test
  void aDirectorysOwnAclEntriesGrantRightsOnIt() {
    f.store.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, "alice", 0);
    f.store.fso().createDirectory("vol", "fso", "a/b");
    GetFileStatusRequest status = GetFileStatusRequest.newBuilder().setVolume("vol")
        .setBucket("fso").setPath("a/b").build();
    f.om(ALICE).addAcl(AddAclRequest.newBuilder().setTarget(AclResource.newBuilder()
        .setVolume("vol").build()).addAcls(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ))
        .build());
    denied(() -> f.om(BOB).getFileStatus(status));
    f.om(ALICE).addAcl(AddAclRequest.newBuilder().setTarget(AclResource.newBuilder()
        .setVolume("vol").setBucket("fso").setKey("a/b").build())
        .addAcls(acl(AclIdentityType.ACL_GROUP, "staff", AclRight.ACL_READ)).build());
    assertTrue(f.om(BOB).getFileStatus(status).getStatus().getIsDirectory(),
        "bob's group may read the directory by its own entry");
  }

  @Test
  void aPrefixsEntriesGrantOnTheKeysItIsTheLongestStoredPrefixOf() {
    f.seedVolume("vol", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ)));
    for (String k : List.of("logs/a", "logs/secret/x", "data/a")) {
      f.store.commitKey("vol", "bkt", k, f.store.openKey("vol", "bkt", k, "alice").clientId(), 1);
    }
    AclResource logs = AclResource.newBuilder().setVolume("vol").setBucket("bkt")
        .setPrefix("logs/").build();
    denied(() -> f.om(BOB).lookupKey(lookup("logs/a")));
    StatusRuntimeException e = denied(() -> f.om(BOB).addAcl(AddAclRequest.newBuilder()
        .setTarget(logs).addAcls(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ))
        .build()));
    assertTrue(e.getStatus().getDescription().contains("/vol/bkt/logs/"), e.getMessage());

    f.om(ALICE).addAcl(AddAclRequest.newBuilder().setTarget(logs).addAcls(acl(
        AclIdentityType.ACL_GROUP, "staff", AclRight.ACL_READ, AclRight.ACL_CREATE)).build());
    f.om(ALICE).addAcl(AddAclRequest.newBuilder().setTarget(AclResource.newBuilder()
        .setVolume("vol").setBucket("bkt").setPrefix("logs/secret/")).addAcls(acl(
        AclIdentityType.ACL_USER, "carol", AclRight.ACL_READ)).build());

    assertEquals("logs/a", f.om(BOB).lookupKey(lookup("logs/a")).getKey().getKeyName());
    assertDoesNotThrow(() -> f.om(BOB).openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey("logs/new").build()), "CREATE by the prefix");
    denied(() -> f.om(BOB).lookupKey(lookup("data/a")));
    denied(() -> f.om(BOB).openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey("data/new").build()));
    denied(() -> f.om(BOB).lookupKey(lookup("logs/secret/x")));
    denied(() -> f.om(BOB).getAcl(GetAclRequest.newBuilder().setTarget(logs).build()));
    assertEquals(1, f.om(ALICE).getAcl(GetAclRequest.newBuilder().setTarget(logs).build())
        .getAclsCount());
  }

  private static LookupKeyRequest lookup(String key) {
    return LookupKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey(key).build();
  }

  @Test
  void anAclTargetIsAKeyOrAPrefixNotBoth() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> f.om(ALICE)
        .getAcl(GetAclRequest.newBuilder().setTarget(AclResource.newBuilder().setVolume("vol")
            .setBucket("bkt").setKey("k1").setPrefix("logs/")).build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getMessage());
  }

  @Test
  void aDenialNamesTheMissingRightAndTheResource() {
    StatusRuntimeException e = denied(() -> f.om(BOB).lookupKey(LookupKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setKey("k1").build()));
    String d = e.getStatus().getDescription();
    assertTrue(d.contains("ACL_READ") && d.contains("/vol/bkt/k1") && d.contains("bob"), d);
  }

  @Test
  void ownersHoldEveryRightAndOthersNone() {
    assertDoesNotThrow(() -> f.om(ALICE).lookupKey(LookupKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setKey("k1").build()));
    denied(() -> f.om(BOB).getVolume(GetVolumeRequest.newBuilder().setVolume("vol").build()));
    denied(() -> f.om(Principal.ANONYMOUS).getVolume(
        GetVolumeRequest.newBuilder().setVolume("vol").build()));
  }

  @Test
  void onlyAdministratorsCreateVolumesAndTheyKeepTheRequestedOwner() {
    denied(() -> f.om(ALICE).createVolume(CreateVolumeRequest.newBuilder().setVolume("wvol")
        .setOwner("alice").build()));
    assertEquals("bob", f.om(ROOT).createVolume(CreateVolumeRequest.newBuilder().setVolume("wvol")
        .setOwner("bob").build()).getVolume().getOwner());
  }

  @Test
  void changingAVolumesOwnerNeedsAnAdministratorEvenForTheOwner() {
    StatusRuntimeException e = denied(() -> f.om(ALICE).setVolumeProperties(
        SetVolumePropertiesRequest.newBuilder().setVolume("vol").setOwner("bob").build()));
    assertTrue(e.getStatus().getDescription().contains("owner"), e.getMessage());
    assertDoesNotThrow(() -> f.om(ALICE).setVolumeProperties(
        SetVolumePropertiesRequest.newBuilder().setVolume("vol").setQuotaInBytes(1L << 40).build()));
  }

  @Test
  void deletingAVolumeNeedsDeleteAndOwnership() {
    f.om(ROOT).createVolume(CreateVolumeRequest.newBuilder().setVolume("wvol").setOwner("alice")
        .build());
    f.seedVolume("wvol", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_ALL)));
    StatusRuntimeException e = denied(() -> f.om(BOB).deleteVolume(
        DeleteVolumeRequest.newBuilder().setVolume("wvol").build()));
    assertTrue(e.getStatus().getDescription().contains("ownership"), e.getMessage());
    assertDoesNotThrow(() -> f.om(ALICE).deleteVolume(
        DeleteVolumeRequest.newBuilder().setVolume("wvol").build()));
  }

  @Test
  void theCreatorOwnsWhatItCreatesWhateverTheRequestSays() {
    f.seedVolume("vol", "alice", List.of(acl(AclIdentityType.ACL_GROUP, "staff",
        AclRight.ACL_READ, AclRight.ACL_CREATE)));
    f.seedBucket("vol", "bkt", "alice", List.of(acl(AclIdentityType.ACL_WORLD, "",
        AclRight.ACL_CREATE)));
    assertEquals("bob", f.om(BOB).createBucket(CreateBucketRequest.newBuilder().setVolume("vol")
        .setBucket("cbk").setLayout(BucketLayout.OBJECT_STORE).setOwner("alice").build())
        .getBucket().getOwner());
    OpenKeyResponse open = f.om(BOB).openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey("new").setOwner("alice").build());
    assertEquals("bob", open.getOpenKey().getOwner());
    assertEquals("bob", f.om(BOB).commitKey(CommitKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey("new").setClientId(open.getClientId()).build()).getKey().getOwner());
    // Without authorization the request's owner would have been recorded.
    assertEquals("carol", f.om(ROOT).openKey(OpenKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey("new2").setOwner("carol").build()).getOpenKey().getOwner());
  }

  @Test
  void rightsAreNotInheritedDownwardsAndDefaultEntriesGrantNothingHere() {
    // READ on the volume is not READ on its bucket.
    f.seedVolume("vol", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ)));
    denied(() -> f.om(BOB).getBucket(GetBucketRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .build()));
    // A DEFAULT entry on the bucket is for what is created inside it, not for the bucket.
    f.seedBucket("vol", "bkt", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob",
        AclRight.ACL_ALL).toBuilder().setScope(AclScope.ACL_DEFAULT).build()));
    denied(() -> f.om(BOB).getBucket(GetBucketRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .build()));
    // A right on a key is not the volume's READ it needs, nor a right on its siblings.
    f.seedVolume("vol", "alice", List.of());
    f.seedKey("vol", "bkt", "k1", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob",
        AclRight.ACL_READ)));
    denied(() -> f.om(BOB).lookupKey(LookupKeyRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setKey("k1").build()));
    f.seedVolume("vol", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ)));
    assertDoesNotThrow(() -> f.om(BOB).lookupKey(LookupKeyRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setKey("k1").build()));
    denied(() -> f.om(BOB).lookupKey(LookupKeyRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setKey("k2").build()));
  }

  @Test
  void aContinuationTokenDoesNotLetACallerWithoutListContinue() {
    ListKeysResponse first = f.om(ALICE).listKeys(ListKeysRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setMaxKeys(1).build());
    assertTrue(first.getTruncated());
    denied(() -> f.om(BOB).listKeys(ListKeysRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setMaxKeys(1).setPageToken(first.getNextPageToken()).build()));
    ListObjectsV2Response v2 = f.om(ALICE).listObjectsV2(ListObjectsV2Request.newBuilder()
        .setVolume("vol").setBucket("bkt").setMaxKeys(1).build());
    denied(() -> f.om(BOB).listObjectsV2(ListObjectsV2Request.newBuilder().setVolume("vol")
        .setBucket("bkt").setMaxKeys(1).setContinuationToken(v2.getNextContinuationToken())
        .build()));
    // With LIST (and the volume's READ) the same token continues.
    f.seedVolume("vol", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ)));
    f.seedBucket("vol", "bkt", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob",
        AclRight.ACL_LIST)));
    assertEquals("k2", f.om(BOB).listKeys(ListKeysRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").setMaxKeys(1).setPageToken(first.getNextPageToken()).build())
        .getKeys(0).getKeyName());
  }

  @Test
  void listingVolumesNeedsAnAuthenticatedCaller() {
    denied(() -> f.om(Principal.ANONYMOUS).listVolumes(ListVolumesRequest.getDefaultInstance()));
    assertEquals(1, f.om(BOB).listVolumes(ListVolumesRequest.getDefaultInstance())
        .getVolumesCount());
  }

  /**
   * DeleteKeys checks DELETE key by key, as Ozone's DeleteKeys: a key the caller may not delete
   * is reported FAILED with PERMISSION_DENIED and stays, the others are deleted in the same call;
   * a call whose every key is denied is refused whole and changes nothing.
   */
  @Test
  void deleteKeysDeniesKeyByKeyAndRefusesACallWithNoDeletableKey() {
    commit("k3");
    OmAcl bobReads = acl(AclIdentityType.ACL_USER, "bob", AclRight.ACL_READ);
    f.seedVolume("vol", "alice", List.of(bobReads));
    f.seedBucket("vol", "bkt", "alice", List.of(bobReads));
    f.seedKey("vol", "bkt", "k1", "alice", List.of(acl(AclIdentityType.ACL_USER, "bob",
        AclRight.ACL_DELETE)));
    f.seedKey("vol", "bkt", "k3", "alice", List.of(acl(AclIdentityType.ACL_GROUP, "staff",
        AclRight.ACL_DELETE)));
    DeleteKeysRequest req = DeleteKeysRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .addAllKeys(List.of("k1", "k2", "k3", "nokey")).build();

    StatusRuntimeException e = denied(() -> f.om(Principal.user("mallory")).deleteKeys(req));
    assertTrue(e.getStatus().getDescription().contains("ACL_DELETE"), e.getMessage());

    DeleteKeysResponse r = f.om(BOB).deleteKeys(req);
    assertEquals(List.of(DeleteKeyResult.Outcome.DELETED, DeleteKeyResult.Outcome.FAILED,
        DeleteKeyResult.Outcome.DELETED, DeleteKeyResult.Outcome.FAILED),
        r.getResultsList().stream().map(DeleteKeyResult::getOutcome).toList(),
        "a denied key is denied whether or not it exists: " + r);
    DeleteKeyResult k2 = r.getResults(1);
    assertEquals("PERMISSION_DENIED", k2.getErrorCode());
    assertTrue(k2.getMessage().contains("bob") && k2.getMessage().contains("/vol/bkt/k2"),
        k2.getMessage());
    assertEquals(List.of("k2"), f.store.listKeys("vol", "bkt", null, null, 10, null).items()
        .stream().map(KeyInfo::getKeyName).toList());
    assertEquals(f.store.countFromScan(), f.store.counters());

    DeleteKeysResponse again = f.om(ROOT).deleteKeys(req);
    assertEquals(List.of(DeleteKeyResult.Outcome.NOT_FOUND, DeleteKeyResult.Outcome.DELETED,
        DeleteKeyResult.Outcome.NOT_FOUND, DeleteKeyResult.Outcome.NOT_FOUND),
        again.getResultsList().stream().map(DeleteKeyResult::getOutcome).toList());
  }

  private void commit(String key) {
    long id = f.store.openKey("vol", "bkt", key, "alice").clientId();
    f.store.commitKey("vol", "bkt", key, id, 1);
  }

  @Test
  void everyOmServiceRpcHasARule() {
    RpcRights rights = new RpcRights(new NativeAccessControl(AuthzFixture.ADMINISTRATORS,
        f.store));
    for (var m : OmServiceGrpc.getServiceDescriptor().getMethods()) {
      assertDoesNotThrow(() -> rights.guard((MethodDescriptor<?, ?>) m), m.getFullMethodName());
    }
    assertFalse(OmServiceGrpc.getServiceDescriptor().getMethods().isEmpty());
  }
}
