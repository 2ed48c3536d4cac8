package io.sediment.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The campaign's oracle: what counts as a lost write, an undone delete, or a call in doubt. */
class AckLedgerTest {

  @Test
  void anAcknowledgedCommitMissingAfterARestartIsLostOnce() {
    AckLedger ledger = new AckLedger();
    ledger.beginCommit("a");
    ledger.commitAcknowledged("a");
    ledger.beginCommit("b");
    ledger.commitAcknowledged("b");

    AckLedger.Check check = ledger.check(Set.of("b"));
    assertEquals(List.of("a"), check.lostWrites());
    assertEquals(1, check.lost());
    assertTrue(check.describeLoss().contains("1 acknowledged writes missing"), check.describeLoss());
    assertEquals(0, ledger.check(Set.of("b")).lost(), "a loss is counted at the check that saw it");
  }

  @Test
  void anAcknowledgedDeleteStillPresentIsUndone() {
    AckLedger ledger = new AckLedger();
    ledger.beginCommit("a");
    ledger.commitAcknowledged("a");
    ledger.beginDelete("a");
    ledger.deleteAcknowledged("a");

    AckLedger.Check check = ledger.check(Set.of("a"));
    assertEquals(List.of("a"), check.undoneDeletes());
    assertEquals(List.of(), check.lostWrites());
    assertEquals(1, check.lost());
  }

  @Test
  void callsWithoutAnAnswerMayGoEitherWayAndAreSettledByTheCheck() {
    AckLedger ledger = new AckLedger();
    ledger.beginCommit("kept");
    ledger.beginCommit("dropped");
    ledger.beginCommit("x");
    ledger.commitAcknowledged("x");
    ledger.beginDelete("x");

    AckLedger.Check check = ledger.check(Set.of("kept", "x"));
    assertEquals(0, check.lost());
    assertEquals(3, check.inDoubtSettled());
    // settled: "kept" and "x" now count as committed, so losing them later is a loss
    assertEquals(List.of("kept", "x"), ledger.committed(""));
    assertEquals(2, ledger.check(Set.of()).lostWrites().size());
  }

  @Test
  void aDeleteAnsweredNotFoundForAnAcknowledgedKeyIsALoss() {
    AckLedger ledger = new AckLedger();
    ledger.beginCommit("w0/a");
    ledger.commitAcknowledged("w0/a");
    ledger.lostWhileLive("w0/a");
    AckLedger.Check check = ledger.check(Set.of());
    assertEquals(List.of("w0/a"), check.lostWrites());
  }

  @Test
  void committedKeysAreThoseOfOneWriterByPrefix() {
    AckLedger ledger = new AckLedger();
    for (String k : List.of("w0/a", "w1/b", "w0/c")) {
      ledger.beginCommit(k);
      ledger.commitAcknowledged(k);
    }
    ledger.beginDelete("w0/c");
    assertEquals(List.of("w0/a"), ledger.committed("w0/"));
    assertEquals(3, ledger.acknowledgedWrites());
  }
}
