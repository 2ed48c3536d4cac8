package io.sediment.om.fso;

import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;

/**
 * A file or directory of a FILE_SYSTEM_OPTIMIZED bucket, as {@code getFileStatus} and
 * {@code listStatus} return it.
 *
 * @param path the full path relative to the bucket root, normalized (components joined with
 *     {@code /}, no leading or trailing {@code /}); {@code ""} for the bucket root
 * @param isDirectory whether it is a directory
 * @param size the committed data size of a file; 0 for a directory
 * @param objectId its object id (the bucket's for the root); a directory's children are keyed
 *     under it
 * @param parentId the object id of its parent directory (the bucket's for top-level entries; 0
 *     for the root)
 * @param creationTime epoch millis
 * @param modificationTime epoch millis (a commit, or a rename, of this entry)
 * @param owner the owner
 */
public record FileStatus(String path, boolean isDirectory, long size, long objectId,
    long parentId, long creationTime, long modificationTime, String owner) {

  /** The last component of the path ({@code ""} for the root). */
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  static FileStatus ofDirectory(String path, DirectoryInfo d) {
    return new FileStatus(path, true, 0, d.getObjectId(), d.getParentId(), d.getCreationTime(),
        d.getModificationTime(), d.getOwner());
  }

  static FileStatus ofFile(String path, KeyInfo f) {
    return new FileStatus(path, false, f.getDataSize(), f.getObjectId(), f.getParentId(),
        f.getCreationTime(), f.getModificationTime(), f.getOwner());
  }

  static FileStatus of(String path, boolean isDirectory, EntryAttributes a) {
    return new FileStatus(path, isDirectory, isDirectory ? 0 : a.size(), a.objectId(),
        a.parentId(), a.creationTime(), a.modificationTime(), a.owner());
  }

  static FileStatus ofRoot(BucketInfo b) {
    return new FileStatus("", true, 0, b.getObjectId(), 0, b.getCreationTime(),
        b.getModificationTime(), b.getOwner());
  }
}
