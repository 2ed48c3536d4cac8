package io.sediment.om.core;

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
  PROCESS_CRASH_SAFE
}
