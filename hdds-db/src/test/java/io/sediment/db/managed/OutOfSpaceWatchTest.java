package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.sediment.db.StoreException;
import io.sediment.db.StoreOutOfSpaceException;
import io.sediment.db.testing.LogCapture;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * How RocksDB's out-of-space failures are recognised and tracked, without filling a disk (see
 * {@code DiskFullTest} for the real thing): which statuses count as a full disk, what the typed
 * exception says, and when the store counts as out of space and logs it.
 */
class OutOfSpaceWatchTest {

  static {
    org.rocksdb.RocksDB.loadLibrary();
  }

  private static RocksDBException failure(Status.Code code, Status.SubCode sub, String state) {
    return new RocksDBException(state, new Status(code, sub, state));
  }

  @Test
  void noSpaceStatusesAndEnospcCountAsAFullDiskOtherFailuresDoNot() {
    // What RocksDB's posix file system returns for ENOSPC: IOError with sub-code NoSpace.
    assertTrue(OutOfSpaceWatch.isNoSpace(failure(Status.Code.IOError, Status.SubCode.NoSpace,
        "While appending to file: /d/000008.log: No space left on device")));
    assertTrue(OutOfSpaceWatch.isNoSpace(failure(Status.Code.IOError, Status.SubCode.NoSpace,
        null)));
    // ENOSPC reported without the sub-code (another file system or a path that drops it).
    assertTrue(OutOfSpaceWatch.isNoSpace(failure(Status.Code.IOError, Status.SubCode.None,
        "While open a file for appending: /d/OPTIONS-000007.dbtmp: No space left on device")));
    assertTrue(OutOfSpaceWatch.isNoSpace(new RocksDBException(
        "IO error: No space left on device")));

    assertFalse(OutOfSpaceWatch.isNoSpace(failure(Status.Code.IOError, Status.SubCode.None,
        "While open a file for appending: /d/000009.log: Permission denied")));
    assertFalse(OutOfSpaceWatch.isNoSpace(failure(Status.Code.Corruption, Status.SubCode.None,
        "block checksum mismatch")));
    assertFalse(OutOfSpaceWatch.isNoSpace(failure(Status.Code.IOError, Status.SubCode.StaleFile,
        "stale file handle")));
    assertFalse(OutOfSpaceWatch.isNoSpace(new RocksDBException("Resource busy")));
  }

  @Test
  void theTypedExceptionNamesTheDirectoryTheFreeSpaceNeededAndRocksDbsMessage() {
    RocksDBException cause = failure(Status.Code.IOError, Status.SubCode.NoSpace,
        "While appending to file: /data/om/000008.log: No space left on device");
    StoreOutOfSpaceException e = new StoreOutOfSpaceException(
        "IOError: store om: cannot commit batch", Path.of("/data/om"), 64L << 20, 12_288, cause);

    assertEquals(Path.of("/data/om"), e.directory());
    assertEquals(64L << 20, e.requiredFreeBytes());
    assertEquals(12_288, e.freeBytes());
    assertTrue(e instanceof StoreException, "callers catching the general type see it");
    String m = e.getMessage();
    for (String part : List.of("store om: cannot commit batch", "out of disk space in /data/om",
        "at least 67108864 bytes (64.0 MiB) are free", "12288 bytes (12.0 KiB) free now",
        "resume by themselves", "reads keep working", "No space left on device")) {
      assertTrue(m.contains(part), () -> "'" + part + "' missing from: " + m);
    }
    assertTrue(new StoreOutOfSpaceException("x", Path.of("/d"), 1024, -1, cause).getMessage()
        .contains("unknown free now"));
  }

  @Test
  void outOfSpaceFromTheFirstRefusedWriteUntilRecoveryWithOneWarnAndOneInfo() {
    OutOfSpaceWatch watch = new OutOfSpaceWatch("om");
    AtomicInteger changes = new AtomicInteger();
    Runnable unregister = watch.addListener(changes::incrementAndGet);
    StoreOutOfSpaceException full = new StoreOutOfSpaceException("IOError: store om: put failed",
        Path.of("/data/om"), 1 << 20, 0, failure(Status.Code.IOError, Status.SubCode.NoSpace,
            "No space left on device"));
    try (LogCapture log = LogCapture.of(OutOfSpaceWatch.class)) {
      assertFalse(watch.outOfSpace());

      long epoch = watch.epoch();
      watch.writeRefused(epoch, full);
      assertTrue(watch.outOfSpace());
      for (int i = 0; i < 100; i++) {
        watch.writeRefused(watch.epoch(), full);
      }
      assertEquals(1, changes.get(), "one change, however many writes are refused");

      watch.recovered();
      assertFalse(watch.outOfSpace());
      assertEquals(2, changes.get());

      // A write that began before the recovery and failed with the old error must not mark the
      // recovered store out of space again.
      watch.writeRefused(epoch, full);
      assertFalse(watch.outOfSpace());
      // A recovery from another background error while not out of space changes nothing.
      watch.recovered();
      assertEquals(2, changes.get());

      List<String> warns = log.messages(Level.WARN);
      List<String> infos = log.messages(Level.INFO);
      assertEquals(1, warns.size(), warns::toString);
      assertTrue(warns.get(0).contains("out of disk space in /data/om"), warns::toString);
      assertTrue(warns.get(0).contains("no restart is needed"), warns::toString);
      assertEquals(1, infos.size(), infos::toString);
      assertTrue(infos.get(0).contains("writes accepted again"), infos::toString);
    }
    unregister.run();
    watch.writeRefused(watch.epoch(), full);
    assertEquals(2, changes.get(), "an unregistered listener is not run");
  }

  @Test
  void rocksDbsRecoveryCallbackEndsTheEpisode() {
    OutOfSpaceWatch watch = new OutOfSpaceWatch("om");
    watch.writeRefused(watch.epoch(), new StoreOutOfSpaceException("x", Path.of("/d"), 1, 0,
        new RocksDBException("No space left on device")));
    try (AbstractEventListener listener = watch.newListener()) {
      listener.onErrorRecoveryCompleted(new Status(Status.Code.IOError, Status.SubCode.NoSpace,
          "No space left on device"));
    }
    assertFalse(watch.outOfSpace());
  }
}
