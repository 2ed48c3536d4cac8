package io.sediment.db.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Bytes#indexOf} against {@code String#indexOf} of the same bytes read as Latin-1 (one
 * char per byte, so the two searches must agree index for index).
 */
class BytesIndexOfTest {

  @Test
  void findsWhatTheLatin1StringSearchFindsFromEveryStart() {
    SplittableRandom r = new SplittableRandom(17);
    for (int i = 0; i < 20_000; i++) {
      byte[] bytes = random(r, r.nextInt(12));
      byte[] target = random(r, r.nextInt(4));
      int from = r.nextInt(-2, bytes.length + 3);
      String text = new String(bytes, StandardCharsets.ISO_8859_1);
      String sought = new String(target, StandardCharsets.ISO_8859_1);
      // Past the end, String finds an empty target at the end; Bytes finds nothing there.
      int expected = from > bytes.length ? -1 : text.indexOf(sought, from);
      assertEquals(expected, Bytes.indexOf(bytes, target, from),
          () -> text + " / " + sought + " from " + from);
    }
  }

  /** Bytes from a small alphabet (high bytes included), so matches are frequent. */
  private static byte[] random(SplittableRandom r, int length) {
    byte[] alphabet = {'a', 'b', '/', (byte) 0xc3, (byte) 0xa9, (byte) 0xff};
    byte[] out = new byte[length];
    for (int i = 0; i < length; i++) {
      out[i] = alphabet[r.nextInt(alphabet.length)];
    }
    return out;
  }
}
