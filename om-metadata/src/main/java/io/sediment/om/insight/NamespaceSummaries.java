package io.sediment.om.insight;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.VOLUME_TABLE;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.fso.FsoTree;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Namespace summary, usage, quota and file-size distribution of {@link OmInsight}: figures for a
 * path from the maintained counters (root, volume, bucket) or from a walk of an FSO directory's
 * subtree or a scan of an OBS bucket's keys within the walk budget, each from one
 * {@link ReadView}. Thread-safe: no state between calls.
 */
final class NamespaceSummaries {

  private final DBStore store;
  private final long walkBudget;

  NamespaceSummaries(DBStore store, long walkBudget) {
    this.store = store;
    this.walkBudget = walkBudget;
  }

  /** See {@link OmInsight#summary}. */
  OmInsight.Summary summary(String path) {
    try (ReadView view = store.openReadView()) {
      InsightPaths.Target t = InsightPaths.resolve(view, path, walkBudget);
      switch (t.type()) {
        case ROOT -> {
          Map<OmCounter, Long> c = InsightCounters.totals(view);
          return new OmInsight.Summary(t.path(), t.type(), c.get(OmCounter.VOLUMES),
              c.get(OmCounter.BUCKETS), c.get(OmCounter.DIRECTORIES), InsightCounters.keys(c),
              InsightCounters.bytes(c), null, null, null, null);
        }
        case VOLUME -> {
          List<BucketInfo> buckets = InsightPaths.buckets(view, t.volume().getName());
          Map<OmCounter, Long> c = InsightCounters.sum(view, buckets);
          return new OmInsight.Summary(t.path(), t.type(), -1, buckets.size(),
              c.get(OmCounter.DIRECTORIES), InsightCounters.keys(c), InsightCounters.bytes(c),
              t.volume(), null, null, null);
        }
        case BUCKET -> {
          Map<OmCounter, Long> c = InsightCounters.bucketCounters(view, t.bucket().getObjectId());
          return new OmInsight.Summary(t.path(), t.type(), -1, -1, c.get(OmCounter.DIRECTORIES),
              InsightCounters.keys(c), InsightCounters.bytes(c), t.volume(), t.bucket(), null,
              null);
        }
        case DIRECTORY -> {
          FsoTree.Totals c = t.tree().totals(t.directoryId());
          return new OmInsight.Summary(t.path(), t.type(), -1, -1, c.directories(), c.files(),
              c.bytes(), t.volume(), t.bucket(), t.directory(), null);
        }
        case KEY -> {
          return new OmInsight.Summary(t.path(), t.type(), -1, -1, -1, 1, t.key().getDataSize(),
              t.volume(), t.bucket(), null, t.key());
        }
        default -> {
          return new OmInsight.Summary(t.path(), t.type(), -1, -1, -1, -1, 0, null, null, null,
              null);
        }
      }
    }
  }

  /** See {@link OmInsight#usage}. */
  OmInsight.Usage usage(String path, boolean files, int topN) {
    try (ReadView view = store.openReadView()) {
      InsightPaths.Target t = InsightPaths.resolve(view, path, walkBudget);
      String norm = t.path();
      switch (t.type()) {
        case ROOT -> {
          return rootUsage(view, norm, topN);
        }
        case VOLUME -> {
          List<OmInsight.SubPath> subs = new ArrayList<>();
          long total = 0;
          for (BucketInfo b : InsightPaths.buckets(view, t.volume().getName())) {
            long size = InsightCounters.bytes(InsightCounters.bucketCounters(view, b.getObjectId()));
            total += size;
            subs.add(new OmInsight.SubPath(norm + "/" + b.getBucketName(), size, false));
          }
          return usage(norm, t.type(), total, -1, subs, topN);
        }
        case KEY -> {
          return new OmInsight.Usage(norm, t.type(), t.key().getDataSize(), -1, 0, List.of());
        }
        case UNKNOWN -> {
          return new OmInsight.Usage(norm, t.type(), 0, -1, 0, List.of());
        }
        default -> {
          return t.fso() ? treeUsage(view, t, files, topN) : obsUsage(view, t, files, topN);
        }
      }
    }
  }

  private static OmInsight.Usage rootUsage(ReadView view, String norm, int topN) {
    List<OmInsight.SubPath> subs = new ArrayList<>();
    Map<String, List<BucketInfo>> byVolume = new TreeMap<>();
    try (TableIterator<String, KeyValue<String, VolumeInfo>> it =
             view.getTable(VOLUME_TABLE).iterator()) {
      while (it.hasNext()) {
        byVolume.put(it.next().getValue().getName(), new ArrayList<>());
      }
    }
    for (BucketInfo b : allBuckets(view)) {
      byVolume.computeIfAbsent(b.getVolumeName(), v -> new ArrayList<>()).add(b);
    }
    for (Map.Entry<String, List<BucketInfo>> v : byVolume.entrySet()) {
      subs.add(new OmInsight.SubPath(InsightPaths.ROOT + v.getKey(),
          InsightCounters.bytes(InsightCounters.sum(view, v.getValue())), false));
    }
    return usage(norm, OmInsight.PathType.ROOT,
        InsightCounters.bytes(InsightCounters.totals(view)), -1, subs, topN);
  }

