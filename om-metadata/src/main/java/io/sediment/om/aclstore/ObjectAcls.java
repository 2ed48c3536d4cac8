package io.sediment.om.aclstore;

import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.om.acl.AclEntries;
import io.sediment.om.acl.AclTarget;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.WriteTxn;
import io.sediment.om.fso.FsoEntryAcls;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.VolumeInfo;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The ACLs of volumes, buckets, keys and prefixes: read, replace, add to and remove from the
 * {@code acls} of one record. A key target is a committed key (keyTable) of an OBJECT_STORE or
 * LEGACY bucket, or the file or directory at that path of a FILE_SYSTEM_OPTIMIZED bucket; a prefix
 * target is a key-name prefix of an OBJECT_STORE or LEGACY bucket ({@link PrefixAcls}: created by
 * the edit that gives it entries, deleted by the one that leaves it none; INVALID_ARGUMENT in an
 * FSO bucket or without its trailing {@code /}).
 *
 * <p>Every edit checks its entries first ({@link AclEntries#check}: DEFAULT entries only on
 * volumes and buckets), then is one {@link OmContext#write} that rewrites the record with its ACL
 * in {@link AclEntries} canonical form, a new update id and the write's time as modification
 * time, and returns the new ACL; a rejected edit throws {@link OmException} and changes nothing.
 * Errors: INVALID_ARGUMENT for a bad name, path or entry, or an ACL that would exceed
 * {@value AclEntries#MAX_ENTRIES} entries; NOT_FOUND when the volume, bucket or key is absent.
 *
 * <p>Thread-safe.
 */
public final class ObjectAcls {

  private final OmContext ctx;
  private final FsoEntryAcls fso;
  private final PrefixAcls prefixes;

  public ObjectAcls(OmContext ctx) {
    this.ctx = ctx;
    this.fso = new FsoEntryAcls(ctx);
    this.prefixes = new PrefixAcls(ctx);
  }

  /** The prefix ACLs (the longest stored prefix of a key, what a new key inherits). */
  public PrefixAcls prefixes() {
    return prefixes;
  }

  /** The ACL of {@code target}, in canonical form as stored. */
  public List<OmAcl> get(AclTarget target) {
    checkTarget(target);
    try (ReadView view = ctx.store().openReadView()) {
      return switch (target.kind()) {
        case VOLUME -> ctx.requireVolume(view, target.volume()).getAclsList();
        case BUCKET -> ctx.requireBucket(view, target.volume(), target.bucket()).getAclsList();
        case KEY -> {
          BucketInfo b = ctx.requireBucket(view, target.volume(), target.bucket());
          if (isFso(b)) {
            yield fso.get(view, b, target.key());
          }
          OmValidation.checkKeyName(target.key());
          Table<String, KeyInfo> keys = view.getTable(KEY_TABLE);
          KeyInfo k = keys.get(OmKeys.objectKey(target.volume(), target.bucket(), target.key()));
          if (k == null) {
            throw missingKey(target);
          }
          yield k.getAclsList();
        }
        case PREFIX -> prefixes.get(view, requirePrefixBucket(view, target), target.key());
      };
    }
  }

  /** Replaces the ACL of {@code target} with {@code acls} (merged per identity and scope). */
  public List<OmAcl> set(AclTarget target, List<OmAcl> acls) {
    return edit(target, acls, current -> AclEntries.canonical(acls));
  }

  /** Grants {@code acls} on {@code target} too: each right joins its identity's entry. */
  public List<OmAcl> add(AclTarget target, List<OmAcl> acls) {
    return edit(target, acls, current -> AclEntries.add(current, acls));
  }

  /**
   * Takes the rights of {@code acls} away on {@code target} (see {@link AclEntries#remove});
   * entries left with no right are dropped.
   */
  public List<OmAcl> remove(AclTarget target, List<OmAcl> acls) {
    return edit(target, acls, current -> AclEntries.remove(current, acls));
  }

  private List<OmAcl> edit(AclTarget target, List<OmAcl> entries,
      UnaryOperator<List<OmAcl>> change) {
    checkTarget(target);
    AclEntries.checkAll(entries, target.kind() != AclTarget.Kind.KEY);
    UnaryOperator<List<OmAcl>> bounded = current -> bounded(target, change.apply(current));
    return ctx.write(txn -> switch (target.kind()) {
      case VOLUME -> {
        VolumeInfo v = ctx.requireVolume(null, target.volume());
        List<OmAcl> acls = bounded.apply(v.getAclsList());
        ctx.parsedRows().putVolume(txn, v.toBuilder().clearAcls().addAllAcls(acls)
            .setUpdateId(txn.allocateId()).setModificationTime(txn.now()).build());
        yield acls;
      }
      case BUCKET -> {
        BucketInfo b = ctx.requireBucket(null, target.volume(), target.bucket());
        List<OmAcl> acls = bounded.apply(b.getAclsList());
        ctx.parsedRows().putBucket(txn, b.toBuilder().clearAcls().addAllAcls(acls)
            .setUpdateId(txn.allocateId()).setModificationTime(txn.now()).build());
        yield acls;
      }
      case KEY -> editKey(txn, target, bounded);
      case PREFIX ->
          prefixes.rewrite(txn, requirePrefixBucket(null, target), target.key(), bounded);
    });
  }

  private List<OmAcl> editKey(WriteTxn txn, AclTarget target, UnaryOperator<List<OmAcl>> change) {
    BucketInfo b = ctx.requireBucket(null, target.volume(), target.bucket());
    if (isFso(b)) {
      return fso.rewrite(txn, b, target.key(), change);
    }
    OmValidation.checkKeyName(target.key());
    Table<String, KeyInfo> keys = ctx.table(KEY_TABLE);
    String dbKey = OmKeys.objectKey(target.volume(), target.bucket(), target.key());
    KeyInfo k = keys.get(dbKey);
    if (k == null) {
      throw missingKey(target);
    }
    List<OmAcl> acls = change.apply(k.getAclsList());
    keys.putWithBatch(txn.batch(), dbKey, k.toBuilder().clearAcls().addAllAcls(acls)
        .setUpdateId(txn.allocateId()).setModificationTime(txn.now()).build());
    return acls;
  }

  private static List<OmAcl> bounded(AclTarget target, List<OmAcl> acls) {
    if (acls.size() > AclEntries.MAX_ENTRIES) {
      throw OmException.invalid("The ACL of " + target + " would have " + acls.size()
          + " entries; at most " + AclEntries.MAX_ENTRIES);
    }
    return acls;
  }

  private static void checkTarget(AclTarget target) {
    switch (target.kind()) {
      case VOLUME -> OmValidation.checkResourceName("Volume", target.volume());
      case BUCKET -> OmValidation.checkBucketArgs(target.volume(), target.bucket());
      // FSO paths are checked as paths when the bucket's layout is known.
      case KEY -> OmValidation.checkBucketArgs(target.volume(), target.bucket());
      case PREFIX -> {
        OmValidation.checkBucketArgs(target.volume(), target.bucket());
        PrefixAcls.checkPrefix(target.key());
      }
    }
  }

  /** The OBJECT_STORE or LEGACY bucket of a prefix target; an FSO bucket's are directories. */
  private BucketInfo requirePrefixBucket(ReadView view, AclTarget target) {
    BucketInfo b = ctx.requireBucket(view, target.volume(), target.bucket());
    if (isFso(b)) {
      throw OmException.invalid("Bucket '" + target.volume() + "/" + target.bucket()
          + "' is FILE_SYSTEM_OPTIMIZED: its prefixes are directories; set the directory's ACL");
    }
    return b;
  }

  private static boolean isFso(BucketInfo b) {
    return b.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
  }

  private static OmException missingKey(AclTarget target) {
    return OmException.notFound("Key '" + target.key() + "' does not exist in '"
        + target.volume() + "/" + target.bucket() + "'");
  }
}
