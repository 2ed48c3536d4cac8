package io.sediment.om.insight;

/**
 * The bins of a file-size distribution, as Ozone Recon draws them, so that a distribution from
 * Sediment reads the same in Ozone's tools: {@value #COUNT} bins whose upper bounds are powers of
 * two from 1 KiB. Bin 0 holds the sizes up to 1 KiB (2^10 bytes) inclusive, zero included; bin
 * {@code i} (1 to 39) the sizes above 2^(9+i) up to 2^(10+i) bytes inclusive; the last bin (40)
 * everything above 2^49 bytes (512 TiB): Ozone names 1 PiB as its bound, and larger files land in
 * it too. Stateless.
 */
public final class FileSizeBins {

  /** How many bins a distribution has. */
  public static final int COUNT = 41;

  private static final int FIRST_EXPONENT = 10;
  private static final long LAST_BOUNDED = 1L << (FIRST_EXPONENT + COUNT - 2);

  private FileSizeBins() {
  }

  /**
   * The bin of a file of {@code size} bytes. A negative value is an unsigned size of 2^63 bytes or
   * more (the stored field is unsigned) and lands in the last bin.
   */
  public static int binOf(long size) {
    if (size < 0 || size > LAST_BOUNDED) {
      return COUNT - 1;
    }
    int ceilLog2 = size <= 1 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(size - 1);
    return Math.max(0, ceilLog2 - FIRST_EXPONENT);
  }

  /**
   * The largest size in {@code bin}, inclusive: 2^(10+bin) bytes; {@link Long#MAX_VALUE} for the
   * last, open-ended bin.
   *
   * @throws IllegalArgumentException if {@code bin} is not in {@code [0, COUNT)}
   */
  public static long upperBound(int bin) {
    if (bin < 0 || bin >= COUNT) {
      throw new IllegalArgumentException("bin must be in [0, " + COUNT + "): " + bin);
    }
    return bin == COUNT - 1 ? Long.MAX_VALUE : 1L << (FIRST_EXPONENT + bin);
  }
}
