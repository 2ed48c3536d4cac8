package io.sediment.db.codec;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * {@code Long} as 8 big-endian bytes with the sign bit flipped, so that unsigned byte order equals
 * numeric order: every negative number sorts before zero and every positive one.
 */
public final class LongCodec implements Codec<Long> {

  private static final LongCodec INSTANCE = new LongCodec();

  private LongCodec() {
  }

  public static LongCodec get() {
    return INSTANCE;
  }

  @Override
  public Class<Long> getTypeClass() {
    return Long.class;
  }

  @Override
  public byte[] toPersistedFormat(Long object) {
    return ByteBuffer.allocate(Long.BYTES).putLong(0, Objects.requireNonNull(object) ^ Long.MIN_VALUE).array();
  }

  @Override
  public Long fromPersistedFormat(byte[] bytes) {
    if (bytes.length != Long.BYTES) {
      throw new CodecException("A Long needs 8 bytes, got " + bytes.length);
    }
    return ByteBuffer.wrap(bytes).getLong() ^ Long.MIN_VALUE;
  }

  @Override
  public void encodeInto(Long object, CodecBuffer buffer) {
    buffer.putLong(Objects.requireNonNull(object) ^ Long.MIN_VALUE);
  }

  @Override
  public Long decode(CodecBuffer buffer) {
    if (buffer.readableBytes() != Long.BYTES) {
      throw new CodecException("A Long needs 8 bytes, got " + buffer.readableBytes());
    }
    return buffer.asReadOnlyByteBuffer().getLong() ^ Long.MIN_VALUE;
  }
}
