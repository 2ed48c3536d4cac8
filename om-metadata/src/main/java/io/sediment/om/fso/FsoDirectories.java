package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;

import io.sediment.db.Table;
import io.sediment.om.acl.DefaultAcls;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import java.util.List;

/**
 * Directories of FILE_SYSTEM_OPTIMIZED buckets: {@code mkdir -p} and delete (an empty directory at
 * once; a non-empty one, with {@code recursive}, by moving its one row to deletedDirectoryTable for
 * {@link DirectoryPurge}). The layout, write and counter rules are {@link FsoResolver}'s. Each
 * write is one {@link OmContext#write} transaction that checks first and changes nothing when it
 * throws. Thread-safe.
 */
public final class FsoDirectories {

  private final OmContext ctx;
  private final Table<String, DirectoryInfo> dirTable;
  private final Table<String, KeyInfo> fileTable;
  private final Table<String, KeyInfo> openFileTable;
  private final Table<String, KeyInfo> deletedDirTable;
  private final PathDepthLimit depthLimit;

  public FsoDirectories(OmContext ctx) {
    this.ctx = ctx;
    this.depthLimit = new PathDepthLimit(ctx.options().maxPathDepth());
    this.dirTable = ctx.table(DIRECTORY_TABLE);
    this.fileTable = ctx.table(FILE_TABLE);
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
    this.deletedDirTable = ctx.table(DELETED_DIRECTORY_TABLE);
  }


  /** See {@link FsoNamespace#createDirectory} for the contract. */
  public FileStatus create(String volume, String bucket, String rawPath) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath path = depthLimit.parseCreate(rawPath, "directory");
    return ctx.write(txn -> {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, null, volume, bucket);
      long parent = b.getObjectId();
      DirectoryInfo last = null;
      int i = 0;
      for (; i < path.depth(); i++) {
        String key = OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, path.component(i));
        DirectoryInfo d = dirTable.get(key);
        if (d == null) {
          if (fileTable.isExist(key)) {
            String at = path.prefix(i + 1).path();
            throw i == path.depth() - 1
                ? new OmException(Code.ALREADY_EXISTS, "A file exists at '" + at + "' in '"
                    + volume + "/" + bucket + "'; cannot create a directory there")
                : new OmException(Code.FAILED_PRECONDITION, "Cannot create directory '"
                    + path + "': '" + at + "' is a file");
          }
          break;
        }
        parent = d.getObjectId();
        last = d;
      }
      if (i == path.depth()) {
        return FileStatus.ofDirectory(path.path(), last);
      }
      DirectoryInfo created = createMissing(txn, b, path, i, path.depth(), parent, b.getOwner());
      return FileStatus.ofDirectory(path.path(), created);
    });
  }

  /**
   * Creates directories {@code path[from, to)} below {@code parentId}, none of which exists.
   *
   * @return the deepest one created
   */
  DirectoryInfo createMissing(WriteTxn txn, BucketInfo b, FsoPath path, int from, int to,
      long parentId, String owner) {
    DirectoryInfo d = null;
    long parent = parentId;
    List<OmAcl> acls = DefaultAcls.forKey(owner, b.getAclsList());
    for (int j = from; j < to; j++) {
      long id = txn.allocateId();
      d = newRow(path.component(j), id, parent, owner, acls, txn.now());
      dirTable.putWithBatch(txn.batch(),
          OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, d.getName()), d);
      txn.count(b.getObjectId(), OmCounter.DIRECTORIES, 1);
      parent = id;
    }
    return d;
  }

  /**
   * The directoryTable row of a new directory {@code name} under {@code parentId} (the bucket's
   * id at the top), with the ACL it inherits, created at {@code now}. A bulk load builds its rows
   * with it too, so both write the same bytes.
   */
  public static DirectoryInfo newRow(String name, long id, long parentId, String owner,
      List<OmAcl> acls, long now) {
    return DirectoryInfo.newBuilder()
        .setName(name)
        .setObjectId(id)
        .setParentId(parentId)
        .setUpdateId(id)
        .setCreationTime(now)
        .setModificationTime(now)
        .setOwner(owner)
        .addAllAcls(acls)
        .build();
  }

  /** See {@link FsoNamespace#deleteDirectory} for the contract. */
  public void delete(String volume, String bucket, String rawPath, boolean recursive) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath path = FsoResolver.parseEntry(rawPath, "delete");
    ctx.write(txn -> {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, null, volume, bucket);
      long bid = b.getObjectId();
      long parent = FsoResolver.parentId(dirTable, fileTable, b, path, Code.NOT_FOUND,
          "Cannot delete directory '" + path + "'");
      String key = OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf());
      DirectoryInfo d = FsoResolver.requireRow(dirTable, fileTable, key,
          "'" + path + "' is a file, not a directory; use deleteFile",
          "Directory '" + path + "' does not exist in '" + volume + "/" + bucket + "'");
      String children = OmKeys.childPrefix(b.getVolumeId(), bid, d.getObjectId());
      boolean empty = !dirTable.hasLiveKey(children)
          && !fileTable.hasLiveKey(children);
      if (!empty && !recursive) {
        throw new OmException(Code.FAILED_PRECONDITION, "Directory '" + path
            + "' is not empty; delete it recursively or delete its entries first");
      }
      dirTable.deleteWithBatch(txn.batch(), key);
      txn.count(bid, OmCounter.DIRECTORIES, -1);
      if (empty) {
        long open = openFileTable.countRows(children);
        if (open > 0) {
          openFileTable.deletePrefixWithBatch(txn.batch(), children);
          txn.count(bid, OmCounter.OPEN_FILES, -open);
        }
      } else {
        deletedDirTable.putWithBatch(txn.batch(),
            OmKeys.deletedDirectoryKey(b.getVolumeId(), bid, parent, d.getName(), d.getObjectId()),
            DirectoryPurge.queueRow(volume, bucket, path.path(), d, txn.now()));
        txn.count(bid, OmCounter.DELETED_DIRECTORIES, 1);
      }
      return null;
    });
  }
}
