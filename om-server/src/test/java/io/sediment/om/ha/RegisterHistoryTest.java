package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The checker itself: it accepts linearizable histories and refuses the ones that are not. */
class RegisterHistoryTest {

  @Test
  void overlappingWriteAndReadMayGoEitherWay() {
    RegisterHistory h = new RegisterHistory();
    h.write(1L, 0, 10);
    h.read(null, 5, 6);   // overlaps the write: may precede it
    h.read(1L, 7, 8);     // or follow it
    assertTrue(h.linearizable());
  }

  @Test
  void aReadAfterAnAcknowledgedWriteMustSeeIt() {
    RegisterHistory h = new RegisterHistory();
    h.write(1L, 0, 10);
    h.read(null, 11, 12); // stale read: not linearizable
    assertFalse(h.linearizable());
  }

  @Test
  void aValueNobodyWroteIsRefused() {
    RegisterHistory h = new RegisterHistory();
    h.write(1L, 0, 1);
    h.read(2L, 2, 3);
    assertFalse(h.linearizable());
  }

  @Test
  void readsMayNotGoBackInTime() {
    RegisterHistory h = new RegisterHistory();
    h.write(1L, 0, 1);
    h.write(2L, 2, 10);
    h.read(2L, 3, 4);
    h.read(1L, 5, 6);     // after a read saw 2, 1 cannot come back
    assertFalse(h.linearizable());
  }

  @Test
  void aWriteWithAnUnknownOutcomeMayOrMayNotHaveHappened() {
    RegisterHistory applied = new RegisterHistory();
    applied.writeUnknown(7L, 0);
    applied.read(7L, 5, 6);
    assertTrue(applied.linearizable());

    RegisterHistory lost = new RegisterHistory();
    lost.writeUnknown(7L, 0);
    lost.read(null, 5, 6);
    assertTrue(lost.linearizable());

    RegisterHistory flapping = new RegisterHistory();
    flapping.writeUnknown(7L, 0);
    flapping.read(7L, 5, 6);
    flapping.read(null, 7, 8); // once seen, it cannot disappear without a delete
    assertFalse(flapping.linearizable());
  }

  @Test
  void deletesAreWritesOfAbsent() {
    RegisterHistory h = new RegisterHistory();
    h.write(1L, 0, 1);
    h.write(null, 2, 3);
    h.read(null, 4, 5);
    h.read(1L, 6, 7);
    assertFalse(h.linearizable());
  }
}
