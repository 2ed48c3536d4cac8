package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedOutputStream;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.db.codec.CodecException;
import io.sediment.om.listing.KeyRowView;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.KeyView;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The basic view of a stored key, against a model: the parsed row with every field but the basic
 * ones cleared, for rows with and without each field, any metadata and any ACLs.
 */
class KeyViewsTest {

  @Test
  void theBasicViewOfAnyRowIsTheRowWithOnlyTheBasicFields() throws Exception {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      KeyInfo row = randomKey(random);
      KeyInfo cut = KeyInfo.parseFrom(KeyRowView.BASIC.of(row.toByteArray()));
      assertEquals(model(row), cut, "row " + i + ": " + row);
      assertTrue(cut.getUnknownFields().asMap().isEmpty());
    }
  }

  @Test
  void theFullViewIsTheRowItselfAndAnUnknownViewIsRefused() throws Exception {
    assertEquals(KeyRowView.FULL, KeyViews.rows(KeyView.KEY_VIEW_FULL, 0));
    assertEquals(KeyRowView.BASIC, KeyViews.rows(KeyView.KEY_VIEW_BASIC, 1));
    KeyInfo row = randomKey(new SplittableRandom(3));
    assertEquals(row.toByteString(), KeyRowView.FULL.of(row.toByteArray()));
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> KeyViews.rows(KeyView.UNRECOGNIZED, 9));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertEquals("Unknown key view: 9", e.getStatus().getDescription());
  }

  @Test
  void aRowThatDoesNotSkimIsRefusedByEitherViewNotCutSilently() {
    // A length-delimited field 3 that claims 100 bytes and has 2.
    byte[] truncated = {0x1a, 100, 'a', 'b'};
    // A key name, then an end-group tag (field 4), which no whole message has at its top.
    byte[] endGroup = {0x1a, 1, 'k', 0x24};
    for (KeyRowView view : KeyRowView.values()) {
      assertThrows(CodecException.class, () -> view.of(truncated), view.name());
      assertThrows(CodecException.class, () -> view.of(endGroup), view.name());
    }
  }

  @Test
  void aMetadataEntryWrittenValueFirstIsStillJudgedByItsKey() throws Exception {
    for (String key : List.of("ETag", "ETags", "etag")) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.writeString(KeyInfo.KEY_NAME_FIELD_NUMBER, "k");
      // A map entry with its value (field 2) before its key (field 1): valid, if unusual.
      ByteArrayOutputStream entry = new ByteArrayOutputStream();
      CodedOutputStream e = CodedOutputStream.newInstance(entry);
      e.writeString(2, "v");
      e.writeString(1, key);
      e.flush();
      out.writeByteArray(KeyInfo.METADATA_FIELD_NUMBER, entry.toByteArray());
      out.flush();
      KeyInfo cut = KeyInfo.parseFrom(KeyRowView.BASIC.of(bytes.toByteArray()));
      assertEquals(key.equals("ETag") ? Map.of("ETag", "v") : Map.of(),
          cut.getMetadataMap(), key);
      assertEquals("k", cut.getKeyName());
    }
  }

  /** What the basic view keeps of {@code row}: the model the wire test holds its pages to too. */
  static KeyInfo model(KeyInfo row) {
    KeyInfo.Builder b = KeyInfo.newBuilder().setKeyName(row.getKeyName())
        .setDataSize(row.getDataSize()).setCreationTime(row.getCreationTime())
        .setModificationTime(row.getModificationTime()).setOwner(row.getOwner());
    if (row.hasReplicationConfig()) {
      b.setReplicationConfig(row.getReplicationConfig());
    }
    if (row.containsMetadata("ETag")) {
      b.putMetadata("ETag", row.getMetadataOrThrow("ETag"));
    }
    return b.build();
  }

  private static KeyInfo randomKey(SplittableRandom r) {
    KeyInfo.Builder b = KeyInfo.newBuilder();
    if (r.nextBoolean()) {
      b.setVolumeName("vol" + r.nextInt(10)).setBucketName("bkt" + r.nextInt(10));
    }
    if (r.nextInt(10) > 0) {
      b.setKeyName("dir/key-" + r.nextInt(1_000_000));
    }
    if (r.nextBoolean()) {
      b.setDataSize(r.nextLong(1L << 50));
    }
    b.setObjectId(r.nextLong(1L << 40)).setParentId(r.nextInt(3)).setUpdateId(r.nextInt(100));
    if (r.nextBoolean()) {
      b.setCreationTime(1_700_000_000_000L + r.nextInt(1_000_000));
    }
    if (r.nextBoolean()) {
      b.setModificationTime(1_700_000_000_000L + r.nextInt(1_000_000));
    }
    if (r.nextBoolean()) {
      b.setOwner("owner" + r.nextInt(5));
    }
    b.setClientId(r.nextInt(2) * r.nextLong(1L << 40));
    if (r.nextBoolean()) {
      b.setFileName("key-" + r.nextInt(100));
    }
    int metadata = r.nextInt(4);
    for (int m = 0; m < metadata; m++) {
      b.putMetadata(List.of("ETag", "color", "ETags", "etag", "z").get(r.nextInt(5)),
          "v" + r.nextInt(1000));
    }
    if (r.nextBoolean()) {
      b.setDeletionTime(r.nextInt(1_000_000));
    }
    int acls = r.nextInt(3);
    for (int a = 0; a < acls; a++) {
      b.addAcls(OmAcl.newBuilder().setName("user" + a).build());
    }
    if (r.nextInt(4) > 0) {
      b.setReplicationConfig(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
          .setFactor(r.nextBoolean() ? ReplicationFactor.ONE : ReplicationFactor.THREE));
    }
    return b.build();
  }
}
