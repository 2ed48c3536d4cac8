package io.sediment.om;

import static io.sediment.om.OmTestSupport.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.Table;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.om.insight.ObjectFields;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import io.sediment.proto.om.ReplicationConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key's replication config through the store's writes: fixed at open (OpenKey, CreateFile,
 * initiating an upload) from the request, else the bucket's default, else the store's; kept by
 * the commit, a multipart completion, both renames and a snapshot; a refused config changes
 * nothing; rows of a store written before keys had one read as RATIS/THREE.
 */
class KeyReplicationTest {

  private static final ReplicationConfig ONE = ReplicationText.parse("RATIS", "ONE");
  private static final ReplicationConfig STANDALONE = ReplicationText.parse("STAND_ALONE", "ONE");
  private static final ReplicationConfig RS_6_3 = ReplicationText.parse("EC", "rs-6-3-1024k");
  private static final ReplicationConfig RS_3_2 = ReplicationText.parse("EC", "rs-3-2-1024k");
  private static final ReplicationConfig BAD = ReplicationText.parse("EC", "rs-5-2-1024k");

  @TempDir
  Path dir;

  private static OmMetadataStore open(Path dir) {
    return OmMetadataStore.open(dir);
  }

  private static void namespace(OmMetadataStore om) {
    om.createVolume("vol", "alice");
    om.createBucket("vol", "plain", BucketLayout.OBJECT_STORE, null, 0);
    om.createBucket("vol", "ecb", BucketLayout.OBJECT_STORE, null, 0, RS_6_3);
    om.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0, RS_3_2);
  }

  private static KeyInfo put(OmMetadataStore om, String bucket, String key,
      ReplicationConfig replication) {
    OpenKeySession s = om.openKey("vol", bucket, key, null, replication);
    assertEquals(s.openKey().getReplicationConfig(), om.commitKey("vol", bucket, key,
        s.clientId(), 5, Map.of()).getReplicationConfig(), "the commit keeps the open row's");
    return om.lookupKey("vol", bucket, key);
  }

  @Test
  void aKeyTakesItsRequestsConfigElseItsBucketsDefaultElseTheStores() throws Exception {
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      assertEquals(ONE, put(om, "ecb", "asked", ONE).getReplicationConfig());
      assertEquals(RS_6_3, put(om, "ecb", "bucket-default", null).getReplicationConfig());
      assertEquals(ReplicationConfigs.DEFAULT, put(om, "plain", "store-default", null)
          .getReplicationConfig());
      assertEquals(STANDALONE, put(om, "plain", "asked", STANDALONE).getReplicationConfig());
      assertEquals(RS_6_3, put(om, "plain", "overwritten", RS_6_3).getReplicationConfig());
      assertEquals(ONE, put(om, "plain", "overwritten", ONE).getReplicationConfig(),
          "a new version has the config it was opened with");
      assertEquals(RS_6_3, om.getBucketInfo("vol", "ecb").getDefaultReplicationConfig());
      assertFalse(om.getBucketInfo("vol", "plain").hasDefaultReplicationConfig());
    }
  }

  @Test
  void theStoresDefaultIsAnOption() {
    try (OmMetadataStore om = OmMetadataStore.open(dir,
        OmStoreOptions.defaults().withDefaultReplication(RS_3_2))) {
      namespace(om);
      assertEquals(RS_3_2, put(om, "plain", "k", null).getReplicationConfig());
      assertEquals(RS_6_3, put(om, "ecb", "k", null).getReplicationConfig());
    }
  }

  @Test
  void aBucketsDefaultChangesForKeysOpenedAfterTheUpdateOnly() {
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      put(om, "ecb", "before", null);
      OpenKeySession open = om.openKey("vol", "ecb", "open-across", null, null);
      BucketInfo b = om.setBucketProperties("vol", "ecb", null, null, null, ONE);
      assertEquals(ONE, b.getDefaultReplicationConfig());
      assertEquals(ONE, put(om, "ecb", "after", null).getReplicationConfig());
      assertEquals(RS_6_3, om.lookupKey("vol", "ecb", "before").getReplicationConfig());
      assertEquals(RS_6_3, om.commitKey("vol", "ecb", "open-across", open.clientId(), 1)
          .getReplicationConfig(), "fixed when the key was opened");
      BucketInfo owner = om.setBucketProperties("vol", "ecb", "bob", null, null, null);
      assertEquals(ONE, owner.getDefaultReplicationConfig(), "null leaves it as it is");
      assertEquals("bob", owner.getOwner());
    }
  }

  @Test
  void filesOfAnFsoBucketAndRenamesKeepTheirConfig() {
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      OpenKeySession f = om.fso().createFile("vol", "fso", "a/b/f", null, null);
      assertEquals(RS_3_2, f.openKey().getReplicationConfig(), "the bucket's default");
      om.fso().commitFile("vol", "fso", "a/b/f", f.clientId(), 9);
      OpenKeySession g = om.fso().createFile("vol", "fso", "a/g", null, ONE);
      om.fso().commitFile("vol", "fso", "a/g", g.clientId(), 9);
      om.fso().rename("vol", "fso", "a/b", "c");
      assertEquals(RS_3_2, om.fso().lookupFile("vol", "fso", "c/f").getReplicationConfig());
      om.fso().rename("vol", "fso", "a/g", "c/g2");
      assertEquals(ONE, om.fso().lookupFile("vol", "fso", "c/g2").getReplicationConfig());

      put(om, "plain", "from", RS_6_3);
      assertEquals(RS_6_3, om.renameKey("vol", "plain", "from", "to").getReplicationConfig());
      assertEquals(RS_6_3, om.lookupKey("vol", "plain", "to").getReplicationConfig());
    }
  }

  @Test
  void aCompletedUploadHasTheConfigItWasInitiatedWith() {
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      String asked = om.multipart().initiate("vol", "plain", "mpu", null, RS_3_2);
      String byBucket = om.multipart().initiate("vol", "ecb", "mpu", null, null);
      om.setBucketProperties("vol", "ecb", null, null, null, ONE);
      for (String[] u : List.of(new String[] {"plain", asked}, new String[] {"ecb", byBucket})) {
        om.multipart().commitPart("vol", u[0], "mpu", u[1], 1, 10, "e1");
        om.multipart().complete("vol", u[0], "mpu", u[1], List.of(new CompletedPart(1, "e1")));
      }
      assertEquals(RS_3_2, om.lookupKey("vol", "plain", "mpu").getReplicationConfig());
      assertEquals(RS_6_3, om.lookupKey("vol", "ecb", "mpu").getReplicationConfig(),
          "the bucket's default when the upload was initiated");
    }
  }

  @Test
  void aSnapshotHoldsTheConfigsAsTheyWere() {
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      put(om, "ecb", "k", null);
      om.snapshots().create("vol", "ecb", "snap1");
      put(om, "ecb", "k", ONE);
      assertEquals(RS_6_3, om.snapshots().lookupKey("vol", "ecb", "snap1", "k")
          .getReplicationConfig());
      assertEquals(ONE, om.lookupKey("vol", "ecb", "k").getReplicationConfig());
    }
  }

  @Test
  void aRefusedConfigChangesNothing() {
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      assertTrue(assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.openKey("vol", "plain", "k", null, BAD)).getMessage().contains("5-2"));
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.fso().createFile("vol", "fso", "d/f", null, BAD));
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.multipart().initiate("vol", "plain", "k", null, BAD));
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.createBucket("vol", "new", BucketLayout.OBJECT_STORE, null, 0, BAD));
      assertRejected(om, Code.INVALID_ARGUMENT,
          () -> om.setBucketProperties("vol", "plain", "bob", 5L, null, BAD));
      assertRejected(om, Code.INVALID_ARGUMENT, () -> om.openKey("vol", "plain", "k", null,
          ReplicationConfig.getDefaultInstance()));
    }
  }

  /**
   * A store written before keys had a replication config: its key, file, open-key, bucket and
   * upload rows lack the fields (written here without them through the raw tables, then the
   * store reopened, as after an upgrade).
   */
  @Test
  void rowsWithoutAConfigReadAsRatisThree() {
    long openClientId;
    String upload;
    try (OmMetadataStore om = open(dir)) {
      namespace(om);
      put(om, "ecb", "old", null);
      openClientId = om.openKey("vol", "ecb", "old-open", null, null).clientId();
      upload = om.multipart().initiate("vol", "ecb", "old-mpu", null, null);
      om.multipart().commitPart("vol", "ecb", "old-mpu", upload, 1, 10, "e1");
      OpenKeySession f = om.fso().createFile("vol", "fso", "old-file", null, null);
      om.fso().commitFile("vol", "fso", "old-file", f.clientId(), 3);
    }
    stripConfigs(dir, openClientId, upload);
    try (OmMetadataStore om = open(dir)) {
      assertFalse(om.getBucketInfo("vol", "ecb").hasDefaultReplicationConfig());
      KeyInfo old = om.lookupKey("vol", "ecb", "old");
      assertFalse(old.hasReplicationConfig());
      assertEquals(ReplicationConfigs.DEFAULT, ReplicationConfigs.of(old));
      assertEquals("RATIS", replicationField(old, "replicationType"));
      assertEquals("THREE", replicationField(old, "replicationFactor"));
      assertEquals(3, replicationField(old, "requiredNodes"));
      assertEquals(ReplicationConfigs.DEFAULT, ReplicationConfigs.of(
          om.fso().lookupFile("vol", "fso", "old-file")));
      assertEquals(ReplicationConfigs.DEFAULT, ReplicationConfigs.of(
          om.commitKey("vol", "ecb", "old-open", openClientId, 1)));
      assertEquals(ReplicationConfigs.DEFAULT, om.multipart().complete("vol", "ecb", "old-mpu",
          upload, List.of(new CompletedPart(1, "e1"))).getReplicationConfig());
      assertEquals(ReplicationConfigs.DEFAULT, put(om, "ecb", "new", null)
          .getReplicationConfig(), "a bucket without a default: the store's");
      assertNull(ObjectFields.bucket(om.getBucketInfo("vol", "ecb")).get("replicationConfig"));
    }
  }

  private static Object replicationField(KeyInfo k, String field) {
    return ((Map<?, ?>) ObjectFields.key(k).get("replicationConfig")).get(field);
  }

  /** Rewrites the rows {@link #rowsWithoutAConfigReadAsRatisThree} made as an older release had. */
  private static void stripConfigs(Path dir, long openClientId, String uploadId) {
    try (OmMetadataStore raw = OmMetadataStore.open(dir)) {
      var db = raw.dbStore();
      Table<String, BucketInfo> buckets = db.getTable(OmDBDefinition.BUCKET_TABLE);
      String ec = OmKeys.bucketKey("vol", "ecb");
      buckets.put(ec, buckets.get(ec).toBuilder().clearDefaultReplicationConfig().build());
      String fsoKey = OmKeys.bucketKey("vol", "fso");
      buckets.put(fsoKey, buckets.get(fsoKey).toBuilder().clearDefaultReplicationConfig().build());
      Table<String, KeyInfo> keys = db.getTable(OmDBDefinition.KEY_TABLE);
      String old = OmKeys.objectKey("vol", "ecb", "old");
      keys.put(old, keys.get(old).toBuilder().clearReplicationConfig().build());
      Table<String, KeyInfo> openKeys = db.getTable(OmDBDefinition.OPEN_KEY_TABLE);
      String openKey = OmKeys.openKey("vol", "ecb", "old-open", openClientId);
      openKeys.put(openKey, openKeys.get(openKey).toBuilder().clearReplicationConfig().build());
      Table<String, MultipartUploadInfo> uploads =
          db.getTable(OmDBDefinition.MULTIPART_INFO_TABLE);
      String mpu = OmKeys.multipartKey("vol", "ecb", "old-mpu", uploadId);
      uploads.put(mpu, uploads.get(mpu).toBuilder().clearReplicationConfig().build());
      Table<String, KeyInfo> files = db.getTable(OmDBDefinition.FILE_TABLE);
      Map<String, KeyInfo> rows = new java.util.HashMap<>();
      try (var it = files.iterator()) {
        while (it.hasNext()) {
          var kv = it.next();
          rows.put(kv.getKey(), kv.getValue().toBuilder().clearReplicationConfig().build());
        }
      }
      assertEquals(1, rows.size());
      rows.forEach(files::put);
    }
  }
}
