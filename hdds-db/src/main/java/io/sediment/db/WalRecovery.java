package io.sediment.db;

/** How an open treats a damaged write-ahead log ({@link DBStoreBuilder#setWalRecovery}). */
public enum WalRecovery {
  /**
   * Replays every record; a torn tail (a crash in the middle of the last write) is accepted, any
   * damage before it fails the open and leaves every file as it was. The default.
   */
  STRICT,
  /**
   * Replays up to the first damaged record and drops everything after it, in that log and any
   * later one: the store opens as of the last write before the damage. Only for an explicit
   * repair that has copied the logs aside and reports what it dropped.
   */
  ACCEPT_LOSS_AFTER_DAMAGE
}
