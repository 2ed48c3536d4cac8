package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CompleteMultipartUploadRequest;
import io.sediment.proto.om.CompletedPart;
import io.sediment.proto.om.CommitMultipartPartRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.EcReplicationConfig;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RenameKeyRequest;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationType;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replication configs through a real server: OpenKey, CreateFile and InitiateMultipartUpload take
 * the request's, else the bucket's default, else the server's (here EC rs-3-2-1024k), and the
 * committed, completed and renamed key keeps it; CreateBucket and SetBucketProperties set a
 * bucket's default; an invalid config is INVALID_ARGUMENT naming the value, and the store is
 * unchanged. An OpenKey entry without a config (a log written before configs) applies as
 * RATIS/THREE, not as this server's default.
 */
class OmGrpcReplicationConfigTest {

  private static final ReplicationConfig SERVER = ReplicationText.parse("EC", "rs-3-2-1024k");
  private static final ReplicationConfig RS_6_3 = ReplicationText.parse("EC", "rs-6-3-1024k");
  private static final ReplicationConfig ONE = ReplicationText.parse("RATIS", "ONE");

  @TempDir
  Path dir;
  private GrpcFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"), OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withDefaultReplication(SERVER),
        OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES);
    f.store.createVolume("vol", "alice");
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("plain")
        .setLayout(BucketLayout.OBJECT_STORE).build());
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("ecbucket")
        .setLayout(BucketLayout.OBJECT_STORE).setDefaultReplicationConfig(RS_6_3).build());
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("fso")
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private KeyInfo put(String bucket, String key, ReplicationConfig asked) {
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().setVolume("vol").setBucket(bucket)
        .setKey(key);
    if (asked != null) {
      open.setReplicationConfig(asked);
    }
    OpenKeyResponse r = f.om.openKey(open.build());
    return f.om.commitKey(io.sediment.proto.om.CommitKeyRequest.newBuilder().setVolume("vol")
        .setBucket(bucket).setKey(key).setClientId(r.getClientId()).setDataSize(3).build())
        .getKey();
  }

  @Test
  void keysTakeTheRequestsConfigElseTheBucketsElseTheServers() {
    assertEquals(ONE, put("ecbucket", "asked", ONE).getReplicationConfig());
    assertEquals(RS_6_3, put("ecbucket", "bucket", null).getReplicationConfig());
    assertEquals(SERVER, put("plain", "server", null).getReplicationConfig());
    assertEquals(RS_6_3, f.om.getBucket(GetBucketRequest.newBuilder().setVolume("vol")
        .setBucket("ecbucket").build()).getBucket().getDefaultReplicationConfig());
    assertEquals(SERVER, f.om.renameKey(RenameKeyRequest.newBuilder().setVolume("vol")
        .setBucket("plain").setFromKey("server").setToKey("moved").build()).getKey()
        .getReplicationConfig());

    f.om.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume("vol")
        .setBucket("plain").setDefaultReplicationConfig(ONE).build());
    assertEquals(ONE, put("plain", "later", null).getReplicationConfig());
    assertEquals(SERVER, f.om.lookupKey(LookupKeyRequest.newBuilder().setVolume("vol")
        .setBucket("plain").setKey("moved").build()).getKey().getReplicationConfig());
  }

  @Test
  void filesAndUploadsTakeItToo() {
    var open = f.om.createFile(CreateFileRequest.newBuilder().setVolume("vol").setBucket("fso")
        .setPath("a/b").build());
    assertEquals(SERVER, open.getOpenFile().getReplicationConfig());
    assertEquals(SERVER, f.om.commitFile(CommitFileRequest.newBuilder().setVolume("vol")
        .setBucket("fso").setPath("a/b").setClientId(open.getClientId()).build()).getFile()
        .getReplicationConfig());
    var asked = f.om.createFile(CreateFileRequest.newBuilder().setVolume("vol").setBucket("fso")
        .setPath("a/c").setReplicationConfig(ONE).build());
    assertEquals(ONE, asked.getOpenFile().getReplicationConfig());

    String upload = f.om.initiateMultipartUpload(InitiateMultipartUploadRequest.newBuilder()
        .setVolume("vol").setBucket("ecbucket").setKey("mpu").build()).getUploadId();
    f.om.commitMultipartPart(CommitMultipartPartRequest.newBuilder().setVolume("vol")
        .setBucket("ecbucket").setKey("mpu").setUploadId(upload).setPartNumber(1).setSize(4)
        .setEtag("e").build());
    assertEquals(RS_6_3, f.om.completeMultipartUpload(CompleteMultipartUploadRequest.newBuilder()
        .setVolume("vol").setBucket("ecbucket").setKey("mpu").setUploadId(upload)
        .addParts(CompletedPart.newBuilder().setPartNumber(1).setEtag("e")).build()).getKey()
        .getReplicationConfig());
  }

  @Test
  void anInvalidConfigIsInvalidArgumentNamingItAndChangesNothing() {
    ReplicationConfig xor = ReplicationConfigs.ec("xor", 6, 3, 1 << 20);
    ReplicationConfig codec = ReplicationConfigs.ec("lrc", 6, 3, 1 << 20);
    ReplicationConfig type = ReplicationConfig.newBuilder().setTypeValue(7).build();
    ReplicationConfig chunk = RS_6_3.toBuilder().setEc(EcReplicationConfig.newBuilder(
        RS_6_3.getEc()).setEcChunkSize(4096)).build();
    Map<String, Object> before = f.store.countFromScan().entrySet().stream().collect(
        java.util.stream.Collectors.toMap(e -> e.getKey().name(), Map.Entry::getValue));
    assertInvalid("xor-6-3", () -> put("plain", "k", xor));
    assertInvalid("'lrc'", () -> f.om.createFile(CreateFileRequest.newBuilder().setVolume("vol")
        .setBucket("fso").setPath("x").setReplicationConfig(codec).build()));
    assertInvalid("type number 7", () -> f.om.initiateMultipartUpload(
        InitiateMultipartUploadRequest.newBuilder().setVolume("vol").setBucket("plain")
            .setKey("k").setReplicationConfig(type).build()));
    assertInvalid("4096 bytes", () -> f.om.createBucket(CreateBucketRequest.newBuilder()
        .setVolume("vol").setBucket("newbucket").setLayout(BucketLayout.OBJECT_STORE)
        .setDefaultReplicationConfig(chunk).build()));
    assertInvalid("REPLICATION_FACTOR_UNSPECIFIED", () -> f.om.setBucketProperties(
        SetBucketPropertiesRequest.newBuilder().setVolume("vol").setBucket("plain")
            .setOwner("bob").setDefaultReplicationConfig(ReplicationConfig.newBuilder()
                .setType(ReplicationType.RATIS)).build()));
    assertEquals(before, f.store.countFromScan().entrySet().stream().collect(
        java.util.stream.Collectors.toMap(e -> e.getKey().name(), Map.Entry::getValue)));
    assertFalse(f.store.getBucketInfo("vol", "plain").hasDefaultReplicationConfig());
    assertEquals("alice", f.store.getBucketInfo("vol", "plain").getOwner());
  }

  @Test
  void anOpenKeyEntryWithoutAConfigAppliesAsRatisThree() {
    WriteRequests.over(f.store).execute(OmLogEntry.newBuilder().setTimeMillis(1)
        .setOpenKey(OpenKeyRequest.newBuilder().setVolume("vol").setBucket("ecbucket")
            .setKey("old")).build());
    assertEquals(ReplicationConfigs.DEFAULT, f.store.openFiles().list("vol", "ecbucket", 10, null)
        .entries().get(0).info().getReplicationConfig());
  }

  private static void assertInvalid(String named, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains(named), e.getStatus().getDescription());
  }
}
