package io.sediment.db.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import com.google.protobuf.Timestamp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The {@link Codec} contract of every shipped codec: {@code decode(encode(x)) == x} through both
 * the {@code byte[]} and the {@link CodecBuffer} paths; {@link LongCodec} and {@link IntegerCodec}
 * preserve numeric order in unsigned byte order; {@link StringCodec} is strict UTF-8 (malformed
 * bytes and unpaired surrogates throw {@link CodecException}, never a replacement character) and
 * orders by code point; wrong-length and unparsable input throws {@link CodecException}.
 */
class CodecTest {

  private static final long SEED = 0x5ED1_3E47L;

  // ---- helpers -------------------------------------------------------------------------------

  /** Round trip through byte[] and through a CodecBuffer; both encodings must be identical. */
  private static <T> void assertRoundTrip(Codec<T> codec, T value) {
    byte[] bytes = codec.toPersistedFormat(value);
    assertEquals(value, codec.fromPersistedFormat(bytes), "byte[] round trip of " + value);
    try (CodecBuffer buffer = codec.toCodecBuffer(value)) {
      assertArrayEquals(bytes, buffer.getArray(), "CodecBuffer encoding of " + value);
      assertEquals(value, codec.decode(buffer), "CodecBuffer round trip of " + value);
    }
  }

  private static int signum(int x) {
    return Integer.signum(x);
  }

  // ---- ByteArrayCodec ----------------------------------------------------------------------

  @Test
  void byteArrayCodecRoundTripsAndCopies() {
    ByteArrayCodec codec = ByteArrayCodec.get();
    byte[] original = {0, 1, (byte) 0xFF, 42};
    byte[] encoded = codec.toPersistedFormat(original);
    assertArrayEquals(original, encoded);
    encoded[0] = 9;
    assertEquals(0, original[0], "toPersistedFormat must copy");
    byte[] decoded = codec.fromPersistedFormat(original);
    decoded[1] = 9;
    assertEquals(1, original[1], "fromPersistedFormat must copy");
    try (CodecBuffer b = codec.toCodecBuffer(new byte[0])) {
      assertEquals(0, b.readableBytes());
      assertArrayEquals(new byte[0], codec.decode(b));
    }
  }

  // ---- LongCodec ---------------------------------------------------------------------------

