package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.Status;

/**
 * What {@link DeletionCompactions} makes of a job's begin and end, without RocksDB: the events
 * kept before a consumer is attached, a failed job, a job whose begin was not seen, and a consumer
 * that throws (the callback must not). The end-to-end contract with RocksDB is
 * {@code DeletionCollectorCompactionTest}.
 */
class DeletionCompactionsTest {

  private static final Status OK = new Status(Status.Code.Ok, Status.SubCode.None, null);

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void job(DeletionCompactions d, int id, Status status) {
    d.began(id, new KeyRange(utf8("a"), utf8("m")));
    d.ended(id, "queue", status, List.of("/db/000010.sst"), List.of(), Map.of(), 0, 6);
  }

  @Test
  void eventsBeforeAConsumerAreKeptUpToTheBoundAndDeliveredInOrder() {
    DeletionCompactions d = new DeletionCompactions("s");
    for (int id = 0; id < DeletionCompactions.EARLY_EVENTS + 5; id++) {
      job(d, id, OK);
    }
    List<CompactionEvent> got = new ArrayList<>();
    d.deliverTo(got::add);
    assertEquals(DeletionCompactions.EARLY_EVENTS, got.size());
    job(d, 1000, OK);
    assertEquals(DeletionCompactions.EARLY_EVENTS + 1, got.size(), "later events go straight on");
    CompactionEvent e = got.get(0);
    assertEquals(CompactionEvent.Trigger.DELETION_COLLECTOR, e.trigger());
    assertEquals(CompactionEvent.Outcome.COMPLETED, e.outcome());
    assertEquals("queue", e.table());
    assertArrayEquals(utf8("a"), e.range().from());
    assertArrayEquals(utf8("m"), e.range().to());
    assertTrue(e.reason().contains("1 file its deletion collector marked (L0 -> L6)"), e.reason());
  }

  @Test
  void aTrivialMoveIsSaidToKeepItsTombstones() {
    DeletionCompactions d = new DeletionCompactions("s");
    List<CompactionEvent> got = new ArrayList<>();
    d.deliverTo(got::add);
    d.began(4, new KeyRange(utf8("a"), utf8("m")));
    d.ended(4, "queue", OK, List.of("/db/000010.sst"), List.of("/db/000010.sst"), Map.of(), 0, 6);
    assertEquals(CompactionEvent.Outcome.COMPLETED, got.get(0).outcome());
    assertTrue(got.get(0).reason().startsWith("RocksDB moved 1 file its deletion collector marked"
        + " (L0 -> L6) without rewriting"), got.get(0).reason());
  }

  @Test
  void aFailedJobIsRecordedFailedWithNoTombstoneCountAfter() {
    DeletionCompactions d = new DeletionCompactions("s");
    List<CompactionEvent> got = new ArrayList<>();
    d.deliverTo(got::add);
    job(d, 7, new Status(Status.Code.IOError, Status.SubCode.NoSpace, "disk full"));
    CompactionEvent e = got.get(0);
    assertEquals(CompactionEvent.Outcome.FAILED, e.outcome());
    assertEquals(-1, e.tombstonesAfter());
    assertTrue(e.reason().contains("failed") && e.reason().contains("disk full"), e.reason());
  }

  @Test
  void anEndWhoseBeginWasNotSeenHasAnOpenRangeSaidToBeUnknown() {
    DeletionCompactions d = new DeletionCompactions("s");
    List<CompactionEvent> got = new ArrayList<>();
    d.deliverTo(got::add);
    d.ended(3, "queue", OK, List.of(), List.of(), Map.of(), 0, 6);
    assertNull(got.get(0).range().from());
    assertNull(got.get(0).range().to());
    assertTrue(got.get(0).reason().endsWith("key range unknown"), got.get(0).reason());
  }

  @Test
  void aConsumerThatThrowsNeitherEscapesNorStopsLaterEvents() {
    DeletionCompactions d = new DeletionCompactions("s");
    List<CompactionEvent> got = new ArrayList<>();
    d.deliverTo(e -> {
      got.add(e);
      throw new IllegalStateException("history closed");
    });
    job(d, 1, OK);
    job(d, 2, OK);
    assertEquals(2, got.size());
  }
}
