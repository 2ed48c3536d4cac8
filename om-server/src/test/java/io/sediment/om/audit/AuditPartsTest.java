package io.sediment.om.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.sediment.proto.om.CompactTableRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.LookupFileRequest;
import io.sediment.proto.om.RenameKeyRequest;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pieces of an audit line: the read setting, the resource, the kind, the JSON. */
class AuditPartsTest {

  @Test
  void readSettingsParseAndSample() {
    assertEquals("all", AuditReads.parse("all").toString());
    assertEquals("none", AuditReads.parse(" NONE ").toString());
    assertEquals("sample:3", AuditReads.parse("sample:3").toString());
    assertEquals("all", AuditReads.parse("sample:1").toString());
    for (String bad : new String[] {"", "some", "sample:", "sample:0", "sample:-2", "sample:x",
        "sample 3"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> AuditReads.parse(bad), bad);
      assertTrue(e.getMessage().contains("all, none or sample:N"), e.getMessage());
    }
    AuditReads sample = AuditReads.sample(3);
    assertEquals(List.of(true, false, false, true, false, false, true),
        IntStream.range(0, 7).mapToObj(i -> sample.admit()).toList());
    assertFalse(AuditReads.none().admit());
    assertTrue(AuditReads.all().admit());
  }

  @Test
  void theResourceComesFromTheNamesOnly() {
    assertEquals("/vol", RequestResource.of(CreateVolumeRequest.newBuilder().setVolume("vol")
        .setOwner("someone").build()).resource().toString());
    assertEquals("/vol/bkt", RequestResource.of(GetBucketRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").build()).resource().toString());
    assertEquals("/vol/bkt/a/b.txt", RequestResource.of(LookupFileRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setPath("a/b.txt").build()).resource().toString());
    RequestResource.Named rename = RequestResource.of(RenameKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setFromKey("old").setToKey("new").build());
    assertEquals("/vol/bkt/old", rename.resource().toString());
    assertEquals("/vol/bkt/new", rename.target());
    RequestResource.Named listing = RequestResource.of(ListKeysRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setPrefix("p")
        .setPageToken(com.google.protobuf.ByteString.copyFromUtf8("token")).build());
    assertEquals("/vol/bkt", listing.resource().toString());
    assertNull(listing.target());
    assertEquals("/", RequestResource.of(CompactTableRequest.newBuilder().setTable("keyTable")
        .build()).resource().toString());
    assertEquals("/vol/bkt/logs/", RequestResource.of(io.sediment.proto.om.AddAclRequest
        .newBuilder().setTarget(io.sediment.proto.om.AclResource.newBuilder().setVolume("vol")
            .setBucket("bkt").setPrefix("logs/")).build()).resource().toString(),
        "an ACL request names its target");
    assertEquals("/vol/bkt/k", RequestResource.of(io.sediment.proto.om.GetAclRequest
        .newBuilder().setTarget(io.sediment.proto.om.AclResource.newBuilder().setVolume("vol")
            .setBucket("bkt").setKey("k")).build()).resource().toString());
  }

  @Test
  void writesAreTheLoggedRequestsAndTheAdminChanges() {
    assertEquals(RpcKind.WRITE, RpcKind.of("sediment.om.v1.OmService/CreateVolume",
        "sediment.om.v1.CreateVolumeRequest"));
    assertEquals(RpcKind.WRITE, RpcKind.of("sediment.om.v1.OmService/RenameKey",
        "sediment.om.v1.RenameKeyRequest"));
    assertEquals(RpcKind.READ, RpcKind.of("sediment.om.v1.OmService/LookupKey",
        "sediment.om.v1.LookupKeyRequest"));
    assertEquals(RpcKind.READ, RpcKind.of("sediment.om.v1.OmService/ListObjectsV2",
        "sediment.om.v1.ListObjectsV2Request"));
    assertEquals(RpcKind.READ, RpcKind.of("sediment.om.v1.AdminService/GetTableStats",
        "sediment.om.v1.GetTableStatsRequest"));
    assertEquals(RpcKind.WRITE, RpcKind.of("sediment.om.v1.AdminService/CreateCheckpoint",
        "sediment.om.v1.CreateCheckpointRequest"));
    assertEquals(RpcKind.WRITE, RpcKind.of("sediment.om.v1.ReplicationService/FetchCheckpoint",
        null));
  }

  @Test
  void aLineIsOneJsonObjectWhateverTheNamesHold() throws IOException {
    String nasty = "k\"ey\n{\"principal\":\"root\"}\\";
    AuditEntry e = new AuditEntry(Instant.parse("2026-01-02T03:04:05.678Z"), "alice",
        "127.0.0.1:5000", "sediment.om.v1.OmService/LookupKey", RpcKind.READ,
        "/vol/bkt/" + nasty, null, "NOT_FOUND", "Key not found", 42, null);
    String json = e.toJson();
    assertFalse(json.contains("\n"), json);
    Map<String, String> fields = AuditLogTest.parse(json);
    assertEquals("/vol/bkt/" + nasty, fields.get("resource"));
    assertEquals("alice", fields.get("principal"));
    assertEquals("2026-01-02T03:04:05.678Z", fields.get("time"));
    assertEquals("42", fields.get("latency_us"));
    assertEquals(List.of("time", "principal", "remote", "rpc", "kind", "resource", "status",
        "error", "latency_us"), List.copyOf(fields.keySet()));
  }

  @Test
  void failureDescriptionsAreShortenedAndMaskBearerTokens() {
    assertNull(AuditInterceptor.error(Status.OK));
    assertNull(AuditInterceptor.error(Status.NOT_FOUND));
    assertEquals("Bad header Bearer *** here", AuditInterceptor.error(
        Status.UNAUTHENTICATED.withDescription("Bad header Bearer abc.def here")));
    String cut = AuditInterceptor.error(Status.INTERNAL.withDescription("x".repeat(1000)));
    assertEquals(AuditInterceptor.MAX_ERROR_CHARS, cut.length());
    assertTrue(cut.endsWith("..."));
  }
}