  @Test
  void longRoundTripsEdgeValues() {
    for (long v : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, 0L, 1L, Long.MAX_VALUE - 1,
        Long.MAX_VALUE, 0x0102_0304_0506_0708L, -0x0102_0304_0506_0708L}) {
      assertRoundTrip(LongCodec.get(), v);
      assertEquals(8, LongCodec.get().toPersistedFormat(v).length);
    }
  }

  @Test
  void longEncodingOrdersLikeSignedComparison() {
    LongCodec c = LongCodec.get();
    Random r = new Random(SEED);
    for (int i = 0; i < 20_000; i++) {
      long a = r.nextLong();
      long b = i % 4 == 0 ? a + r.nextInt(3) - 1 : r.nextLong();
      assertEquals(signum(Long.compare(a, b)),
          signum(Bytes.compare(c.toPersistedFormat(a), c.toPersistedFormat(b))),
          "order of " + a + " and " + b + " (seed " + SEED + ")");
      if (i % 20 == 0) {
        assertRoundTrip(c, a); // each CodecBuffer records its allocation stack: keep this sparse
      }
    }
  }

  @Test
  void longNegativesSortBeforeZeroAndPositives() {
    LongCodec c = LongCodec.get();
    long[] ascending = {Long.MIN_VALUE, -1_000_000_000_000L, -256L, -1L, 0L, 1L, 255L, 256L,
        1_000_000_000_000L, Long.MAX_VALUE};
    for (int i = 0; i + 1 < ascending.length; i++) {
      assertTrue(Bytes.compare(c.toPersistedFormat(ascending[i]),
          c.toPersistedFormat(ascending[i + 1])) < 0, ascending[i] + " < " + ascending[i + 1]);
    }
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 0}, c.toPersistedFormat(Long.MIN_VALUE));
    assertArrayEquals(new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 0, 0}, c.toPersistedFormat(0L));
    assertArrayEquals(new byte[] {(byte) 0x7F, -1, -1, -1, -1, -1, -1, -1},
        c.toPersistedFormat(-1L));
    assertArrayEquals(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1},
        c.toPersistedFormat(Long.MAX_VALUE));
  }

  @Test
  void longOfWrongLengthIsACodecException() {
    LongCodec c = LongCodec.get();
    for (int len : new int[] {0, 1, 4, 7, 9, 16}) {
      byte[] bytes = new byte[len];
      assertThrows(CodecException.class, () -> c.fromPersistedFormat(bytes), "length " + len);
      try (CodecBuffer b = CodecBuffer.copyOf(bytes)) {
        assertThrows(CodecException.class, () -> c.decode(b), "CodecBuffer length " + len);
      }
    }
  }

  // ---- IntegerCodec ------------------------------------------------------------------------

  @Test
  void integerRoundTripsEdgeValues() {
    for (int v : new int[] {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -1, 0, 1,
        Integer.MAX_VALUE - 1, Integer.MAX_VALUE, 0x01020304, -0x01020304}) {
      assertRoundTrip(IntegerCodec.get(), v);
      assertEquals(4, IntegerCodec.get().toPersistedFormat(v).length);
    }
  }

  @Test
  void integerEncodingOrdersLikeSignedComparison() {
    IntegerCodec c = IntegerCodec.get();
    Random r = new Random(SEED + 1);
    for (int i = 0; i < 20_000; i++) {
      int a = r.nextInt();
      int b = i % 4 == 0 ? a + r.nextInt(3) - 1 : r.nextInt();
      assertEquals(signum(Integer.compare(a, b)),
          signum(Bytes.compare(c.toPersistedFormat(a), c.toPersistedFormat(b))),
          "order of " + a + " and " + b + " (seed " + (SEED + 1) + ")");
      if (i % 20 == 0) {
        assertRoundTrip(c, a); // each CodecBuffer records its allocation stack: keep this sparse
      }
    }
  }

  @Test
  void integerNegativesSortBeforeZeroAndPositives() {
    IntegerCodec c = IntegerCodec.get();
    int[] ascending = {Integer.MIN_VALUE, -65_536, -256, -1, 0, 1, 255, 256, 65_536,
        Integer.MAX_VALUE};
    for (int i = 0; i + 1 < ascending.length; i++) {
      assertTrue(Bytes.compare(c.toPersistedFormat(ascending[i]),
          c.toPersistedFormat(ascending[i + 1])) < 0, ascending[i] + " < " + ascending[i + 1]);
    }
    assertArrayEquals(new byte[] {0, 0, 0, 0}, c.toPersistedFormat(Integer.MIN_VALUE));
    assertArrayEquals(new byte[] {(byte) 0x80, 0, 0, 0}, c.toPersistedFormat(0));
    assertArrayEquals(new byte[] {0x7F, -1, -1, -1}, c.toPersistedFormat(-1));
    assertArrayEquals(new byte[] {-1, -1, -1, -1}, c.toPersistedFormat(Integer.MAX_VALUE));
  }

  @Test
  void integerOfWrongLengthIsACodecException() {
    IntegerCodec c = IntegerCodec.get();
    for (int len : new int[] {0, 1, 3, 5, 8}) {
      byte[] bytes = new byte[len];
      assertThrows(CodecException.class, () -> c.fromPersistedFormat(bytes), "length " + len);
      try (CodecBuffer b = CodecBuffer.copyOf(bytes)) {
        assertThrows(CodecException.class, () -> c.decode(b), "CodecBuffer length " + len);
      }
    }
  }

  // ---- StringCodec -------------------------------------------------------------------------

  @Test
  void stringRoundTripsIncludingSupplementaryCharacters() {
    StringCodec c = StringCodec.get();
    String[] samples = {"", "a", "hello/world", "caf\u00e9", "\u00ff\u0100", "\u4e2d\u6587",
        "\uffff", "\ud83d\ude00", "x\ud83d\ude00y\ud800\udc00z", "\u0000nul", "\udbff\udfff"};
    for (String s : samples) {
      assertRoundTrip(c, s);
      assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), c.toPersistedFormat(s), s);
    }
    assertEquals(4, c.toPersistedFormat("\ud83d\ude00").length, "U+1F600 is 4 UTF-8 bytes");
  }

  @Test
  void stringEncodingOrdersByCodePointNotByUtf16() {
    StringCodec c = StringCodec.get();
    // UTF-16 order says U+FFFF > U+1F600 (0xFFFF > 0xD83D); code point order says the opposite.
    String bmpMax = "\uffff";
    String emoji = "\ud83d\ude00";
    assertTrue(bmpMax.compareTo(emoji) > 0, "precondition: UTF-16 order");
    assertTrue(Bytes.compare(c.toPersistedFormat(bmpMax), c.toPersistedFormat(emoji)) < 0);

    Random r = new Random(SEED + 2);
    for (int i = 0; i < 2_000; i++) {
      String a = randomString(r);
      String b = randomString(r);
      int byCodePoint = compareCodePoints(a, b);
      assertEquals(signum(byCodePoint),
          signum(Bytes.compare(c.toPersistedFormat(a), c.toPersistedFormat(b))),
          "order of " + a + " and " + b);
    }
  }

  private static String randomString(Random r) {
    int n = r.nextInt(4);
    StringBuilder sb = new StringBuilder();
    int[] pool = {'a', 'b', 0x7F, 0x80, 0x7FF, 0x800, 0xE000, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(pool[r.nextInt(pool.length)]);
    }
    return sb.toString();
  }

  private static int compareCodePoints(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    return java.util.Arrays.compare(x, y);
  }

  @Test
  void malformedUtf8IsACodecExceptionNotAReplacement() {
    StringCodec c = StringCodec.get();
    List<byte[]> malformed = new ArrayList<>();
    malformed.add(new byte[] {(byte) 0xFF});                          // never valid
    malformed.add(new byte[] {'a', (byte) 0xC3});                     // truncated 2-byte sequence
    malformed.add(new byte[] {(byte) 0xC0, (byte) 0x80});             // overlong NUL
    malformed.add(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}); // encoded surrogate (CESU)
    malformed.add(new byte[] {(byte) 0x80, 'a'});                     // lone continuation byte
    malformed.add(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}); // > U+10FFFF
    for (byte[] bytes : malformed) {
      String shown = Bytes.toDisplayString(bytes);
      assertThrows(CodecException.class, () -> c.fromPersistedFormat(bytes), shown);
      try (CodecBuffer b = CodecBuffer.copyOf(bytes)) {
        assertThrows(CodecException.class, () -> c.decode(b), "CodecBuffer " + shown);
      }
    }
  }

  @Test
  void unpairedSurrogateIsACodecExceptionOnEncode() {
    StringCodec c = StringCodec.get();
    for (String s : new String[] {"\ud800", "a\udc00b", "\ud83d", "x\ude00", "\ude00\ud83d"}) {
      assertThrows(CodecException.class, () -> c.toPersistedFormat(s));
      assertThrows(CodecException.class, () -> c.toCodecBuffer(s));
      try (CodecBuffer b = CodecBuffer.allocateDirect(8)) {
        assertThrows(CodecException.class, () -> c.encodeInto(s, b));
        assertEquals(0, b.readableBytes(), "a failed encode appends nothing");
      }
    }
  }

  // ---- ProtoCodec ----------------------------------------------------------------------------

  private static final ProtoCodec<StringValue> STRING_VALUE =
      ProtoCodec.of(StringValue.class, StringValue.parser());
  private static final ProtoCodec<Timestamp> TIMESTAMP =
      ProtoCodec.of(Timestamp.class, Timestamp.parser());

  @Test
  void protoRoundTripsThroughBytesAndCodecBuffers() {
    assertRoundTrip(STRING_VALUE, StringValue.getDefaultInstance());
    assertRoundTrip(STRING_VALUE, StringValue.of("hello \ud83d\ude00"));
    assertRoundTrip(STRING_VALUE, StringValue.of("x".repeat(10_000)));
    assertRoundTrip(TIMESTAMP, Timestamp.getDefaultInstance());
    assertRoundTrip(TIMESTAMP, Timestamp.newBuilder().setSeconds(1_700_000_000L).setNanos(123).build());
    assertRoundTrip(TIMESTAMP, Timestamp.newBuilder().setSeconds(-62_135_596_800L).build());
    assertRoundTrip(TIMESTAMP,
        Timestamp.newBuilder().setSeconds(Long.MAX_VALUE).setNanos(Integer.MAX_VALUE).build());
    assertEquals(Timestamp.class, TIMESTAMP.getTypeClass());
  }

  @Test
  void protoEncodeIntoAppendsAfterExistingContentAndGrows() {
    StringValue message = StringValue.of("y".repeat(300));
    byte[] expected = message.toByteArray();
    try (CodecBuffer b = CodecBuffer.allocateDirect(4)) {
      b.put((byte) 7).put((byte) 8);
      STRING_VALUE.encodeInto(message, b);
      assertEquals(2 + expected.length, b.readableBytes());
      byte[] all = b.getArray();
      assertEquals(7, all[0]);
      assertEquals(8, all[1]);
      assertArrayEquals(expected, java.util.Arrays.copyOfRange(all, 2, all.length));
    }
  }

  @Test
  void protoGarbageIsACodecException() {
    List<byte[]> garbage = List.of(
        new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
        new byte[] {0x0A, 0x05, 'a'},                    // field 1, length 5, only 1 byte
        new byte[] {0x08},                               // field 1 varint, no value
        new byte[] {0x0A, 0x02, (byte) 0xC3, (byte) 0x28}, // proto3 string with bad UTF-8
        new byte[] {0x07});                              // field 0 is invalid
    for (byte[] bytes : garbage) {
      String shown = Bytes.toDisplayString(bytes);
      assertThrows(CodecException.class, () -> STRING_VALUE.fromPersistedFormat(bytes), shown);
      try (CodecBuffer b = CodecBuffer.copyOf(bytes)) {
        assertThrows(CodecException.class, () -> STRING_VALUE.decode(b), "CodecBuffer " + shown);
      }
    }
    byte[] truncatedTimestamp = {0x08, (byte) 0x80};
    CodecException e = assertThrows(CodecException.class,
        () -> TIMESTAMP.fromPersistedFormat(truncatedTimestamp));
    assertTrue(e.getMessage().contains("Timestamp"), e.getMessage());
    try (CodecBuffer b = CodecBuffer.copyOf(truncatedTimestamp)) {
      assertThrows(CodecException.class, () -> TIMESTAMP.decode(b));
    }
  }
  @Test
  void protoLargerThan2GiBIsACodecExceptionOnEveryEncodePath() {
    // 33 options sharing one 64 MiB value: over 2 GiB serialized, so the int size wraps negative.
    com.google.protobuf.ByteString chunk = com.google.protobuf.ByteString.copyFrom(new byte[64 << 20]);
    com.google.protobuf.Type.Builder builder = com.google.protobuf.Type.newBuilder();
    for (int i = 0; i < 33; i++) {
      builder.addOptions(com.google.protobuf.Option.newBuilder().setName("o" + i)
          .setValue(com.google.protobuf.Any.newBuilder().setValue(chunk)));
    }
    com.google.protobuf.Type huge = builder.build();
    ProtoCodec<com.google.protobuf.Type> codec =
        ProtoCodec.of(com.google.protobuf.Type.class, com.google.protobuf.Type.parser());
    assertThrows(CodecException.class, () -> codec.toPersistedFormat(huge));
    assertThrows(CodecException.class, () -> codec.toCodecBuffer(huge));
    try (CodecBuffer b = CodecBuffer.allocateDirect(16)) {
      b.put((byte) 1);
      assertThrows(CodecException.class, () -> codec.encodeInto(huge, b));
      assertEquals(1, b.readableBytes(), "nothing appended");
    }
  }
}
