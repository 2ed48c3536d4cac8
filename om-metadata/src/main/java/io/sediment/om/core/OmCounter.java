package io.sediment.om.core;

/**
 * Namespace counters kept by every write in the same batch as the change they count, so they are
 * exact after a crash and never need a scan to answer a summary. Each is kept store-wide and, for
 * the counters a bucket owns (keys, files, directories, open keys, deleted versions, uploads), per
 * bucket. {@link io.sediment.om.OmMetadataStore#recount()}
 * rebuilds them from a full scan for recovery and to check them.
 */
public enum OmCounter {
  /** Rows of volumeTable. */
  VOLUMES,
  /** Rows of bucketTable. */
  BUCKETS,
  /** Committed OBS/LEGACY keys (keyTable rows). */
  KEYS,
  /** Sum of the data sizes of keyTable rows. */
  KEY_BYTES,
  /** Committed FSO files (fileTable rows). */
  FILES,
  /** Sum of the data sizes of fileTable rows. */
  FILE_BYTES,
  /** FSO directories (directoryTable rows). */
  DIRECTORIES,
  /** Keys open for writing in OBS/LEGACY buckets (openKeyTable rows). */
  OPEN_KEYS,
  /** Files open for writing in FSO buckets (openFileTable rows). */
  OPEN_FILES,
  /** Versions waiting for the key purge (deletedTable rows). */
  DELETED_KEYS,
  /** Sum of the data sizes of deletedTable rows. */
  DELETED_KEY_BYTES,
  /** Directory subtrees waiting for the directory purge (deletedDirectoryTable rows). */
  DELETED_DIRECTORIES,
  /** Multipart uploads in progress (multipartInfoTable rows). */
  MULTIPART_UPLOADS,
  /** Snapshots (snapshotInfoTable rows, active or deleted). */
  SNAPSHOTS;

  /** The metaTable key the store-wide counter is persisted under. */
  public String metaKey() {
    return "counter/" + name();
  }

  /** The metaTable prefix of every per-bucket counter. */
  static final String BUCKET_META_ROOT = "bucketCounter/";

  /** The metaTable prefix of every counter of one bucket. */
  public static String bucketMetaPrefix(long bucketId) {
    return BUCKET_META_ROOT + OmKeys.id(bucketId) + "/";
  }

  /** The metaTable key of this counter of one bucket. */
  public String bucketMetaKey(long bucketId) {
    return bucketMetaPrefix(bucketId) + name();
  }
}
