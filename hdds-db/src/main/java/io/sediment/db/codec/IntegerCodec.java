package io.sediment.db.codec;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * {@code Integer} as 4 big-endian bytes with the sign bit flipped, so that unsigned byte order
 * equals numeric order: every negative number sorts before zero and every positive one.
 */
public final class IntegerCodec implements Codec<Integer> {

  private static final IntegerCodec INSTANCE = new IntegerCodec();

  private IntegerCodec() {
  }

  public static IntegerCodec get() {
    return INSTANCE;
  }

  @Override
  public Class<Integer> getTypeClass() {
    return Integer.class;
  }

  @Override
  public byte[] toPersistedFormat(Integer object) {
    return ByteBuffer.allocate(Integer.BYTES).putInt(0, Objects.requireNonNull(object) ^ Integer.MIN_VALUE).array();
  }

  @Override
  public Integer fromPersistedFormat(byte[] bytes) {
    if (bytes.length != Integer.BYTES) {
      throw new CodecException("An Integer needs 4 bytes, got " + bytes.length);
    }
    return ByteBuffer.wrap(bytes).getInt() ^ Integer.MIN_VALUE;
  }

  @Override
  public void encodeInto(Integer object, CodecBuffer buffer) {
    buffer.putInt(Objects.requireNonNull(object) ^ Integer.MIN_VALUE);
  }

  @Override
  public Integer decode(CodecBuffer buffer) {
    if (buffer.readableBytes() != Integer.BYTES) {
      throw new CodecException("An Integer needs 4 bytes, got " + buffer.readableBytes());
    }
    return buffer.asReadOnlyByteBuffer().getInt() ^ Integer.MIN_VALUE;
  }
}
