package io.sediment.om.listing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.db.codec.CodecException;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import io.sediment.om.testing.RowDamage;
import org.junit.jupiter.api.Test;

/**
 * The basic view's cut, against protobuf as the oracle: it refuses every row protobuf's skim
 * refuses (and beyond those only a row whose metadata protobuf cannot read), keeps exactly the
 * basic fields of a row protobuf parses, and the rows of one page
 * cut into a shared buffer stay as cut while later rows are added.
 */
class KeyRowViewTest {

  @Test
  void theCutOfAValidRowIsTheModelsBasicKey() throws InvalidProtocolBufferException {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      KeyInfo key = randomKey(r);
      KeyInfo cut = KeyInfo.parseFrom(KeyRowView.BASIC.of(key.toByteArray()));
      assertEquals(basicOf(key), cut);
      assertTrue(cut.getUnknownFields().asMap().isEmpty());
    }
  }

  @Test
  void aDamagedRowIsRefusedByTheCutWhenProtobufsSkimRefusesItOrItsETagCannotBeRead() {
    SplittableRandom r = new SplittableRandom(11);
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] row = RowDamage.damage(randomKey(r).toByteArray(), r);
      boolean skimRefuses = refuses(KeyRowView.FULL, row);
      boolean cutRefuses = refuses(KeyRowView.BASIC, row);
      if (skimRefuses) {
        assertTrue(cutRefuses, () -> "accepted " + Arrays.toString(row));
        refused++;
      } else if (cutRefuses) {
        // The skim does not look inside fields; the cut reads each metadata entry's key, and
        // refuses only an entry that protobuf cannot read either.
        assertThrows(InvalidProtocolBufferException.class, () -> KeyInfo.parseFrom(row),
            () -> "refused " + Arrays.toString(row));
      }
    }
    // The damage must hit both kinds often enough for the comparison to mean something.
    assertTrue(refused > 2_000 && refused < 18_000, "refused " + refused);
  }

  @Test
  void rowsCutInOnePageKeepTheirBytesWhileTheSharedBufferFillsAndIsReplaced() {
    SplittableRandom r = new SplittableRandom(3);
    KeyRowView.Cut page = KeyRowView.BASIC.page();
    List<byte[]> rows = new ArrayList<>();
    List<ByteString> cuts = new ArrayList<>();
    // About 150 KiB of cut rows: the first buffer fills and later ones take over.
    for (int i = 0; i < 3_000; i++) {
      byte[] row = randomKey(r).toByteArray();
      rows.add(row);
      cuts.add(page.of(row));
    }
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(KeyRowView.BASIC.of(rows.get(i)), cuts.get(i), "row " + i);
    }
  }

  @Test
  void aGroupAtTheTopIsSkippedAndAnUnclosedOneRefused() {
    byte[] name = KeyInfo.newBuilder().setKeyName("k").build().toByteArray();
    // Field 99: start group, a varint field inside, end group.
    byte[] group = concat(name, new byte[] {(byte) 0x9b, 0x06, 0x08, 0x01, (byte) 0x9c, 0x06});
    assertArrayEquals(name, KeyRowView.BASIC.of(group).toByteArray());
    byte[] unclosed = concat(name, new byte[] {(byte) 0x9b, 0x06, 0x08, 0x01});
    assertThrows(CodecException.class, () -> KeyRowView.BASIC.of(unclosed));
    assertThrows(CodecException.class, () -> KeyRowView.FULL.of(unclosed));
  }

  @Test
  void aVarintLongerThanTenBytesIsRefused() {
    byte[] row = new byte[12];
    row[0] = 0x10; // field 2, varint
    Arrays.fill(row, 1, 12, (byte) 0x80);
    assertThrows(CodecException.class, () -> KeyRowView.BASIC.of(row));
    assertThrows(CodecException.class, () -> KeyRowView.FULL.of(row));
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
  void aMetadataEntryWrittenValueFirstIsStillJudgedByItsKey() throws IOException {
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

  @Test
  void theFullViewIsTheRowItself() {
    byte[] row = randomKey(new SplittableRandom(3)).toByteArray();
    assertArrayEquals(row, KeyRowView.FULL.of(row).toByteArray());
    assertArrayEquals(row, KeyRowView.FULL.page().of(row).toByteArray());
  }

  private static boolean refuses(KeyRowView view, byte[] row) {
    try {
      view.of(row);
      return false;
    } catch (CodecException e) {
      return true;
    }
  }

  private static KeyInfo basicOf(KeyInfo key) {
    KeyInfo.Builder b = KeyInfo.newBuilder().setKeyName(key.getKeyName())
        .setDataSize(key.getDataSize()).setCreationTime(key.getCreationTime())
        .setModificationTime(key.getModificationTime()).setOwner(key.getOwner());
    if (key.hasReplicationConfig()) {
      b.setReplicationConfig(key.getReplicationConfig());
    }
    if (key.getMetadataMap().containsKey("ETag")) {
      b.putMetadata("ETag", key.getMetadataMap().get("ETag"));
    }
    return b.build();
  }

  static KeyInfo randomKey(SplittableRandom r) {
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
    b.setObjectId(r.nextLong(1L << 40)).setParentId(r.nextInt(3)).setUpdateId(r.nextInt(100))
        .setClientId(r.nextInt(2) * r.nextLong(1L << 40));
    if (r.nextBoolean()) {
      b.setFileName("key-" + r.nextInt(100));
    }
    if (r.nextBoolean()) {
      b.setCreationTime(1_700_000_000_000L + r.nextInt(1_000_000));
      b.setModificationTime(1_700_000_000_000L + r.nextInt(1_000_000));
    }
    if (r.nextBoolean()) {
      b.setOwner("owner" + r.nextInt(5));
    }
    if (r.nextBoolean()) {
      b.setReplicationConfig(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
          .setFactor(ReplicationFactor.THREE));
    }
    int metadata = r.nextInt(4);
    for (int m = 0; m < metadata; m++) {
      b.putMetadata(List.of("ETag", "color", "ETags", "etag", "z").get(r.nextInt(5)),
          "v" + r.nextInt(1000));
    }
    int acls = r.nextInt(3);
    for (int a = 0; a < acls; a++) {
      b.addAcls(OmAcl.newBuilder().setName("user" + r.nextInt(9)));
    }
    return b.build();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a);
    out.writeBytes(b);
    return out.toByteArray();
  }
}
