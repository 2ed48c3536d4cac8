package io.sediment.recon;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.TreeSet;

/**
 * A loaded namespace for Recon tests, with the DB keys it wrote as oracles: OBS and LEGACY keys
 * through the facade (committed, overwritten, deleted, left open), and an FSO bucket whose
 * directories, files, open files and deleted directories are written straight into the tables
 * with the {@link OmKeys} layouts (the FSO write path is another slice), then
 * {@link OmMetadataStore#recount()}.
 */
final class TestNamespace {

  static final Comparator<String> UTF8 = (a, b) -> Arrays.compareUnsigned(
      a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

  final TreeSet<String> openKeys = new TreeSet<>(UTF8);
  final TreeSet<String> openFiles = new TreeSet<>(UTF8);
  final TreeSet<String> deleted = new TreeSet<>(UTF8);
  final TreeSet<String> deletedDirs = new TreeSet<>(UTF8);
  final TreeSet<String> obsKeys = new TreeSet<>(UTF8);
  final TreeSet<String> fsoPaths = new TreeSet<>(UTF8);
  long fsoBytes;
  private long nextId = 1L << 40;

  static OmMetadataStore open(Path dir) {
    return OmMetadataStore.open(dir,
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  }

  /** Loads the namespace into {@code om}; {@code seed} varies the workload. */
  TestNamespace load(OmMetadataStore om, long seed) {
    Random rnd = new Random(seed);
    om.createVolume("vol-a", "alice");
    om.createVolume("vol-b", "bob");
    om.createVolume("vol-empty", "carol");
    om.createBucket("vol-a", "obs1", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol-a", "leg1", BucketLayout.LEGACY, null, 0);
    BucketInfo fso = om.createBucket("vol-b", "fso1", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
    for (String bucket : new String[] {"obs1", "leg1"}) {
      for (int i = 0; i < 30; i++) {
        String key = "dir" + (i % 3) + "/key-" + String.format("%03d", i);
        put(om, bucket, key, 100 + rnd.nextInt(900));
      }
      for (int i = 0; i < 30; i += 4) {
        put(om, bucket, "dir" + (i % 3) + "/key-" + String.format("%03d", i), 7);
      }
      for (int i = 1; i < 30; i += 3) {
        String key = "dir" + (i % 3) + "/key-" + String.format("%03d", i);
        om.deleteKey("vol-a", bucket, key);
        obsKeys.remove(OmKeys.objectKey("vol-a", bucket, key));
      }
      for (int i = 0; i < 9; i++) {
        String key = "open/" + i;
        OpenKeySession s = om.openKey("vol-a", bucket, key, null);
        openKeys.add(OmKeys.openKey("vol-a", bucket, key, s.clientId()));
      }
    }
    try (var it = om.dbStore().getTable(OmDBDefinition.DELETED_TABLE).iterator()) {
      it.forEachRemaining(kv -> deleted.add(kv.getKey()));
    }

    long root = fso.getObjectId();
    long a = dir(om, fso, root, "a");
    long ab = dir(om, fso, a, "b");
    long c = dir(om, fso, root, "c");
    for (int i = 0; i < 6; i++) {
      file(om, fso, root, "", "top" + i, 10 + i);
      file(om, fso, a, "a/", "mid" + i, 100);
      file(om, fso, ab, "a/b/", "deep" + i, 1000);
      file(om, fso, c, "c/", "cee" + i, 1);
      openFiles.add(openFile(om, fso, i % 2 == 0 ? a : root, "w" + i));
    }
    for (int i = 0; i < 7; i++) {
      long id = nextId++;
      String key = OmKeys.deletedDirectoryKey(fso.getVolumeId(), root, root, "gone" + i, id);
      om.dbStore().getTable(OmDBDefinition.DELETED_DIRECTORY_TABLE).put(key, KeyInfo.newBuilder()
          .setVolumeName("vol-b").setBucketName("fso1").setKeyName("gone" + i).setFileName("gone" + i)
          .setObjectId(id).setParentId(root).setDeletionTime(5000 + i).build());
      deletedDirs.add(key);
    }
    om.recount();
    return this;
  }

  private void put(OmMetadataStore om, String bucket, String key, long size) {
    OpenKeySession s = om.openKey("vol-a", bucket, key, null);
    om.commitKey("vol-a", bucket, key, s.clientId(), size);
    obsKeys.add(OmKeys.objectKey("vol-a", bucket, key));
  }

  private long dir(OmMetadataStore om, BucketInfo b, long parent, String name) {
    long id = nextId++;
    om.dbStore().getTable(OmDBDefinition.DIRECTORY_TABLE).put(
        OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, name),
        DirectoryInfo.newBuilder().setName(name).setObjectId(id).setParentId(parent)
            .setCreationTime(1).setModificationTime(1).build());
    return id;
  }

  private void file(OmMetadataStore om, BucketInfo b, long parent, String dirPath, String name,
      long size) {
    long id = nextId++;
    om.dbStore().getTable(OmDBDefinition.FILE_TABLE).put(
        OmKeys.pathKey(b.getVolumeId(), b.getObjectId(), parent, name),
        KeyInfo.newBuilder().setVolumeName("vol-b").setBucketName("fso1").setKeyName(name)
            .setFileName(name).setDataSize(size).setObjectId(id).setParentId(parent)
            .setCreationTime(2000 + id % 1000).setModificationTime(3).build());
    fsoPaths.add("/vol-b/fso1/" + dirPath + name);
    fsoBytes += size;
  }

  private String openFile(OmMetadataStore om, BucketInfo b, long parent, String name) {
    long id = nextId++;
    long client = nextId++;
    String key = OmKeys.openFileKey(b.getVolumeId(), b.getObjectId(), parent, name, client);
    om.dbStore().getTable(OmDBDefinition.OPEN_FILE_TABLE).put(key, KeyInfo.newBuilder()
        .setVolumeName("vol-b").setBucketName("fso1").setKeyName(name).setFileName(name)
        .setObjectId(id).setParentId(parent).setClientId(client).setCreationTime(4000).build());
    return key;
  }
}
