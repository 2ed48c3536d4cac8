package io.sediment.db.codec;

/**
 * {@code Integer} as 4 big-endian bytes with the sign bit flipped, so that unsigned byte order
 * equals numeric order: every negative number sorts before zero and every positive one.
 */
public final class IntegerCodec extends FixedWidthCodec<Integer> {

  private static final IntegerCodec INSTANCE = new IntegerCodec();

  private IntegerCodec() {
    super(Integer.class, Integer.BYTES, "An Integer");
  }

  public static IntegerCodec get() {
    return INSTANCE;
  }

  @Override
  Integer box(long value) {
    return (int) value;
  }
}
