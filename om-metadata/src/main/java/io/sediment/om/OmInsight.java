package io.sediment.om;

import static io.sediment.om.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.OmDBDefinition.META_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.OmDBDefinition.OPEN_KEY_TABLE;
import static io.sediment.om.OmDBDefinition.VOLUME_TABLE;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Read-only insight into a namespace, for Recon: paged listings of open keys, pending deletes,
 * pending directory deletes and keys, the maintained counters, and namespace summary and usage
 * for a path. Obtained from {@link OmMetadataStore#insight()}, or with {@link #over} from a
 * store opened some other way (for example a read-only secondary instance).
 *
 * <h2>Consistency and cost</h2>
 * Every method reads one {@link ReadView} (one RocksDB snapshot; on a secondary store, one moment
 * between catch-ups), so a page and the figures next to it agree. Counters come from the meta
 * table rows that every write updates in its own batch ({@link OmCounter}): a summary is a few
 * point reads, never a scan. A volume's figures are the sum of its buckets' counters (one bounded
 * bucketTable scan of that volume). Inside an FSO bucket, a directory's figures and the FSO
 * {@link #listKeys} need the directory tree below the path: a walk that reads at most the walk
 * budget of rows ({@link OmException.Code#RESOURCE_EXHAUSTED} beyond), each directory's children
 * being one bounded range.
 *
 * <h2>Paging</h2>
 * A listing returns rows in a fixed order (table rank, then DB key) and the DB key of its last row
 * ({@code lastKey}); passing it back as {@code prevKey} returns the rows after it (exclusive). If
 * that row was deleted in between, the next page starts at the next live row: nothing is skipped
 * (Recon skips one). {@code hasMore} is exact. Page sizes are clamped to the cap.
 *
 * <p>Thread-safe: it keeps no state between calls.
 */
public final class OmInsight {

  /** Default page size, as Recon's. */
  public static final int DEFAULT_LIMIT = 1000;
  /** Default most rows one directory-tree walk reads. */
  public static final long DEFAULT_WALK_BUDGET = 200_000;

  private static final String ROOT = "/";

  private final DBStore store;
  private final int maxLimit;
  private final long walkBudget;

  private OmInsight(DBStore store, int maxLimit, long walkBudget) {
    this.store = Objects.requireNonNull(store, "store");
    if (maxLimit < 1 || walkBudget < 1) {
      throw new IllegalArgumentException("maxLimit and walkBudget must be positive");
    }
    this.maxLimit = maxLimit;
    this.walkBudget = walkBudget;
  }

  /**
   * Insight over any store of the {@link OmDBDefinition} layout, read-only (a secondary instance
   * or a checkpoint will do).
   *
   * @param maxLimit the page-size cap
   * @param walkBudget the most rows one directory-tree walk reads
   */
  public static OmInsight over(DBStore store, int maxLimit, long walkBudget) {
    return new OmInsight(store, maxLimit, walkBudget);
  }

  /** The page-size cap. */
  public int maxLimit() {
    return maxLimit;
  }

  /** The store read. */
  public DBStore store() {
    return store;
  }

  // ---------------------------------------------------------------------------------------------
  // Results

  /**
   * One listed row.
   *
   * @param table the table it was read from
   * @param key its DB key (what {@code prevKey} takes)
   * @param path its full path {@code /volume/bucket/key...}
   * @param fso whether it belongs to an FSO bucket
   * @param info the stored value
   */
  public record Row(String table, String key, String path, boolean fso, KeyInfo info) {
  }

  /**
   * One page.
   *
   * @param rows in listing order
   * @param lastKey the DB key of the last row, {@code ""} for an empty page
   * @param lastKeyTable the table of the last row, {@code ""} for an empty page
   * @param hasMore whether rows follow this page (exact)
   * @param dataSize the sum of the rows' data sizes
   */
  public record Page(List<Row> rows, String lastKey, String lastKeyTable, boolean hasMore,
      long dataSize) {
  }

  /**
   * The counters of the store and of every bucket, as one moment sees them.
   *
   * @param totals every counter, store-wide
   * @param buckets by {@code /volume/bucket}, in name order: the bucket-owned counters
   */
  public record Counters(Map<OmCounter, Long> totals, Map<String, Map<OmCounter, Long>> buckets) {
  }

  /** What a namespace path names. */
  public enum PathType { ROOT, VOLUME, BUCKET, DIRECTORY, KEY, UNKNOWN }

  /**
   * Counts under a path; {@code -1} where a figure does not apply (as in Recon).
   *
   * @param path the normalized path
   * @param type what it names; {@link PathType#UNKNOWN} if nothing
   * @param numVolume volumes (root only)
   * @param numBucket buckets (root and volume)
   * @param numDir directories below, recursively
   * @param numKey keys and files below, recursively
   * @param size their data size
   * @param volume the volume's row (volume, bucket and below), else null
   * @param bucket the bucket's row (bucket and below), else null
   * @param directory the directory's row, else null
   * @param key the key's row, else null
   */
  public record Summary(String path, PathType type, long numVolume, long numBucket, long numDir,
      long numKey, long size, VolumeInfo volume, BucketInfo bucket, DirectoryInfo directory,
      KeyInfo key) {
  }

  /**
   * One entry directly below a path, with the size of everything below it.
   *
   * @param path its full path
   * @param size data size below it (a key: its own)
   * @param isKey whether it is a key or file
   */
  public record SubPath(String path, long size, boolean isKey) {
  }

  /**
   * Disk usage of a path.
   *
   * @param path the normalized path
   * @param type what it names
   * @param size data size below it
   * @param sizeDirectKey size of the keys directly in it ({@code -1} for root and volumes)
   * @param subPathCount entries directly below it (keys only when asked for)
   * @param subPaths those entries, in name order or, when sorted, the largest first and at most
   *     {@code topN}
   */
  public record Usage(String path, PathType type, long size, long sizeDirectKey, int subPathCount,
      List<SubPath> subPaths) {
  }

  // ---------------------------------------------------------------------------------------------
  // Listings

  /** Ranks: a listing over two tables returns every row of the first before the second. */
  private static final int FIRST = 0;
  private static final int SECOND = 1;

  /**
   * Keys being written: openKeyTable (OBS/LEGACY buckets) and then openFileTable (FSO buckets).
   *
   * @param startPrefix {@code ""} or {@code /} for all; else {@code /volume/bucket[/prefix]}: the
   *     open keys of that bucket whose path starts with it (for an FSO bucket, a prefix ending in a
   *     directory covers that directory's whole subtree)
   * @param prevKey resume after this DB key ({@code ""} or null: from the start)
   * @param prevKeyTable the table {@code prevKey} came from ({@code lastKeyTable} of the previous
   *     page); null or empty to infer it: the table holding it, else the FSO shape
   *     {@code /<16 hex>/<16 hex>/<16 hex>/...} means openFileTable
   * @param limit page size; {@code -1} or above the cap means the cap
   * @throws OmException INVALID_ARGUMENT for a bad limit, prefix or table, RESOURCE_EXHAUSTED if
   *     an FSO subtree is larger than the walk budget
   */
  public Page openKeys(String startPrefix, String prevKey, String prevKeyTable, int limit,
      boolean includeFso, boolean includeNonFso) {
    int max = checkLimit(limit);
    if (!includeFso && !includeNonFso) {
      throw OmException.invalid("includeFso and includeNonFso are both false: nothing to list");
    }
    try (ReadView view = store.openReadView()) {
      List<SegmentScan.Segment> segments = new ArrayList<>();
      if (includeNonFso) {
        segments.addAll(nameSegments(view, OPEN_KEY_TABLE.name(), FIRST, startPrefix, false));
      }
      if (includeFso) {
        segments.addAll(idSegments(view, OPEN_FILE_TABLE.name(), SECOND, startPrefix, null));
      }
      SegmentScan.Cursor cursor = openKeysCursor(view, prevKey, prevKeyTable);
      return page(view, SegmentScan.read(view, segments, cursor, max, null), null);
    }
  }

  private static SegmentScan.Cursor openKeysCursor(ReadView view, String prevKey,
      String prevKeyTable) {
    boolean tableGiven = prevKeyTable != null && !prevKeyTable.isEmpty();
    if (tableGiven && !prevKeyTable.equals(OPEN_KEY_TABLE.name())
        && !prevKeyTable.equals(OPEN_FILE_TABLE.name())) {
      throw OmException.invalid("prevKeyTable must be " + OPEN_KEY_TABLE.name() + " or "
          + OPEN_FILE_TABLE.name() + ", not '" + prevKeyTable + "'");
    }
    if (prevKey == null || prevKey.isEmpty()) {
      return null;
    }
    OmValidation.checkOptionalStoredKey("prevKey", prevKey);
    if (tableGiven) {
      return new SegmentScan.Cursor(
          prevKeyTable.equals(OPEN_KEY_TABLE.name()) ? FIRST : SECOND, prevKey);
    }
    if (view.getTable(OPEN_FILE_TABLE).isExist(prevKey)) {
      return new SegmentScan.Cursor(SECOND, prevKey);
    }
    if (view.getTable(OPEN_KEY_TABLE).isExist(prevKey)) {
      return new SegmentScan.Cursor(FIRST, prevKey);
    }
    return new SegmentScan.Cursor(isIdShaped(prevKey) ? SECOND : FIRST, prevKey);
  }

  /**
   * Deleted and overwritten versions waiting for the purge (deletedTable).
   *
   * @param startPrefix {@code ""} or {@code /} for all; else {@code /volume/bucket[/prefix]}
   *     (the bucket need not exist any more)
   * @throws OmException INVALID_ARGUMENT for a bad limit or prefix
   */
  public Page deletedKeys(String startPrefix, String prevKey, int limit) {
    int max = checkLimit(limit);
    try (ReadView view = store.openReadView()) {
      List<SegmentScan.Segment> segments =
          nameSegments(view, DELETED_TABLE.name(), FIRST, startPrefix, true);
      return page(view, SegmentScan.read(view, segments, cursor(prevKey), max, null), null);
    }
  }

  /**
   * Deleted FSO directories waiting for the subtree purge (deletedDirectoryTable).
   *
   * @param startPrefix {@code ""} or {@code /} for all; else {@code /volume/bucket[/prefix]} of an
   *     existing FSO bucket
   * @throws OmException INVALID_ARGUMENT, RESOURCE_EXHAUSTED as {@link #openKeys}
   */
  public Page deletedDirectories(String startPrefix, String prevKey, int limit) {
    int max = checkLimit(limit);
    try (ReadView view = store.openReadView()) {
      List<SegmentScan.Segment> segments =
          idSegments(view, DELETED_DIRECTORY_TABLE.name(), FIRST, startPrefix, null);
      return page(view, SegmentScan.read(view, segments, cursor(prevKey), max, null), null);
    }
  }

  /**
   * Committed keys of one bucket, recursively below a prefix: keyTable rows of an OBS/LEGACY
   * bucket, fileTable rows of an FSO bucket (in DB-key order: by parent directory id, then name;
   * this walks the directory tree below the prefix, within the walk budget).
   *
   * @param startPrefix {@code /volume/bucket[/prefix]}, required; a missing bucket or directory
   *     gives an empty page
   * @param minSize only keys of at least this many bytes (0: all)
   * @param createdSince only keys created at or after this epoch-millis time (0: all)
   * @throws OmException INVALID_ARGUMENT for a bad limit, a missing or too short prefix,
   *     RESOURCE_EXHAUSTED as {@link #openKeys}
   */
  public Page listKeys(String startPrefix, String prevKey, int limit, long minSize,
      long createdSince) {
    int max = checkLimit(limit);
    List<String> parts = startPrefixComponents(startPrefix);
    if (parts.size() < 2) {
      throw OmException.invalid("startPrefix must name a bucket or a path inside one"
          + " (/volume/bucket[/prefix]), not '" + startPrefix + "'");
    }
    Predicate<KeyInfo> filter = minSize <= 0 && createdSince <= 0 ? null
        : k -> k.getDataSize() >= minSize && k.getCreationTime() >= createdSince;
    try (ReadView view = store.openReadView()) {
      BucketInfo bucket = bucket(view, parts.get(0), parts.get(1));
      if (bucket == null) {
        return emptyPage();
      }
      if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        List<SegmentScan.Segment> segments =
            nameSegments(view, KEY_TABLE.name(), FIRST, startPrefix, false);
        return page(view, SegmentScan.read(view, segments, cursor(prevKey), max, filter), null);
      }
      Map<Long, String> dirPaths = new HashMap<>();
      List<SegmentScan.Segment> segments =
          idSegments(view, FILE_TABLE.name(), FIRST, startPrefix, dirPaths);
      return page(view, SegmentScan.read(view, segments, cursor(prevKey), max, filter), dirPaths);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Counters

  /** The maintained store-wide counters, as the meta table holds them now (a few point reads). */
  public Map<OmCounter, Long> counters() {
    try (ReadView view = store.openReadView()) {
      return totals(view);
    }
  }

  /** The maintained counters of every bucket and of the store, from one view. */
  public Counters maintainedCounters() {
    try (ReadView view = store.openReadView()) {
      return maintainedCounters(view);
    }
  }

  /**
   * The maintained counters and the same figures from a full scan, both as one moment sees them,
   * so that any difference is a counter kept wrong or rows lost, never a write in between.
   */
  public CounterComparison compareCounters() {
    try (ReadView view = store.openReadView()) {
      return new CounterComparison(maintainedCounters(view), scannedCounters(view));
    }
  }

  /** The maintained counters and a full scan's, from one view ({@link #compareCounters()}). */
  public record CounterComparison(Counters maintained, Counters scanned) {
  }

  private Counters maintainedCounters(ReadView view) {
    Map<String, Map<OmCounter, Long>> buckets = new LinkedHashMap<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, BucketInfo> kv = it.next();
        buckets.put(kv.getKey(), bucketOwned(bucketCounters(view, kv.getValue().getObjectId())));
      }
    }
    return new Counters(totals(view), buckets);
  }

  /**
   * The same figures computed by a full scan of every counted table (for checks and recovery;
   * never used to answer a request).
   */
  public Counters scannedCounters() {
    try (ReadView view = store.openReadView()) {
      return scannedCounters(view);
    }
  }

  private static Counters scannedCounters(ReadView view) {
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
    return new Counters(scan.totals(), buckets);
  }

  // ---------------------------------------------------------------------------------------------
  // Namespace

  /**
   * What is under {@code path} ({@code /}, {@code /volume}, {@code /volume/bucket} or a path inside
   * a bucket; repeated and trailing slashes are ignored). Root, volume and bucket figures come from
   * the counters; a directory of an FSO bucket costs a walk of its subtree (within the budget).
   * A path that names nothing has type {@link PathType#UNKNOWN}.
   *
   * @throws OmException INVALID_ARGUMENT if the path is missing or relative, RESOURCE_EXHAUSTED
   */
  public Summary summary(String path) {
    List<String> parts = pathComponents("path", path);
    String norm = normalized(parts);
    try (ReadView view = store.openReadView()) {
      if (parts.isEmpty()) {
        Map<OmCounter, Long> t = totals(view);
        return new Summary(norm, PathType.ROOT, t.get(OmCounter.VOLUMES), t.get(OmCounter.BUCKETS),
            t.get(OmCounter.DIRECTORIES), keys(t), bytes(t), null, null, null, null);
      }
      VolumeInfo volume = view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(parts.get(0)));
      if (volume == null) {
        return unknown(norm);
      }
      if (parts.size() == 1) {
        List<BucketInfo> buckets = buckets(view, parts.get(0));
        Map<OmCounter, Long> sum = sum(view, buckets);
        return new Summary(norm, PathType.VOLUME, -1, buckets.size(),
            sum.get(OmCounter.DIRECTORIES), keys(sum), bytes(sum), volume, null, null, null);
      }
      BucketInfo bucket = bucket(view, parts.get(0), parts.get(1));
      if (bucket == null) {
        return unknown(norm);
      }
      if (parts.size() == 2) {
        Map<OmCounter, Long> c = bucketCounters(view, bucket.getObjectId());
        return new Summary(norm, PathType.BUCKET, -1, -1, c.get(OmCounter.DIRECTORIES), keys(c),
            bytes(c), volume, bucket, null, null);
      }
      List<String> inside = parts.subList(2, parts.size());
      if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        KeyInfo key = view.getTable(KEY_TABLE).get(
            OmKeys.objectKey(parts.get(0), parts.get(1), String.join("/", inside)));
        return key == null ? unknown(norm) : new Summary(norm, PathType.KEY, -1, -1, -1, 1,
            key.getDataSize(), volume, bucket, null, key);
      }
      FsoTree tree = tree(view, bucket);
      DirectoryInfo dir = tree.directory(inside);
      if (dir != null) {
        FsoTree.Totals t = tree.totals(dir.getObjectId());
        return new Summary(norm, PathType.DIRECTORY, -1, -1, t.directories(), t.files(),
            t.bytes(), volume, bucket, dir, null);
      }
      Long parent = tree.directoryId(inside.subList(0, inside.size() - 1));
      KeyInfo file = parent == null ? null : tree.file(parent, inside.get(inside.size() - 1));
      return file == null ? unknown(norm) : new Summary(norm, PathType.KEY, -1, -1, -1, 1,
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
   * @throws OmException INVALID_ARGUMENT, RESOURCE_EXHAUSTED as {@link #summary}
   */
  public Usage usage(String path, boolean files, int topN) {
    List<String> parts = pathComponents("path", path);
    String norm = normalized(parts);
    try (ReadView view = store.openReadView()) {
      if (parts.isEmpty()) {
        List<SubPath> subs = new ArrayList<>();
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
          subs.add(new SubPath(ROOT + v.getKey(), bytes(sum(view, v.getValue())), false));
        }
        return usage(norm, PathType.ROOT, bytes(totals(view)), -1, subs, topN);
      }
      VolumeInfo volume = view.getTable(VOLUME_TABLE).get(OmKeys.volumeKey(parts.get(0)));
      if (volume == null) {
        return new Usage(norm, PathType.UNKNOWN, 0, -1, 0, List.of());
      }
      if (parts.size() == 1) {
        List<SubPath> subs = new ArrayList<>();
        long total = 0;
        for (BucketInfo b : buckets(view, parts.get(0))) {
          long size = bytes(bucketCounters(view, b.getObjectId()));
          total += size;
          subs.add(new SubPath(norm + "/" + b.getBucketName(), size, false));
        }
        return usage(norm, PathType.VOLUME, total, -1, subs, topN);
      }
      BucketInfo bucket = bucket(view, parts.get(0), parts.get(1));
      if (bucket == null) {
        return new Usage(norm, PathType.UNKNOWN, 0, -1, 0, List.of());
      }
      List<String> inside = parts.subList(2, parts.size());
      if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        return obsUsage(view, norm, parts, bucket, files, topN);
      }
      FsoTree tree = tree(view, bucket);
      Long dirId = tree.directoryId(inside);
      if (dirId == null) {
        Long parent = tree.directoryId(inside.subList(0, inside.size() - 1));
        KeyInfo file = parent == null ? null : tree.file(parent, inside.get(inside.size() - 1));
        return file == null ? new Usage(norm, PathType.UNKNOWN, 0, -1, 0, List.of())
            : new Usage(norm, PathType.KEY, file.getDataSize(), -1, 0, List.of());
      }
      List<SubPath> subs = new ArrayList<>();
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
        subs.add(new SubPath(norm + "/" + c.name(), c.totals().bytes(), c.isFile()));
      }
      subs.sort(Comparator.comparing(SubPath::path));
      if (inside.isEmpty()) {
        size = bytes(bucketCounters(view, bucket.getObjectId()));
      }
      return usage(norm, inside.isEmpty() ? PathType.BUCKET : PathType.DIRECTORY, size, direct,
          subs, topN);
    }
  }

  private Usage obsUsage(ReadView view, String norm, List<String> parts, BucketInfo bucket,
      boolean files, int topN) {
    List<String> inside = parts.subList(2, parts.size());
    if (!inside.isEmpty()) {
      KeyInfo key = view.getTable(KEY_TABLE).get(
          OmKeys.objectKey(parts.get(0), parts.get(1), String.join("/", inside)));
      return key == null ? new Usage(norm, PathType.UNKNOWN, 0, -1, 0, List.of())
          : new Usage(norm, PathType.KEY, key.getDataSize(), -1, 0, List.of());
    }
    long size = bytes(bucketCounters(view, bucket.getObjectId()));
    List<SubPath> subs = new ArrayList<>();
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
          subs.add(new SubPath(kv.getKey(), kv.getValue().getDataSize(), true));
        }
      }
    }
    return usage(norm, PathType.BUCKET, size, size, subs, topN);
  }

  private static Usage usage(String path, PathType type, long size, long direct,
      List<SubPath> subs, int topN) {
    int count = subs.size();
    List<SubPath> out = subs;
    if (topN > 0) {
      out = new ArrayList<>(subs);
      out.sort(Comparator.comparingLong(SubPath::size).reversed().thenComparing(SubPath::path));
      out = List.copyOf(out.subList(0, Math.min(topN, out.size())));
    }
    return new Usage(path, type, size, direct, count, List.copyOf(out));
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private int checkLimit(int limit) {
    if (limit == -1 || limit > maxLimit) {
      return maxLimit;
    }
    if (limit < 1) {
      throw OmException.invalid("limit must be at least 1, or -1 for the cap of " + maxLimit
          + ": " + limit);
    }
    return limit;
  }

  private static SegmentScan.Cursor cursor(String prevKey) {
    if (prevKey == null || prevKey.isEmpty()) {
      return null;
    }
    OmValidation.checkOptionalStoredKey("prevKey", prevKey);
    return new SegmentScan.Cursor(FIRST, prevKey);
  }

  /**
   * The components of an absolute path (a summary's), empty ones dropped: {@code //vol//b} is
   * {@code /vol/b}, one place named two ways.
   *
   * @throws OmException INVALID_ARGUMENT if missing, empty or not starting with {@code /}
   */
  static List<String> pathComponents(String what, String path) {
    if (path == null || path.isEmpty()) {
      throw OmException.invalid(what + " is required");
    }
    if (path.charAt(0) != OmKeys.SEPARATOR) {
      throw OmException.invalid(what + " must start with '/': '" + path + "'");
    }
    OmValidation.checkOptionalStoredKey(what, path);
    List<String> out = new ArrayList<>();
    for (String p : path.split("/")) {
      if (!p.isEmpty()) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The components of a listing's {@code startPrefix}, as {@link #pathComponents}, but its
   * volume and bucket must be written exactly ({@code /volume/bucket}, one {@code /} before
   * each): a prefix is not normalized, so {@code //vol/b/x} must not quietly list all of
   * {@code /vol/b}.
   *
   * @throws OmException INVALID_ARGUMENT as {@link #pathComponents}, or for an empty component
   *     before the bucket's end ({@code //volume}, {@code /volume//bucket})
   */
  static List<String> startPrefixComponents(String startPrefix) {
    List<String> out = pathComponents("startPrefix", startPrefix);
    String head = ROOT + String.join(ROOT, out.subList(0, Math.min(2, out.size())));
    if (!out.isEmpty() && !(startPrefix.equals(head) || startPrefix.startsWith(head + ROOT))) {
      throw OmException.invalid("startPrefix must name its volume and bucket as /volume/bucket"
          + " (one '/' before each), not '" + startPrefix + "'");
    }
    return out;
  }

  private static String normalized(List<String> parts) {
    return ROOT + String.join(ROOT, parts);
  }

  /**
   * Segments of a name-keyed table ({@code /volume/bucket/...}) under a start prefix: one
   * segment, the whole table for {@code ""} or {@code /}.
   */
  private static List<SegmentScan.Segment> nameSegments(ReadView view, String table, int order,
      String startPrefix, boolean allowMissingBucket) {
    if (startPrefix == null || startPrefix.isEmpty() || startPrefix.equals(ROOT)) {
      return List.of(new SegmentScan.Segment(order, table, ""));
    }
    List<String> parts = startPrefixComponents(startPrefix);
    if (parts.size() < 2) {
      throw OmException.invalid("startPrefix must be at bucket level or deeper"
          + " (/volume/bucket[/prefix]), not '" + startPrefix + "'");
    }
    if (!allowMissingBucket) {
      BucketInfo b = bucket(view, parts.get(0), parts.get(1));
      if (b == null || b.getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        return List.of();
      }
    }
    String bucketPrefix = OmKeys.bucketPrefix(parts.get(0), parts.get(1));
    if (startPrefix.startsWith(bucketPrefix)) {
      return List.of(new SegmentScan.Segment(order, table, startPrefix));
    }
    if ((startPrefix + ROOT).equals(bucketPrefix)) {
      return List.of(new SegmentScan.Segment(order, table, bucketPrefix));
    }
    // Key names may hold empty components ("a//b"), so the part after the bucket is taken as
    // given and the bucket part must be exactly "/volume/bucket/".
    throw OmException.invalid("startPrefix must be /volume/bucket or start with /volume/bucket/"
        + " (one '/' between volume and bucket), not '" + startPrefix + "'");
  }

  /**
   * Segments of an id-keyed FSO table ({@code /volumeId/bucketId/parentId/name...}) under a start
   * prefix: the whole table for {@code ""} or {@code /}; the bucket's range at bucket level
   * (unless {@code dirPaths} is wanted); else one range per directory of the subtree below the
   * prefix's directory, the top level restricted to names starting with the prefix's last
   * component. Fills {@code dirPaths} (id to path below the bucket) when not null.
   */
  private List<SegmentScan.Segment> idSegments(ReadView view, String table, int order,
      String startPrefix, Map<Long, String> dirPaths) {
    if (startPrefix == null || startPrefix.isEmpty() || startPrefix.equals(ROOT)) {
      if (dirPaths != null) {
        throw new IllegalStateException("a walk needs a bucket");
      }
      return List.of(new SegmentScan.Segment(order, table, ""));
    }
    List<String> parts = startPrefixComponents(startPrefix);
    if (parts.size() < 2) {
      throw OmException.invalid("startPrefix must be at bucket level or deeper"
          + " (/volume/bucket[/prefix]), not '" + startPrefix + "'");
    }
    BucketInfo bucket = bucket(view, parts.get(0), parts.get(1));
    if (bucket == null || bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      return List.of();
    }
    FsoTree tree = tree(view, bucket);
    List<String> inside = new ArrayList<>(parts.subList(2, parts.size()));
    String leaf = "";
    if (!inside.isEmpty() && !startPrefix.endsWith(ROOT)) {
      leaf = inside.remove(inside.size() - 1);
    }
    if (inside.isEmpty() && leaf.isEmpty() && dirPaths == null) {
      return List.of(new SegmentScan.Segment(order, table,
          OmKeys.fsoBucketPrefix(bucket.getVolumeId(), bucket.getObjectId())));
    }
    Long dirId = tree.directoryId(inside);
    if (dirId == null) {
      return List.of();
    }
    TreeMap<Long, String> dirs = tree.directories(dirId, String.join(ROOT, inside), leaf);
    List<SegmentScan.Segment> out = new ArrayList<>(dirs.size());
    for (Long id : dirs.keySet()) {
      String prefix = tree.childPrefix(id) + (id.equals(dirId) ? leaf : "");
      out.add(new SegmentScan.Segment(order, table, prefix));
    }
    if (dirPaths != null) {
      String base = ROOT + bucket.getVolumeName() + ROOT + bucket.getBucketName();
      for (Map.Entry<Long, String> d : dirs.entrySet()) {
        dirPaths.put(d.getKey(), d.getValue().isEmpty() ? base : base + ROOT + d.getValue());
      }
    }
    return out;
  }

  private Page page(ReadView view, SegmentScan.Page scan, Map<Long, String> dirPaths) {
    List<Row> rows = new ArrayList<>(scan.rows().size());
    long size = 0;
    Map<Long, String> bucketNames = null;
    OpenFilePaths openFilePaths = null;
    for (SegmentScan.Row r : scan.rows()) {
      String table = r.segment().table();
      boolean fso = !table.equals(KEY_TABLE.name()) && !table.equals(OPEN_KEY_TABLE.name())
          && !table.equals(DELETED_TABLE.name());
      String path;
      if (!fso) {
        path = table.equals(KEY_TABLE.name()) ? r.key() : stripSuffix(r.key());
      } else if (dirPaths != null) {
        String parent = dirPaths.get(OmKeys.fsoParentIdOf(r.key()));
        String name = r.info().getFileName().isEmpty()
            ? r.key().substring(r.key().lastIndexOf(OmKeys.SEPARATOR) + 1) : r.info().getFileName();
        path = (parent == null ? "?" : parent) + ROOT + name;
      } else {
        KeyInfo k = r.info();
        if (!k.getVolumeName().isEmpty() && !k.getBucketName().isEmpty()
            && !k.getKeyName().isEmpty()) {
          String inBucket = k.getKeyName();
          if (table.equals(OPEN_FILE_TABLE.name())) {
            if (openFilePaths == null) {
              openFilePaths = new OpenFilePaths(view, walkBudget);
            }
            inBucket = openFilePaths.current(r.key(), k);
          }
          path = ROOT + k.getVolumeName() + ROOT + k.getBucketName() + ROOT + inBucket;
        } else {
          if (bucketNames == null) {
            bucketNames = bucketNames(view);
          }
          path = fsoFallbackPath(r.key(), bucketNames);
        }
      }
      rows.add(new Row(table, r.key(), path, fso, r.info()));
      size += r.info().getDataSize();
    }
    Row last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
    return new Page(List.copyOf(rows), last == null ? "" : last.key(),
        last == null ? "" : last.table(), scan.truncated(), size);
  }

  private static Page emptyPage() {
    return new Page(List.of(), "", "", false, 0);
  }

  /** An FSO DB key shown as {@code /volume/bucket/<parentId>/name} when the value has no path. */
  private static String fsoFallbackPath(String key, Map<Long, String> bucketNames) {
    String k = stripSuffix(key);
    if (isIdShaped(k)) {
      String name = bucketNames.get(OmKeys.parseId(k.substring(OmKeys.ID_WIDTH + 2,
          2 * OmKeys.ID_WIDTH + 2)));
      if (name != null) {
        return name + k.substring(2 * OmKeys.ID_WIDTH + 2);
      }
    }
    return k;
  }

  private static String stripSuffix(String key) {
    try {
      return OmKeys.withoutSuffixId(key);
    } catch (IllegalArgumentException noSuffix) {
      return key;
    }
  }

  /** Whether {@code key} starts {@code /<16 hex>/<16 hex>/}: the FSO (id-keyed) shape. */
  static boolean isIdShaped(String key) {
    int w = OmKeys.ID_WIDTH;
    if (key.length() < 2 * w + 3 || key.charAt(0) != '/' || key.charAt(w + 1) != '/'
        || key.charAt(2 * w + 2) != '/') {
      return false;
    }
    for (int i = 1; i <= 2 * w + 1; i++) {
      char c = key.charAt(i);
      if (i != w + 1 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private FsoTree tree(ReadView view, BucketInfo bucket) {
    return new FsoTree(view, bucket.getVolumeId(), bucket.getObjectId(), walkBudget);
  }

  private static BucketInfo bucket(ReadView view, String volume, String bucket) {
    return view.getTable(BUCKET_TABLE).get(OmKeys.bucketKey(volume, bucket));
  }

  private static List<BucketInfo> buckets(ReadView view, String volume) {
    List<BucketInfo> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator(OmKeys.volumePrefix(volume))) {
      while (it.hasNext()) {
        out.add(it.next().getValue());
      }
    }
    return out;
  }

  private static Map<Long, String> bucketNames(ReadView view) {
    Map<Long, String> out = new HashMap<>();
    try (TableIterator<String, KeyValue<String, BucketInfo>> it =
             view.getTable(BUCKET_TABLE).iterator()) {
      while (it.hasNext()) {
        KeyValue<String, BucketInfo> kv = it.next();
        out.put(kv.getValue().getObjectId(), kv.getKey());
      }
    }
    return out;
  }

  private static Map<OmCounter, Long> totals(ReadView view) {
    Table<String, byte[]> meta = view.getTable(META_TABLE);
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      byte[] v = meta.get(c.metaKey());
      out.put(c, v == null ? 0 : OmContext.decodeLong(v));
    }
    return out;
  }

  /** Every counter of one bucket (zeros for none): one bounded meta-table range. */
  private static Map<OmCounter, Long> bucketCounters(ReadView view, long bucketId) {
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

  private static Map<OmCounter, Long> sum(ReadView view, List<BucketInfo> buckets) {
    Map<OmCounter, Long> out = new EnumMap<>(OmCounter.class);
    for (OmCounter c : OmCounter.values()) {
      out.put(c, 0L);
    }
    for (BucketInfo b : buckets) {
      bucketCounters(view, b.getObjectId()).forEach((c, v) -> out.merge(c, v, Long::sum));
    }
    return out;
  }

  private static long keys(Map<OmCounter, Long> c) {
    return c.get(OmCounter.KEYS) + c.get(OmCounter.FILES);
  }

  private static long bytes(Map<OmCounter, Long> c) {
    return c.get(OmCounter.KEY_BYTES) + c.get(OmCounter.FILE_BYTES);
  }

  private static Summary unknown(String path) {
    return new Summary(path, PathType.UNKNOWN, -1, -1, -1, -1, 0, null, null, null, null);
  }
}
