package io.sediment.db.stats;

import io.sediment.db.codec.Bytes;
import java.util.Comparator;

/**
 * A range of encoded keys {@code [from, to)}; a {@code null} end is open. An empty {@code from}
 * (the smallest key) is the open start, and becomes {@code null}, so both compare, cover and
 * merge alike. Immutable (the arrays are never modified after construction).
 */
public record KeyRange(byte[] from, byte[] to) {

  /** Orders ranges by their start, the open start first. */
  public static final Comparator<KeyRange> BY_START =
      (a, b) -> compareEnds(a.from, true, b.from, true);

  public KeyRange {
    if (from != null && from.length == 0) {
      from = null;
    }
  }

  /** Whether the two ranges overlap or touch, so that their union is one range. */
  public boolean overlapsOrTouches(KeyRange o) {
    return compareEnds(from, true, o.to, false) <= 0 && compareEnds(o.from, true, to, false) <= 0;
  }

  /** The smallest range covering both. */
  public KeyRange union(KeyRange o) {
    byte[] f = compareEnds(from, true, o.from, true) <= 0 ? from : o.from;
    byte[] t = compareEnds(to, false, o.to, false) >= 0 ? to : o.to;
    return new KeyRange(f, t);
  }

  /** Whether {@code o} lies inside this range. */
  public boolean covers(KeyRange o) {
    return compareEnds(from, true, o.from, true) <= 0 && compareEnds(to, false, o.to, false) >= 0;
  }

  /** Compares two range ends where {@code null} is minus infinity as a start and plus infinity as an end. */
  static int compareEnds(byte[] a, boolean aIsStart, byte[] b, boolean bIsStart) {
    if (a == null && b == null) {
      return aIsStart == bIsStart ? 0 : (aIsStart ? -1 : 1);
    }
    if (a == null) {
      return aIsStart ? -1 : 1;
    }
    if (b == null) {
      return bIsStart ? 1 : -1;
    }
    return Bytes.compare(a, b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r && java.util.Arrays.equals(from, r.from)
        && java.util.Arrays.equals(to, r.to);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(from) + java.util.Arrays.hashCode(to);
  }

  @Override
  public String toString() {
    return "[" + (from == null ? "-inf" : Bytes.toDisplayString(from)) + ", "
        + (to == null ? "+inf" : Bytes.toDisplayString(to)) + ")";
  }
}
