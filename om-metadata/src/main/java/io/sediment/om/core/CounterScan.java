package io.sediment.om.core;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Computes every {@link OmCounter} from a full scan of one consistent view of the store: the
 * store-wide values and the values of every existing bucket.
 *
 * <p>Attribution of a row to a bucket: rows keyed by names ({@code /volume/bucket/...}: keyTable,
 * openKeyTable, deletedTable, multipartInfoTable) go to the bucket of that name, but only if the
 * row's object id is newer than the bucket's (object ids come from one increasing sequence, so a
 * version deleted before its bucket was deleted and re-created under the same name belongs to the
 * old bucket, whose counters were dropped with it). Rows keyed by ids
 * ({@code /volumeId/bucketId/...}: directoryTable, fileTable, openFileTable,
 * deletedDirectoryTable) go to the bucket whose object id is their second component. A row of
 * either shape that names no existing bucket counts store-wide only, as the write path does.
 */
public final class CounterScan {

  /** Counters a bucket owns (the others are store-wide only). */
  public static final OmCounter[] BUCKET_OWNED = {
      OmCounter.KEYS, OmCounter.KEY_BYTES, OmCounter.FILES, OmCounter.FILE_BYTES,
      OmCounter.DIRECTORIES, OmCounter.OPEN_KEYS, OmCounter.OPEN_FILES, OmCounter.DELETED_KEYS,
      OmCounter.DELETED_KEY_BYTES, OmCounter.DELETED_DIRECTORIES, OmCounter.MULTIPART_UPLOADS};

  /**
   * What a scan found.
   *
   * @param totals every counter, store-wide
   * @param buckets per existing bucket (by object id, in id order): the bucket-owned counters
   */
  public record Result(Map<OmCounter, Long> totals, Map<Long, Map<OmCounter, Long>> buckets) {
  }

  private CounterScan() {
  }

  /** The store-wide counters. */
  public static Map<OmCounter, Long> count(DBStore store) {
    return countAll(store).totals();
  }

  /** The store-wide and the per-bucket counters, from one view. */
  public static Result countAll(DBStore store) {
    try (ReadView view = store.openReadView()) {
      return countAll(view);
    }
  }

