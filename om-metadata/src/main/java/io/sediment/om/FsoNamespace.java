package io.sediment.om;

import static io.sediment.om.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_FILE_TABLE;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.OmException.Code;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;

/**
 * The FILE_SYSTEM_OPTIMIZED (FSO) namespace of a store: directories and files keyed by their
 * parent's object id, their writes, lookups, {@code listStatus} and the directory purge step.
 * Package-internal; {@link OmMetadataStore} exposes it.
 *
 * <h2>Layout</h2>
 * directoryTable and fileTable rows are keyed {@code /volumeId/bucketId/parentId/name}
 * ({@link OmKeys#pathKey}), top-level entries having the bucket's object id as parent, so the
 * children of a directory are exactly the one contiguous range {@code /vid/bid/dirId/} in each
 * table. A fileTable row's {@code key_name} and {@code file_name} hold the leaf name only (a
 * rename of an ancestor changes nothing below it); values returned to callers carry the full path
 * in {@code key_name}. openFileTable rows add {@code /<clientId>} and hold the full path at open;
 * deletedDirectoryTable rows add {@code /<objectId>} and hold the full path at deletion; deleted
 * and overwritten file versions go to deletedTable under {@link OmKeys#deletedKey} with their full
 * path, as OBJECT_STORE keys do, so the key purge handles both layouts alike.
 *
 * <h2>Writes</h2>
 * Each write is one {@link OmContext#write}: arguments are validated before it starts, the
 * preconditions are checked under the write lock, and everything (rows, new ids, counters) commits
 * in one atomic batch; a rejected call throws {@link OmException} and changes nothing. Every
 * operation on a bucket that is not FILE_SYSTEM_OPTIMIZED is {@link Code#UNIMPLEMENTED}. Error
 * codes, unless a method says otherwise: INVALID_ARGUMENT for a bad name, path (see
 * {@link FsoPath}) or argument, and for a create or rename that would put an entry deeper than
 * the maximum path depth ({@link PathDepthLimit}); NOT_FOUND for a missing volume, bucket, path
 * or ancestor directory; FAILED_PRECONDITION when an ancestor of a path to create is a file.
 *
 * <h2>Counters</h2>
 * FILES/FILE_BYTES count fileTable rows, DIRECTORIES directoryTable rows, OPEN_FILES openFileTable
 * rows, DELETED_KEYS/DELETED_KEY_BYTES deletedTable rows and DELETED_DIRECTORIES
 * deletedDirectoryTable rows, per bucket and store-wide, in the same batch as the change. The
 * entries below a recursively deleted directory stay counted (they are still rows) until the purge
 * step removes them.
 *
 * <p>Thread-safe (writes are serialized by the store's write lock; reads use one
 * {@link ReadView}).
 */
final class FsoNamespace {

  private final OmContext ctx;
  private final Table<String, DirectoryInfo> dirTable;
  private final Table<String, KeyInfo> fileTable;
  private final Table<String, KeyInfo> openFileTable;
  private final Table<String, KeyInfo> deletedDirTable;
  private final PathDepthLimit depthLimit;

  FsoNamespace(OmContext ctx) {
    this.ctx = ctx;
    this.depthLimit = new PathDepthLimit(ctx.options().maxPathDepth());
    this.dirTable = ctx.table(DIRECTORY_TABLE);
    this.fileTable = ctx.table(FILE_TABLE);
    this.openFileTable = ctx.table(OPEN_FILE_TABLE);
    this.deletedDirTable = ctx.table(DELETED_DIRECTORY_TABLE);
  }

  // ---- directories ----

