package io.sediment.om;

import io.sediment.om.acl.AclTarget;
import io.sediment.om.aclstore.ObjectAcls;
import io.sediment.proto.om.OmAcl;
import java.util.List;

/**
 * The ACLs of a store's volumes, buckets and keys: get, set, add and remove, each delegating to
 * {@link ObjectAcls}, which states the contract (canonical form, one atomic write, error codes).
 * New records get their ACL at creation ({@link io.sediment.om.acl.DefaultAcls}).
 *
 * <p>Follows the store across a replacement of its files (each call uses the store's current
 * areas). Thread-safe.
 */
public final class OmAcls {

  private final OmMetadataStore om;

  /** The ACL operations of {@code om}. */
  public OmAcls(OmMetadataStore om) {
    this.om = om;
  }

  /** The ACL of {@code target}. See {@link ObjectAcls#get}. */
  public List<OmAcl> get(AclTarget target) {
    return om.areas().acls.get(target);
  }

  /** Replaces the ACL of {@code target}. See {@link ObjectAcls#set}. */
  public List<OmAcl> set(AclTarget target, List<OmAcl> acls) {
    return om.areas().acls.set(target, acls);
  }

  /** Adds entries to the ACL of {@code target}. See {@link ObjectAcls#add}. */
  public List<OmAcl> add(AclTarget target, List<OmAcl> acls) {
    return om.areas().acls.add(target, acls);
  }

  /** Removes rights from the ACL of {@code target}. See {@link ObjectAcls#remove}. */
  public List<OmAcl> remove(AclTarget target, List<OmAcl> acls) {
    return om.areas().acls.remove(target, acls);
  }
}
