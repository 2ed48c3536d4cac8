package io.sediment.om.fso;

import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;

import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;

/**
 * Paths of the FILE_SYSTEM_OPTIMIZED (FSO) namespace resolved to rows: the bucket check, parent
 * ids, statuses and lookups that {@link FsoDirectories}, {@link FsoFiles}, {@link FsoListing} and
 * {@link DirectoryPurge} share, and the rules (layout, writes, counters) they all follow.
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
public final class FsoResolver {

  private final OmContext ctx;

  public FsoResolver(OmContext ctx) {
    this.ctx = ctx;
  }


  /** See {@link FsoNamespace#lookupFile} for the contract. */
  public KeyInfo lookupFile(String volume, String bucket, String rawPath) {
    OmValidation.checkBucketArgs(volume, bucket);
    FsoPath path = FsoPath.parse("Path", rawPath);
    try (ReadView view = ctx.store().openReadView()) {
      BucketInfo b = requireFsoBucket(view, volume, bucket);
      if (path.isRoot()) {
        throw new OmException(Code.FAILED_PRECONDITION,
            "The bucket root is a directory, not a file");
      }
      Table<String, DirectoryInfo> dirs = view.getTable(DIRECTORY_TABLE);
      Table<String, KeyInfo> files = view.getTable(FILE_TABLE);
      String key = rowKey(dirs, files, b, path, "File '" + path + "' does not exist");
      KeyInfo f = requireRow(files, dirs, key, "'" + path + "' is a directory, not a file",
          "File '" + path + "' does not exist in '" + volume + "/" + bucket + "'");
      return withPath(f, volume, bucket, path.path());
    }
  }

  /** See {@link FsoNamespace#getFileStatus} for the contract. */
  public FileStatus getFileStatus(String volume, String bucket, String rawPath) {
    OmValidation.checkBucketArgs(volume, bucket);
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

  // ---- shared helpers ----

  /**
   * The path of an existing entry, from the caller's raw path ({@link FsoPath#parse}), other than
   * the bucket root.
   *
   * @param action what the caller does, as the message for the root names it ("delete")
   * @throws OmException INVALID_ARGUMENT for a bad path or the root
   */
  static FsoPath parseEntry(String rawPath, String action) {
    FsoPath path = FsoPath.parse("Path", rawPath);
    requireNotRoot(path, action);
    return path;
  }

  static void requireNotRoot(FsoPath path, String action) {
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


  /**
   * The DB key of the row at {@code path} in bucket {@code b}, every ancestor resolved through
   * {@code dirs}.
   *
   * @throws OmException NOT_FOUND, starting with {@code context}, if an ancestor is missing or a
   *     file
   */
  public static String rowKey(Table<String, DirectoryInfo> dirs, Table<String, KeyInfo> files,
      BucketInfo b, FsoPath path, String context) {
    long parent = parentId(dirs, files, b, path, Code.NOT_FOUND, context);
    return OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, path.leaf());
  }
  /**
   * The row at {@code key} in {@code wanted}: FAILED_PRECONDITION with {@code otherKindMessage}
   * when {@code other} has a row there instead (a file where a directory is wanted, or the
   * reverse), NOT_FOUND with {@code missingMessage} when neither has.
   */
  static <T> T requireRow(Table<String, T> wanted, Table<String, ?> other, String key,
      String otherKindMessage, String missingMessage) {
    T row = wanted.get(key);
    if (row != null) {
      return row;
    }
    if (other.isExist(key)) {
      throw new OmException(Code.FAILED_PRECONDITION, otherKindMessage);
    }
    throw OmException.notFound(missingMessage);
  }

  /** {@code f} as returned to callers: volume, bucket and the full path as its key name. */
  static KeyInfo withPath(KeyInfo f, String volume, String bucket, String path) {
    return f.toBuilder().setVolumeName(volume).setBucketName(bucket).setKeyName(path).build();
  }
}

