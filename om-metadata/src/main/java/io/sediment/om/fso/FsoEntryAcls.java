package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The ACLs of the files and directories of FILE_SYSTEM_OPTIMIZED buckets: read one entry's, or
 * rewrite it inside a write. A path names a file or a directory (whichever is there); the bucket
 * root is not an entry (its ACL is the bucket's). Paths follow {@link FsoPath}; see
 * {@link FsoResolver} for the layout.
 *
 * <p>Thread-safe.
 */
public final class FsoEntryAcls {

  private final OmContext ctx;

  public FsoEntryAcls(OmContext ctx) {
    this.ctx = ctx;
  }

  /**
   * The ACL of the file or directory at {@code rawPath} in {@code bucket} (an FSO bucket) as
   * {@code view} sees it.
   *
   * @throws OmException INVALID_ARGUMENT for a bad path or the root, NOT_FOUND if nothing is there
   */
  public List<OmAcl> get(ReadView view, BucketInfo bucket, String rawPath) {
    Table<String, DirectoryInfo> dirs = view.getTable(DIRECTORY_TABLE);
    Table<String, KeyInfo> files = view.getTable(FILE_TABLE);
    String key = rowKey(dirs, files, bucket, rawPath);
    DirectoryInfo d = dirs.get(key);
    return d != null ? d.getAclsList() : requireFile(files, key, bucket, rawPath).getAclsList();
  }

  /**
   * Inside {@code txn}: replaces the ACL of the file or directory at {@code rawPath} with
   * {@code change} applied to it, setting the row's modification time to the write's and its
   * update id to a new id. Returns the new ACL.
   *
   * @throws OmException INVALID_ARGUMENT for a bad path or the root, NOT_FOUND if nothing is
   *     there, or what {@code change} throws (nothing is written then)
   */
  public List<OmAcl> rewrite(WriteTxn txn, BucketInfo bucket, String rawPath,
      UnaryOperator<List<OmAcl>> change) {
    Table<String, DirectoryInfo> dirs = ctx.table(DIRECTORY_TABLE);
    Table<String, KeyInfo> files = ctx.table(FILE_TABLE);
    String key = rowKey(dirs, files, bucket, rawPath);
    DirectoryInfo d = dirs.get(key);
    if (d != null) {
      List<OmAcl> acls = change.apply(d.getAclsList());
      dirs.putWithBatch(txn.batch(), key, d.toBuilder().clearAcls().addAllAcls(acls)
          .setUpdateId(txn.allocateId()).setModificationTime(txn.now()).build());
      return acls;
    }
    KeyInfo f = requireFile(files, key, bucket, rawPath);
    List<OmAcl> acls = change.apply(f.getAclsList());
    files.putWithBatch(txn.batch(), key, f.toBuilder().clearAcls().addAllAcls(acls)
        .setUpdateId(txn.allocateId()).setModificationTime(txn.now()).build());
    return acls;
  }

  /** The row key of the entry at {@code rawPath}, every ancestor resolved. */
  private static String rowKey(Table<String, DirectoryInfo> dirs, Table<String, KeyInfo> files,
      BucketInfo bucket, String rawPath) {
    FsoPath path = FsoResolver.parseEntry(rawPath, "address an ACL of");
    return FsoResolver.rowKey(dirs, files, bucket, path, missing(bucket, path.toString()));
  }

  /** The file at {@code key}, NOT_FOUND when there is none (nor a directory, checked first). */
  private static KeyInfo requireFile(Table<String, KeyInfo> files, String key, BucketInfo bucket,
      String rawPath) {
    KeyInfo f = files.get(key);
    if (f == null) {
      throw OmException.notFound(missing(bucket, rawPath));
    }
    return f;
  }

  private static String missing(BucketInfo b, String path) {
    return "'" + path + "' does not exist in '" + b.getVolumeName() + "/" + b.getBucketName() + "'";
  }
}
