package io.sediment.om.core;

import io.sediment.db.BatchOperation;
import io.sediment.db.Table;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The maintained namespace counters, store-wide and per bucket: their rows in the meta table and
 * their values in memory. A write stages its counter rows into its own batch ({@link #stage});
 * once the batch is committed the staged values are published ({@link Staged#publish}), so memory
 * never shows a value the store does not hold. Per-bucket values are loaded lazily, by writers.
 *
 * <p>Staging and resets run under the owner's write lock ({@link OmContext}); reads take only this
 * object's monitor and never wait on a write's I/O.
 */
final class NamespaceCounters {

  private final Table<String, byte[]> meta;
  /** Store-wide values; written by publishers, read by anyone, under {@code this}. */
  private final long[] counters = new long[OmCounter.values().length];
  /** Per-bucket values loaded so far, by bucket object id; guarded like {@link #counters}. */
  private final Map<Long, long[]> bucketCounters = new HashMap<>();

  /** Loads the store-wide values from {@code meta} (a missing row is 0). */
  NamespaceCounters(Table<String, byte[]> meta) {
    this.meta = meta;
    for (OmCounter c : OmCounter.values()) {
      byte[] v = meta.get(c.metaKey());
      counters[c.ordinal()] = v == null ? 0 : OmContext.decodeLong(v);
    }
  }

  /** Counter values a write staged in its batch, to publish once the batch is committed. */
  final class Staged {
    private final long[] totals;
    private final Map<Long, long[]> buckets;
    private final Set<Long> dropped;

    private Staged(long[] totals, Map<Long, long[]> buckets, Set<Long> dropped) {
      this.totals = totals;
      this.buckets = buckets;
      this.dropped = dropped;
    }

    /** Makes the staged values the ones readers see. */
    void publish() {
      synchronized (counters) {
        System.arraycopy(totals, 0, counters, 0, totals.length);
        bucketCounters.putAll(buckets);
        for (long id : dropped) {
          bucketCounters.remove(id);
        }
      }
    }
  }

  /**
   * Puts the rows of {@code txn}'s counter changes into {@code batch}: each changed counter, each
   * changed bucket counter, and the removal of the rows of the buckets it dropped. Caller holds the
   * write lock.
   *
   * @throws OmException RESOURCE_EXHAUSTED if a counter would overflow (the batch must then be
   *     dropped, not committed)
   */
  Staged stage(WriteTxn txn, BatchOperation batch) {
    long[] updated;
    synchronized (counters) {
      updated = counters.clone();
    }
    for (Map.Entry<OmCounter, Long> d : txn.deltas().entrySet()) {
      int i = d.getKey().ordinal();
      updated[i] = WriteTxn.add(d.getKey(), updated[i], d.getValue());
      meta.putWithBatch(batch, d.getKey().metaKey(), OmContext.encodeLong(updated[i]));
    }
    Map<Long, long[]> bucketUpdates = new HashMap<>();
    for (Map.Entry<Long, Map<OmCounter, Long>> b : txn.bucketDeltas().entrySet()) {
      long[] values = bucketCounters(b.getKey(), true).clone();
      for (Map.Entry<OmCounter, Long> d : b.getValue().entrySet()) {
        int i = d.getKey().ordinal();
        values[i] = WriteTxn.add(d.getKey(), values[i], d.getValue());
        meta.putWithBatch(batch, d.getKey().bucketMetaKey(b.getKey()),
            OmContext.encodeLong(values[i]));
      }
      bucketUpdates.put(b.getKey(), values);
    }
    for (long dropped : txn.droppedBuckets()) {
      meta.deletePrefixWithBatch(batch, OmCounter.bucketMetaPrefix(dropped));
    }
    return new Staged(updated, bucketUpdates, txn.droppedBuckets());
  }

  /** The store-wide values (exact, maintained by every write; no scan). */
  Map<OmCounter, Long> values() {
    synchronized (counters) {
      return asMap(counters);
    }
  }

  /**
   * The values of one bucket (by object id; zeros for none). A read does not fill the cache,
   * which only writes do (under the write lock), so a bucket deleted meanwhile leaves no entry.
   */
  Map<OmCounter, Long> ofBucket(long bucketId) {
    return asMap(bucketCounters(bucketId, false));
  }

  private static Map<OmCounter, Long> asMap(long[] values) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      out.put(c, values[c.ordinal()]);
    }
    return out;
  }

  private long[] bucketCounters(long bucketId, boolean cache) {
    synchronized (counters) {
      long[] cached = bucketCounters.get(bucketId);
      if (cached != null) {
        return cached;
      }
      if (cache) {
        // Writers (under the write lock) load and keep; readers never wait on these reads.
        long[] values = readBucketCounters(bucketId);
        bucketCounters.put(bucketId, values);
        return values;
      }
    }
    return readBucketCounters(bucketId);
  }

  private long[] readBucketCounters(long bucketId) {
    long[] values = new long[OmCounter.values().length];
    for (OmCounter c : OmCounter.values()) {
      byte[] v = meta.get(c.bucketMetaKey(bucketId));
      values[c.ordinal()] = v == null ? 0 : OmContext.decodeLong(v);
    }
    return values;
  }

  /**
   * Puts into {@code batch} the rows that replace every store-wide counter and, when
   * {@code buckets} is not null, every per-bucket counter (those of buckets absent from it are
   * dropped; zeros get no row). Caller holds the write lock and calls {@link #publishReset} once
   * the batch is committed.
   */
  void stageReset(BatchOperation batch, Map<OmCounter, Long> values,
      Map<Long, Map<OmCounter, Long>> buckets) {
    for (OmCounter c : OmCounter.values()) {
      meta.putWithBatch(batch, c.metaKey(), OmContext.encodeLong(values.getOrDefault(c, 0L)));
    }
    if (buckets != null) {
      meta.deletePrefixWithBatch(batch, OmCounter.BUCKET_META_ROOT);
      for (Map.Entry<Long, Map<OmCounter, Long>> b : buckets.entrySet()) {
        for (Map.Entry<OmCounter, Long> c : b.getValue().entrySet()) {
          if (c.getValue() != 0) {
            meta.putWithBatch(batch, c.getKey().bucketMetaKey(b.getKey()),
                OmContext.encodeLong(c.getValue()));
          }
        }
      }
    }
  }

  /**
   * Makes a committed reset the values readers see; with {@code bucketsReset} the per-bucket
   * cache is emptied (it reloads from the new rows).
   */
  void publishReset(Map<OmCounter, Long> values, boolean bucketsReset) {
    synchronized (counters) {
      for (OmCounter c : OmCounter.values()) {
        counters[c.ordinal()] = values.getOrDefault(c, 0L);
      }
      if (bucketsReset) {
        bucketCounters.clear();
      }
    }
  }
}
