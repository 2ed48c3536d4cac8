package io.sediment.om.aclstore;

import static io.sediment.om.core.OmDBDefinition.PREFIX_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.AclScope;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.PrefixInfo;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * ACLs on key-name prefixes of OBJECT_STORE and LEGACY buckets, after Ozone's prefix ACLs: rows of
 * prefixTable under {@code /volume/bucket/prefix}, the prefix a key name ending with {@code /}.
 *
 * <ul>
 *   <li>A prefix exists while its ACL has an entry: an edit that gives a missing prefix entries
 *       creates its row (new object id, creation time), an edit that leaves none deletes it, and
 *       reading a missing prefix answers no entries. Deleting the bucket deletes its prefixes.</li>
 *   <li>The prefix that governs a key is the longest stored prefix its name starts with (at a
 *       {@code /} boundary, the key's own name included when it ends with {@code /}); only that
 *       one counts, in access checks and at creation: a new key inherits its DEFAULT entries
 *       when it has any, else its bucket's ({@link #inheritedBy}).</li>
 * </ul>
 *
 * <p>Thread-safe (stateless over the context).
 */
public final class PrefixAcls {

  private final OmContext ctx;
  private final Table<String, PrefixInfo> table;

  public PrefixAcls(OmContext ctx) {
    this.ctx = ctx;
    this.table = ctx.table(PREFIX_TABLE);
  }

  /**
   * Checks a prefix's form: a valid key name that ends with {@code /}.
   *
   * @throws OmException INVALID_ARGUMENT otherwise
   */
  public static void checkPrefix(String prefix) {
    OmValidation.checkKeyName(prefix);
    if (prefix.charAt(prefix.length() - 1) != OmKeys.SEPARATOR) {
      throw OmException.invalid("A prefix must end with '/': '" + prefix + "'");
    }
  }

  /** The ACL of {@code prefix} in bucket {@code b} as {@code view} sees it; empty if none. */
  List<OmAcl> get(ReadView view, BucketInfo b, String prefix) {
    PrefixInfo row = view.getTable(PREFIX_TABLE).get(rowKey(b, prefix));
    return row == null ? List.of() : row.getAclsList();
  }

  /** Rewrites (creates, or deletes when left empty) the ACL of {@code prefix} in {@code txn}. */
  List<OmAcl> rewrite(WriteTxn txn, BucketInfo b, String prefix,
      UnaryOperator<List<OmAcl>> change) {
    String key = rowKey(b, prefix);
    PrefixInfo row = table.get(key);
    List<OmAcl> acls = change.apply(row == null ? List.of() : row.getAclsList());
    if (acls.isEmpty()) {
      if (row != null) {
        table.deleteWithBatch(txn.batch(), key);
      }
      return acls;
    }
    PrefixInfo.Builder updated = row != null ? row.toBuilder()
        : PrefixInfo.newBuilder().setVolumeName(b.getVolumeName())
            .setBucketName(b.getBucketName()).setPrefix(prefix).setCreationTime(txn.now());
    long id = txn.allocateId();
    ctx.prefixWritten();
    if (row == null) {
      updated.setObjectId(id);
    }
    table.putWithBatch(txn.batch(), key, updated.clearAcls().addAllAcls(acls).setUpdateId(id)
        .setModificationTime(txn.now()).build());
    return acls;
  }

  /**
   * The longest stored prefix of key {@code key} in bucket {@code volume/bucket}, as the store
   * holds it now, or null if none. No read while the store has never held a prefix; one bounded
   * seek when the bucket has none; else one point read per {@code /} in the name, from the
   * longest candidate down.
   */
  public PrefixInfo governing(String volume, String bucket, String key) {
    if (key.isEmpty() || !ctx.prefixesMayExist()) {
      return null;
    }
    String bucketRows = OmKeys.bucketPrefix(volume, bucket);
    if (!table.hasLiveKey(bucketRows)) {
      return null;
    }
    for (int slash = key.lastIndexOf('/'); slash >= 0; slash = key.lastIndexOf('/', slash - 1)) {
      PrefixInfo row = table.get(bucketRows + key.substring(0, slash + 1));
      if (row != null) {
        return row;
      }
    }
    return null;
  }

  /**
   * The ACL a new key {@code key} of bucket {@code b} inherits DEFAULT entries from: its governing
   * prefix's when that has a DEFAULT entry, else the bucket's.
   */
  public List<OmAcl> inheritedBy(BucketInfo b, String key) {
    PrefixInfo p = governing(b.getVolumeName(), b.getBucketName(), key);
    if (p != null && p.getAclsList().stream().anyMatch(a -> a.getScope() == AclScope.ACL_DEFAULT)) {
      return p.getAclsList();
    }
    return b.getAclsList();
  }

  private static String rowKey(BucketInfo b, String prefix) {
    return OmKeys.objectKey(b.getVolumeName(), b.getBucketName(), prefix);
  }
}
