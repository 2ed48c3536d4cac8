package io.sediment.db.codec;

/**
 * {@code Long} as 8 big-endian bytes with the sign bit flipped, so that unsigned byte order equals
 * numeric order: every negative number sorts before zero and every positive one.
 */
public final class LongCodec extends FixedWidthCodec<Long> {

  private static final LongCodec INSTANCE = new LongCodec();

  private LongCodec() {
    super(Long.class, Long.BYTES, "A Long");
  }

  public static LongCodec get() {
    return INSTANCE;
  }

  @Override
  Long box(long value) {
    return value;
  }
}