  /** An FSO bucket or directory: its children, each subdirectory with a walk of its subtree. */
  private static OmInsight.Usage treeUsage(ReadView view, InsightPaths.Target t, boolean files,
      int topN) {
    List<OmInsight.SubPath> subs = new ArrayList<>();
    long size = 0;
    long direct = 0;
    for (FsoTree.Child c : t.tree().childrenWithTotals(t.directoryId())) {
      size += c.totals().bytes();
      if (c.isFile()) {
        direct += c.totals().bytes();
        if (!files) {
          continue;
        }
      }
      subs.add(new OmInsight.SubPath(t.path() + "/" + c.name(), c.totals().bytes(), c.isFile()));
    }
    subs.sort(Comparator.comparing(OmInsight.SubPath::path));
    if (t.type() == OmInsight.PathType.BUCKET) {
      size = InsightCounters.bytes(InsightCounters.bucketCounters(view, t.bucket().getObjectId()));
    }
    return usage(t.path(), t.type(), size, direct, subs, topN);
  }

  /** An OBS or LEGACY bucket: its size from the counters, its keys from a scan when asked for. */
  private OmInsight.Usage obsUsage(ReadView view, InsightPaths.Target t, boolean files,
      int topN) {
    long size = InsightCounters.bytes(InsightCounters.bucketCounters(view, t.bucket().getObjectId()));
    List<OmInsight.SubPath> subs = new ArrayList<>();
    if (files) {
      eachKey(view, t.bucket(), walkBudget, () -> new OmException(
          OmException.Code.RESOURCE_EXHAUSTED, "The bucket has more than " + walkBudget
              + " keys, the most one request lists; ask without files=true"),
          (key, info) -> subs.add(new OmInsight.SubPath(key, info.getDataSize(), true)));
    }
    return usage(t.path(), t.type(), size, size, subs, topN);
  }

  /**
   * See {@link OmInsight#quota}: the volumes' quotas and the counters, a few point reads and one
   * bounded volumeTable or bucketTable range; nothing is walked.
   */
  OmInsight.Quota quota(String path) {
    try (ReadView view = store.openReadView()) {
      InsightPaths.Target t = InsightPaths.resolve(view, path, walkBudget);
      switch (t.type()) {
        case ROOT -> {
          long allowed = 0;
          try (TableIterator<String, KeyValue<String, VolumeInfo>> it =
                   view.getTable(VOLUME_TABLE).iterator()) {
            while (it.hasNext() && allowed != OmInsight.Quota.UNLIMITED) {
              long q = allowed(it.next().getValue().getQuotaInBytes());
              allowed = q == OmInsight.Quota.UNLIMITED ? q : saturatedAdd(allowed, q);
            }
          }
          return new OmInsight.Quota(t.path(), t.type(), allowed,
              InsightCounters.bytes(InsightCounters.totals(view)));
        }
        case VOLUME -> {
          List<BucketInfo> buckets = InsightPaths.buckets(view, t.volume().getName());
          return new OmInsight.Quota(t.path(), t.type(), allowed(t.volume().getQuotaInBytes()),
              InsightCounters.bytes(InsightCounters.sum(view, buckets)));
        }
        case BUCKET -> {
          return new OmInsight.Quota(t.path(), t.type(), allowed(t.bucket().getQuotaInBytes()),
              InsightCounters.bytes(InsightCounters.bucketCounters(view, t.bucket().getObjectId())));
        }
        default -> {
          return new OmInsight.Quota(t.path(), t.type(), 0, 0);
        }
      }
    }
  }

