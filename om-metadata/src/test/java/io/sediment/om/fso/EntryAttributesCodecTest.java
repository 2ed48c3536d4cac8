package io.sediment.om.fso;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import io.sediment.db.codec.CodecBuffer;
import io.sediment.db.codec.CodecException;
import io.sediment.om.core.StoredRows;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.util.Arrays;
import java.util.SplittableRandom;
import io.sediment.om.testing.RowDamage;
import org.junit.jupiter.api.Test;

/**
 * The attributes a listing reads from a stored file or directory row, against protobuf as the
 * oracle: the same six values a full parse gives, through both decode paths, and every row
 * protobuf's skim refuses is refused (and beyond those only a row protobuf cannot parse either).
 */
class EntryAttributesCodecTest {

  @Test
  void theAttributesOfAValidFileRowAreThoseOfItsFullParse() {
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < 2_000; i++) {
      KeyInfo f = randomFile(r);
      EntryAttributes expected = new EntryAttributes(f.getDataSize(), f.getObjectId(),
          f.getParentId(), f.getCreationTime(), f.getModificationTime(), f.getOwner());
      assertEquals(expected, bothPaths(EntryAttributesCodec.FILE, f.toByteArray()));
    }
  }

  @Test
  void theAttributesOfAValidDirectoryRowAreThoseOfItsFullParse() {
    SplittableRandom r = new SplittableRandom(6);
    for (int i = 0; i < 2_000; i++) {
      DirectoryInfo d = randomDirectory(r);
      EntryAttributes expected = new EntryAttributes(0, d.getObjectId(), d.getParentId(),
          d.getCreationTime(), d.getModificationTime(), d.getOwner());
      assertEquals(expected, bothPaths(EntryAttributesCodec.DIRECTORY, d.toByteArray()));
    }
  }

  @Test
  void aDamagedRowIsRefusedWhenProtobufsSkimRefusesItAndOtherwiseOnlyWhenItDoesNotParse() {
    SplittableRandom r = new SplittableRandom(13);
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      boolean file = r.nextBoolean();
      Message whole = file ? randomFile(r) : randomDirectory(r);
      byte[] row = RowDamage.damage(whole.toByteArray(), r);
      EntryAttributesCodec codec = file ? EntryAttributesCodec.FILE : EntryAttributesCodec.DIRECTORY;
      boolean skimRefuses = refuses(() -> StoredRows.wellFormed(row, "row"));
      boolean codecRefuses = refuses(() -> bothPaths(codec, row));
      if (skimRefuses) {
        assertTrue(codecRefuses, () -> "accepted " + Arrays.toString(row));
        refused++;
      } else if (codecRefuses) {
        // The skim does not look inside fields; the codec reads the owner as UTF-8.
        assertThrows(InvalidProtocolBufferException.class,
            () -> (file ? KeyInfo.parser() : DirectoryInfo.parser()).parseFrom(row),
            () -> "refused " + Arrays.toString(row));
      }
    }
    assertTrue(refused > 2_000 && refused < 18_000, "refused " + refused);
  }

  @Test
  void theLastOccurrenceOfAFieldWinsAsInProtobufAndAnotherWireTypeIsSkipped() {
    KeyInfo first = KeyInfo.newBuilder().setObjectId(1).setOwner("a").setDataSize(5).build();
    KeyInfo second = KeyInfo.newBuilder().setObjectId(2).setOwner("b").build();
    // Field 4 (data size) as a fixed64: protobuf keeps it as an unknown field.
    UnknownFieldSet odd = UnknownFieldSet.newBuilder().addField(KeyInfo.DATA_SIZE_FIELD_NUMBER,
        UnknownFieldSet.Field.newBuilder().addFixed64(99).build()).build();
    byte[] row = concat(concat(first.toByteArray(), second.toByteArray()), odd.toByteArray());
    assertEquals(new EntryAttributes(5, 2, 0, 0, 0, "b"),
        bothPaths(EntryAttributesCodec.FILE, row));
  }

  @Test
  void anOwnerThatIsNotUtf8IsRefusedAsProtobufRefusesIt() {
    byte[] row = {0x52, 2, (byte) 0xc3, 0x28}; // field 10 (owner), an invalid UTF-8 pair
    assertThrows(InvalidProtocolBufferException.class, () -> KeyInfo.parseFrom(row));
    CodecException e = assertThrows(CodecException.class,
        () -> EntryAttributesCodec.FILE.fromPersistedFormat(row));
    assertTrue(e.getMessage().startsWith("Not a valid KeyInfo"), e.getMessage());
  }

  @Test
  void attributesAreNeverEncoded() {
    assertThrows(UnsupportedOperationException.class, () -> EntryAttributesCodec.FILE
        .toPersistedFormat(new EntryAttributes(0, 0, 0, 0, 0, "")));
  }

  /** Decodes {@code row} from an array and from a direct buffer; both must agree. */
  private static EntryAttributes bothPaths(EntryAttributesCodec codec, byte[] row) {
    EntryAttributes fromArray = codec.fromPersistedFormat(row);
    CodecBuffer buffer = CodecBuffer.allocateDirect(Math.max(1, row.length));
    try {
      buffer.put(row);
      assertEquals(fromArray, codec.decode(buffer));
    } finally {
      buffer.release();
    }
    return fromArray;
  }

  private static boolean refuses(Runnable read) {
    try {
      read.run();
      return false;
    } catch (CodecException e) {
      return true;
    }
  }

  private static KeyInfo randomFile(SplittableRandom r) {
    KeyInfo.Builder b = KeyInfo.newBuilder().setFileName("file-" + r.nextInt(1_000))
        .setObjectId(r.nextLong(1L << 40)).setParentId(r.nextLong(1L << 40))
        .setUpdateId(r.nextInt(100));
    if (r.nextBoolean()) {
      b.setKeyName("a/b/file-" + r.nextInt(1_000)).setVolumeName("v").setBucketName("b");
    }
    if (r.nextBoolean()) {
      b.setDataSize(r.nextLong(1L << 50));
    }
    if (r.nextBoolean()) {
      b.setCreationTime(1_700_000_000_000L + r.nextInt(1_000_000))
          .setModificationTime(1_700_000_000_000L + r.nextInt(1_000_000));
    }
    if (r.nextBoolean()) {
      b.setOwner(r.nextBoolean() ? "owner" + r.nextInt(5) : "ówner-é" + r.nextInt(5));
    }
    if (r.nextBoolean()) {
      b.setReplicationConfig(ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
          .setFactor(ReplicationFactor.THREE));
    }
    for (int m = r.nextInt(3); m > 0; m--) {
      b.putMetadata("k" + r.nextInt(9), "v" + r.nextInt(1000));
    }
    for (int a = r.nextInt(3); a > 0; a--) {
      b.addAcls(OmAcl.newBuilder().setName("user" + r.nextInt(9)));
    }
    return b.build();
  }

  private static DirectoryInfo randomDirectory(SplittableRandom r) {
    DirectoryInfo.Builder b = DirectoryInfo.newBuilder().setName("dir-" + r.nextInt(1_000))
        .setObjectId(r.nextLong(1L << 40)).setParentId(r.nextLong(1L << 40))
        .setUpdateId(r.nextInt(100));
    if (r.nextBoolean()) {
      b.setCreationTime(1_700_000_000_000L + r.nextInt(1_000_000))
          .setModificationTime(1_700_000_000_000L + r.nextInt(1_000_000));
    }
    if (r.nextBoolean()) {
      b.setOwner("owner" + r.nextInt(5));
    }
    for (int m = r.nextInt(3); m > 0; m--) {
      b.putMetadata("k" + r.nextInt(9), "v" + r.nextInt(1000));
    }
    for (int a = r.nextInt(3); a > 0; a--) {
      b.addAcls(OmAcl.newBuilder().setName("user" + r.nextInt(9)));
    }
    return b.build();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
