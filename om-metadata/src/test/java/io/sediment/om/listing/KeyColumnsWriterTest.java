package io.sediment.om.listing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import io.sediment.db.codec.CodecException;
import io.sediment.om.testing.RowDamage;
import io.sediment.proto.om.KeyColumns;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ReplicationConfig;
import io.sediment.proto.om.ReplicationFactor;
import io.sediment.proto.om.ReplicationType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A page's columns, against the basic view's cut (itself held to protobuf) as the oracle: every
 * key reads back as the basic view shows its row, a row the cut refuses is refused without
 * touching the columns, and a reader refuses columns that do not agree with each other.
 */
class KeyColumnsWriterTest {

  @Test
  void eachKeyReadsBackFromTheColumnsAsTheBasicViewShowsItsRow()
      throws InvalidProtocolBufferException {
    SplittableRandom r = new SplittableRandom(5);
    KeyColumnsWriter writer = new KeyColumnsWriter();
    List<KeyInfo> expected = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      byte[] row = KeyRowViewTest.randomKey(r).toByteArray();
      writer.add(row);
      expected.add(KeyInfo.parseFrom(KeyRowView.BASIC.of(row)));
    }
    KeyColumnsReader columns = KeyColumnsReader.parse(writer.finish());
    assertEquals(3_000, columns.size());
    assertEquals(expected, columns.keyInfos());
    assertEquals(expected.get(17).getKeyName(), columns.name(17));
  }

  @Test
  void aDamagedRowIsRefusedWhereTheCutRefusesItAndLeavesTheColumnsAsTheyWere() {
    SplittableRandom r = new SplittableRandom(13);
    KeyColumnsWriter writer = new KeyColumnsWriter();
    List<KeyInfo> expected = new ArrayList<>();
    int refused = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] row = RowDamage.damage(KeyRowViewTest.randomKey(r).toByteArray(), r);
      KeyInfo basic;
      try {
        basic = KeyInfo.parseFrom(KeyRowView.BASIC.of(row));
      } catch (CodecException e) {
        assertThrows(CodecException.class, () -> writer.add(row),
            () -> "accepted " + Arrays.toString(row));
        assertEquals(expected.size(), writer.size(), "a refused row is not appended");
        refused++;
        continue;
      } catch (InvalidProtocolBufferException e) {
        // The cut passes the row on and the client's parse refuses it (a name that is not
        // UTF-8, say): the columns must not do worse than refuse it too.
        try {
          new KeyColumnsWriter().add(row);
        } catch (CodecException refusedToo) {
          // as good
        }
        continue;
      }
      writer.add(row);
      expected.add(asColumnsHoldIt(basic));
    }
    assertTrue(refused > 2_000 && refused < 18_000, "refused " + refused);
    List<KeyInfo> got = KeyColumnsReader.parse(writer.finish()).keyInfos();
    for (int i = 0; i < got.size(); i++) {
      assertEquals(expected.get(i), got.get(i), "key " + i);
    }
  }

  @Test
  void aFieldStoredTwiceGivesItsLastOccurrenceAsTheCutsParseDoes()
      throws InvalidProtocolBufferException {
    ReplicationConfig three = ReplicationConfig.newBuilder().setType(ReplicationType.RATIS)
        .setFactor(ReplicationFactor.THREE).build();
    KeyInfo first = KeyInfo.newBuilder().setKeyName("a").setDataSize(5).setOwner("x")
        .setReplicationConfig(three).putMetadata("ETag", "e1").build();
    KeyInfo second = KeyInfo.newBuilder().setKeyName("b").setCreationTime(9)
        .setReplicationConfig(three).putMetadata("ETag", "e2").build();
    byte[] row = first.toByteString().concat(second.toByteString()).toByteArray();
    KeyColumnsWriter writer = new KeyColumnsWriter();
    writer.add(row);
    assertEquals(KeyInfo.parseFrom(KeyRowView.BASIC.of(row)),
        KeyColumnsReader.parse(writer.finish()).keyInfo(0));
  }

  @Test
  void anETagEntryWrittenValueFirstOrWithALongValueIsReadAsTheCutsParseReadsIt()
      throws IOException {
    String longValue = "e".repeat(200);
    for (boolean valueFirst : new boolean[] {true, false}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.writeString(KeyInfo.KEY_NAME_FIELD_NUMBER, "k");
      ByteArrayOutputStream entry = new ByteArrayOutputStream();
      CodedOutputStream e = CodedOutputStream.newInstance(entry);
      if (valueFirst) {
        e.writeString(2, "v");
        e.writeString(1, "ETag");
      } else {
        // A value longer than a one-byte length.
        e.writeString(1, "ETag");
        e.writeString(2, longValue);
      }
      e.flush();
      out.writeByteArray(KeyInfo.METADATA_FIELD_NUMBER, entry.toByteArray());
      out.flush();
      byte[] row = bytes.toByteArray();
      KeyColumnsWriter writer = new KeyColumnsWriter();
      writer.add(row);
      KeyColumnsReader columns = KeyColumnsReader.parse(writer.finish());
      assertEquals(valueFirst ? "v" : longValue, columns.etag(0));
      assertEquals(KeyInfo.parseFrom(KeyRowView.BASIC.of(row)), columns.keyInfo(0));
    }
  }

  @Test
  void ownersAndReplicationConfigsAreHeldOncePerDistinctValue()
      throws InvalidProtocolBufferException {
    KeyColumnsWriter writer = new KeyColumnsWriter();
    for (int i = 0; i < 1_000; i++) {
      KeyInfo.Builder key = KeyInfo.newBuilder().setKeyName("k" + i).setOwner("owner" + i % 3);
      if (i % 2 == 0) {
        key.setReplicationConfig(ReplicationConfig.newBuilder()
            .setType(ReplicationType.RATIS).setFactor(ReplicationFactor.ONE));
      }
      writer.add(key.build().toByteArray());
    }
    KeyColumns columns = KeyColumns.parseFrom(writer.finish());
    assertEquals(List.of("owner0", "owner1", "owner2"), columns.getOwnersList());
    // ONE for even keys; none (the empty message) for odd ones.
    assertEquals(2, columns.getReplicationConfigsCount());
    KeyColumnsReader reader = KeyColumnsReader.of(columns);
    assertEquals("owner2", reader.owner(998));
    assertEquals(ReplicationFactor.ONE, reader.replicationConfig(998).getFactor());
    assertEquals(ReplicationConfig.getDefaultInstance(), reader.replicationConfig(999));
    assertTrue(!reader.keyInfo(999).hasReplicationConfig());
  }

  @Test
  void aPageWithoutKeysHasEmptyColumns() {
    ByteString empty = new KeyColumnsWriter().finish();
    assertTrue(empty.isEmpty());
    assertEquals(0, KeyColumnsReader.parse(empty).size());
  }

  @Test
  void columnsThatDoNotAgreeAreRefusedNamingTheColumn() {
    KeyColumnsWriter writer = new KeyColumnsWriter();
    writer.add(KeyInfo.newBuilder().setKeyName("k").setOwner("o").build().toByteArray());
    writer.add(KeyInfo.newBuilder().setKeyName("l").setOwner("o").build().toByteArray());
    KeyColumns good = parse(writer);
    assertRefused(good.toBuilder().setDataSizes(good.getDataSizes().concat(bytes(1))).build(),
        "data_sizes");
    assertRefused(good.toBuilder().setCreationTimes(bytes(0)).build(), "creation_times");
    assertRefused(good.toBuilder().setModificationTimes(bytes(0, 0x80)).build(),
        "modification_times");
    assertRefused(good.toBuilder().setOwnerIndexes(bytes(0, 1)).build(), "owner_indexes");
    assertRefused(good.toBuilder().setReplicationConfigIndexes(
        bytes(0, 0xff, 0xff, 0xff, 0xff, 0x0f)).build(), "replication_config_indexes");
    assertRefused(good.toBuilder().setNames(ByteString.copyFromUtf8("kl!")).build(), "names");
    assertRefused(good.toBuilder().setNames(ByteString.copyFromUtf8("k")).build(), "names");
    assertRefused(good.toBuilder().setEtagLengths(good.getEtagLengths().concat(bytes(0)))
        .build(), "etag_lengths");
    KeyColumnsReader notUtf8 = KeyColumnsReader.of(good.toBuilder()
        .setNames(ByteString.copyFrom(new byte[] {'k', (byte) 0xff})).build());
    assertEquals("k", notUtf8.name(0));
    CodecException e = assertThrows(CodecException.class, () -> notUtf8.name(1));
    assertTrue(e.getMessage().contains("key 1's name"), e.getMessage());
    assertThrows(CodecException.class,
        () -> KeyColumnsReader.parse(ByteString.copyFrom(new byte[] {0x0a, 5, 'a'})));
  }

  /**
   * {@code basic} as the columns can hold it (KeyColumns' contract): an empty ETag or an empty
   * replication config reads as none, and a kept field of another wire type than its own, an
   * unknown field to protobuf's parse, is no column's.
   */
  private static KeyInfo asColumnsHoldIt(KeyInfo basic) {
    KeyInfo.Builder b = basic.toBuilder().setUnknownFields(UnknownFieldSet.getDefaultInstance());
    if ("".equals(b.getMetadataMap().get("ETag"))) {
      b.removeMetadata("ETag");
    }
    if (b.getReplicationConfig().equals(ReplicationConfig.getDefaultInstance())) {
      b.clearReplicationConfig();
    }
    return b.build();
  }

  private static ByteString bytes(int... values) {
    byte[] out = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (byte) values[i];
    }
    return ByteString.copyFrom(out);
  }

  private static KeyColumns parse(KeyColumnsWriter writer) {
    try {
      return KeyColumns.parseFrom(writer.finish());
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  private static void assertRefused(KeyColumns columns, String column) {
    CodecException e = assertThrows(CodecException.class, () -> KeyColumnsReader.of(columns));
    assertTrue(e.getMessage().contains(column), e.getMessage());
  }

  private static boolean refusedByCut(byte[] row) {
    try {
      KeyRowView.BASIC.of(row);
      return false;
    } catch (CodecException e) {
      return true;
    }
  }
}
