package io.sediment.om.insight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * {@link FileSizeBins} is Ozone Recon's scheme: 41 bins, bin 0 up to 1 KiB inclusive, bin i up to
 * 2^(10+i) inclusive, the last bin open above 2^49.
 */
class FileSizeBinsTest {

  private static final long KIB = 1024;

  @Test
  void theFirstBinHoldsEverythingUpToOneKibInclusive() {
    assertEquals(0, FileSizeBins.binOf(0));
    assertEquals(0, FileSizeBins.binOf(1));
    assertEquals(0, FileSizeBins.binOf(2));
    assertEquals(0, FileSizeBins.binOf(KIB - 1));
    assertEquals(0, FileSizeBins.binOf(KIB));
    assertEquals(1, FileSizeBins.binOf(KIB + 1));
  }

  @Test
  void eachBinEndsAtItsPowerOfTwoInclusiveAndTheNextStartsOneByteLater() {
    assertEquals(41, FileSizeBins.COUNT);
    assertEquals(KIB, FileSizeBins.upperBound(0));
    assertEquals(2 * KIB, FileSizeBins.upperBound(1));
    assertEquals(1L << 30, FileSizeBins.upperBound(20), "1 GiB closes bin 20");
    for (int bin = 0; bin < FileSizeBins.COUNT - 1; bin++) {
      long edge = FileSizeBins.upperBound(bin);
      assertEquals(bin, FileSizeBins.binOf(edge), "at " + edge);
      assertEquals(bin + 1, FileSizeBins.binOf(edge + 1), "just above " + edge);
      if (bin > 0) {
        assertEquals(bin, FileSizeBins.binOf(FileSizeBins.upperBound(bin - 1) + 1));
      }
    }
  }

  @Test
  void theLastBinIsOpenEnded() {
    assertEquals(39, FileSizeBins.binOf(1L << 49));
    assertEquals(40, FileSizeBins.binOf((1L << 49) + 1));
    assertEquals(40, FileSizeBins.binOf(1L << 50), "Ozone's nominal 1 PiB bound");
    assertEquals(40, FileSizeBins.binOf(Long.MAX_VALUE));
    assertEquals(40, FileSizeBins.binOf(-1), "an unsigned size of 2^64 - 1 bytes");
    assertEquals(Long.MAX_VALUE, FileSizeBins.upperBound(40));
  }

  @Test
  void aBinOutsideTheSchemeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> FileSizeBins.upperBound(-1));
    assertThrows(IllegalArgumentException.class, () -> FileSizeBins.upperBound(41));
  }
}
