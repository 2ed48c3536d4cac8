package io.sediment.om.core;

import io.sediment.db.DBProfile;

/** When a write is acknowledged, relative to the durability of its write-ahead-log record. */
public enum SyncPolicy {
  /**
   * After an fsync of the WAL that covers it (default). Concurrent writers share one fsync: a group
   * commit.
   */
  DURABLE,
  /**
   * As soon as the batch is in the WAL buffer and the memtable: survives a process crash, not a
   * machine crash. For tests, benchmarks and bulk loads.
   */
  PROCESS_CRASH_SAFE,
  /**
   * Without a write-ahead log: acknowledged once the batch is in the memtable; only a flush makes
   * writes durable, and a crash of the process or the machine reopens the store at its last
   * flush, every table at the same write (the store flushes all of them together,
   * {@link io.sediment.db.DBProfile#disableWal()}). For a store that a log of its own replays
   * from the position the store recorded with its writes ({@link AppliedLog}): a replica's, whose
   * Raft log is purged only behind a flushed snapshot. Saves the WAL's write of every batch.
   */
  REPLAYED_FROM_LOG;

  /**
   * The RocksDB profile a store under this policy opens with: {@code profile}, without a WAL
   * under {@link #REPLAYED_FROM_LOG}.
   */
  public DBProfile profile(DBProfile profile) {
    return this == REPLAYED_FROM_LOG && !profile.disableWal()
        ? profile.toBuilder().disableWal(true).build() : profile;
  }
}
