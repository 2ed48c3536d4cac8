package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.KeyColumnsReader;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.KeyView;
import io.sediment.proto.om.ListObjectsV1Request;
import io.sediment.proto.om.ListObjectsV1Response;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.LookupKeyResponse;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LookupKey's key and ListObjects V1 and V2 keys leave the server as stored, as unknown fields of
 * the response: a client reads exactly the response whose key or contents were set, every field
 * of every key included; a stored row that is not a message fails the call, naming its type. The
 * basic view sends the same rows cut down to the fields an S3 listing shows.
 */
class StoredKeyWireTest {

  @TempDir
  Path dir;

  @Test
  void aResponseWithEncodedContentsReadsAsOneWithParsedContents() throws Exception {
    List<KeyInfo> keys = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      keys.add(KeyInfo.newBuilder().setVolumeName("vol").setBucketName("b").setKeyName("k" + i)
          .setDataSize(i * 1000L).setObjectId(i + 1).setModificationTime(1_700_000_000_000L + i)
          .putMetadata("color", "blue" + i)
          .addAcls(OmAcl.newBuilder().setName("alice").build())
          .setReplicationConfig(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
              .setFactor(ReplicationFactor.THREE))
          .build());
    }
    ListObjectsV2Response parsed = ListObjectsV2Response.newBuilder().addAllContents(keys)
        .addCommonPrefixes("a/").addCommonPrefixes("z/").setKeyCount(6).setIsTruncated(true)
        .setNextContinuationToken(ByteString.copyFromUtf8("token")).build();
    ListObjectsV2Response encoded = ListObjectsV2Response.newBuilder()
        .setUnknownFields(EncodedFields.repeated(ListObjectsV2Response.CONTENTS_FIELD_NUMBER,
            keys.stream().map(KeyInfo::toByteString).toList()))
        .addCommonPrefixes("a/").addCommonPrefixes("z/").setKeyCount(6).setIsTruncated(true)
        .setNextContinuationToken(ByteString.copyFromUtf8("token")).build();

