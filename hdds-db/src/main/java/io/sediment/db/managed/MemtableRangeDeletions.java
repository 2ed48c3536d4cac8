package io.sediment.db.managed;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.RocksDB;

/**
 * Counts the range deletions each column family holds in its memtables (active and immutable).
 * RocksDB counts them for {@code memtable_max_range_deletions} but exposes no property for them
 * (only {@code rocksdb.num-deletes-*-mem-table}, which counts point deletes), so the database
 * records every range deletion it writes with a sequence number at or after the write's, and a
 * flush listener forgets those at or below the flush's largest sequence number.
 *
 * <p>The count is an upper bound that is exact when writes and flushes do not interleave: a
 * range deletion whose recorded number lies past a concurrent flush's largest one (the number is
 * read after the write, so it may belong to a later write) stays counted until the next flush of
 * its family. Range deletions replayed from the WAL when a database opens are not counted (RocksDB
 * flushes recovered memtables while opening). Thread-safe.
 */
final class MemtableRangeDeletions {

  /** Per family: sequence number recorded -> range deletions recorded with it. */
  private final Map<String, TreeMap<Long, Long>> byFamily = new HashMap<>();

  /** Records {@code count} range deletions in {@code family}, written at or before {@code seq}. */
  synchronized void recorded(String family, long count, long seq) {
    if (count > 0) {
      byFamily.computeIfAbsent(family, f -> new TreeMap<>()).merge(seq, count, Long::sum);
    }
  }

  /** Forgets what {@code family}'s flush up to {@code largestSeq} wrote to an SST file. */
  synchronized void flushed(String family, long largestSeq) {
    TreeMap<Long, Long> pending = byFamily.get(family);
    if (pending != null) {
      pending.headMap(largestSeq, true).clear();
    }
  }

  /** Range deletions of {@code family} recorded and not yet flushed. */
  synchronized long count(String family) {
    TreeMap<Long, Long> pending = byFamily.get(family);
    long n = 0;
    if (pending != null) {
      for (long c : pending.values()) {
        n += c;
      }
    }
    return n;
  }

  /** A listener to install on the database's options; the caller owns and closes it. */
  AbstractEventListener newListener() {
    return new AbstractEventListener(AbstractEventListener.EnabledEventCallback.ON_FLUSH_COMPLETED) {
      @Override
      public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
        flushed(info.getColumnFamilyName(), info.getLargestSeqno());
      }
    };
  }
}
