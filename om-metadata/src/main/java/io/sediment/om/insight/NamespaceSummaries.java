package io.sediment.om.insight;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
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
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Namespace summary and usage of {@link OmInsight}: figures for a path from the maintained
 * counters (root, volume, bucket) or from a walk of an FSO directory's subtree within the walk
 * budget, each from one {@link ReadView}. Thread-safe: no state between calls.
 */
final class NamespaceSummaries {

  private final DBStore store;
  private final long walkBudget;

  NamespaceSummaries(DBStore store, long walkBudget) {
    this.store = store;
    this.walkBudget = walkBudget;
  }

  /**
   * What is under {@code path} ({@code /}, {@code /volume}, {@code /volume/bucket} or a path inside
   * a bucket; repeated and trailing slashes are ignored). Root, volume and bucket figures come from
   * the counters; a directory of an FSO bucket costs a walk of its subtree (within the budget).
   * A path that names nothing has type {@link OmInsight.PathType#UNKNOWN}.
   *
   * @throws OmException INVALID_ARGUMENT if the path is missing or relative, RESOURCE_EXHAUSTED
   */
  OmInsight.Summary summary(String path) {
    List<String> parts = InsightPaths.pathComponents("path", path);
    String norm = InsightPaths.normalized(parts);
    try (ReadView view = store.openReadView()) {
      if (parts.isEmpty()) {
        Map<OmCounter, Long> t = InsightCounters.totals(view);
        return new OmInsight.Summary(norm, OmInsight.PathType.ROOT, t.get(OmCounter.VOLUMES), t.get(OmCounter.BUCKETS),
            t.get(OmCounter.DIRECTORIES), InsightCounters.keys(t), InsightCounters.bytes(t), null, null, null, null);
      }
      VolumeInfo volume = view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(parts.get(0)));
      if (volume == null) {
        return unknown(norm);
      }
      if (parts.size() == 1) {
        List<BucketInfo> buckets = InsightPaths.buckets(view, parts.get(0));
        Map<OmCounter, Long> sum = InsightCounters.sum(view, buckets);
        return new OmInsight.Summary(norm, OmInsight.PathType.VOLUME, -1, buckets.size(),
            sum.get(OmCounter.DIRECTORIES), InsightCounters.keys(sum), InsightCounters.bytes(sum), volume, null, null, null);
      }
      BucketInfo bucket = InsightPaths.bucket(view, parts.get(0), parts.get(1));
      if (bucket == null) {
        return unknown(norm);
      }
      if (parts.size() == 2) {
        Map<OmCounter, Long> c = InsightCounters.bucketCounters(view, bucket.getObjectId());
        return new OmInsight.Summary(norm, OmInsight.PathType.BUCKET, -1, -1, c.get(OmCounter.DIRECTORIES), InsightCounters.keys(c),
            InsightCounters.bytes(c), volume, bucket, null, null);
      }
      List<String> inside = parts.subList(2, parts.size());
      if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        KeyInfo key = view.getTable(KEY_TABLE).get(
            OmKeys.objectKey(parts.get(0), parts.get(1), String.join("/", inside)));
        return key == null ? unknown(norm) : new OmInsight.Summary(norm, OmInsight.PathType.KEY, -1, -1, -1, 1,
            key.getDataSize(), volume, bucket, null, key);
      }
      FsoTree tree = InsightPaths.tree(view, bucket, walkBudget);
      DirectoryInfo dir = tree.directory(inside);
      if (dir != null) {
        FsoTree.Totals t = tree.totals(dir.getObjectId());
        return new OmInsight.Summary(norm, OmInsight.PathType.DIRECTORY, -1, -1, t.directories(), t.files(),
            t.bytes(), volume, bucket, dir, null);
      }
      Long parent = tree.directoryId(inside.subList(0, inside.size() - 1));
      KeyInfo file = parent == null ? null : tree.file(parent, inside.get(inside.size() - 1));
      return file == null ? unknown(norm) : new OmInsight.Summary(norm, OmInsight.PathType.KEY, -1, -1, -1, 1,
          file.getDataSize(), volume, bucket, null, file);
    }
  }

  /**
   * The data size under {@code path} and of each entry directly below it. Root: the volumes;
   * volume: the buckets (both from counters); FSO bucket or directory: its subdirectories (each
   * with a walk of its subtree, within the budget) and, with {@code files}, its files; OBS/LEGACY
   * bucket: with {@code files}, its keys (a bounded scan within the budget); a key: itself.
   *
   * @param files list keys and files among the sub-paths
   * @param topN when positive, only the {@code topN} largest sub-paths, largest first;
   *     else all, in name order
   * @throws OmException INVALID_ARGUMENT, RESOURCE_EXHAUSTED as {@link OmInsight#summary}
   */
  OmInsight.Usage usage(String path, boolean files, int topN) {
    List<String> parts = InsightPaths.pathComponents("path", path);
    String norm = InsightPaths.normalized(parts);
    try (ReadView view = store.openReadView()) {
      if (parts.isEmpty()) {
        List<OmInsight.SubPath> subs = new ArrayList<>();
        Map<String, List<BucketInfo>> byVolume = new TreeMap<>();
        try (TableIterator<String, KeyValue<String, VolumeInfo>> it =
                 view.getTable(VOLUME_TABLE).iterator()) {
          while (it.hasNext()) {
            byVolume.put(it.next().getValue().getName(), new ArrayList<>());
          }
        }
        try (TableIterator<String, KeyValue<String, BucketInfo>> it =
                 view.getTable(BUCKET_TABLE).iterator()) {
          while (it.hasNext()) {
            BucketInfo b = it.next().getValue();
            byVolume.computeIfAbsent(b.getVolumeName(), v -> new ArrayList<>()).add(b);
          }
        }
        for (Map.Entry<String, List<BucketInfo>> v : byVolume.entrySet()) {
          subs.add(new OmInsight.SubPath(InsightPaths.ROOT + v.getKey(), InsightCounters.bytes(InsightCounters.sum(view, v.getValue())), false));
        }
        return usage(norm, OmInsight.PathType.ROOT, InsightCounters.bytes(InsightCounters.totals(view)), -1, subs, topN);
      }
      VolumeInfo volume = view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(parts.get(0)));
      if (volume == null) {
        return new OmInsight.Usage(norm, OmInsight.PathType.UNKNOWN, 0, -1, 0, List.of());
      }
      if (parts.size() == 1) {
        List<OmInsight.SubPath> subs = new ArrayList<>();
        long total = 0;
        for (BucketInfo b : InsightPaths.buckets(view, parts.get(0))) {
          long size = InsightCounters.bytes(InsightCounters.bucketCounters(view, b.getObjectId()));
          total += size;
          subs.add(new OmInsight.SubPath(norm + "/" + b.getBucketName(), size, false));
        }
        return usage(norm, OmInsight.PathType.VOLUME, total, -1, subs, topN);
      }
      BucketInfo bucket = InsightPaths.bucket(view, parts.get(0), parts.get(1));
      if (bucket == null) {
        return new OmInsight.Usage(norm, OmInsight.PathType.UNKNOWN, 0, -1, 0, List.of());
      }
      List<String> inside = parts.subList(2, parts.size());
      if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        return obsUsage(view, norm, parts, bucket, files, topN);
      }
      FsoTree tree = InsightPaths.tree(view, bucket, walkBudget);
      Long dirId = tree.directoryId(inside);
      if (dirId == null) {
        Long parent = tree.directoryId(inside.subList(0, inside.size() - 1));
        KeyInfo file = parent == null ? null : tree.file(parent, inside.get(inside.size() - 1));
        return file == null ? new OmInsight.Usage(norm, OmInsight.PathType.UNKNOWN, 0, -1, 0, List.of())
            : new OmInsight.Usage(norm, OmInsight.PathType.KEY, file.getDataSize(), -1, 0, List.of());
      }
      List<OmInsight.SubPath> subs = new ArrayList<>();
      long size = 0;
      long direct = 0;
      for (FsoTree.Child c : tree.childrenWithTotals(dirId)) {
        size += c.totals().bytes();
        if (c.isFile()) {
          direct += c.totals().bytes();
          if (!files) {
            continue;
          }
        }
        subs.add(new OmInsight.SubPath(norm + "/" + c.name(), c.totals().bytes(), c.isFile()));
      }
      subs.sort(Comparator.comparing(OmInsight.SubPath::path));
      if (inside.isEmpty()) {
        size = InsightCounters.bytes(InsightCounters.bucketCounters(view, bucket.getObjectId()));
      }
      return usage(norm, inside.isEmpty() ? OmInsight.PathType.BUCKET : OmInsight.PathType.DIRECTORY, size, direct,
          subs, topN);
    }
  }

  private OmInsight.Usage obsUsage(ReadView view, String norm, List<String> parts, BucketInfo bucket,
      boolean files, int topN) {
    List<String> inside = parts.subList(2, parts.size());
    if (!inside.isEmpty()) {
      KeyInfo key = view.getTable(KEY_TABLE).get(
          OmKeys.objectKey(parts.get(0), parts.get(1), String.join("/", inside)));
      return key == null ? new OmInsight.Usage(norm, OmInsight.PathType.UNKNOWN, 0, -1, 0, List.of())
          : new OmInsight.Usage(norm, OmInsight.PathType.KEY, key.getDataSize(), -1, 0, List.of());
    }
    long size = InsightCounters.bytes(InsightCounters.bucketCounters(view, bucket.getObjectId()));
    List<OmInsight.SubPath> subs = new ArrayList<>();
    if (files) {
      long visited = 0;
      String prefix = OmKeys.bucketPrefix(parts.get(0), parts.get(1));
      try (TableIterator<String, KeyValue<String, KeyInfo>> it =
               view.getTable(KEY_TABLE).iterator(prefix)) {
        while (it.hasNext()) {
          if (++visited > walkBudget) {
            throw new OmException(OmException.Code.RESOURCE_EXHAUSTED, "The bucket has more than "
                + walkBudget + " keys, the most one request lists; ask without files=true");
          }
          KeyValue<String, KeyInfo> kv = it.next();
          subs.add(new OmInsight.SubPath(kv.getKey(), kv.getValue().getDataSize(), true));
        }
      }
    }
    return usage(norm, OmInsight.PathType.BUCKET, size, size, subs, topN);
  }

  private static OmInsight.Usage usage(String path, OmInsight.PathType type, long size, long direct,
      List<OmInsight.SubPath> subs, int topN) {
    int count = subs.size();
    List<OmInsight.SubPath> out = subs;
    if (topN > 0) {
      out = new ArrayList<>(subs);
      out.sort(Comparator.comparingLong(OmInsight.SubPath::size).reversed().thenComparing(OmInsight.SubPath::path));
      out = List.copyOf(out.subList(0, Math.min(topN, out.size())));
    }
    return new OmInsight.Usage(path, type, size, direct, count, List.copyOf(out));
  }

  private static OmInsight.Summary unknown(String path) {
    return new OmInsight.Summary(path, OmInsight.PathType.UNKNOWN, -1, -1, -1, -1, 0, null, null, null, null);
  }
}
