package io.sediment.db.stats;

import static io.sediment.db.testing.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link KeyRange}: open ends order as minus infinity (a start) and plus infinity (an end), ranges
 * that only touch merge, and equality, hash and text are by content.
 */
class KeyRangeTest {

  @Test
  void openEndsCompareAsInfinities() {
    assertEquals(0, KeyRange.compareEnds(null, true, null, true));
    assertEquals(0, KeyRange.compareEnds(null, false, null, false));
    assertEquals(-1, KeyRange.compareEnds(null, true, null, false), "-inf before +inf");
    assertEquals(1, KeyRange.compareEnds(null, false, null, true), "+inf after -inf");
    assertEquals(-1, KeyRange.compareEnds(null, true, b("a"), true));
    assertEquals(1, KeyRange.compareEnds(null, false, b("a"), false));
    assertEquals(1, KeyRange.compareEnds(b("a"), false, null, true));
    assertEquals(-1, KeyRange.compareEnds(b("a"), true, null, false));
    assertTrue(KeyRange.compareEnds(b("a"), true, b("b"), true) < 0);
  }

  @Test
  void rangesThatOnlyTouchMergeIntoOne() {
    KeyRange left = new KeyRange(b("a"), b("b"));
    KeyRange right = new KeyRange(b("b"), b("c"));
    assertTrue(left.overlapsOrTouches(right));
    assertTrue(right.overlapsOrTouches(left));
    assertEquals(new KeyRange(b("a"), b("c")), left.union(right));
    assertFalse(left.overlapsOrTouches(new KeyRange(b("b0"), b("c"))), "a gap keeps them apart");
    assertEquals(new KeyRange(null, null), new KeyRange(null, b("b")).union(right.union(
        new KeyRange(b("c"), null))));
  }

  @Test
  void equalityHashAndTextAreByContent() {
    KeyRange r = new KeyRange(b("a"), b("b"));
    assertEquals(r, new KeyRange(b("a"), b("b")));
    assertEquals(r.hashCode(), new KeyRange(b("a"), b("b")).hashCode());
    assertNotEquals(r, new KeyRange(b("a"), b("c")));
    assertNotEquals(r, new KeyRange(b("0"), b("b")));
    assertNotEquals(r, new KeyRange(b("b"), b("a")));
    assertNotEquals(r.hashCode(), new KeyRange(b("b"), b("a")).hashCode());
    assertNotEquals(r, "[a, b)");
    assertEquals(new KeyRange(null, b("b")), new KeyRange(new byte[0], b("b")),
        "an empty start is the open start");
    assertEquals("[-inf, +inf)", new KeyRange(null, null).toString());
    String text = r.toString();
    assertTrue(text.startsWith("[") && text.endsWith(")") && text.contains("a")
        && text.contains("b") && !text.contains("inf"), text);
  }
}
