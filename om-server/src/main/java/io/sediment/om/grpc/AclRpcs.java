package io.sediment.om.grpc;

import io.sediment.om.OmAcls;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.auth.AccessControl;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.auth.Resource;
import io.sediment.om.core.OmException;
import io.sediment.proto.om.AclResource;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.AddAclRequest;
import io.sediment.proto.om.AddAclResponse;
import io.sediment.proto.om.GetAclRequest;
import io.sediment.proto.om.GetAclResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.RemoveAclRequest;
import io.sediment.proto.om.RemoveAclResponse;
import io.sediment.proto.om.SetAclRequest;
import io.sediment.proto.om.SetAclResponse;

/**
 * The ACL RPCs of {@code OmService}: GetAcl (a read) and SetAcl, AddAcl, RemoveAcl (writes,
 * through the write path like every write, so a group replicates them through its log), each one
 * {@link OmAcls} call. Before anything is read or submitted the caller
 * ({@link CallPrincipal#current()}) is checked against {@code access}: READ_ACL on the target for
 * GetAcl, WRITE_ACL for the edits; a denial answers the call and changes nothing.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record AclRpcs(OmMetadataStore store, AccessControl access) {

  /** Binds this area's RPCs: one read, three writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.read(OmServiceGrpc.getGetAclMethod(), this::getAcl);
    b.write(OmServiceGrpc.getSetAclMethod(), OmLogEntry.Builder::setSetAcl,
        OmLogEntry::getSetAcl, this::setAcl, req -> mayEdit(req.getTarget()));
    b.write(OmServiceGrpc.getAddAclMethod(), OmLogEntry.Builder::setAddAcl,
        OmLogEntry::getAddAcl, this::addAcl, req -> mayEdit(req.getTarget()));
    b.write(OmServiceGrpc.getRemoveAclMethod(), OmLogEntry.Builder::setRemoveAcl,
        OmLogEntry::getRemoveAcl, this::removeAcl, req -> mayEdit(req.getTarget()));
  }

  GetAclResponse getAcl(GetAclRequest req) {
    AclTarget target = target(req.getTarget());
    access.check(CallPrincipal.current(), resource(target), AclRight.ACL_READ_ACL);
    return GetAclResponse.newBuilder().addAllAcls(acls().get(target)).build();
  }

  SetAclResponse setAcl(SetAclRequest req) {
    return SetAclResponse.newBuilder()
        .addAllAcls(acls().set(target(req.getTarget()), req.getAclsList())).build();
  }

  AddAclResponse addAcl(AddAclRequest req) {
    return AddAclResponse.newBuilder()
        .addAllAcls(acls().add(target(req.getTarget()), req.getAclsList())).build();
  }

  RemoveAclResponse removeAcl(RemoveAclRequest req) {
    return RemoveAclResponse.newBuilder()
        .addAllAcls(acls().remove(target(req.getTarget()), req.getAclsList())).build();
  }

  private void mayEdit(AclResource target) {
    access.check(CallPrincipal.current(), resource(target(target)), AclRight.ACL_WRITE_ACL);
  }

  private OmAcls acls() {
    return new OmAcls(store);
  }

  /**
   * @throws OmException INVALID_ARGUMENT for a key or prefix without a bucket, or both a key and
   *     a prefix
   */
  static AclTarget target(AclResource r) {
    String name = r.getPrefix().isEmpty() ? r.getKey() : r.getPrefix();
    if (!r.getKey().isEmpty() && !r.getPrefix().isEmpty()) {
      throw OmException.invalid("An ACL target is a key or a prefix, not both: key '"
          + r.getKey() + "', prefix '" + r.getPrefix() + "'");
    }
    if (r.getBucket().isEmpty() && !name.isEmpty()) {
      throw OmException.invalid("An ACL target with a key or prefix needs its bucket: volume '"
          + r.getVolume() + "', name '" + name + "'");
    }
    return new AclTarget(r.getVolume(), r.getBucket(), name, !r.getPrefix().isEmpty());
  }

  /** The resource an access check of {@code t} is about. */
  static Resource resource(AclTarget t) {
    return switch (t.kind()) {
      case VOLUME -> Resource.volume(t.volume());
      case BUCKET -> Resource.bucket(t.volume(), t.bucket());
      case KEY -> Resource.key(t.volume(), t.bucket(), t.key());
      case PREFIX -> Resource.prefix(t.volume(), t.bucket(), t.key());
    };
  }
}
