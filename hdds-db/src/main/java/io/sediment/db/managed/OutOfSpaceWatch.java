package io.sediment.db.managed;

import io.sediment.db.StoreOutOfSpaceException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a store refuses writes because its disk is full: from the first write RocksDB refuses
 * with a no-space error until RocksDB reports that it recovered from it. Logs one WARN when that
 * starts and one INFO when it ends, whatever the number of writes refused meanwhile, and runs the
 * registered listeners after each change.
 *
 * <p>Recovery is RocksDB's own: a no-space error while writing the WAL or a flush makes the
 * database read-only (reads keep working, every write fails with that error), and the
 * {@code SstFileManager} RocksDB creates for every database polls the free space every 5 s; once
 * it reaches the largest {@code write_buffer_size} of the column families (the room a flush of
 * one memtable needs) it flushes the memtables to a new WAL and accepts writes again. Nothing
 * acknowledged is lost: a refused write applied nothing, and every write applied before is in
 * the WAL or the flushed files.
 *
 * <p>The end is seen through RocksDB's {@code OnErrorRecoveryCompleted} callback. The start is
 * seen through the failing write rather than {@code OnBackgroundError}, because rocksdbjni
 * 10.10.1.1 cannot map the reason RocksDB gives for a failed recovery flush ({@code kFlushNoWAL})
 * and prints an exception on every such callback, and for the same reason an
 * {@code OnErrorRecoveryBegin} callback would turn RocksDB's automatic recovery off. A write that
 * fails after a recovery completed, but began before it, does not mark the store out of space
 * again ({@link #epoch()}).
 *
 * <p>Thread-safe.
 */
final class OutOfSpaceWatch {

  private static final Logger LOG = LoggerFactory.getLogger(OutOfSpaceWatch.class);
  /** strerror(ENOSPC), for failures whose status carries no {@code NoSpace} sub-code. */
  private static final String ENOSPC_TEXT = "No space left on device";

  private final String store;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean outOfSpace;
  /** Recoveries completed so far; written under {@code this}. */
  private volatile long recoveries;
  /** When the store ran out of space ({@link System#nanoTime()}); guarded by {@code this}. */
  private long sinceNanos;

  OutOfSpaceWatch(String store) {
    this.store = store;
  }

  /** Whether {@code e} says that the file system was full: RocksDB's {@code NoSpace} or ENOSPC. */
  static boolean isNoSpace(RocksDBException e) {
    Status s = e.getStatus();
    if (s != null && s.getCode() == Status.Code.IOError && s.getSubCode() == Status.SubCode.NoSpace) {
      return true;
    }
    String m = e.getMessage();
    return (m != null && m.contains(ENOSPC_TEXT))
        || (s != null && s.getState() != null && s.getState().contains(ENOSPC_TEXT));
  }

  /** Whether writes are refused for lack of space now. */
  boolean outOfSpace() {
    return outOfSpace;
  }

  /** To read before a write: what {@link #writeRefused} compares to. */
  long epoch() {
    return recoveries;
  }

  /**
   * A write that began at {@code epoch} was refused for lack of space ({@code failure} says
   * where). Marks the store out of space unless it is already, or recovered since the write began.
   */
  void writeRefused(long epoch, StoreOutOfSpaceException failure) {
    synchronized (this) {
      if (outOfSpace || epoch != recoveries) {
        return;
      }
      outOfSpace = true;
      sinceNanos = System.nanoTime();
    }
    // The failure's message names the store, the directory and the free space needed.
    LOG.warn("{}. RocksDB checks the free space every 5 s; no restart is needed.",
        failure.getMessage());
    changed();
  }

  /** RocksDB completed its recovery from a background error: writes are accepted again. */
  void recovered() {
    long seconds;
    synchronized (this) {
      recoveries++;
      if (!outOfSpace) {
        return;
      }
      outOfSpace = false;
      seconds = (System.nanoTime() - sinceNanos) / 1_000_000_000L;
    }
    LOG.info("Store {}: disk space available again, writes accepted again (refused for {} s)",
        store, seconds);
    changed();
  }

  /** Runs {@code listener} after each change of {@link #outOfSpace()}; returns what unregisters it. */
  Runnable addListener(Runnable listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  private void changed() {
    for (Runnable l : listeners) {
      try {
        l.run();
      } catch (RuntimeException e) {
        LOG.warn("Store {}: an out-of-space listener failed", store, e);
      }
    }
  }

  /** A listener to install on the database's options; the caller owns and closes it. */
  AbstractEventListener newListener() {
    return new AbstractEventListener(
        AbstractEventListener.EnabledEventCallback.ON_ERROR_RECOVERY_COMPLETED) {
      @Override
      public void onErrorRecoveryCompleted(Status oldBackgroundError) {
        recovered();
      }
    };
  }
}
