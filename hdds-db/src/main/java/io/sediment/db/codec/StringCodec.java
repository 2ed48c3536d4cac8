package io.sediment.db.codec;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Strict UTF-8 for {@code String}: encoded byte order equals code-point order. A string with an
 * unpaired surrogate, or bytes that are not well-formed UTF-8, throw {@link CodecException}
 * instead of being replaced silently.
 *
 * <p>ASCII, which most keys are, is copied one byte per char through the JDK's Latin-1 paths
 * (ASCII is well-formed UTF-8 and has no surrogates); anything else goes through a reporting
 * {@code CharsetEncoder}/{@code CharsetDecoder}. Thread-safe.
 */
public final class StringCodec implements Codec<String> {

  private static final StringCodec INSTANCE = new StringCodec();

  private StringCodec() {
  }

  public static StringCodec get() {
    return INSTANCE;
  }

  @Override
  public Class<String> getTypeClass() {
    return String.class;
  }

  @Override
  public byte[] toPersistedFormat(String object) {
    Objects.requireNonNull(object, "string");
    if (isAscii(object)) {
      return object.getBytes(StandardCharsets.ISO_8859_1);
    }
    ByteBuffer encoded = strictEncode(object);
    byte[] out = new byte[encoded.remaining()];
    encoded.get(out);
    return out;
  }

  @Override
  public String fromPersistedFormat(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return decode(bytes, 0, bytes.length);
  }

  /**
   * The string encoded in {@code bytes[offset, offset + length)}, as
   * {@link #fromPersistedFormat} decodes a whole array.
   *
   * @throws IndexOutOfBoundsException if the range is not within {@code bytes}
   */
  public String decode(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (isAscii(bytes, offset, offset + length)) {
      return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
    }
    return strictDecode(ByteBuffer.wrap(bytes, offset, length));
  }

  @Override
  public void encodeInto(String object, CodecBuffer buffer) {
    buffer.put(ByteBuffer.wrap(toPersistedFormat(object)));
  }

  @Override
  public String decode(CodecBuffer buffer) {
    ByteBuffer bytes = buffer.asReadOnlyByteBuffer();
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return fromPersistedFormat(copy);
  }

  private static boolean isAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAscii(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] < 0) {
        return false;
      }
    }
    return true;
  }

  private static ByteBuffer strictEncode(String s) {
    try {
      return StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(s));
    } catch (CharacterCodingException e) {
      throw new CodecException("String is not valid Unicode (unpaired surrogate)", e);
    }
  }

  private static String strictDecode(ByteBuffer bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes).toString();
    } catch (CharacterCodingException e) {
      throw new CodecException("Bytes are not well-formed UTF-8", e);
    }
  }
}