  /**
   * Creates the directory {@code path} and every missing ancestor ({@code mkdir -p}), in one
   * batch; owned by the bucket's owner. Idempotent: if the directory exists, nothing is written
   * and its status is returned.
   *
   * @return the status of the directory
   * @throws OmException INVALID_ARGUMENT for the root, ALREADY_EXISTS if a file exists at
   *     {@code path}, FAILED_PRECONDITION if an ancestor is a file
   */
  FileStatus createDirectory(String volume, String bucket, String rawPath) {
    checkNames(volume, bucket);
    FsoPath path = FsoPath.parseNew("Path", rawPath);
    requireNotRoot(path, "create a directory at");
    depthLimit.checkCreate(path, "directory");
    return ctx.write(txn -> {
      BucketInfo b = requireFsoBucket(null, volume, bucket);
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
  private DirectoryInfo createMissing(WriteTxn txn, BucketInfo b, FsoPath path, int from, int to,
      long parentId, String owner) {
    DirectoryInfo d = null;
    long parent = parentId;
    for (int j = from; j < to; j++) {
      long id = txn.allocateId();
      d = DirectoryInfo.newBuilder()
          .setName(path.component(j))
          .setObjectId(id)
          .setParentId(parent)
          .setUpdateId(id)
          .setCreationTime(txn.now())
          .setModificationTime(txn.now())
          .setOwner(owner)
          .build();
      dirTable.putWithBatch(txn.batch(),
          OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, d.getName()), d);
      txn.count(b.getObjectId(), OmCounter.DIRECTORIES, 1);
      parent = id;
    }
    return d;
  }

  /**
   * Deletes the directory {@code path}.
   *
   * <ul>
   *   <li>Empty (no file or directory below it): its row is deleted; files still open directly
   *       in it are discarded in the same batch (their commits then fail with NOT_FOUND). No purge
   *       is needed. This holds with or without {@code recursive}.
   *   <li>Not empty, {@code recursive}: its row moves to deletedDirectoryTable (one row, whatever
   *       the subtree's size). The subtree disappears from every lookup and listing at once,
   *       because every path below it resolves through the deleted row; its rows are removed later
   *       by {@link #purgeDeletedDirectories}. The name can be reused at once (the new directory
   *       gets a new object id, so a new, empty child range).
   *   <li>Not empty, not {@code recursive}: FAILED_PRECONDITION.
   * </ul>
   *
   * @throws OmException INVALID_ARGUMENT for the root (delete the bucket instead), NOT_FOUND if
   *     absent, FAILED_PRECONDITION if {@code path} is a file or, without {@code recursive}, not
   *     empty
   */
  void deleteDirectory(String volume, String bucket, String rawPath, boolean recursive) {
    checkNames(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    requireNotRoot(path, "delete");
    ctx.write(txn -> {
      BucketInfo b = requireFsoBucket(null, volume, bucket);
      long bid = b.getObjectId();
      long parent = parentId(dirTable, fileTable, b, path, Code.NOT_FOUND,
          "Cannot delete directory '" + path + "'");
      String key = OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf());
      DirectoryInfo d = dirTable.get(key);
      if (d == null) {
        if (fileTable.isExist(key)) {
          throw new OmException(Code.FAILED_PRECONDITION,
              "'" + path + "' is a file, not a directory; use deleteFile");
        }
        throw OmException.notFound("Directory '" + path + "' does not exist in '" + volume + "/"
            + bucket + "'");
      }
      String children = OmKeys.childPrefix(b.getVolumeId(), bid, d.getObjectId());
      boolean empty = !OmContext.hasLiveKey(dirTable, children)
          && !OmContext.hasLiveKey(fileTable, children);
      if (!empty && !recursive) {
        throw new OmException(Code.FAILED_PRECONDITION, "Directory '" + path
            + "' is not empty; delete it recursively or delete its entries first");
      }
      dirTable.deleteWithBatch(txn.batch(), key);
      txn.count(bid, OmCounter.DIRECTORIES, -1);
      if (empty) {
        long open = countRows(openFileTable, children);
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

  // ---- files ----

  /**
   * Opens a file for writing: an openFileTable row under a new client id, which
   * {@link #commitFile} must present. Missing ancestor directories are created now ({@code mkdir
   * -p}, owned by the file's owner), in the same batch, so the open row can be keyed by its
   * parent's id. An existing file at {@code path} is allowed: the commit replaces it. Several
   * sessions may be open on one path; each commit replaces the previous version.
   *
   * @param owner the owner; {@code null} or empty for the bucket's owner
   * @throws OmException INVALID_ARGUMENT for the root, ALREADY_EXISTS if a directory exists at
   *     {@code path}, FAILED_PRECONDITION if an ancestor is a file
   */
  OpenKeySession createFile(String volume, String bucket, String rawPath, String owner) {
    checkNames(volume, bucket);
    OmValidation.checkOwner(owner);
    FsoPath path = FsoPath.parseNew("Path", rawPath);
    requireNotRoot(path, "create a file at");
    depthLimit.checkCreate(path, "file");
    return ctx.write(txn -> {
      BucketInfo b = requireFsoBucket(null, volume, bucket);
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
        parent = createMissing(txn, b, path, i, path.depth() - 1, parent, own).getObjectId();
      } else if (dirTable.isExist(OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf()))) {
        throw new OmException(Code.ALREADY_EXISTS, "A directory exists at '" + path + "' in '"
            + volume + "/" + bucket + "'; cannot create a file there");
      }
      long objectId = txn.allocateId();
      long clientId = txn.allocateId();
      KeyInfo open = KeyInfo.newBuilder()
          .setVolumeName(volume)
          .setBucketName(bucket)
          .setKeyName(path.path())
          .setFileName(path.leaf())
          .setObjectId(objectId)
          .setParentId(parent)
          .setUpdateId(objectId)
          .setClientId(clientId)
          .setOwner(own)
          .setCreationTime(txn.now())
          .setModificationTime(txn.now())
          .build();
      openFileTable.putWithBatch(txn.batch(),
          OmKeys.openFileKey(b.getVolumeId(), bid, parent, path.leaf(), clientId), open);
      txn.count(bid, OmCounter.OPEN_FILES, 1);
      return new OpenKeySession(clientId, open);
    });
  }

  /**
   * Commits a file opened by {@link #createFile}: its openFileTable row becomes the fileTable
   * row; the version it replaces, if any, moves to deletedTable under its object id. One batch.
   * The path is resolved again now, so the session's directory must still be at the same path.
   *
   * @return the committed file, {@code key_name} holding the full path
   * @throws OmException NOT_FOUND if an ancestor directory no longer exists or there is no open
   *     file for {@code clientId} at this path (wrong client id, already committed, discarded, or
   *     an ancestor was renamed or deleted since the open); FAILED_PRECONDITION if a directory now
   *     exists at {@code path} or an ancestor is a file; INVALID_ARGUMENT for a negative size
   */
  KeyInfo commitFile(String volume, String bucket, String rawPath, long clientId, long size) {
    checkNames(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    requireNotRoot(path, "commit a file at");
    OmValidation.checkDataSize("Data size", size, OmValidation.MAX_OBJECT_BYTES);
    return ctx.write(txn -> {
      BucketInfo b = requireFsoBucket(null, volume, bucket);
      long bid = b.getObjectId();
      long parent = parentId(dirTable, fileTable, b, path, Code.FAILED_PRECONDITION,
          "Cannot commit file '" + path + "'");
      String openKey = OmKeys.openFileKey(b.getVolumeId(), bid, parent, path.leaf(), clientId);
      KeyInfo open = openFileTable.get(openKey);
      String key = OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf());
      if (open == null) {
        if (OmContext.hasOpenSession(openFileTable, key)) {
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
      KeyInfo committed = open.toBuilder()
          .setKeyName(path.leaf())
          .setFileName(path.leaf())
          .setParentId(parent)
          .setClientId(0)
          .setDataSize(size)
          .setModificationTime(txn.now())
          .build();
      openFileTable.deleteWithBatch(txn.batch(), openKey);
      txn.count(bid, OmCounter.OPEN_FILES, -1);
      fileTable.putWithBatch(txn.batch(), key, committed);
      txn.count(bid, OmCounter.FILES, 1);
      txn.count(bid, OmCounter.FILE_BYTES, size);
      if (previous != null) {
        ctx.retire(txn, bid, OmCounter.FILES, OmCounter.FILE_BYTES,
            withPath(previous, volume, bucket, path.path()));
      }
      return withPath(committed, volume, bucket, path.path());
    });
  }

  /**
   * Deletes a file: its fileTable row moves to deletedTable under its object id. One batch.
   *
   * @throws OmException NOT_FOUND if absent, FAILED_PRECONDITION if {@code path} is a directory
   */
  void deleteFile(String volume, String bucket, String rawPath) {
    checkNames(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    requireNotRoot(path, "delete");
    ctx.write(txn -> {
      BucketInfo b = requireFsoBucket(null, volume, bucket);
      long bid = b.getObjectId();
      long parent = parentId(dirTable, fileTable, b, path, Code.NOT_FOUND,
          "Cannot delete file '" + path + "'");
      String key = OmKeys.pathKey(b.getVolumeId(), bid, parent, path.leaf());
      KeyInfo f = fileTable.get(key);
      if (f == null) {
        if (dirTable.isExist(key)) {
          throw new OmException(Code.FAILED_PRECONDITION,
              "'" + path + "' is a directory; use deleteDirectory");
        }
        throw OmException.notFound("File '" + path + "' does not exist in '" + volume + "/"
            + bucket + "'");
      }
      fileTable.deleteWithBatch(txn.batch(), key);
      ctx.retire(txn, bid, OmCounter.FILES, OmCounter.FILE_BYTES,
          withPath(f, volume, bucket, path.path()));
      return null;
    });
  }

  // ---- rename ----

  /**
   * Renames a file or directory to {@code to}, which must not exist and whose parent directory
   * must exist (no {@code mkdir -p}, no "move into an existing directory": {@code to} is the full
   * new path). Exactly one row moves: a directory's children stay keyed under its object id, so
   * its whole subtree follows. The moved row gets a new modification time. One batch. Files still
   * open below a renamed directory can no longer be committed under their old path (their
   * sessions then fail with NOT_FOUND).
   *
   * @return the status at the new path
   * @throws OmException INVALID_ARGUMENT if either path is the root, {@code to} is below
   *     {@code from}, or an entry of the moved subtree would end deeper than the maximum path
   *     depth (see {@link PathDepthLimit} for the walk this may take); NOT_FOUND if
   *     {@code from} or the parent of {@code to} does not exist;
   *     ALREADY_EXISTS if {@code to} exists (also when {@code to} equals {@code from});
   *     FAILED_PRECONDITION if an ancestor of {@code to} is a file
   */
  FileStatus rename(String volume, String bucket, String rawFrom, String rawTo) {
    checkNames(volume, bucket);
    FsoPath from = FsoPath.parse("Source path", rawFrom);
    FsoPath to = FsoPath.parseNew("Destination path", rawTo);
    requireNotRoot(from, "rename");
    requireNotRoot(to, "rename onto");
    if (from.isAncestorOf(to)) {
      throw OmException.invalid("Cannot rename '" + from + "' to '" + to
          + "': a directory cannot move into its own subtree");
    }
    return ctx.write(txn -> {
      BucketInfo b = requireFsoBucket(null, volume, bucket);
      long vid = b.getVolumeId();
      long bid = b.getObjectId();
      String context = "Cannot rename '" + from + "' to '" + to + "'";
      long fromParent = parentId(dirTable, fileTable, b, from, Code.NOT_FOUND, context);
      String fromKey = OmKeys.pathKey(vid, bid, fromParent, from.leaf());
      DirectoryInfo d = dirTable.get(fromKey);
      KeyInfo f = d == null ? fileTable.get(fromKey) : null;
      if (d == null && f == null) {
        throw OmException.notFound(context + ": '" + from + "' does not exist");
      }
      long toParent = parentId(dirTable, fileTable, b, to, Code.FAILED_PRECONDITION, context);
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

  // ---- reads ----

  /**
   * The committed file at {@code path}, read from one consistent view.
   *
   * @return the file, {@code key_name} holding the full path
   * @throws OmException NOT_FOUND if absent (or an ancestor is missing or a file),
   *     FAILED_PRECONDITION if {@code path} is a directory or the root
   */
  KeyInfo lookupFile(String volume, String bucket, String rawPath) {
    checkNames(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo b = requireFsoBucket(view, volume, bucket);
      if (path.isRoot()) {
        throw new OmException(Code.FAILED_PRECONDITION,
            "The bucket root is a directory, not a file");
      }
      Table<String, DirectoryInfo> dirs = view.getTable(DIRECTORY_TABLE);
      Table<String, KeyInfo> files = view.getTable(FILE_TABLE);
      long parent = parentId(dirs, files, b, path, Code.NOT_FOUND,
          "File '" + path + "' does not exist");
      String key = OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, path.leaf());
      KeyInfo f = files.get(key);
      if (f != null) {
        return withPath(f, volume, bucket, path.path());
      }
      if (dirs.isExist(key)) {
        throw new OmException(Code.FAILED_PRECONDITION,
            "'" + path + "' is a directory, not a file");
      }
      throw OmException.notFound("File '" + path + "' does not exist in '" + volume + "/"
          + bucket + "'");
    }
  }

  /**
   * The status of the file or directory at {@code path} ({@code ""} or {@code "/"}: the bucket
   * root), read from one consistent view.
   *
   * @throws OmException NOT_FOUND if absent (or an ancestor is missing or a file)
   */
  FileStatus getFileStatus(String volume, String bucket, String rawPath) {
    checkNames(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo b = requireFsoBucket(view, volume, bucket);
      FileStatus s = status(view, b, path);
      if (s == null) {
        throw OmException.notFound("'" + path + "' does not exist in '" + volume + "/" + bucket
            + "'");
      }
      return s;
    }
  }

  /** The status of {@code path} in {@code view}, or {@code null} if it does not exist. */
  static FileStatus status(ReadView view, BucketInfo b, FsoPath path) {
    if (path.isRoot()) {
      return FileStatus.ofRoot(b);
    }
    Table<String, DirectoryInfo> dirs = view.getTable(DIRECTORY_TABLE);
    Table<String, KeyInfo> files = view.getTable(FILE_TABLE);
    long parent = b.getObjectId();
    for (int i = 0; i < path.depth() - 1; i++) {
      DirectoryInfo d = dirs.get(
          OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, path.component(i)));
      if (d == null) {
        return null;
      }
      parent = d.getObjectId();
    }
    String key = OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, path.leaf());
    DirectoryInfo d = dirs.get(key);
    if (d != null) {
      return FileStatus.ofDirectory(path.path(), d);
    }
    KeyInfo f = files.get(key);
    return f == null ? null : FileStatus.ofFile(path.path(), f);
  }

  /** See {@link FsoListing#listStatus}. */
  ListPage<FileStatus> listStatus(String volume, String bucket, String path, boolean recursive,
      String startKey, int numEntries, String token) {
    return FsoListing.listStatus(ctx, volume, bucket, path, recursive, startKey, numEntries,
        token);
  }

  /** See {@link DirectoryPurge#run}. */
  int purgeDeletedDirectories(int maxEntries) {
    return DirectoryPurge.run(ctx, maxEntries);
  }

  // ---- shared helpers ----

  static void checkNames(String volume, String bucket) {
    OmValidation.checkResourceName("Volume", volume);
    OmValidation.checkResourceName("Bucket", bucket);
  }

  private static void requireNotRoot(FsoPath path, String action) {
    if (path.isRoot()) {
      throw OmException.invalid("Cannot " + action + " the bucket root");
    }
  }

  /** The bucket as {@code view} sees it ({@code null}: now); it must be FILE_SYSTEM_OPTIMIZED. */
  BucketInfo requireFsoBucket(ReadView view, String volume, String bucket) {
    return requireFsoBucket(ctx, view, volume, bucket);
  }

  static BucketInfo requireFsoBucket(OmContext ctx, ReadView view, String volume, String bucket) {
    BucketInfo info = ctx.requireBucket(view, volume, bucket);
    if (info.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      throw new OmException(Code.UNIMPLEMENTED, "Bucket '" + volume + "/" + bucket + "' is "
          + info.getLayout() + "; file-system operations need a FILE_SYSTEM_OPTIMIZED bucket");
    }
    return info;
  }

  /**
   * The object id of the parent directory of {@code path} (the bucket's for a top-level path),
   * resolving every ancestor through {@code dirs}.
   *
   * @param fileInTheWay the code when an ancestor is a file
   * @param context the start of every message
   * @throws OmException NOT_FOUND if an ancestor does not exist, {@code fileInTheWay} if one is a
   *     file
   */
  static long parentId(Table<String, DirectoryInfo> dirs, Table<String, KeyInfo> files,
      BucketInfo b, FsoPath path, Code fileInTheWay, String context) {
    long parent = b.getObjectId();
    for (int i = 0; i < path.depth() - 1; i++) {
      String key = OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, path.component(i));
      DirectoryInfo d = dirs.get(key);
      if (d == null) {
        String at = path.prefix(i + 1).path();
        if (files.isExist(key)) {
          throw new OmException(fileInTheWay, context + ": '" + at + "' is a file");
        }
        throw OmException.notFound(context + ": directory '" + at + "' does not exist");
      }
      parent = d.getObjectId();
    }
    return parent;
  }

  /** {@code f} as returned to callers: volume, bucket and the full path as its key name. */
  static KeyInfo withPath(KeyInfo f, String volume, String bucket, String path) {
    return f.toBuilder().setVolumeName(volume).setBucketName(bucket).setKeyName(path).build();
  }

  /** Rows under {@code prefix}, counted with one bounded key-only iterator. */
  static long countRows(Table<String, ?> table, String prefix) {
    long n = 0;
    try (TableIterator<String, ? extends KeyValue<String, ?>> it =
             table.iterator(prefix, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }
}
