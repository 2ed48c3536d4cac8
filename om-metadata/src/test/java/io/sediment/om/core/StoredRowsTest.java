package io.sediment.om.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.codec.CodecException;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.OmAcl;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StoredRowsTest {

  private static final byte[] ROW = KeyInfo.newBuilder().setVolumeName("vol").setBucketName("b")
      .setKeyName("photos/cat.jpg").setDataSize(4096).setObjectId(7).putMetadata("k", "v")
      .addAcls(OmAcl.newBuilder().setName("alice").build()).build().toByteArray();

  @Test
  void aWellFormedRowComesBackByteForByte() {
    assertArrayEquals(ROW, StoredRows.wellFormed(ROW, "KeyInfo").toByteArray());
    assertArrayEquals(new byte[0], StoredRows.wellFormed(new byte[0], "KeyInfo").toByteArray(),
        "the empty message");
  }

  @Test
  void aTruncatedRowIsRefusedNamingItsType() {
    for (int cut : new int[] {1, ROW.length / 2, ROW.length - 1}) {
      CodecException e = assertThrows(CodecException.class,
          () -> StoredRows.wellFormed(Arrays.copyOf(ROW, cut), "KeyInfo"), "cut at " + cut);
      assertTrue(e.getMessage().startsWith("Not a valid KeyInfo"), e.getMessage());
    }
  }

  @Test
  void bytesThatAreNotAMessageAreRefused() {
    byte[][] bad = {
        {0x0A, (byte) 0xFF, 0x01},   // field 1, a length beyond the row
        {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},  // no tag
        {0x0C},                      // an end-group tag with no group
        {0x0F},                      // wire type 7 does not exist
    };
    for (byte[] row : bad) {
      assertThrows(CodecException.class, () -> StoredRows.wellFormed(row, "KeyInfo"),
          Arrays.toString(row));
    }
  }
}