    assertEquals(0, encoded.getContentsCount(), "the server-side object shows no contents");
    assertEquals(parsed.getSerializedSize(), encoded.getSerializedSize());
    ListObjectsV2Response read = ListObjectsV2Response.parseFrom(encoded.toByteArray());
    assertEquals(parsed, read);
    assertTrue(read.getUnknownFields().asMap().isEmpty(), "nothing left unknown to the reader");
    assertEquals(ListObjectsV2Response.parseFrom(ListObjectsV2Response.newBuilder()
        .setUnknownFields(EncodedFields.repeated(1, List.of())).build().toByteArray()),
        ListObjectsV2Response.getDefaultInstance(), "an empty page");
  }

  @Test
  void aLookedUpKeyReachesTheClientWithEveryField() throws Exception {
    try (GrpcFixture f = new GrpcFixture(dir.resolve("om"))) {
      f.store.createVolume("vol", "alice");
      f.store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      OpenKeySession s = f.store.openKey("vol", "bkt", "photos/cat.jpg", "alice");
      f.store.commitKey("vol", "bkt", "photos/cat.jpg", s.clientId(), 4096,
          Map.of("color", "blue", "owner-team", "ops"));

      LookupKeyResponse r = f.om.lookupKey(LookupKeyRequest.newBuilder().setVolume("vol")
          .setBucket("bkt").setKey("photos/cat.jpg").build());
      assertEquals(f.store.lookupKey("vol", "bkt", "photos/cat.jpg"), r.getKey());
      assertEquals(Map.of("color", "blue", "owner-team", "ops"), r.getKey().getMetadataMap());
      assertTrue(r.getUnknownFields().asMap().isEmpty(), "nothing left unknown to the reader");
      assertTrue(r.getKey().getUnknownFields().asMap().isEmpty());
    }
  }

  @Test
  void aStoredKeyThatIsNotAMessageFailsItsLookupNamingTheType() throws Exception {
    try (GrpcFixture f = new GrpcFixture(dir.resolve("om"))) {
      f.store.createVolume("vol", "alice");
      f.store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      byte[] key = OmDBDefinition.KEY_TABLE.keyCodec()
          .toPersistedFormat(OmKeys.objectKey("vol", "bkt", "broken"));
      // A length-delimited field 1 that claims 100 bytes and has 2.
      f.store.dbStore().getTable(OmDBDefinition.KEY_TABLE.name())
          .put(key, new byte[] {0x0a, 100, 'a', 'b'});

      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> f.om.lookupKey(LookupKeyRequest.newBuilder().setVolume("vol").setBucket("bkt")
              .setKey("broken").build()));
      assertEquals(Status.Code.INTERNAL, e.getStatus().getCode());
      assertTrue(e.getStatus().getDescription().contains("KeyInfo"),
          e.getStatus().getDescription());
    }
  }

  @Test
  void everyFieldOfEveryKeyReachesTheClientInKeyOrder() throws Exception {
    try (GrpcFixture f = new GrpcFixture(dir.resolve("om"))) {
      f.store.createVolume("vol", "alice");
      f.store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      List<KeyInfo> expected = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String key = (i % 3 == 0 ? "photos/" : "docs/") + "file" + i;
        OpenKeySession s = f.store.openKey("vol", "bkt", key, "alice");
        f.store.commitKey("vol", "bkt", key, s.clientId(), 10L * i);
      }
      List<KeyInfo> listed = new ArrayList<>();
      ByteString token = ByteString.EMPTY;
      do {
        ListObjectsV2Response r = f.om.listObjectsV2(ListObjectsV2Request.newBuilder()
            .setVolume("vol").setBucket("bkt").setMaxKeys(7).setContinuationToken(token).build());
        assertEquals(r.getContentsCount(), r.getKeyCount());
        assertTrue(r.getUnknownFields().asMap().isEmpty());
        listed.addAll(r.getContentsList());
        token = r.getNextContinuationToken();
      } while (!token.isEmpty());
      for (KeyInfo k : listed) {
        expected.add(f.store.lookupKey("vol", "bkt", k.getKeyName()));
      }
      assertEquals(30, listed.size());
      assertEquals(expected, listed, "each key as a lookup returns it");
      List<String> names = listed.stream().map(KeyInfo::getKeyName).toList();
      assertEquals(names.stream().sorted().toList(), names, "in key order");

      List<KeyInfo> v1 = new ArrayList<>();
      String marker = "";
      ListObjectsV1Response r1;
      do {
        r1 = f.om.listObjectsV1(ListObjectsV1Request.newBuilder().setVolume("vol")
            .setBucket("bkt").setMaxKeys(7).setMarker(marker).build());
        assertTrue(r1.getUnknownFields().asMap().isEmpty());
        v1.addAll(r1.getContentsList());
        marker = r1.getContentsList().isEmpty() ? marker
            : r1.getContents(r1.getContentsCount() - 1).getKeyName();
      } while (r1.getIsTruncated());
      assertEquals(expected, v1, "ListObjects V1 alike");
    }
  }

  @Test
  void theBasicViewSendsEachKeyWithTheListingFieldsOnly() throws Exception {
    try (GrpcFixture f = new GrpcFixture(dir.resolve("om"))) {
      f.store.createVolume("vol", "alice");
      f.store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      for (int i = 0; i < 12; i++) {
        String key = (i % 2 == 0 ? "photos/" : "docs/") + "file" + i;
        OpenKeySession s = f.store.openKey("vol", "bkt", key, "alice");
        Map<String, String> metadata = i % 3 == 0 ? Map.of("color", "blue")
            : Map.of("a-first", "x", "ETag", "etag" + i, "z-last", "y");
        f.store.commitKey("vol", "bkt", key, s.clientId(), 10L * i, metadata);
      }
      List<KeyInfo> expected = new ArrayList<>();
      for (KeyInfo full : f.store.listKeys("vol", "bkt", "", "", 100, null).items()) {
        expected.add(KeyViewsTest.model(full));
      }
      assertEquals(12, expected.size());
      assertTrue(expected.get(1).getDataSize() > 0 && expected.get(1).getOwner().equals("alice")
          && expected.get(1).hasReplicationConfig() && expected.get(1).getModificationTime() > 0);

      List<KeyInfo> v2 = new ArrayList<>();
      ByteString token = ByteString.EMPTY;
      do {
        ListObjectsV2Response r = f.om.listObjectsV2(ListObjectsV2Request.newBuilder()
            .setVolume("vol").setBucket("bkt").setMaxKeys(5).setContinuationToken(token)
            .setView(KeyView.KEY_VIEW_BASIC).build());
        assertTrue(r.getUnknownFields().asMap().isEmpty());
        r.getContentsList().forEach(k -> assertTrue(k.getUnknownFields().asMap().isEmpty()));
        v2.addAll(r.getContentsList());
        token = r.getNextContinuationToken();
      } while (!token.isEmpty());
      assertEquals(expected, v2);

      ListObjectsV1Response v1 = f.om.listObjectsV1(ListObjectsV1Request.newBuilder()
          .setVolume("vol").setBucket("bkt").setView(KeyView.KEY_VIEW_BASIC).build());
      assertEquals(expected, v1.getContentsList(), "ListObjects V1 alike");

      ListObjectsV2Response delimited = f.om.listObjectsV2(ListObjectsV2Request.newBuilder()
          .setVolume("vol").setBucket("bkt").setPrefix("docs/").setDelimiter("/")
          .setView(KeyView.KEY_VIEW_BASIC).build());
      assertEquals(expected.stream().filter(k -> k.getKeyName().startsWith("docs/")).toList(),
          delimited.getContentsList());

      List<KeyInfo> columns = new ArrayList<>();
      do {
        ListObjectsV2Response r = f.om.listObjectsV2(ListObjectsV2Request.newBuilder()
            .setVolume("vol").setBucket("bkt").setMaxKeys(5).setContinuationToken(token)
            .setView(KeyView.KEY_VIEW_COLUMNS).build());
        assertTrue(r.getUnknownFields().asMap().isEmpty() && r.getContentsCount() == 0);
        KeyColumnsReader page = KeyColumnsReader.of(r.getColumns());
        assertEquals(r.getKeyCount(), page.size());
        columns.addAll(page.keyInfos());
        token = r.getNextContinuationToken();
      } while (!token.isEmpty());
      assertEquals(expected, columns, "the columns hold the basic view's keys");
      ListObjectsV1Response v1Columns = f.om.listObjectsV1(ListObjectsV1Request.newBuilder()
          .setVolume("vol").setBucket("bkt").setView(KeyView.KEY_VIEW_COLUMNS).build());
      assertEquals(expected, KeyColumnsReader.of(v1Columns.getColumns()).keyInfos(),
          "ListObjects V1 alike");
    }
  }

  @Test
  void aViewTheServerDoesNotKnowIsInvalidArgument() throws Exception {
    try (GrpcFixture f = new GrpcFixture(dir.resolve("om"))) {
      f.store.createVolume("vol", "alice");
      f.store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, null, 0);
      StatusRuntimeException v2 = assertThrows(StatusRuntimeException.class,
          () -> f.om.listObjectsV2(ListObjectsV2Request.newBuilder().setVolume("vol")
              .setBucket("bkt").setViewValue(7).build()));
      assertEquals(Status.Code.INVALID_ARGUMENT, v2.getStatus().getCode());
      StatusRuntimeException v1 = assertThrows(StatusRuntimeException.class,
          () -> f.om.listObjectsV1(ListObjectsV1Request.newBuilder().setVolume("vol")
              .setBucket("bkt").setViewValue(7).build()));
      assertEquals(Status.Code.INVALID_ARGUMENT, v1.getStatus().getCode());
      assertEquals("Unknown key view: 7", v1.getStatus().getDescription());
    }
  }
}
