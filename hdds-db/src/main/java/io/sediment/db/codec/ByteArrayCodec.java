package io.sediment.db.codec;

import java.util.Objects;

/** The identity codec for {@code byte[]}: stores the array's bytes unchanged. */
public final class ByteArrayCodec implements Codec<byte[]> {

  private static final ByteArrayCodec INSTANCE = new ByteArrayCodec();

  private ByteArrayCodec() {
  }

  public static ByteArrayCodec get() {
    return INSTANCE;
  }

  @Override
  public Class<byte[]> getTypeClass() {
    return byte[].class;
  }

  @Override
  public byte[] toPersistedFormat(byte[] object) {
    return Objects.requireNonNull(object, "bytes").clone();
  }

  @Override
  public byte[] fromPersistedFormat(byte[] bytes) {
    return Objects.requireNonNull(bytes, "bytes").clone();
  }

  @Override
  public void encodeInto(byte[] object, CodecBuffer buffer) {
    buffer.put(Objects.requireNonNull(object, "bytes"));
  }
}
