package io.sediment.om.insight;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.om.core.CounterScan;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.proto.om.BucketInfo;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The counters of {@link OmInsight}: the maintained ones (meta-table rows every write updates in
 * its own batch; a few point reads) and, for checks, the same figures from a full scan, each from
 * one {@link ReadView}. Thread-safe: no state between calls.
 */
final class InsightCounters {

  private final DBStore store;

  InsightCounters(DBStore store) {
    this.store = store;
  }

  /** The maintained store-wide counters, as the meta table holds them now (a few point reads). */
  Map<OmCounter, Long> counters() {
    try (ReadView view = store.openReadView()) {
      return totals(view);
    }
  }

  /** The maintained counters of every bucket and of the store, from one view. */
  OmInsight.Counters maintainedCounters() {
    try (ReadView view = store.openReadView()) {
      return maintainedCounters(view);
    }
  }

  /**
   * The maintained counters and the same figures from a full scan, both as one moment sees them,
   * so that any difference is a counter kept wrong or rows lost, never a write in between.
   */
  OmInsight.CounterComparison compareCounters() {
    try (ReadView view = store.openReadView()) {
      return new OmInsight.CounterComparison(maintainedCounters(view), scannedCounters(view));
    }
  }

  private OmInsight.Counters maintainedCounters(ReadView view) {
    Map<String, Map<OmCounter, Long>> buckets = new LinkedHashMap<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, BucketInfo> kv = it.next();
        buckets.put(kv.getKey(), bucketOwned(bucketCounters(view, kv.getValue().getObjectId())));
      }
    }
    return new OmInsight.Counters(totals(view), buckets);
  }

  /**
   * The same figures computed by a full scan of every counted table (for checks and recovery;
   * never used to answer a request).
   */
  OmInsight.Counters scannedCounters() {
    try (ReadView view = store.openReadView()) {
      return scannedCounters(view);
    }
  }

  private static OmInsight.Counters scannedCounters(ReadView view) {
    CounterScan.Result scan = CounterScan.countAll(view);
    Map<String, Map<OmCounter, Long>> buckets = new LinkedHashMap<>();
    Map<Long, String> names = new HashMap<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, BucketInfo> kv = it.next();
        names.put(kv.getValue().getObjectId(), kv.getKey());
        buckets.put(kv.getKey(), null);
      }
    }
    for (Map.Entry<Long, Map<OmCounter, Long>> e : scan.buckets().entrySet()) {
      buckets.put(names.get(e.getKey()), e.getValue());
    }
    return new OmInsight.Counters(scan.totals(), buckets);
  }

  static Map<OmCounter, Long> totals(ReadView view) {
    Table<String, byte[]> meta = view.getTable(META_TABLE);
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      byte[] v = meta.get(c.metaKey());
      out.put(c, v == null ? 0 : OmContext.decodeLong(v));
    }
    return out;
  }

  /** Every counter of one bucket (zeros for none): one bounded meta-table range. */
  static Map<OmCounter, Long> bucketCounters(ReadView view, long bucketId) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      out.put(c, 0L);
    }
    String prefix = OmCounter.bucketMetaPrefix(bucketId);
    try (TableIterator<String, KeyValue<String, byte[]>> it =
             view.getTable(META_TABLE).iterator(prefix)) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> kv = it.next();
        String name = kv.getKey().substring(prefix.length());
        if (Arrays.stream(OmCounter.values()).anyMatch(c -> c.name().equals(name))) {
          out.put(OmCounter.valueOf(name), OmContext.decodeLong(kv.getValue()));
        }
      }
    }
    return out;
  }

  private static Map<OmCounter, Long> bucketOwned(Map<OmCounter, Long> all) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : CounterScan.BUCKET_OWNED) {
      out.put(c, all.getOrDefault(c, 0L));
    }
    return out;
  }

  static Map<OmCounter, Long> sum(ReadView view, List<BucketInfo> buckets) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      out.put(c, 0L);
    }
    for (BucketInfo b : buckets) {
      bucketCounters(view, b.getObjectId()).forEach((c, v) -> out.merge(c, v, Long::sum));
    }
    return out;
  }

  static long keys(Map<OmCounter, Long> c) {
    return c.get(OmCounter.KEYS) + c.get(OmCounter.FILES);
  }

  static long bytes(Map<OmCounter, Long> c) {
    return c.get(OmCounter.KEY_BYTES) + c.get(OmCounter.FILE_BYTES);
  }
}