  /** Sediment stores "no quota" as 0, Ozone (and so Recon's clients) as -1. */
  private static long allowed(long quotaInBytes) {
    return quotaInBytes == 0 ? OmInsight.Quota.UNLIMITED : quotaInBytes;
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /**
   * See {@link OmInsight#fileSizes}: every committed key or file below the path is read, one
   * bucket after another (one keyTable or fileTable range each), or a directory with the walk of
   * its tree, all within one walk budget.
   */
  OmInsight.FileSizes fileSizes(String path) {
    try (ReadView view = store.openReadView()) {
      InsightPaths.Target t = InsightPaths.resolve(view, path, walkBudget);
      long[] counts = new long[FileSizeBins.COUNT];
      Histogram h = new Histogram(t.path(), counts);
      switch (t.type()) {
        case ROOT -> {
          h.expect(InsightCounters.keys(InsightCounters.totals(view)));
          allBuckets(view).forEach(b -> h.bucket(view, b));
        }
        case VOLUME -> {
          List<BucketInfo> buckets = InsightPaths.buckets(view, t.volume().getName());
          h.expect(InsightCounters.keys(InsightCounters.sum(view, buckets)));
          buckets.forEach(b -> h.bucket(view, b));
        }
        case BUCKET -> {
          h.expect(InsightCounters.keys(
              InsightCounters.bucketCounters(view, t.bucket().getObjectId())));
          h.bucket(view, t.bucket());
        }
        // The path's tree was built with the whole budget, all that is left.
        case DIRECTORY -> h.tree(t.tree(), t.directoryId());
        default -> {
          // A key has no distribution, a missing path none either: all bins zero.
        }
      }
      List<Long> out = new ArrayList<>(counts.length);
      for (long c : counts) {
        out.add(c);
      }
      return new OmInsight.FileSizes(t.path(), t.type(), List.copyOf(out));
    }
  }

  /** Counts files into bins, the rows read by all its buckets together within the walk budget. */
  private final class Histogram {
    private final String path;
    private final long[] counts;
    private long left = walkBudget;

    Histogram(String path, long[] counts) {
      this.path = path;
      this.counts = counts;
    }

    /**
     * Refuses at once, before reading a row, a path whose counters already say it holds more
     * keys than the budget reads (the scan would only be refused at its end).
     */
    void expect(long keys) {
      if (keys > left) {
        throw tooLarge();
      }
    }

    /**
     * The rows the bucket's counters count: an FSO bucket's whole fileTable range, so the files
     * of a recursively deleted directory count until the purge takes them, as in numKey.
     */
    void bucket(ReadView view, BucketInfo b) {
      left -= eachKey(view, b, left, this::tooLarge,
          (key, info) -> counts[FileSizeBins.binOf(info.getDataSize())]++);
    }

    /** Walks below {@code dirId} in a tree built with what is left of the budget. */
    void tree(FsoTree tree, long dirId) {
      try {
        tree.walk(dirId, f -> counts[FileSizeBins.binOf(f.getDataSize())]++);
      } catch (OmException e) {
        throw e.code() == OmException.Code.RESOURCE_EXHAUSTED ? tooLarge() : e;
      }
      left -= tree.visited();
    }

    private OmException tooLarge() {
      return new OmException(OmException.Code.RESOURCE_EXHAUSTED, "The file-size distribution of '"
          + path + "' needs more than " + walkBudget + " rows read, the most one request reads;"
          + " ask about a volume, bucket or directory below it");
    }
  }

  /**
   * Visits every committed key of a bucket with one bounded range: keyTable's
   * {@code /volume/bucket/} for an OBS or LEGACY bucket, fileTable's {@code /volumeId/bucketId/}
   * for an FSO one (the rows its counters count); reads at most {@code budget} rows
   * ({@code tooMany} is thrown beyond) and returns how many it read.
   */
  private static long eachKey(ReadView view, BucketInfo b, long budget,
      Supplier<OmException> tooMany, BiConsumer<String, KeyInfo> each) {
    boolean fso = b.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED;
    long visited = 0;
    try (TableIterator<String, KeyValue<String, KeyInfo>> it =
             view.getTable(fso ? FILE_TABLE : KEY_TABLE).iterator(fso
                 ? OmKeys.fsoBucketPrefix(b.getVolumeId(), b.getObjectId())
                 : OmKeys.bucketPrefix(b.getVolumeName(), b.getBucketName()))) {
      while (it.hasNext()) {
        if (++visited > budget) {
          throw tooMany.get();
        }
        KeyValue<String, KeyInfo> kv = it.next();
        each.accept(kv.getKey(), kv.getValue());
      }
    }
    return visited;
  }

  private static List<BucketInfo> allBuckets(ReadView view) {
    List<BucketInfo> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator()) {
      while (it.hasNext()) {
        out.add(it.next().getValue());
      }
    }
    return out;
  }

  private static OmInsight.Usage usage(String path, OmInsight.PathType type, long size, long direct,
      List<OmInsight.SubPath> subs, int topN) {
    int count = subs.size();
    List<OmInsight.SubPath> out = subs;
    if (topN > 0) {
      out = new ArrayList<>(subs);
      out.sort(Comparator.comparingLong(OmInsight.SubPath::size).reversed()
          .thenComparing(OmInsight.SubPath::path));
      out = List.copyOf(out.subList(0, Math.min(topN, out.size())));
    }
    return new OmInsight.Usage(path, type, size, direct, count, List.copyOf(out));
  }
}
