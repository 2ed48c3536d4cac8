package io.sediment.om.testing;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Random damage to a stored row, for tests that hold a row reader to protobuf's refusals. */
public final class RowDamage {

  private RowDamage() {
  }

  /** {@code row} with one random change: a byte overwritten, the row cut short, or a byte inserted. */
  public static byte[] damage(byte[] row, SplittableRandom r) {
    if (row.length == 0) {
      return new byte[] {(byte) r.nextInt(256)};
    }
    int at = r.nextInt(row.length);
    switch (r.nextInt(3)) {
      case 0 -> {
        byte[] out = row.clone();
        out[at] = (byte) r.nextInt(256);
        return out;
      }
      case 1 -> {
        return Arrays.copyOf(row, at);
      }
      default -> {
        byte[] out = new byte[row.length + 1];
        System.arraycopy(row, 0, out, 0, at);
        out[at] = (byte) r.nextInt(256);
        System.arraycopy(row, at, out, at + 1, row.length - at);
        return out;
      }
    }
  }
}
