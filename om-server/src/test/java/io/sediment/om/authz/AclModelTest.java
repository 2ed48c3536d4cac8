package io.sediment.om.authz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.OmAcls;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.auth.Principal;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.fso.FileStatus;
import io.sediment.proto.om.AclIdentityType;
import io.sediment.proto.om.AclResource;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.AddAclRequest;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.DeleteFileRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.GetAclRequest;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.GetCountersRequest;
import io.sediment.proto.om.GetFileStatusRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListMultipartUploadsRequest;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.SetAclRequest;
import io.sediment.proto.om.RemoveAclRequest;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.ListObjectsV1Request;
import io.sediment.proto.om.LookupFileRequest;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.RenameRequest;
import io.sediment.proto.om.ListPartsRequest;
import io.sediment.proto.om.CommitMultipartPartRequest;
import io.sediment.proto.om.CompleteMultipartUploadRequest;
import io.sediment.proto.om.AbortMultipartUploadRequest;
import io.sediment.proto.om.DeleteSnapshotRequest;
import io.sediment.proto.om.LookupSnapshotKeyRequest;
import io.sediment.proto.om.CreateTokenRequest;
import io.sediment.proto.om.ListTokensRequest;
import io.sediment.proto.om.RevokeTokenRequest;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.PrefixInfo;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.RenameKeyRequest;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import io.sediment.proto.om.VolumeInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ACL model test: random principals (users in groups, administrators, the anonymous caller),
 * random owners and ACL entries seeded into the records of a small namespace (key-name prefixes
 * included: keys under p/ and p/q/, both prefixes holding random entries), and random RPCs (51
 * kinds, every OmService RPC and AdminService's token RPCs among them) of
 * the {@link RpcRights} table, each sent through a real server. Every call must be allowed
 * exactly when the reference model below says so, and a denied call (PERMISSION_DENIED) must
 * leave every table as it was.
 *
 * <p>The reference model is written from the rules (Ozone's native authorizer as the RPC table
 * states it), not from the authorizer's code; it reads the records it decides on from the store
 * before each call.
 */
class AclModelTest {

  private static final int CASES = 2_000;
  private static final int RESEED_EVERY = 40;
  private static final long SEED = Long.getLong("sediment.aclModel.seed", 0x5ED1_3E47L);

  private static final List<String> USERS = List.of("u0", "u1", "u2", "u3");
  private static final List<String> GROUPS = List.of("g0", "g1", "admins");
  private static final List<Principal> PRINCIPALS = List.of(
      new Principal("u0", Set.of("g0")), new Principal("u1", Set.of("g1")),
      new Principal("u2", Set.of("g0", "g1")), Principal.user("u3"),
      Principal.user("root"), new Principal("carol", Set.of("admins")), Principal.ANONYMOUS);
  private static final List<String> VOLUMES = List.of("vol0", "vol1");
  private static final List<String> BUCKETS = List.of("bkt0", "bkt1");
  /** Keys under no prefix, under p/ and under p/q/ (prefixes seeded with random entries). */
  private static final List<String> KEYS = List.of("k0", "p/k1", "p/q/k2");
  private static final List<String> PREFIXES = List.of("p/", "p/q/");
  private static final String FSO = "fso0";

  @TempDir
  Path dir;

  private AuthzFixture f;
  private Random random;
  private int created;

  /** The kinds of call the test sends. */
  private enum Kind {
    GET_VOLUME, SET_VOLUME_QUOTA, SET_VOLUME_OWNER, DELETE_VOLUME, LIST_VOLUMES, CREATE_VOLUME,
    CREATE_BUCKET, GET_BUCKET, SET_BUCKET_QUOTA, DELETE_BUCKET, LIST_BUCKETS, OPEN_KEY,
    LOOKUP_KEY, DELETE_KEY, RENAME_KEY, LIST_KEYS, LIST_OBJECTS_V2, INITIATE_UPLOAD,
    LIST_UPLOADS, CREATE_SNAPSHOT, LIST_SNAPSHOTS, LIST_OPEN_FILES, GET_COUNTERS,
    GET_FILE_STATUS, CREATE_DIRECTORY, DELETE_FILE, LIST_STATUS, GET_KEY_ACL, ADD_BUCKET_ACL,
    ADD_VOLUME_ACL, GET_PREFIX_ACL, ADD_PREFIX_ACL, DELETE_KEYS, SET_KEY_ACL, REMOVE_VOLUME_ACL,
    COMMIT_KEY, LIST_OBJECTS_V1, LOOKUP_FILE, CREATE_FILE, COMMIT_FILE, DELETE_DIRECTORY,
    RENAME_FILE, LIST_PARTS, COMMIT_PART, COMPLETE_UPLOAD, ABORT_UPLOAD, DELETE_SNAPSHOT,
    LOOKUP_SNAPSHOT_KEY, CREATE_TOKEN, LIST_TOKENS, REVOKE_TOKEN
  }

  /** An upload id no upload has: calls that name it fail after the check, as NOT_FOUND. */
  private static final String NO_UPLOAD = "00000000000000ff";

  @Test
  void everyCallIsAllowedExactlyWhenTheModelAllowsIt() throws Exception {
    random = new Random(SEED);
    f = new AuthzFixture(dir.resolve("om"), true);
    Map<Kind, int[]> seen = new EnumMap<>(Kind.class);
    int allowed = 0;
    try {
      for (int i = 0; i < CASES; i++) {
        if (i % RESEED_EVERY == 0) {
          reseed();
        }
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        Principal p = PRINCIPALS.get(random.nextInt(PRINCIPALS.size()));
        String v = random.nextInt(10) == 0 ? "volx" : pick(VOLUMES);
        String b = kind.name().contains("FILE") || kind.name().contains("DIRECTORY")
            || kind == Kind.LIST_STATUS ? FSO : random.nextInt(10) == 0 ? "bktx" : pick(BUCKETS);
        String k = random.nextInt(8) == 0 ? "kx" : pick(KEYS);
        String path = kind.name().contains("PREFIX") ? pick(List.of("p/", "p/q/", "z/"))
            : pick(List.of("d/f0", "d", "zz"));
        String what = "case " + i + " (seed " + SEED + "): " + kind + " by " + p + " on /" + v
            + "/" + b + "/" + k;
        boolean expected = model(kind, p, v, b, k, path);
        byte[] before = expected ? null : f.digest();
        Status.Code code = Status.Code.OK;
        try {
          send(kind, p, v, b, k, path);
        } catch (StatusRuntimeException e) {
          code = e.getStatus().getCode();
        }
        if (expected) {
          assertNotEquals(Status.Code.PERMISSION_DENIED, code, what);
          allowed++;
        } else {
          assertEquals(Status.Code.PERMISSION_DENIED, code, what);
          assertArrayEquals(before, f.digest(), "a denied call changed something: " + what);
        }
        seen.computeIfAbsent(kind, x -> new int[2])[expected ? 0 : 1]++;
      }
    } finally {
      f.close();
    }
    assertTrue(allowed > CASES / 5 && allowed < CASES * 4 / 5, "allowed " + allowed);
    for (Kind kind : Kind.values()) {
      int[] counts = seen.get(kind);
      assertTrue(counts != null && counts[0] > 0, "no allowed " + kind);
      if (kind != Kind.LIST_VOLUMES || counts[1] > 0) {
        assertTrue(counts[1] > 0 || kind == Kind.LIST_VOLUMES, "no denied " + kind);
      }
    }
  }

  // ---- the reference model ----

  /** An owner and entries, as a record holds them; null: no such record. */
  private record Rec(String owner, List<OmAcl> acls) {}

  private static boolean admin(Principal p) {
    return !p.isAnonymous() && (p.name().equals("root") || p.groups().contains("admins"));
  }

  /** Whether record {@code r} grants {@code right} to {@code p}. */
  private static boolean has(Rec r, Principal p, AclRight right) {
    if (r == null) {
      return false;
    }
    if (!p.isAnonymous() && p.name().equals(r.owner)) {
      return true;
    }
    for (OmAcl a : r.acls) {
      if (a.getScope() != AclScope.ACL_ACCESS) {
        continue;
      }
      boolean matches = switch (a.getType()) {
        case ACL_USER -> !p.isAnonymous() && p.name().equals(a.getName());
        case ACL_GROUP -> !p.isAnonymous() && p.groups().contains(a.getName());
        case ACL_WORLD -> !p.isAnonymous();
        case ACL_ANONYMOUS -> p.isAnonymous();
        default -> false;
      };
      boolean all = (a.getRights() >> AclRight.ACL_ALL_VALUE & 1) == 1;
      boolean none = (a.getRights() >> AclRight.ACL_NONE_VALUE & 1) == 1;
      boolean bit = (a.getRights() >> right.getNumber() & 1) == 1;
      if (matches && (all || (!none && bit))) {
        return true;
      }
    }
    return false;
  }

  private boolean onVolume(Principal p, String v, AclRight right) {
    return has(volume(v), p, right);
  }

  private boolean onBucket(Principal p, String v, String b, AclRight right) {
    return has(volume(v), p, AclRight.ACL_READ) && has(bucket(v, b), p, right);
  }

  private boolean onKey(Principal p, String v, String b, String k, AclRight right) {
    boolean below = has(volume(v), p, AclRight.ACL_READ) && bucket(v, b) != null;
    boolean byPrefix = below && has(governingPrefix(v, b, k), p, right);
    if (right == AclRight.ACL_CREATE) {
      return onBucket(p, v, b, right) || byPrefix;
    }
    return onBucket(p, v, b, right) || byPrefix || (below && has(key(v, b, k), p, right));
  }

  private boolean onPrefix(Principal p, String v, String b, String prefix, AclRight right) {
    return onBucket(p, v, b, right) || (has(volume(v), p, AclRight.ACL_READ)
        && bucket(v, b) != null && has(prefix(v, b, prefix), p, right));
  }

  private boolean bucketOwner(Principal p, String v, String b) {
    Rec r = bucket(v, b);
    return r != null && !p.isAnonymous() && p.name().equals(r.owner);
  }

  private boolean model(Kind kind, Principal p, String v, String b, String k, String path) {
    if (admin(p)) {
      return true;
    }
    return switch (kind) {
      case GET_VOLUME -> onVolume(p, v, AclRight.ACL_READ);
      case SET_VOLUME_QUOTA -> onVolume(p, v, AclRight.ACL_WRITE);
      case SET_VOLUME_OWNER, CREATE_VOLUME, LIST_OPEN_FILES, GET_COUNTERS -> false;
      case DELETE_VOLUME -> onVolume(p, v, AclRight.ACL_DELETE) && volume(v) != null
          && !p.isAnonymous() && p.name().equals(volume(v).owner);
      case LIST_VOLUMES -> !p.isAnonymous();
      case CREATE_BUCKET -> onVolume(p, v, AclRight.ACL_CREATE);
      case GET_BUCKET -> onBucket(p, v, b, AclRight.ACL_READ);
      case SET_BUCKET_QUOTA -> onBucket(p, v, b, AclRight.ACL_WRITE);
      case DELETE_BUCKET -> onBucket(p, v, b, AclRight.ACL_DELETE);
      case LIST_BUCKETS -> onVolume(p, v, AclRight.ACL_LIST);
      case OPEN_KEY, INITIATE_UPLOAD -> onKey(p, v, b, k, AclRight.ACL_CREATE);
      case LOOKUP_KEY -> onKey(p, v, b, k, AclRight.ACL_READ);
      case DELETE_KEY -> onKey(p, v, b, k, AclRight.ACL_DELETE);
      // Refused whole only when every key is denied; a denied key is reported (checked in send).
      case DELETE_KEYS -> onKey(p, v, b, k, AclRight.ACL_DELETE)
          || onKey(p, v, b, other(k), AclRight.ACL_DELETE);
      case RENAME_KEY -> onKey(p, v, b, k, AclRight.ACL_DELETE)
          && onKey(p, v, b, "r" + k, AclRight.ACL_CREATE);
      case LIST_KEYS, LIST_OBJECTS_V2, LIST_UPLOADS, LIST_SNAPSHOTS, LIST_STATUS ->
          onBucket(p, v, b, AclRight.ACL_LIST);
      case CREATE_SNAPSHOT, DELETE_SNAPSHOT -> bucketOwner(p, v, b);
      case SET_KEY_ACL -> onKey(p, v, b, k, AclRight.ACL_WRITE_ACL);
      case REMOVE_VOLUME_ACL -> onVolume(p, v, AclRight.ACL_WRITE_ACL);
      case COMMIT_KEY, COMMIT_PART, COMPLETE_UPLOAD -> onKey(p, v, b, k, AclRight.ACL_CREATE);
      case LIST_OBJECTS_V1 -> onBucket(p, v, b, AclRight.ACL_LIST);
      case LOOKUP_FILE -> onKey(p, v, b, path, AclRight.ACL_READ);
      case CREATE_FILE -> onKey(p, v, b, path + "/f", AclRight.ACL_CREATE);
      case COMMIT_FILE -> onKey(p, v, b, path, AclRight.ACL_CREATE);
      case DELETE_DIRECTORY -> onKey(p, v, b, path, AclRight.ACL_DELETE);
      case RENAME_FILE -> onKey(p, v, b, path, AclRight.ACL_DELETE)
          && onKey(p, v, b, path + "r", AclRight.ACL_CREATE);
      case LIST_PARTS, LOOKUP_SNAPSHOT_KEY -> onKey(p, v, b, k, AclRight.ACL_READ);
      case ABORT_UPLOAD -> onKey(p, v, b, k, AclRight.ACL_DELETE);
      case CREATE_TOKEN, LIST_TOKENS, REVOKE_TOKEN -> false;
      case GET_FILE_STATUS -> onKey(p, v, b, path, AclRight.ACL_READ);
      case CREATE_DIRECTORY -> onKey(p, v, b, path + "/n", AclRight.ACL_CREATE);
      case DELETE_FILE -> onKey(p, v, b, path, AclRight.ACL_DELETE);
      case GET_KEY_ACL -> onKey(p, v, b, k, AclRight.ACL_READ_ACL);
      case ADD_BUCKET_ACL -> onBucket(p, v, b, AclRight.ACL_WRITE_ACL);
      case ADD_VOLUME_ACL -> onVolume(p, v, AclRight.ACL_WRITE_ACL);
      case GET_PREFIX_ACL -> onPrefix(p, v, b, path, AclRight.ACL_READ_ACL);
      case ADD_PREFIX_ACL -> onPrefix(p, v, b, path, AclRight.ACL_WRITE_ACL);
    };
  }

  // ---- the calls ----

  private void send(Kind kind, Principal p, String v, String b, String k, String path) {
    var om = f.om(p);
    switch (kind) {
      case GET_VOLUME -> om.getVolume(GetVolumeRequest.newBuilder().setVolume(v).build());
      case SET_VOLUME_QUOTA -> om.setVolumeProperties(SetVolumePropertiesRequest.newBuilder()
          .setVolume(v).setQuotaInNamespace(1_000 + random.nextInt(1_000)).build());
      case SET_VOLUME_OWNER -> om.setVolumeProperties(SetVolumePropertiesRequest.newBuilder()
          .setVolume(v).setOwner(pick(USERS)).build());
      case DELETE_VOLUME -> om.deleteVolume(DeleteVolumeRequest.newBuilder().setVolume(v).build());
      case LIST_VOLUMES -> om.listVolumes(ListVolumesRequest.getDefaultInstance());
      case CREATE_VOLUME -> om.createVolume(CreateVolumeRequest.newBuilder()
          .setVolume("new" + created++).setOwner(pick(USERS)).build());
      case CREATE_BUCKET -> om.createBucket(CreateBucketRequest.newBuilder().setVolume(v)
          .setBucket("new" + created++).setLayout(BucketLayout.OBJECT_STORE).build());
      case GET_BUCKET -> om.getBucket(GetBucketRequest.newBuilder().setVolume(v).setBucket(b)
          .build());
      case SET_BUCKET_QUOTA -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
          .setVolume(v).setBucket(b).setQuotaInNamespace(1_000 + random.nextInt(1_000)).build());
      case DELETE_BUCKET -> om.deleteBucket(DeleteBucketRequest.newBuilder().setVolume(v)
          .setBucket(b).build());
      case LIST_BUCKETS -> om.listBuckets(ListBucketsRequest.newBuilder().setVolume(v).build());
      case OPEN_KEY -> om.openKey(OpenKeyRequest.newBuilder().setVolume(v).setBucket(b).setKey(k)
          .build());
      case LOOKUP_KEY -> om.lookupKey(LookupKeyRequest.newBuilder().setVolume(v).setBucket(b)
          .setKey(k).build());
      case DELETE_KEY -> om.deleteKey(DeleteKeyRequest.newBuilder().setVolume(v).setBucket(b)
          .setKey(k).build());
      case DELETE_KEYS -> deleteKeys(p, v, b, List.of(k, other(k)));
      case RENAME_KEY -> om.renameKey(RenameKeyRequest.newBuilder().setVolume(v).setBucket(b)
          .setFromKey(k).setToKey("r" + k).build());
      case LIST_KEYS -> om.listKeys(ListKeysRequest.newBuilder().setVolume(v).setBucket(b)
          .build());
      case LIST_OBJECTS_V2 -> om.listObjectsV2(ListObjectsV2Request.newBuilder().setVolume(v)
          .setBucket(b).build());
      case INITIATE_UPLOAD -> om.initiateMultipartUpload(InitiateMultipartUploadRequest
          .newBuilder().setVolume(v).setBucket(b).setKey(k).build());
      case LIST_UPLOADS -> om.listMultipartUploads(ListMultipartUploadsRequest.newBuilder()
          .setVolume(v).setBucket(b).build());
      case CREATE_SNAPSHOT -> om.createSnapshot(CreateSnapshotRequest.newBuilder().setVolume(v)
          .setBucket(b).setName("snap").build());
      case LIST_SNAPSHOTS -> om.listSnapshots(ListSnapshotsRequest.newBuilder().setVolume(v)
          .setBucket(b).build());
      case LIST_OPEN_FILES -> om.listOpenFiles(ListOpenFilesRequest.newBuilder().setVolume(v)
          .setBucket(b).build());
      case GET_COUNTERS -> f.admin(p).getCounters(GetCountersRequest.getDefaultInstance());
      case SET_KEY_ACL -> om.setAcl(SetAclRequest.newBuilder().setTarget(AclResource.newBuilder()
          .setVolume(v).setBucket(b).setKey(k)).addAcls(readBy(pick(USERS))).build());
      case REMOVE_VOLUME_ACL -> om.removeAcl(RemoveAclRequest.newBuilder().setTarget(AclResource
          .newBuilder().setVolume(v)).addAcls(readBy(pick(USERS))).build());
      case COMMIT_KEY -> om.commitKey(CommitKeyRequest.newBuilder().setVolume(v).setBucket(b)
          .setKey(k).setClientId(1).setDataSize(1).build());
      case LIST_OBJECTS_V1 -> om.listObjectsV1(ListObjectsV1Request.newBuilder().setVolume(v)
          .setBucket(b).build());
      case LOOKUP_FILE -> om.lookupFile(LookupFileRequest.newBuilder().setVolume(v).setBucket(b)
          .setPath(path).build());
      case CREATE_FILE -> om.createFile(CreateFileRequest.newBuilder().setVolume(v).setBucket(b)
          .setPath(path + "/f").build());
      case COMMIT_FILE -> om.commitFile(CommitFileRequest.newBuilder().setVolume(v).setBucket(b)
          .setPath(path).setClientId(1).setDataSize(1).build());
      case DELETE_DIRECTORY -> om.deleteDirectory(DeleteDirectoryRequest.newBuilder().setVolume(v)
          .setBucket(b).setPath(path).build());
      case RENAME_FILE -> om.rename(RenameRequest.newBuilder().setVolume(v).setBucket(b)
          .setFromPath(path).setToPath(path + "r").build());
      case LIST_PARTS -> om.listParts(ListPartsRequest.newBuilder().setVolume(v).setBucket(b)
          .setKey(k).setUploadId(NO_UPLOAD).build());
      case COMMIT_PART -> om.commitMultipartPart(CommitMultipartPartRequest.newBuilder()
          .setVolume(v).setBucket(b).setKey(k).setUploadId(NO_UPLOAD).setPartNumber(1)
          .setSize(1).setEtag("e").build());
      case COMPLETE_UPLOAD -> om.completeMultipartUpload(CompleteMultipartUploadRequest
          .newBuilder().setVolume(v).setBucket(b).setKey(k).setUploadId(NO_UPLOAD).build());
      case ABORT_UPLOAD -> om.abortMultipartUpload(AbortMultipartUploadRequest.newBuilder()
          .setVolume(v).setBucket(b).setKey(k).setUploadId(NO_UPLOAD).build());
      case DELETE_SNAPSHOT -> om.deleteSnapshot(DeleteSnapshotRequest.newBuilder().setVolume(v)
          .setBucket(b).setName("snap").build());
      case LOOKUP_SNAPSHOT_KEY -> om.lookupSnapshotKey(LookupSnapshotKeyRequest.newBuilder()
          .setVolume(v).setBucket(b).setSnapshotName("snap").setKey(k).build());
      case CREATE_TOKEN -> f.admin(p).createToken(CreateTokenRequest.newBuilder()
          .setPrincipal(pick(USERS)).build());
      case LIST_TOKENS -> f.admin(p).listTokens(ListTokensRequest.getDefaultInstance());
      case REVOKE_TOKEN -> f.admin(p).revokeToken(RevokeTokenRequest.newBuilder()
          .setId("nosuchtoken").build());
      case GET_FILE_STATUS -> om.getFileStatus(GetFileStatusRequest.newBuilder().setVolume(v)
          .setBucket(b).setPath(path).build());
      case CREATE_DIRECTORY -> om.createDirectory(CreateDirectoryRequest.newBuilder().setVolume(v)
          .setBucket(b).setPath(path + "/n").build());
      case DELETE_FILE -> om.deleteFile(DeleteFileRequest.newBuilder().setVolume(v).setBucket(b)
          .setPath(path).build());
      case LIST_STATUS -> om.listStatus(ListStatusRequest.newBuilder().setVolume(v).setBucket(b)
          .build());
      case GET_KEY_ACL -> om.getAcl(GetAclRequest.newBuilder().setTarget(AclResource.newBuilder()
          .setVolume(v).setBucket(b).setKey(k)).build());
      case ADD_BUCKET_ACL -> om.addAcl(AddAclRequest.newBuilder().setTarget(AclResource
          .newBuilder().setVolume(v).setBucket(b)).addAcls(readBy(pick(USERS))).build());
      case ADD_VOLUME_ACL -> om.addAcl(AddAclRequest.newBuilder().setTarget(AclResource
          .newBuilder().setVolume(v)).addAcls(readBy(pick(USERS))).build());
      case GET_PREFIX_ACL -> om.getAcl(GetAclRequest.newBuilder().setTarget(AclResource
          .newBuilder().setVolume(v).setBucket(b).setPrefix(path)).build());
      case ADD_PREFIX_ACL -> om.addAcl(AddAclRequest.newBuilder().setTarget(AclResource
          .newBuilder().setVolume(v).setBucket(b).setPrefix(path)).addAcls(readBy(pick(USERS)))
          .build());
    }
  }

  /** Another key than {@code k}, for a batch of two. */
  private static String other(String k) {
    return KEYS.get((KEYS.indexOf(k) + 1) % KEYS.size());
  }

  /**
   * Sends a DeleteKeys and checks each key's result against the model: a key the caller may not
   * delete is FAILED with PERMISSION_DENIED and still there if it was; any other is DELETED or
   * NOT_FOUND and gone.
   */
  private void deleteKeys(Principal p, String v, String b, List<String> keys) {
    List<Boolean> may = new ArrayList<>();
    List<Boolean> existed = new ArrayList<>();
    for (String key : keys) {
      may.add(admin(p) || onKey(p, v, b, key, AclRight.ACL_DELETE));
      existed.add(key(v, b, key) != null);
    }
    DeleteKeysResponse r = f.om(p).deleteKeys(DeleteKeysRequest.newBuilder().setVolume(v)
        .setBucket(b).addAllKeys(keys).build());
    assertEquals(keys.size(), r.getResultsCount());
    for (int i = 0; i < keys.size(); i++) {
      DeleteKeyResult result = r.getResults(i);
      String what = keys.get(i) + " by " + p + ": " + result;
      assertEquals(keys.get(i), result.getKey(), what);
      if (may.get(i)) {
        assertNotEquals(DeleteKeyResult.Outcome.FAILED, result.getOutcome(), what);
        assertEquals(null, key(v, b, keys.get(i)), what);
      } else {
        assertEquals(DeleteKeyResult.Outcome.FAILED, result.getOutcome(), what);
        assertEquals("PERMISSION_DENIED", result.getErrorCode(), what);
        assertEquals(existed.get(i), key(v, b, keys.get(i)) != null, what);
      }
    }
  }

  // ---- the records ----

  private Rec volume(String v) {
    Table<String, VolumeInfo> t = f.store.dbStore().getTable(OmDBDefinition.VOLUME_TABLE);
    VolumeInfo i = t.getIfExist(OmKeys.volumeKey(v));
    return i == null ? null : new Rec(i.getOwner(), i.getAclsList());
  }

  private Rec bucket(String v, String b) {
    Table<String, BucketInfo> t = f.store.dbStore().getTable(OmDBDefinition.BUCKET_TABLE);
    BucketInfo i = t.getIfExist(OmKeys.bucketKey(v, b));
    return i == null ? null : new Rec(i.getOwner(), i.getAclsList());
  }

  private Rec key(String v, String b, String k) {
    if (!b.equals(FSO)) {
      Table<String, KeyInfo> t = f.store.dbStore().getTable(OmDBDefinition.KEY_TABLE);
      KeyInfo i = t.getIfExist(OmKeys.objectKey(v, b, k));
      return i == null ? null : new Rec(i.getOwner(), i.getAclsList());
    }
    try {
      FileStatus s = f.store.fso().getFileStatus(v, b, k);
      if (s.isDirectory()) {
        return new Rec(s.owner(), new OmAcls(f.store).get(AclTarget.key(v, b, k)));
      }
      KeyInfo file = f.store.fso().lookupFile(v, b, k);
      return new Rec(file.getOwner(), file.getAclsList());
    } catch (OmException absent) {
      return null;
    }
  }

  /** A prefix's row (no owner), or null if it is not stored. */
  private Rec prefix(String v, String b, String prefix) {
    PrefixInfo i = f.store.dbStore().getTable(OmDBDefinition.PREFIX_TABLE)
        .getIfExist(OmKeys.objectKey(v, b, prefix));
    return i == null ? null : new Rec("", i.getAclsList());
  }

  /** The stored prefix that governs key {@code k}: of all rows, the longest {@code k} starts with. */
  private Rec governingPrefix(String v, String b, String k) {
    String rows = OmKeys.bucketPrefix(v, b);
    PrefixInfo best = null;
    try (TableIterator<String, ? extends KeyValue<String, PrefixInfo>> it = f.store.dbStore()
        .getTable(OmDBDefinition.PREFIX_TABLE).iterator(rows)) {
      while (it.hasNext()) {
        PrefixInfo row = it.next().getValue();
        if (k.startsWith(row.getPrefix())
            && (best == null || row.getPrefix().length() > best.getPrefix().length())) {
          best = row;
        }
      }
    }
    return best == null ? null : new Rec("", best.getAclsList());
  }

  /** Recreates what calls deleted, then gives every record a random owner and random entries. */
  private void reseed() {
    for (String v : VOLUMES) {
      if (volume(v) == null) {
        f.store.createVolume(v, "root");
      }
      for (String b : BUCKETS) {
        if (bucket(v, b) == null) {
          f.store.createBucket(v, b, BucketLayout.OBJECT_STORE, "root", 0);
        }
        for (String k : KEYS) {
          if (key(v, b, k) == null) {
            long id = f.store.openKey(v, b, k, "root").clientId();
            f.store.commitKey(v, b, k, id, 1);
          }
          f.seedKey(v, b, k, owner(), acls());
        }
        for (String prefix : PREFIXES) {
          new OmAcls(f.store).set(AclTarget.prefix(v, b, prefix), acls());
        }
        f.seedBucket(v, b, owner(), acls());
      }
    }
    String v = VOLUMES.get(0);
    if (bucket(v, FSO) == null) {
      f.store.createBucket(v, FSO, BucketLayout.FILE_SYSTEM_OPTIMIZED, "root", 0);
    }
    if (key(v, FSO, "d/f0") == null) {
      String owner = owner();
      long id = f.store.fso().createFile(v, FSO, "d/f0", owner.isEmpty() ? "root" : owner)
          .clientId();
      f.store.fso().commitFile(v, FSO, "d/f0", id, 1);
    }
    f.seedBucket(v, FSO, owner(), acls());
    for (String vol : VOLUMES) {
      f.seedVolume(vol, owner(), acls());
    }
  }

  private String owner() {
    List<String> owners = new ArrayList<>(USERS);
    owners.add("root");
    return pick(owners);
  }

  private List<OmAcl> acls() {
    List<OmAcl> out = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      AclIdentityType type = pick(List.of(AclIdentityType.ACL_USER, AclIdentityType.ACL_USER,
          AclIdentityType.ACL_GROUP, AclIdentityType.ACL_WORLD, AclIdentityType.ACL_ANONYMOUS));
      String name = switch (type) {
        case ACL_USER -> pick(USERS);
        case ACL_GROUP -> pick(GROUPS);
        default -> "";
      };
      int rights = 0;
      for (int r = AclRight.ACL_READ_VALUE; r <= AclRight.ACL_WRITE_ACL_VALUE; r++) {
        if (random.nextInt(3) == 0) {
          rights |= 1 << r;
        }
      }
      if (random.nextInt(8) == 0) {
        rights |= 1 << AclRight.ACL_ALL_VALUE;
      }
      if (random.nextInt(8) == 0) {
        rights |= 1 << AclRight.ACL_NONE_VALUE;
      }
      out.add(OmAcl.newBuilder().setType(type).setName(name).setRights(rights)
          .setScope(random.nextInt(5) == 0 ? AclScope.ACL_DEFAULT : AclScope.ACL_ACCESS).build());
    }
    return out;
  }

  /** An ACCESS entry granting READ to {@code user}. */
  private static OmAcl readBy(String user) {
    return OmAcl.newBuilder().setType(AclIdentityType.ACL_USER).setName(user)
        .setRights(1 << AclRight.ACL_READ_VALUE).setScope(AclScope.ACL_ACCESS).build();
  }

  private <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }
}
