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
    ByteBuffer encoded = encode(object);
    byte[] out = new byte[encoded.remaining()];
    encoded.get(out);
    return out;
  }

  @Override
  public String fromPersistedFormat(byte[] bytes) {
    return decode(ByteBuffer.wrap(Objects.requireNonNull(bytes, "bytes")));
  }

  @Override
  public void encodeInto(String object, CodecBuffer buffer) {
    buffer.put(encode(object));
  }

  @Override
  public String decode(CodecBuffer buffer) {
    return decode(buffer.asReadOnlyByteBuffer());
  }

  private static ByteBuffer encode(String s) {
    Objects.requireNonNull(s, "string");
    try {
      return StandardCharsets.UTF_8.newEncoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .encode(CharBuffer.wrap(s));
    } catch (CharacterCodingException e) {
      throw new CodecException("String is not valid Unicode (unpaired surrogate)", e);
    }
  }

  private static String decode(ByteBuffer bytes) {
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
