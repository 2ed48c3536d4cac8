package io.sediment.db.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link StringCodec} against the JDK's reporting UTF-8 encoder and decoder as the oracle, on
 * random strings and byte arrays that mix ASCII (the codec's fast path) with Latin-1, other BMP
 * characters, supplementary characters, unpaired surrogates and malformed bytes: the same bytes,
 * the same strings, and a {@link CodecException} exactly where the oracle reports an error, on
 * every encode and decode path (arrays and codec buffers).
 */
class StringCodecPropertyTest {

  private final StringCodec codec = StringCodec.get();

  @Test
  void encodingMatchesTheReportingEncoderOrFailsWhereItDoes() {
    SplittableRandom r = new SplittableRandom(5);
    int failures = 0;
    for (int i = 0; i < 20_000; i++) {
      String s = randomString(r);
      byte[] expected = oracleEncode(s);
      if (expected == null) {
        failures++;
        assertThrows(CodecException.class, () -> codec.toPersistedFormat(s));
        try (CodecBuffer buffer = CodecBuffer.allocateDirect(8)) {
          assertThrows(CodecException.class, () -> codec.encodeInto(s, buffer));
        }
      } else {
        assertArrayEquals(expected, codec.toPersistedFormat(s), s);
        try (CodecBuffer buffer = CodecBuffer.allocateDirect(8)) {
          codec.encodeInto(s, buffer);
          assertArrayEquals(expected, buffer.getArray(), s);
        }
      }
    }
    assertTrue(failures > 100 && failures < 19_000, "unpaired surrogates drawn: " + failures);
  }

  @Test
  void decodingMatchesTheReportingDecoderOrFailsWhereItDoes() {
    SplittableRandom r = new SplittableRandom(9);
    int failures = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] bytes = randomBytes(r);
      String expected = oracleDecode(bytes);
      try (CodecBuffer buffer = CodecBuffer.allocateDirect(bytes.length + 1)) {
        buffer.put(ByteBuffer.wrap(bytes));
        // The same bytes as a range of a larger array, between bytes that are not UTF-8.
        int before = r.nextInt(3);
        byte[] framed = new byte[before + bytes.length + r.nextInt(3)];
        java.util.Arrays.fill(framed, (byte) 0xff);
        System.arraycopy(bytes, 0, framed, before, bytes.length);
        if (expected == null) {
          failures++;
          assertThrows(CodecException.class, () -> codec.fromPersistedFormat(bytes));
          assertThrows(CodecException.class, () -> codec.decode(buffer));
          assertThrows(CodecException.class, () -> codec.decode(framed, before, bytes.length));
        } else {
          assertEquals(expected, codec.fromPersistedFormat(bytes));
          assertEquals(expected, codec.decode(buffer));
          assertEquals(expected, codec.decode(framed, before, bytes.length));
        }
      }
    }
    assertTrue(failures > 100 && failures < 19_000, "malformed arrays drawn: " + failures);
  }

  @Test
  void aRangeOutsideTheArrayIsRefused() {
    byte[] bytes = {'a', 'b'};
    assertThrows(IndexOutOfBoundsException.class, () -> codec.decode(bytes, 1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> codec.decode(bytes, -1, 1));
    assertEquals("b", codec.decode(bytes, 1, 1));
  }

  /** Mostly ASCII, sometimes one or more characters from the other ranges. */
  private static String randomString(SplittableRandom r) {
    StringBuilder b = new StringBuilder();
    int length = r.nextInt(40);
    boolean asciiOnly = r.nextBoolean();
    for (int i = 0; i < length; i++) {
      int kind = asciiOnly ? 0 : r.nextInt(12);
      switch (kind) {
        case 1 -> b.append((char) (0x80 + r.nextInt(0x80)));
        case 2 -> b.append((char) (0x100 + r.nextInt(0xD000)));
        case 3 -> b.appendCodePoint(0x10000 + r.nextInt(0x100000));
        case 4 -> b.append((char) (0xD800 + r.nextInt(0x800)));
        default -> b.append((char) r.nextInt(0x80));
      }
    }
    return b.toString();
  }

  /** Mostly ASCII, sometimes well-formed multi-byte sequences, sometimes any byte. */
  private static byte[] randomBytes(SplittableRandom r) {
    if (r.nextInt(3) == 0) {
      String s = randomString(r);
      byte[] encoded = oracleEncode(s);
      if (encoded != null) {
        return encoded;
      }
    }
    byte[] bytes = new byte[r.nextInt(40)];
    boolean asciiOnly = r.nextBoolean();
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (asciiOnly || r.nextInt(8) > 0 ? r.nextInt(0x80) : r.nextInt(256));
    }
    return bytes;
  }

  private static byte[] oracleEncode(String s) {
    try {
      ByteBuffer out = StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(s));
      byte[] bytes = new byte[out.remaining()];
      out.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static String oracleDecode(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
