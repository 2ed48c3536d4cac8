package io.sediment.om;

import io.sediment.om.acl.AclTarget;
import io.sediment.om.aclstore.ObjectAcls;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.PrefixInfo;
import java.util.List;

/**
 * The ACLs of a store's volumes, buckets, keys and key-name prefixes: get, set, add and remove, each delegating to
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

  /**
   * The ACL entries of the longest stored prefix of key {@code key} in bucket
   * {@code volume/bucket}, or null if no stored prefix starts its name. See
   * {@link io.sediment.om.aclstore.PrefixAcls#governing}.
   */
  public List<OmAcl> governingPrefix(String volume, String bucket, String key) {
    PrefixInfo p = om.areas().acls.prefixes().governing(volume, bucket, key);
    return p == null ? null : p.getAclsList();
  }

  /** Removes rights from the ACL of {@code target}. See {@link ObjectAcls#remove}. */
  public List<OmAcl> remove(AclTarget target, List<OmAcl> acls) {
    return om.areas().acls.remove(target, acls);
  }
}
