package io.sediment.db.codec;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A whole number of one width ({@code Integer.BYTES} or {@code Long.BYTES}) as that many
 * big-endian bytes with the sign bit flipped, so that unsigned byte order equals numeric order:
 * every negative number sorts before zero and every positive one. The shape {@link IntegerCodec}
 * and {@link LongCodec} share; stateless and thread-safe.
 */
abstract class FixedWidthCodec<T extends Number> implements Codec<T> {

  private final Class<T> type;
  private final int width;
  private final long signBit;
  private final String what;

  /** @param what the type with its article, for messages: {@code "An Integer"} */
  FixedWidthCodec(Class<T> type, int width, String what) {
    if (width != Integer.BYTES && width != Long.BYTES) {
      throw new IllegalArgumentException("width must be 4 or 8: " + width);
    }
    this.type = type;
    this.width = width;
    this.signBit = 1L << (8 * width - 1);
    this.what = what;
  }

  /** The boxed value of {@code value}, which fits the width. */
  abstract T box(long value);

  @Override
  public final Class<T> getTypeClass() {
    return type;
  }

  @Override
  public final byte[] toPersistedFormat(T object) {
    ByteBuffer out = ByteBuffer.allocate(width);
    long sortable = sortable(object);
    if (width == Long.BYTES) {
      out.putLong(0, sortable);
    } else {
      out.putInt(0, (int) sortable);
    }
    return out.array();
  }

  @Override
  public final T fromPersistedFormat(byte[] bytes) {
    return read(ByteBuffer.wrap(bytes), bytes.length);
  }

  @Override
  public final void encodeInto(T object, CodecBuffer buffer) {
    long sortable = sortable(object);
    if (width == Long.BYTES) {
      buffer.putLong(sortable);
    } else {
      buffer.putInt((int) sortable);
    }
  }

  @Override
  public final T decode(CodecBuffer buffer) {
    return read(buffer.asReadOnlyByteBuffer(), buffer.readableBytes());
  }

  private long sortable(T object) {
    return Objects.requireNonNull(object).longValue() ^ signBit;
  }

  private T read(ByteBuffer in, int length) {
    if (length != width) {
      throw new CodecException(what + " needs " + width + " bytes, got " + length);
    }
    long sortable = width == Long.BYTES ? in.getLong() : in.getInt();
    return box(sortable ^ signBit);
  }
}
