package io.sediment.om.fso;

import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListPage;
import io.sediment.om.listing.Pager;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import java.util.Map;

/**
 * The file-system operations of FILE_SYSTEM_OPTIMIZED buckets: directories, files, rename,
 * listing and the directory purge. Paths are relative to the bucket root ({@link FsoPath} states
 * which are valid) and resolved one directory at a time ({@link FsoResolver} states the layout,
 * the write rules and the error codes every method shares). Every write checks its arguments, then
 * applies one atomic batch; a rejected call throws {@link OmException} and changes nothing. On a
 * bucket that is not FILE_SYSTEM_OPTIMIZED, every operation throws UNIMPLEMENTED. Thread-safe.
 */
public final class FsoNamespace {

  private final OmContext ctx;
  private final Pager pager;
  private final FsoResolver resolver;
  private final FsoDirectories directories;
  private final FsoFiles files;

  /** The FSO operations of the store behind {@code ctx}; listings page with {@code pager}. */
  public FsoNamespace(OmContext ctx, Pager pager) {
    this.ctx = ctx;
    this.pager = pager;
    this.resolver = new FsoResolver(ctx);
    this.directories = new FsoDirectories(ctx);
    this.files = new FsoFiles(ctx, directories);
  }

  /**
   * Creates a directory and its missing ancestors ({@code mkdir -p}) in one batch; idempotent for
   * an existing directory. Paths are relative to the bucket root; see {@link FsoResolver}.
   *
   * @return the directory's status
   * @throws OmException INVALID_ARGUMENT (bad path, the root), NOT_FOUND (volume/bucket),
   *     ALREADY_EXISTS (a file is at {@code path}), FAILED_PRECONDITION (an ancestor is a file),
   *     UNIMPLEMENTED (not an FSO bucket)
   */
  public FileStatus createDirectory(String volume, String bucket, String path) {
    return directories.create(volume, bucket, path);
  }

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
  public OpenKeySession createFile(String volume, String bucket, String path, String owner) {
    return files.create(volume, bucket, path, owner, null);
  }

  /**
   * {@link #createFile(String, String, String, String)} with the file's replication config,
   * which the open row records and the commit keeps.
   *
   * @param replication null for the bucket's default, else the store's
   *     ({@link io.sediment.om.core.ReplicationConfigs#resolve})
   * @throws OmException as that method, and INVALID_ARGUMENT for a config
   *     {@link io.sediment.om.core.ReplicationConfigs#check} refuses
   */
  public OpenKeySession createFile(String volume, String bucket, String path, String owner,
      ReplicationConfig replication) {
    return files.create(volume, bucket, path, owner, replication);
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
  public KeyInfo commitFile(String volume, String bucket, String path, long clientId,
      long size) {
    return files.commit(volume, bucket, path, clientId, size, Map.of());
  }

  /**
   * {@link #commitFile(String, String, String, long, long)} that also records user metadata on
   * the file, added to the open row's (a name given here replaces its value).
   *
   * @throws OmException as that method, and INVALID_ARGUMENT for metadata that
   *     {@link io.sediment.om.core.OmValidation#checkMetadata} refuses
   */
  public KeyInfo commitFile(String volume, String bucket, String path, long clientId,
      long size, Map<String, String> metadata) {
    return files.commit(volume, bucket, path, clientId, size, metadata);
  }

  /**
   * The committed file at {@code path}, read from one consistent view.
   *
   * @return the file, {@code key_name} holding the full path
   * @throws OmException NOT_FOUND if absent (or an ancestor is missing or a file),
   *     FAILED_PRECONDITION if {@code path} is a directory or the root
   */
  public KeyInfo lookupFile(String volume, String bucket, String path) {
    return resolver.lookupFile(volume, bucket, path);
  }

  /**
   * The status of the file or directory at {@code path} ({@code ""} or {@code "/"}: the bucket
   * root), read from one consistent view.
   *
   * @throws OmException NOT_FOUND if absent (or an ancestor is missing or a file)
   */
  public FileStatus getFileStatus(String volume, String bucket, String path) {
    return resolver.getFileStatus(volume, bucket, path);
  }

  /**
   * Deletes a file: its fileTable row moves to deletedTable under its object id. One batch.
   *
   * @throws OmException NOT_FOUND if absent, FAILED_PRECONDITION if {@code path} is a directory
   */
  public void deleteFile(String volume, String bucket, String path) {
    files.delete(volume, bucket, path);
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
  public void deleteDirectory(String volume, String bucket, String path, boolean recursive) {
    directories.delete(volume, bucket, path, recursive);
  }

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
  public FileStatus rename(String volume, String bucket, String from, String to) {
    return files.rename(volume, bucket, from, to);
  }

  /**
   * One page of the entries below {@code path} (recursively with {@code recursive}), in the
   * order and with the paging {@link FsoListing} describes.
   *
   * @param path the directory to list ({@code ""} or {@code "/"}: the bucket root) or a file
   * @param startKey {@code null} or empty for none; else a path below {@code path} (or
   *     {@code path} itself), exclusive
   * @param numEntries page size, 0 (an empty, untruncated page, even when {@code path} is a
   *     file) to the store's cap
   * @param token {@code null} or empty for the first page; else the previous page's
   *     {@link ListPage#nextToken()}
   * @throws OmException INVALID_ARGUMENT for a bad name, path, start key, page size or token;
   *     NOT_FOUND if the volume, bucket or path does not exist; UNIMPLEMENTED for a bucket that
   *     is not FILE_SYSTEM_OPTIMIZED
   */
  public ListPage<FileStatus> listStatus(String volume, String bucket, String path,
      boolean recursive, String startKey, int numEntries, String token) {
    return FsoListing.listStatus(ctx, pager, volume, bucket, path, recursive, startKey,
        numEntries, token);
  }

  /**
   * One bounded step of the directory purge (see {@link DirectoryPurge}): removes the subtrees of
   * recursively deleted directories with range deletes, moving their files to deletedTable. It
   * walks them without the write lock and applies what it found in one short write.
   *
   * @param maxEntries the most rows to remove in this step, at least 1
   * @return the rows removed; 0 when nothing was queued (or, if a queue row it walked was removed
   *     by something else meanwhile, which no write of this store does, having written nothing)
   */
  public int purgeDeletedDirectories(int maxEntries) {
    return DirectoryPurge.run(ctx, maxEntries);
  }
}
