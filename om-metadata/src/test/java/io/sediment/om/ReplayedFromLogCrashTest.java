package io.sediment.om;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.sediment.db.DBProfile;
import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store under {@link SyncPolicy#REPLAYED_FROM_LOG} (no WAL) killed with SIGKILL while a child JVM
 * applies log entries to it, one bucket creation each through {@link io.sediment.om.core.AppliedLog},
 * with small memtables that RocksDB flushes on its own and a flush now and then on request (as a
 * replica's snapshot does). The reopened store holds exactly the buckets of the entries up to the
 * position it recorded, counters alike: every table stopped at the same write, whichever filled its
 * memtable first. That position is at or after the last flush the child saw complete, and applying
 * the entries after it (what Ratis replays) brings the store on.
 */
class ReplayedFromLogCrashTest {

  private static final String VOLUME = "vol";
  /** Entries the child applies before the parent kills it. */
  private static final int KILL_AFTER = 2_900;
  /**
   * Requested flushes are rarer than RocksDB's own (every few hundred entries), so the kill comes
   * after several of those: tables flushed one at a time disagree there (measured: the position
   * recorded at entry 2,778 with only 2,646 buckets stored).
   */
  private static final int FLUSH_EVERY = 1_000;

  @TempDir
  Path dir;

  static OmStoreOptions options() {
    return OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.REPLAYED_FROM_LOG);
  }

  /** Memtables of 64 KiB: each table's fills at its own pace, every few hundred entries. */
  static DBProfile smallMemtables() {
    return DBProfile.defaults().toBuilder().writeBufferBytes(64 << 10).build();
  }

  static String bucket(long index) {
    return String.format("b-%07d", index);
  }

  static void apply(OmMetadataStore om, long index) {
    om.appliedLog().apply(new LogPosition(1, index), 1_700_000_000_000L + index,
        () -> om.createBucket(VOLUME, bucket(index), BucketLayout.OBJECT_STORE, "alice", 0));
  }

  @Test
  void aKilledStoreReopensAtAFlushedPrefixOfItsEntriesAndReplayGoesOnFromThere() throws Exception {
    Path store = dir.resolve("store");
    Path stderr = dir.resolve("child.err");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-XX:+UseSerialGC",
        // The SIGKILLed child leaves rocksdbjni's unpacked library in its temporary directory.
        "-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("child-tmp")),
        "-cp", System.getProperty("java.class.path"), Child.class.getName(),
        store.toString()).redirectError(stderr.toFile()).start();
    long applied = 0;
    long flushed = 0;
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (applied < KILL_AFTER && (line = out.readLine()) != null) {
        String[] f = line.split(" ");
        switch (f[0]) {
          case "APPLIED" -> applied = Long.parseLong(f[1]);
          case "FLUSHED" -> flushed = Long.parseLong(f[1]);
          default -> { }
        }
      }
    } finally {
      child.toHandle().destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
    if (applied < KILL_AFTER) {
      fail("the child stopped after entry " + applied + "\n" + Files.readString(stderr));
    }
    assertEquals(128 + 9, child.exitValue(), "the child was not ended by SIGKILL");

    try (OmMetadataStore om = OmMetadataStore.open(store, options(), smallMemtables())) {
      long position = om.appliedLog().lastApplied().orElseThrow().index();
      assertTrue(position >= flushed, "reopened at entry " + position
          + ", before the flush the child saw complete after entry " + flushed);
      assertStoreAt(om, position);

      long end = Math.max(position, applied) + 100;
      for (long i = position + 1; i <= end; i++) {
        apply(om, i);
      }
      assertStoreAt(om, end);
    }
  }

  private static void assertStoreAt(OmMetadataStore om, long position) {
    String where = "store at entry " + position;
    long rows = om.dbStore().getTable(OmDBDefinition.BUCKET_TABLE)
        .countRows(OmKeys.volumePrefix(VOLUME));
    assertEquals(position, rows, where + ": bucket rows");
    assertEquals(position, om.counters().get(OmCounter.BUCKETS), where + ": BUCKETS counter");
    assertNotNull(om.getBucketInfo(VOLUME, bucket(position)), where);
    assertNull(om.dbStore().getTable(OmDBDefinition.BUCKET_TABLE)
        .get(OmKeys.bucketKey(VOLUME, bucket(position + 1))), where + ": next entry's bucket");
  }

  /** Applies entries from 1 on until killed; reports each and every completed flush. */
  public static final class Child {
    public static void main(String[] args) {
      try (OmMetadataStore om = OmMetadataStore.open(Path.of(args[0]), options(),
          smallMemtables())) {
        om.createVolume(VOLUME, "alice");
        om.dbStore().flush();
        for (long i = 1; ; i++) {
          apply(om, i);
          System.out.println("APPLIED " + i);
          if (i % FLUSH_EVERY == 0) {
            om.dbStore().flush();
            System.out.println("FLUSHED " + i);
          }
        }
      }
    }
  }
}
