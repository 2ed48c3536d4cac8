package io.sediment.om.fso;

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
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import java.util.List;
import io.sediment.proto.om.ReplicationConfig;
import java.util.Map;

/**
 * Files of FILE_SYSTEM_OPTIMIZED buckets and rename of files and directories: create (an
 * openFileTable row; missing ancestors are created through {@link FsoDirectories}), commit,
 * delete and rename (one row moves). The layout, write and counter rules are
 * {@link FsoResolver}'s. Each write is one {@link OmContext#write} transaction that checks first
 * and changes nothing when it throws. Thread-safe.
 */
public final class FsoFiles {

  private final OmContext ctx;
  private final Table<String, DirectoryInfo> dirTable;
  private final Table<String, KeyInfo> fileTable;
  private final Table<String, KeyInfo> openFileTable;
  private final PathDepthLimit depthLimit;
  private final FsoDirectories directories;

  public FsoFiles(OmContext ctx, FsoDirectories directories) {
    this.ctx = ctx;
    this.directories = directories;
    this.depthLimit = new PathDepthLimit(ctx.options().maxPathDepth());
    this.dirTable = ctx.table(DIRECTORY_TABLE);
    this.fileTable = ctx.table(FILE_TABLE);
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
  }


  /** See {@link FsoNamespace#createFile} for the contract. */
  public OpenKeySession create(String volume, String bucket, String rawPath, String owner,
      ReplicationConfig replication) {
    OmValidation.checkBucketArgs(volume, bucket);
    OmValidation.checkOwner(owner);
    FsoPath path = depthLimit.parseCreate(rawPath, "file");
    ReplicationConfig requested = replication == null ? null : ReplicationConfigs.check(replication);
    return ctx.write(txn -> {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, null, volume, bucket);
      ReplicationConfig config = ReplicationConfigs.resolve(requested, b,
          ctx.options().defaultReplication());
      long bid = b.getObjectId();
      String own = owner == null || owner.isEmpty() ? b.getOwner() : owner;
      long parent = bid;
      int i = 0;
      for (; i < path.depth() - 1; i++) {
        String key = OmKeys.pathKey(b.getVolumeId(), bid, parent, path.component(i));
        DirectoryInfo d = dirTable.get(key);
        if (d == null) {
          if (fileTable.isExist(key)) {
            throw new OmException(Code.FAILED_PRECONDITION, "Cannot create file '" + path
                + "': '" + path.prefix(i + 1) + "' is a file");
          }
          break;
        }
        parent = d.getObjectId();
      }
      if (i < path.depth() - 1) {
        parent = directories.createMissing(txn, b, path, i, path.depth() - 1, parent, own).getObjectId();
      } else if (dirTable.isExist(OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf()))) {
        throw new OmException(Code.ALREADY_EXISTS, "A directory exists at '" + path + "' in '"
            + volume + "/" + bucket + "'; cannot create a file there");
      }
      long objectId = txn.allocateId();
      long clientId = txn.allocateId();
      KeyInfo open = openRow(volume, bucket, path.path(), path.leaf(), objectId, parent, clientId,
          own, DefaultAcls.forKey(own, b.getAclsList()), txn.now(), config);
      openFileTable.putWithBatch(txn.batch(),
          OmKeys.openFileKey(b.getVolumeId(), bid, parent, path.leaf(), clientId), open);
      txn.count(bid, OmCounter.OPEN_FILES, 1);
      return new OpenKeySession(clientId, open);
    });
  }

  /**
   * The openFileTable row {@link #create} writes: file {@code path} (leaf {@code leaf}) under
   * directory {@code parentId}, of {@code owner} (already resolved), with the ACL it inherits,
   * opened at {@code now}. A bulk load builds its rows with it and {@link #committedRow} too, so
   * both write the same bytes.
   */
  public static KeyInfo openRow(String volume, String bucket, String path, String leaf,
      long objectId, long parentId, long clientId, String owner, List<OmAcl> acls, long now,
      ReplicationConfig replication) {
    return KeyInfo.newBuilder()
        .setVolumeName(volume)
        .setBucketName(bucket)
        .setKeyName(path)
        .setFileName(leaf)
        .setObjectId(objectId)
        .setParentId(parentId)
        .setUpdateId(objectId)
        .setClientId(clientId)
        .setOwner(owner)
        .setCreationTime(now)
        .setModificationTime(now)
        .addAllAcls(acls)
        .setReplicationConfig(replication)
        .build();
  }

  /** The fileTable row {@link #commit} makes of the open row {@code open} at {@code now}. */
  public static KeyInfo committedRow(KeyInfo open, String leaf, long parentId, long size,
      Map<String, String> metadata, long now) {
    return open.toBuilder()
        .setKeyName(leaf)
        .setFileName(leaf)
        .setParentId(parentId)
        .setClientId(0)
        .setDataSize(size)
        .putAllMetadata(metadata)
        .setModificationTime(now)
        .build();
  }

  /** See {@link FsoNamespace#commitFile} for the contract. */
  public KeyInfo commit(String volume, String bucket, String rawPath, long clientId, long size,
      Map<String, String> metadata) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath path = FsoResolver.parseEntry(rawPath, "commit a file at");
    OmValidation.checkDataSize("Data size", size, OmValidation.MAX_OBJECT_BYTES);
    OmValidation.checkMetadata(metadata);
    return ctx.write(txn -> {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, null, volume, bucket);
      long bid = b.getObjectId();
      long parent = FsoResolver.parentId(dirTable, fileTable, b, path, Code.FAILED_PRECONDITION,
          "Cannot commit file '" + path + "'");
      String openKey = OmKeys.openFileKey(b.getVolumeId(), bid, parent, path.leaf(), clientId);
      KeyInfo open = openFileTable.get(openKey);
      String key = OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf());
      if (open == null) {
        if (OpenKeySession.existsFor(openFileTable, key)) {
          throw new OmException(Code.FAILED_PRECONDITION, "File '" + path + "' in '" + volume
              + "/" + bucket + "' is open under another client id, not " + clientId
              + ": commit with the client id createFile returned");
        }
        throw OmException.notFound("No open file '" + path + "' in '" + volume + "/" + bucket
            + "' for client id " + clientId + " (already committed, discarded,"
            + " or an ancestor directory was renamed or deleted since it was opened)");
      }
      if (dirTable.isExist(key)) {
        throw new OmException(Code.FAILED_PRECONDITION, "A directory was created at '" + path
            + "' after the file was opened; the file cannot be committed there");
      }
      KeyInfo previous = fileTable.get(key);
      KeyInfo committed = committedRow(open, path.leaf(), parent, size, metadata, txn.now());
      openFileTable.deleteWithBatch(txn.batch(), openKey);
      txn.count(bid, OmCounter.OPEN_FILES, -1);
      fileTable.putWithBatch(txn.batch(), key, committed);
      txn.count(bid, OmCounter.FILES, 1);
      txn.count(bid, OmCounter.FILE_BYTES, size);
      if (previous != null) {
        ctx.retire(txn, bid, OmCounter.FILES, OmCounter.FILE_BYTES,
            FsoResolver.withPath(previous, volume, bucket, path.path()));
      }
      return FsoResolver.withPath(committed, volume, bucket, path.path());
    });
  }

  /** See {@link FsoNamespace#deleteFile} for the contract. */
  public void delete(String volume, String bucket, String rawPath) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath path = FsoResolver.parseEntry(rawPath, "delete");
    ctx.write(txn -> {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, null, volume, bucket);
      long bid = b.getObjectId();
      String key = FsoResolver.rowKey(dirTable, fileTable, b, path,
          "Cannot delete file '" + path + "'");
      KeyInfo f = FsoResolver.requireRow(fileTable, dirTable, key,
          "'" + path + "' is a directory; use deleteDirectory",
          "File '" + path + "' does not exist in '" + volume + "/" + bucket + "'");
      fileTable.deleteWithBatch(txn.batch(), key);
      ctx.retire(txn, bid, OmCounter.FILES, OmCounter.FILE_BYTES,
          FsoResolver.withPath(f, volume, bucket, path.path()));
      return null;
    });
  }

  // ---- rename ----

  /** See {@link FsoNamespace#rename} for the contract. */
  public FileStatus rename(String volume, String bucket, String rawFrom, String rawTo) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath from = FsoPath.parse("Source path", rawFrom);
    FsoPath to = FsoPath.parseNew("Destination path", rawTo);
    FsoResolver.requireNotRoot(from, "rename");
    FsoResolver.requireNotRoot(to, "rename onto");
    if (from.isAncestorOf(to)) {
      throw OmException.invalid("Cannot rename '" + from + "' to '" + to
          + "': a directory cannot move into its own subtree");
    }
    return ctx.write(txn -> {
      BucketInfo b = FsoResolver.requireFsoBucket(ctx, null, volume, bucket);
      long vid = b.getVolumeId();
      long bid = b.getObjectId();
      String context = "Cannot rename '" + from + "' to '" + to + "'";
      long fromParent = FsoResolver.parentId(dirTable, fileTable, b, from, Code.NOT_FOUND, context);
      String fromKey = OmKeys.pathKey(vid, bid, fromParent, from.leaf());
      DirectoryInfo d = dirTable.get(fromKey);
      KeyInfo f = d == null ? fileTable.get(fromKey) : null;
      if (d == null && f == null) {
        throw OmException.notFound(context + ": '" + from + "' does not exist");
      }
      long toParent = FsoResolver.parentId(dirTable, fileTable, b, to, Code.FAILED_PRECONDITION, context);
      String toKey = OmKeys.pathKey(vid, bid, toParent, to.leaf());
      if (dirTable.isExist(toKey) || fileTable.isExist(toKey)) {
        throw new OmException(Code.ALREADY_EXISTS, context + ": the destination exists");
      }
      depthLimit.checkRename(dirTable, fileTable, vid, bid, d == null ? null : d.getObjectId(),
          from, to);
      if (d != null) {
        DirectoryInfo moved = d.toBuilder()
            .setName(to.leaf())
            .setParentId(toParent)
            .setModificationTime(txn.now())
            .build();
        dirTable.deleteWithBatch(txn.batch(), fromKey);
        dirTable.putWithBatch(txn.batch(), toKey, moved);
        return FileStatus.ofDirectory(to.path(), moved);
      }
      KeyInfo moved = f.toBuilder()
          .setKeyName(to.leaf())
          .setFileName(to.leaf())
          .setParentId(toParent)
          .setModificationTime(txn.now())
          .build();
      fileTable.deleteWithBatch(txn.batch(), fromKey);
      fileTable.putWithBatch(txn.batch(), toKey, moved);
      return FileStatus.ofFile(to.path(), moved);
    });
  }
}