  public static Result countAll(ReadView view) {
    Map<OmCounter, Long> totals = new EnumMap<>(OmCounter.class);
    Attribution buckets = new Attribution();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(OmDBDefinition.BUCKET_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, BucketInfo> kv = it.next();
        buckets.add(kv.getKey(), kv.getValue().getObjectId());
      }
    }
    totals.put(OmCounter.VOLUMES, rows(view, OmDBDefinition.VOLUME_TABLE));
    totals.put(OmCounter.BUCKETS, (long) buckets.byId.size());
    sized(view, OmDBDefinition.KEY_TABLE, OmCounter.KEYS, OmCounter.KEY_BYTES, buckets, totals);
    sized(view, OmDBDefinition.FILE_TABLE, OmCounter.FILES, OmCounter.FILE_BYTES, buckets, totals);
    attributed(view, OmDBDefinition.DIRECTORY_TABLE, OmCounter.DIRECTORIES, buckets, totals);
    sized(view, OmDBDefinition.OPEN_KEY_TABLE, OmCounter.OPEN_KEYS, null, buckets, totals);
    sized(view, OmDBDefinition.OPEN_FILE_TABLE, OmCounter.OPEN_FILES, null, buckets, totals);
    sized(view, OmDBDefinition.DELETED_TABLE, OmCounter.DELETED_KEYS,
        OmCounter.DELETED_KEY_BYTES, buckets, totals);
    sized(view, OmDBDefinition.DELETED_DIRECTORY_TABLE, OmCounter.DELETED_DIRECTORIES, null,
        buckets, totals);
    long uploads = 0;
    try (TableIterator<String, KeyValue<String, MultipartUploadInfo>> it =
             view.getTable(OmDBDefinition.MULTIPART_INFO_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, MultipartUploadInfo> kv = it.next();
        uploads++;
        buckets.count(kv.getKey(), kv.getValue().getObjectId(), OmCounter.MULTIPART_UPLOADS, 1);
      }
    }
    totals.put(OmCounter.MULTIPART_UPLOADS, uploads);
    totals.put(OmCounter.SNAPSHOTS, rows(view, OmDBDefinition.SNAPSHOT_INFO_TABLE));
    return new Result(totals, buckets.result());
  }

  private static long rows(ReadView view, TableDefinition<?, ?> def) {
    long n = 0;
    Table<byte[], byte[]> table = view.getTable(def.name());
    try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator(null, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    return n;
  }

  /** Rows of a table keyed by ids, attributed by key only (values are not decoded). */
  private static void attributed(ReadView view, TableDefinition<String, ?> def, OmCounter rows,
      Attribution buckets, Map<OmCounter, Long> out) {
    long n = 0;
    try (TableIterator<String, ? extends KeyValue<String, ?>> it =
             view.getTable(def).iterator(null, IteratorType.KEY_ONLY)) {
      while (it.hasNext()) {
        buckets.count(it.next().getKey(), 0, rows, 1);
        n++;
      }
    }
    out.put(rows, n);
  }

  private static void sized(ReadView view, TableDefinition<String, KeyInfo> def, OmCounter rows,
      OmCounter bytes, Attribution buckets, Map<OmCounter, Long> out) {
    long n = 0;
    long size = 0;
    Table<String, KeyInfo> table = view.getTable(def);
    try (TableIterator<String, KeyValue<String, KeyInfo>> it = table.iterator()) {
      while (it.hasNext()) {
        KeyValue<String, KeyInfo> kv = it.next();
        KeyInfo info = kv.getValue();
        n++;
        size += info.getDataSize();
        buckets.count(kv.getKey(), info.getObjectId(), rows, 1);
        if (bytes != null) {
          buckets.count(kv.getKey(), info.getObjectId(), bytes, info.getDataSize());
        }
      }
    }
    out.put(rows, n);
    if (bytes != null) {
      out.put(bytes, size);
    }
  }

  /** Bucket lookup by name ({@code /volume/bucket}) and by object id, and the running counts. */
  private static final class Attribution {
    private final Map<String, Long> byName = new HashMap<>();
    private final Map<Long, long[]> byId = new TreeMap<>(Long::compareUnsigned);

    void add(String bucketKey, long id) {
      byName.put(bucketKey, id);
      byId.put(id, new long[OmCounter.values().length]);
    }

    public void count(String key, long objectId, OmCounter counter, long delta) {
      long[] values = bucketOf(key, objectId);
      if (values != null) {
        values[counter.ordinal()] += delta;
      }
    }

    /** The counters of the bucket {@code key} belongs to, or null. */
    private long[] bucketOf(String key, long objectId) {
      int second = key.indexOf(OmKeys.SEPARATOR, 1);
      if (key.isEmpty() || key.charAt(0) != OmKeys.SEPARATOR || second < 0) {
        return null;
      }
      int third = key.indexOf(OmKeys.SEPARATOR, second + 1);
      if (third < 0) {
        return null;
      }
      Long named = byName.get(key.substring(0, third));
      if (named != null && (objectId == 0 || Long.compareUnsigned(objectId, named) > 0)) {
        return byId.get(named);
      }
      if (second == OmKeys.ID_WIDTH + 1 && third == 2 * OmKeys.ID_WIDTH + 2) {
        try {
          OmKeys.parseId(key.substring(1, second));
          return byId.get(OmKeys.parseId(key.substring(second + 1, third)));
        } catch (IllegalArgumentException notAnId) {
          return null;
        }
      }
      return null;
    }

    Map<Long, Map<OmCounter, Long>> result() {
      Map<Long, Map<OmCounter, Long>> out = new java.util.LinkedHashMap<>();
      for (Map.Entry<Long, long[]> e : byId.entrySet()) {
        Map<OmCounter, Long> m = new EnumMap<>(OmCounter.class);
        for (OmCounter c : BUCKET_OWNED) {
          m.put(c, e.getValue()[c.ordinal()]);
        }
        out.put(e.getKey(), m);
      }
      return out;
    }
  }

  /**
   * Resets the maintained counters, store-wide and per bucket, to those of a full scan, under the
   * write lock (writes wait); returns the store-wide totals.
   */
  public static Map<OmCounter, Long> recount(OmContext ctx) {
    return ctx.underWriteLock(() -> {
      Result scan = countAll(ctx.store());
      ctx.resetCounters(scan.totals(), scan.buckets());
      return scan.totals();
    });
  }
}
