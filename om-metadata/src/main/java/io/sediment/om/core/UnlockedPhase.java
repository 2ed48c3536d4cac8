package io.sediment.om.core;

/**
 * The long parts of background work and snapshot creation that run without the store's write
 * lock, so that foreground writes go on meanwhile: a purge step's scan, which collects the rows of
 * its batch before a short write re-checks and removes them, and a snapshot's checkpoint, which
 * flushes the memtables and links the files before a short write records the snapshot. An
 * {@link Observer} set with {@link UnlockedWork#observe} is told when each begins and ends (tests
 * use it to run writes at those moments; nothing else needs it).
 */
public enum UnlockedPhase {

  /** A purge step begins to read the rows of its batch ({@code step}: its name). */
  PURGE_SCAN_BEGINS,
  /** A purge step has read its batch and is about to take the write lock to apply it. */
  PURGE_SCAN_DONE,
  /** A snapshot's checkpoint (flush and file links) begins ({@code step}: the snapshot name). */
  SNAPSHOT_CHECKPOINT_BEGINS,
  /** A snapshot's checkpoint is complete; the write that records the snapshot comes next. */
  SNAPSHOT_CHECKPOINT_DONE;

  /**
   * Told of each phase on the thread doing the work, with the write lock not held by that thread;
   * may block (the work waits), must not throw.
   */
  @FunctionalInterface
  public interface Observer {
    /** {@code phase} of {@code step} (a purge step's name, or a snapshot's) is reached. */
    void reached(UnlockedPhase phase, String step);
  }
}
