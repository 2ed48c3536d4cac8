package io.sediment.om;

import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;

/**
 * Writes FSO rows (directoryTable, fileTable, openFileTable, deletedDirectoryTable) straight into
 * the tables with the {@link OmKeys} layouts, for tests of the read side while the FSO write path
 * is built elsewhere. Bypasses the counters: call {@link OmMetadataStore#recount()} afterwards.
 * Ids come from a private range far above what the store allocates.
 */
final class FsoRows {

  private final OmMetadataStore om;
  private final BucketInfo bucket;
  private long nextId;

  FsoRows(OmMetadataStore om, BucketInfo bucket, long firstId) {
    this.om = om;
    this.bucket = bucket;
    this.nextId = firstId;
  }

  long root() {
    return bucket.getObjectId();
  }

  /** A directory {@code name} under {@code parentId}; returns its id. */
  long dir(long parentId, String name) {
    long id = nextId++;
    om.dbStore().getTable(OmDBDefinition.DIRECTORY_TABLE).put(
        OmKeys.pathKey(bucket.getVolumeId(), bucket.getObjectId(), parentId, name),
        DirectoryInfo.newBuilder().setName(name).setObjectId(id).setParentId(parentId)
            .setCreationTime(1).setModificationTime(1).build());
    return id;
  }

  /** A committed file; returns its DB key. */
  String file(long parentId, String name, long size) {
    long id = nextId++;
    String key = OmKeys.pathKey(bucket.getVolumeId(), bucket.getObjectId(), parentId, name);
    om.dbStore().getTable(OmDBDefinition.FILE_TABLE).put(key, info(parentId, name, name, size, id));
    return key;
  }

  /** An open file at {@code path} (full path below the bucket); returns its DB key. */
  String openFile(long parentId, String name, String path) {
    long id = nextId++;
    long client = nextId++;
    String key = OmKeys.openFileKey(bucket.getVolumeId(), bucket.getObjectId(), parentId, name,
        client);
    om.dbStore().getTable(OmDBDefinition.OPEN_FILE_TABLE).put(key,
        info(parentId, name, path, 0, id).toBuilder().setClientId(client).build());
    return key;
  }

  /** A deleted directory at {@code path} (full path below the bucket); returns its DB key. */
  String deletedDir(long parentId, String name, String path) {
    long id = nextId++;
    String key = OmKeys.deletedDirectoryKey(bucket.getVolumeId(), bucket.getObjectId(), parentId,
        name, id);
    om.dbStore().getTable(OmDBDefinition.DELETED_DIRECTORY_TABLE).put(key,
        info(parentId, name, path, 0, id));
    return key;
  }

  private KeyInfo info(long parentId, String name, String keyName, long size, long id) {
    return KeyInfo.newBuilder().setVolumeName(bucket.getVolumeName())
        .setBucketName(bucket.getBucketName()).setKeyName(keyName).setFileName(name)
        .setDataSize(size).setObjectId(id).setParentId(parentId).setCreationTime(1000 + id)
        .setModificationTime(1000 + id).build();
  }
}
