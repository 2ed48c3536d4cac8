package io.sediment.om.authz;

import static io.sediment.proto.om.AclRight.ACL_CREATE;
import static io.sediment.proto.om.AclRight.ACL_DELETE;
import static io.sediment.proto.om.AclRight.ACL_LIST;
import static io.sediment.proto.om.AclRight.ACL_READ;
import static io.sediment.proto.om.AclRight.ACL_WRITE;

import io.grpc.MethodDescriptor;
import io.sediment.om.auth.Principal;
import io.sediment.om.auth.Resource;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.OmServiceGrpc;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What every {@code OmService} RPC must be allowed before it runs: the one table of the checks,
 * each a {@link Guard} that checks the caller against a {@link NativeAccessControl} and returns
 * the request to run (for a creating RPC, with the owner the server decides).
 *
 * <table>
 *   <caption>RPC → checks (resource paths: {@code /v}, {@code /v/b}, {@code /v/b/k})</caption>
 *   <tr><th>RPC</th><th>check</th></tr>
 *   <tr><td>CreateVolume</td><td>administrator (the requested owner is kept)</td></tr>
 *   <tr><td>GetVolume</td><td>READ on /v</td></tr>
 *   <tr><td>SetVolumeProperties</td><td>WRITE on /v; changing the owner: administrator</td></tr>
 *   <tr><td>DeleteVolume</td><td>DELETE on /v, and administrator or the volume's owner</td></tr>
 *   <tr><td>ListVolumes</td><td>any authenticated caller (Ozone's default: every user may list
 *       all volumes)</td></tr>
 *   <tr><td>CreateBucket</td><td>CREATE on /v</td></tr>
 *   <tr><td>GetBucket</td><td>READ on /v/b</td></tr>
 *   <tr><td>SetBucketProperties</td><td>WRITE on /v/b; changing the owner: administrator</td></tr>
 *   <tr><td>DeleteBucket</td><td>DELETE on /v/b</td></tr>
 *   <tr><td>ListBuckets</td><td>LIST on /v</td></tr>
 *   <tr><td>OpenKey, CreateFile, CreateDirectory, InitiateMultipartUpload</td><td>CREATE on
 *       /v/b/k (decided by the bucket)</td></tr>
 *   <tr><td>CommitKey, CommitFile, CommitMultipartPart, CompleteMultipartUpload</td><td>CREATE
 *       on /v/b/k: a commit finishes the creation its open was allowed, and the key may not
 *       exist yet</td></tr>
 *   <tr><td>LookupKey, LookupFile, GetFileStatus, ListParts</td><td>READ on /v/b/k</td></tr>
 *   <tr><td>DeleteKey, DeleteFile, DeleteDirectory, AbortMultipartUpload</td><td>DELETE on
 *       /v/b/k</td></tr>
 *   <tr><td>DeleteKeys</td><td>DELETE on each /v/b/k, key by key as Ozone's DeleteKeys
 *       ({@link #deniedDeletes}, run by the RPC before its entry is submitted): a denied key is
 *       reported failed with PERMISSION_DENIED in its result and not deleted, the others are; a
 *       call whose every key is denied is refused whole with PERMISSION_DENIED</td></tr>
 *   <tr><td>RenameKey, Rename</td><td>DELETE on the source and CREATE on the destination</td></tr>
 *   <tr><td>ListKeys, ListObjectsV1, ListObjectsV2, ListStatus, ListMultipartUploads</td>
 *       <td>LIST on /v/b, on every page (a continuation token is bound to its request, whose
 *       bucket is checked again)</td></tr>
 *   <tr><td>ListOpenFiles</td><td>administrator</td></tr>
 *   <tr><td>CreateSnapshot, DeleteSnapshot</td><td>administrator or the bucket's owner</td></tr>
 *   <tr><td>ListSnapshots</td><td>LIST on /v/b</td></tr>
 *   <tr><td>LookupSnapshotKey</td><td>READ on /v/b/k, decided by the live records</td></tr>
 *   <tr><td>GetAcl</td><td>READ_ACL on its target</td></tr>
 *   <tr><td>SetAcl, AddAcl, RemoveAcl</td><td>WRITE_ACL on their target</td></tr>
 * </table>
 *
 * <p>Every {@code AdminService} RPC is for administrators only ({@link AdministratorsOnly}).
 *
 * <p>The owner recorded by OpenKey, CreateFile, CreateBucket and InitiateMultipartUpload is the
 * caller's name; an administrator may name another owner in the request. Directories stay owned
 * by their bucket's owner (CreateDirectory carries no owner).
 *
 * <p>Immutable and thread-safe.
 */
public final class RpcRights {

  /** The check of one RPC. */
  @FunctionalInterface
  public interface Guard<Q> {

    /**
     * Checks that {@code caller} may run {@code request}, and returns the request to run.
     *
     * @throws io.grpc.StatusRuntimeException PERMISSION_DENIED, naming the missing right and the
     *     resource, when it may not (nothing has run)
     */
    Q admit(Principal caller, Q request);
  }

  /**
   * The keys of a batch a caller may not delete: their positions in the batch (ascending) and,
   * for each, the reason the check gave.
   */
  public record DeniedKeys(List<Integer> positions, List<String> reasons) {

    /** None denied. */
    public static final DeniedKeys NONE = new DeniedKeys(List.of(), List.of());

    public DeniedKeys {
      positions = List.copyOf(positions);
      reasons = List.copyOf(reasons);
    }
  }

  private final NativeAccessControl acl;
  private final Map<String, Guard<?>> guards = new HashMap<>();

  /** The checks of every OmService RPC against {@code acl}. */
  public RpcRights(NativeAccessControl acl) {
    this.acl = Objects.requireNonNull(acl, "acl");
    namespace();
    keys();
    fileSystem();
    multipart();
    snapshots();
    acls();
  }

  /** The access control every rule checks against (also what the ACL RPCs ask themselves). */
  public NativeAccessControl accessControl() {
    return acl;
  }

  /**
   * The guard of {@code method}.
   *
   * @throws IllegalStateException if the table has no rule for it (a server must not answer an
   *     RPC nobody decided the rights of)
   */
  @SuppressWarnings("unchecked")
  public <Q> Guard<Q> guard(MethodDescriptor<Q, ?> method) {
    Guard<?> g = guards.get(method.getFullMethodName());
    if (g == null) {
      throw new IllegalStateException("No access rule for " + method.getFullMethodName()
          + ": add one to " + RpcRights.class.getSimpleName());
    }
    return (Guard<Q>) g;
  }

  /**
   * DeleteKeys' check of each key: DELETE on {@code /volume/bucket/key}, decided against this
   * replica's records (the leader's, before the entry is submitted).
   *
   * @return the keys {@code caller} may not delete; none for an empty list
   * @throws StatusRuntimeException PERMISSION_DENIED, with the first key's reason, when
   *     {@code keys} is not empty and every key is denied (the call then runs nothing, as a
   *     denied DeleteKey)
   */
  public DeniedKeys deniedDeletes(Principal caller, String volume, String bucket,
      List<String> keys) {
    List<Integer> positions = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    StatusRuntimeException first = null;
    for (int i = 0; i < keys.size(); i++) {
      try {
        key(caller, volume, bucket, keys.get(i), ACL_DELETE);
      } catch (StatusRuntimeException e) {
        first = first == null ? e : first;
        positions.add(i);
        reasons.add(e.getStatus().getDescription());
      }
    }
    if (!keys.isEmpty() && positions.size() == keys.size()) {
      throw first;
    }
    return positions.isEmpty() ? DeniedKeys.NONE : new DeniedKeys(positions, reasons);
  }

  private <Q> void rule(MethodDescriptor<Q, ?> method, Guard<Q> guard) {
    if (guards.put(method.getFullMethodName(), guard) != null) {
      throw new IllegalStateException("Two access rules for " + method.getFullMethodName());
    }
  }

  /** The owner of what {@code caller} creates: its own name, or the one an administrator asks. */
  private String ownerFor(Principal caller, String requested) {
    return !requested.isEmpty() && acl.isAdministrator(caller) ? requested : caller.name();
  }

  private void key(Principal p, String v, String b, String k, AclRight r) {
    acl.check(p, Resource.key(v, b, k), r);
  }

  private void bucket(Principal p, String v, String b, AclRight r) {
    acl.check(p, Resource.bucket(v, b), r);
  }

  private void namespace() {
    rule(OmServiceGrpc.getCreateVolumeMethod(), (p, r) -> {
      acl.checkAdministrator(p, "CreateVolume");
      return r;
    });
    rule(OmServiceGrpc.getGetVolumeMethod(), (p, r) -> {
      acl.check(p, Resource.volume(r.getVolume()), ACL_READ);
      return r;
    });
    rule(OmServiceGrpc.getSetVolumePropertiesMethod(), (p, r) -> {
      acl.check(p, Resource.volume(r.getVolume()), ACL_WRITE);
      if (r.hasOwner()) {
        acl.checkAdministrator(p, "Changing the owner of a volume");
      }
      return r;
    });
    rule(OmServiceGrpc.getDeleteVolumeMethod(), (p, r) -> {
      acl.check(p, Resource.volume(r.getVolume()), ACL_DELETE);
      acl.checkOwnerOrAdministrator(p, Resource.volume(r.getVolume()));
      return r;
    });
    rule(OmServiceGrpc.getListVolumesMethod(), (p, r) -> {
      acl.checkAuthenticated(p, "ListVolumes");
      return r;
    });
    rule(OmServiceGrpc.getCreateBucketMethod(), (p, r) -> {
      acl.check(p, Resource.volume(r.getVolume()), ACL_CREATE);
      return r.toBuilder().setOwner(ownerFor(p, r.getOwner())).build();
    });
    rule(OmServiceGrpc.getGetBucketMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_READ);
      return r;
    });
    rule(OmServiceGrpc.getSetBucketPropertiesMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_WRITE);
      if (r.hasOwner()) {
        acl.checkAdministrator(p, "Changing the owner of a bucket");
      }
      return r;
    });
    rule(OmServiceGrpc.getDeleteBucketMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_DELETE);
      return r;
    });
    rule(OmServiceGrpc.getListBucketsMethod(), (p, r) -> {
      acl.check(p, Resource.volume(r.getVolume()), ACL_LIST);
      return r;
    });
  }

  private void keys() {
    rule(OmServiceGrpc.getOpenKeyMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_CREATE);
      return r.toBuilder().setOwner(ownerFor(p, r.getOwner())).build();
    });
    rule(OmServiceGrpc.getCommitKeyMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getLookupKeyMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_READ);
      return r;
    });
    rule(OmServiceGrpc.getDeleteKeyMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_DELETE);
      return r;
    });
    // Each key is checked by the RPC itself (deniedDeletes), reporting a denied key in its result.
    rule(OmServiceGrpc.getDeleteKeysMethod(), (p, r) -> r);
    rule(OmServiceGrpc.getRenameKeyMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getFromKey(), ACL_DELETE);
      key(p, r.getVolume(), r.getBucket(), r.getToKey(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getListKeysMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_LIST);
      return r;
    });
    rule(OmServiceGrpc.getListObjectsV1Method(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_LIST);
      return r;
    });
    rule(OmServiceGrpc.getListObjectsV2Method(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_LIST);
      return r;
    });
    rule(OmServiceGrpc.getListOpenFilesMethod(), (p, r) -> {
      acl.checkAdministrator(p, "ListOpenFiles");
      return r;
    });
  }

  private void fileSystem() {
    rule(OmServiceGrpc.getCreateDirectoryMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getCreateFileMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_CREATE);
      return r.toBuilder().setOwner(ownerFor(p, r.getOwner())).build();
    });
    rule(OmServiceGrpc.getCommitFileMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getLookupFileMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_READ);
      return r;
    });
    rule(OmServiceGrpc.getGetFileStatusMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_READ);
      return r;
    });
    rule(OmServiceGrpc.getDeleteFileMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_DELETE);
      return r;
    });
    rule(OmServiceGrpc.getDeleteDirectoryMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getPath(), ACL_DELETE);
      return r;
    });
    rule(OmServiceGrpc.getRenameMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getFromPath(), ACL_DELETE);
      key(p, r.getVolume(), r.getBucket(), r.getToPath(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getListStatusMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_LIST);
      return r;
    });
  }

  private void multipart() {
    rule(OmServiceGrpc.getInitiateMultipartUploadMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_CREATE);
      return r.toBuilder().setOwner(ownerFor(p, r.getOwner())).build();
    });
    rule(OmServiceGrpc.getCommitMultipartPartMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getCompleteMultipartUploadMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_CREATE);
      return r;
    });
    rule(OmServiceGrpc.getAbortMultipartUploadMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_DELETE);
      return r;
    });
    rule(OmServiceGrpc.getListPartsMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_READ);
      return r;
    });
    rule(OmServiceGrpc.getListMultipartUploadsMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_LIST);
      return r;
    });
  }

  private void snapshots() {
    rule(OmServiceGrpc.getCreateSnapshotMethod(), (p, r) -> {
      acl.checkOwnerOrAdministrator(p, Resource.bucket(r.getVolume(), r.getBucket()));
      return r;
    });
    rule(OmServiceGrpc.getDeleteSnapshotMethod(), (p, r) -> {
      acl.checkOwnerOrAdministrator(p, Resource.bucket(r.getVolume(), r.getBucket()));
      return r;
    });
    rule(OmServiceGrpc.getListSnapshotsMethod(), (p, r) -> {
      bucket(p, r.getVolume(), r.getBucket(), ACL_LIST);
      return r;
    });
    rule(OmServiceGrpc.getLookupSnapshotKeyMethod(), (p, r) -> {
      key(p, r.getVolume(), r.getBucket(), r.getKey(), ACL_READ);
      return r;
    });
  }

  private void acls() {
    // The ACL RPCs check READ_ACL or WRITE_ACL on their target themselves (AclRpcs, through
    // accessControl()), before a write is submitted: they have nothing more to pass here.
    rule(OmServiceGrpc.getGetAclMethod(), (p, r) -> r);
    rule(OmServiceGrpc.getSetAclMethod(), (p, r) -> r);
    rule(OmServiceGrpc.getAddAclMethod(), (p, r) -> r);
    rule(OmServiceGrpc.getRemoveAclMethod(), (p, r) -> r);
  }
}
