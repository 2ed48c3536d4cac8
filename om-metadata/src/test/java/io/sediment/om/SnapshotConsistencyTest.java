package io.sediment.om;

import static io.sediment.om.OmTestSupport.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.core.UnlockedPhase;
import io.sediment.om.listing.ListPage;
import io.sediment.om.snapshot.Snapshots;
import io.sediment.om.testing.OmStoreExtension;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.SnapshotInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A snapshot's checkpoint is taken without the write lock, yet each snapshot is one point in the
 * store's write order: writes complete while the checkpoint is being taken; a write done before
 * the checkpoint began is in it and one done after it was taken is not; under writers racing the
 * creates, every snapshot holds every commit acknowledged before its create was called, none
 * called after it returned, and with any commit every commit acknowledged before that one was
 * called; each commit whole (a copy's counters equal a scan of its rows); a bucket deleted or
 * replaced while its checkpoint is taken leaves no snapshot behind.
 */
class SnapshotConsistencyTest {

  private static final String V = "vol1";
  private static final String B = "buck1";
  /** Guards against a hang if a write waited for a lock the checkpoint holds (a failure). */
  private static final long WRITE_WAIT_SECONDS = 60;

  @RegisterExtension
  final OmStoreExtension omStore = OmStoreExtension.withOptions(
      OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE));
  private OmMetadataStore om;
  private OmContext ctx;

  @BeforeEach
  void open() {
    om = omStore.store();
    ctx = om.context();
    om.createVolume(V, "alice");
    om.createBucket(V, B, BucketLayout.OBJECT_STORE, null, 0);
  }

  /** Runs {@code write} on another thread and waits for it: it must not need the caller's locks. */
  private static <T> T onAnotherThread(java.util.function.Supplier<T> write) {
    try {
      return CompletableFuture.supplyAsync(write).get(WRITE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("a write did not complete while a checkpoint was taken", e);
    }
  }

  @Test
  void writesCompleteWhileTheCheckpointIsTakenAndLandOnTheirSideOfIt() throws IOException {
    List<UnlockedPhase> seen = new ArrayList<>();
    ctx.unlocked().observe((phase, step) -> {
      seen.add(phase);
      assertFalse(ctx.unlocked().isWriteLocked(), phase + " with the write lock held");
      if (phase == UnlockedPhase.SNAPSHOT_CHECKPOINT_BEGINS) {
        onAnotherThread(() -> put(om, V, B, "before-checkpoint", 1));
      } else if (phase == UnlockedPhase.SNAPSHOT_CHECKPOINT_DONE) {
        onAnotherThread(() -> put(om, V, B, "after-checkpoint", 2));
      }
    });
    SnapshotInfo s = om.snapshots().create(V, B, "snap");
    ctx.unlocked().observe(null);

    assertEquals(List.of(UnlockedPhase.SNAPSHOT_CHECKPOINT_BEGINS,
        UnlockedPhase.SNAPSHOT_CHECKPOINT_DONE), seen);
    assertEquals(1, om.snapshots().lookupKey(V, B, "snap", "before-checkpoint").getDataSize());
    OmException e = assertThrows(OmException.class,
        () -> om.snapshots().lookupKey(V, B, "snap", "after-checkpoint"));
    assertEquals(Code.NOT_FOUND, e.code());
    assertEquals(2, om.lookupKey(V, B, "after-checkpoint").getDataSize());
    assertEquals(Set.of(s.getSnapshotId()), entries(snapshotRoot()));
  }

  /** One writer's commits: when each was called and acknowledged, on a clock shared by all. */
  private static final class Writer {
    final int id;
    final List<long[]> commits = new ArrayList<>(); // {called, acknowledged}

    Writer(int id) {
      this.id = id;
    }

    static String key(int writer, int i) {
      return String.format("w%d-%06d", writer, i);
    }
  }

  /**
   * A snapshot with when its create was called and returned, and when its checkpoint began and
   * had been taken, on the writers' clock.
   */
  private record Taken(String name, long called, long returned, long checkpointBegan,
      long checkpointTaken) {
  }

  /** Waits until {@code n} more commits were acknowledged, so some land in each window. */
  private static void awaitCommits(AtomicLong clock, int n, AtomicBoolean writersFailed) {
    long target = clock.get() + 2L * n;
    while (clock.get() < target && !writersFailed.get()) {
      Thread.onSpinWait();
    }
  }

  @Test
  void snapshotsRacingWritersHoldExactlyAPrefixOfTheCommitOrder() throws Exception {
    int writers = 4;
    int snapshots = 6;
    AtomicLong clock = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicBoolean failed = new AtomicBoolean();
    Map<String, long[]> windows = new java.util.concurrent.ConcurrentHashMap<>();
    // Commits land while each create runs, before its checkpoint begins and after it was taken
    // (the clock counts two ticks per commit).
    ctx.unlocked().observe((phase, step) -> {
      if (phase == UnlockedPhase.SNAPSHOT_CHECKPOINT_BEGINS) {
        awaitCommits(clock, 20, failed);
        windows.put(step, new long[] {clock.get(), 0});
      } else if (phase == UnlockedPhase.SNAPSHOT_CHECKPOINT_DONE) {
        windows.get(step)[1] = clock.get();
        awaitCommits(clock, 20, failed);
      }
    });
    List<Writer> ws = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Writer writer = new Writer(w);
      ws.add(writer);
      Thread t = new Thread(() -> {
        try {
          commitUntil(stop, clock, writer);
        } catch (RuntimeException | Error e) {
          failed.set(true);
          throw e;
        }
      }, "writer-" + w);
      threads.add(t);
      t.start();
    }
    List<Taken> taken = new ArrayList<>();
    try {
      for (int s = 0; s < snapshots; s++) {
        awaitCommits(clock, 20, failed);
        String name = "snap-" + s;
        long called = clock.incrementAndGet();
        om.snapshots().create(V, B, name);
        long returned = clock.incrementAndGet();
        long[] window = windows.get(name);
        taken.add(new Taken(name, called, returned, window[0], window[1]));
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
      ctx.unlocked().observe(null);
    }
    assertFalse(failed.get(), "a writer failed");

    List<Path> copies = new ArrayList<>();
    for (Taken t : taken) {
      Set<String> held = keysIn(t.name());
      long lastCalledHeld = 0;
      for (Writer w : ws) {
        int prefix = 0;
        while (held.contains(Writer.key(w.id, prefix))) {
          prefix++;
        }
        for (int i = 0; i < w.commits.size(); i++) {
          long[] c = w.commits.get(i);
          boolean in = held.contains(Writer.key(w.id, i));
          assertEquals(i < prefix, in, t + ": writer " + w.id + "'s commits held are not a prefix");
          // Acknowledged before the call, or before the checkpoint began: held.
          if (c[1] < t.checkpointBegan()) {
            assertTrue(in, t + " misses commit " + Writer.key(w.id, i) + " acknowledged before");
          }
          // Called after the return, or after the checkpoint was taken: not held.
          if (c[0] > t.checkpointTaken()) {
            assertFalse(in, t + " holds commit " + Writer.key(w.id, i) + " called after");
          }
          if (in) {
            lastCalledHeld = Math.max(lastCalledHeld, c[0]);
          }
        }
      }
      // Real-time order: a commit acknowledged before a held commit was called is held too.
      for (Writer w : ws) {
        for (int i = 0; i < w.commits.size(); i++) {
          if (w.commits.get(i)[1] < lastCalledHeld) {
            assertTrue(held.contains(Writer.key(w.id, i)), t + " holds a commit called after "
                + Writer.key(w.id, i) + " was acknowledged, but not that one");
          }
        }
      }
      copies.add(snapshotRoot().resolve(om.snapshots().info(V, B, t.name()).getSnapshotId()));
    }

    // Each write whole: in every copy, the counters its batches carried equal a scan of its rows.
    om.close();
    for (Path copy : copies) {
      try (OmMetadataStore snap = OmMetadataStore.open(copy,
          OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE))) {
        Map<OmCounter, Long> counters = snap.counters();
        assertEquals(snap.countFromScan(), counters, copy + ": counters differ from its rows");
      }
    }
  }

  /** Opens and commits keys {@code w<id>-<i>} in order until {@code stop}, recording each. */
  private void commitUntil(AtomicBoolean stop, AtomicLong clock, Writer writer) {
    for (int i = 0; !stop.get(); i++) {
      String k = Writer.key(writer.id, i);
      OpenKeySession session = om.openKey(V, B, k, "alice");
      long called = clock.incrementAndGet();
      om.commitKey(V, B, k, session.clientId(), i);
      long acked = clock.incrementAndGet();
      synchronized (writer) {
        writer.commits.add(new long[] {called, acked});
      }
    }
  }

  @Test
  void aBucketDeletedWhileItsCheckpointIsTakenLeavesNoSnapshot() throws IOException {
    om.createBucket(V, "short-lived", BucketLayout.OBJECT_STORE, null, 0);
    ctx.unlocked().observe((phase, step) -> {
      if (phase == UnlockedPhase.SNAPSHOT_CHECKPOINT_BEGINS) {
        onAnotherThread(() -> {
          om.deleteBucket(V, "short-lived");
          return null;
        });
      }
    });
    OmException gone = assertThrows(OmException.class,
        () -> om.snapshots().create(V, "short-lived", "snap"));
    assertEquals(Code.NOT_FOUND, gone.code());

    om.createBucket(V, "replaced", BucketLayout.OBJECT_STORE, null, 0);
    ctx.unlocked().observe((phase, step) -> {
      if (phase == UnlockedPhase.SNAPSHOT_CHECKPOINT_DONE) {
        onAnotherThread(() -> {
          om.deleteBucket(V, "replaced");
          return om.createBucket(V, "replaced", BucketLayout.OBJECT_STORE, null, 0);
        });
      }
    });
    OmException replaced = assertThrows(OmException.class,
        () -> om.snapshots().create(V, "replaced", "snap"));
    assertEquals(Code.FAILED_PRECONDITION, replaced.code());
    ctx.unlocked().observe(null);

    assertEquals(0, om.counters().get(OmCounter.SNAPSHOTS));
    assertEquals(Set.of(), entries(snapshotRoot()), "no checkpoint, pending or final, is left");
    assertEquals(0, om.snapshots().list(V, "replaced", null, null, 10).items().size());
  }

  @Test
  void aPendingCheckpointLeftByACrashIsRemovedAtOpen() throws IOException {
    SnapshotInfo kept = om.snapshots().create(V, B, "kept");
    Path pending = snapshotRoot().resolve(Snapshots.PENDING_PREFIX + "left-by-a-crash");
    Files.createDirectories(pending.resolve("sub"));
    Files.writeString(pending.resolve("CURRENT"), "MANIFEST-000001\n");
    om = omStore.reopen();
    assertEquals(Set.of(kept.getSnapshotId()), entries(snapshotRoot()));
  }

  private Path snapshotRoot() {
    return omStore.dir().resolve(Snapshots.ROOT_DIR);
  }

  private static Set<String> entries(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Set.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
    }
  }

  private Set<String> keysIn(String snapshot) {
    Set<String> out = new HashSet<>();
    String after = null;
    while (true) {
      ListPage<KeyInfo> page = om.snapshots().listKeys(V, B, snapshot, null, after, 1000);
      for (KeyInfo k : page.items()) {
        out.add(k.getKeyName());
        after = k.getKeyName();
      }
      if (!page.truncated()) {
        return out;
      }
    }
  }
}
