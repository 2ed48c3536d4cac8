package io.sediment.om.authz;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.AccessControl;
import io.sediment.om.auth.Administrators;
import io.sediment.om.auth.Principal;
import io.sediment.om.auth.Resource;
import io.sediment.proto.om.AclRight;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.Objects;

/**
 * Ozone's native authorizer over the owners and ACLs in one store's records: administrators pass
 * every check; everyone else is decided by {@link AclDecision} over the records the resource
 * names, read from this replica's store when the check runs.
 *
 * <p>Records are read on every check (no cache): a change is seen by the next check, on every
 * replica, with nothing to invalidate.
 *
 * <p>Thread-safe.
 */
public final class NativeAccessControl implements AccessControl {

  private final Administrators administrators;
  private final StoreRecords records;

  public NativeAccessControl(Administrators administrators, OmMetadataStore store) {
    this.administrators = Objects.requireNonNull(administrators, "administrators");
    this.records = new StoreRecords(store);
  }

  /** Whether {@code p} is one of the administrators. */
  public boolean isAdministrator(Principal p) {
    return administrators.contains(p);
  }

  @Override
  public void check(Principal principal, Resource resource, AclRight right) {
    if (!allows(principal, resource, right)) {
      throw denied(principal, right.name(), resource);
    }
  }

  /** Whether {@code principal} holds {@code right} on {@code resource}. */
  public boolean allows(Principal principal, Resource resource, AclRight right) {
    if (administrators.contains(principal)) {
      return true;
    }
    if (resource.type() == Resource.Type.SERVICE) {
      return false;
    }
    VolumeInfo v = records.volume(resource.volume());
    Grants volume = v == null ? null : Grants.of(v.getOwner(), v.getAclsList());
    Grants bucket = null;
    Grants prefix = null;
    Grants key = null;
    if (resource.type() != Resource.Type.VOLUME) {
      BucketInfo b = records.bucket(resource.volume(), resource.bucket());
      bucket = b == null ? null : Grants.of(b.getOwner(), b.getAclsList());
      if (AclDecision.needsMore(principal, right, bucket)) {
        if (resource.type() == Resource.Type.PREFIX) {
          prefix = records.prefix(b, resource.key());
        } else if (resource.type() == Resource.Type.KEY) {
          prefix = records.governingPrefix(b, resource.key());
          if (right != AclRight.ACL_CREATE && (prefix == null || !prefix.grants(principal, right))) {
            key = records.key(b, resource.key());
          }
        }
      }
    }
    return AclDecision.allows(principal, resource.type(), right, volume, bucket, prefix, key);
  }

  /**
   * Checks that {@code principal} is an administrator or the owner of the volume or bucket
   * {@code resource} names (a volume's owner for a VOLUME, a bucket's for a BUCKET).
   *
   * @throws StatusRuntimeException PERMISSION_DENIED otherwise (also when the record is absent)
   */
  public void checkOwnerOrAdministrator(Principal principal, Resource resource) {
    if (administrators.contains(principal)) {
      return;
    }
    String owner = switch (resource.type()) {
      case VOLUME -> {
        VolumeInfo v = records.volume(resource.volume());
        yield v == null ? "" : v.getOwner();
      }
      case BUCKET -> {
        BucketInfo b = records.bucket(resource.volume(), resource.bucket());
        yield b == null ? "" : b.getOwner();
      }
      case SERVICE, KEY, PREFIX -> "";
    };
    if (principal.isAnonymous() || owner.isEmpty() || !owner.equals(principal.name())) {
      throw denied(principal, "ownership", resource);
    }
  }

  /**
   * Checks that {@code principal} is an administrator.
   *
   * @param what the action, for the message (for example {@code "AdminService.CompactTable"})
   * @throws StatusRuntimeException PERMISSION_DENIED otherwise
   */
  public void checkAdministrator(Principal principal, String what) {
    if (!administrators.contains(principal)) {
      throw Status.PERMISSION_DENIED.withDescription("Permission denied: " + what
          + " is for administrators only, and " + principal.name() + " is not one")
          .asRuntimeException();
    }
  }

  /**
   * Checks that {@code principal} is an authenticated caller (or an administrator).
   *
   * @param what the action, for the message
   * @throws StatusRuntimeException PERMISSION_DENIED for {@link Principal#ANONYMOUS}
   */
  public void checkAuthenticated(Principal principal, String what) {
    if (principal.isAnonymous() && !administrators.contains(principal)) {
      throw Status.PERMISSION_DENIED.withDescription("Permission denied: " + what
          + " needs an authenticated caller").asRuntimeException();
    }
  }

  private static StatusRuntimeException denied(Principal p, String right, Resource resource) {
    return Status.PERMISSION_DENIED.withDescription("Permission denied: " + p.name()
        + " lacks " + right + " on " + resource).asRuntimeException();
  }
}
