package io.sediment.om.insight;

import static io.sediment.om.core.OmDBDefinition.BUCKET_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_KEY_TABLE;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.StringCodec;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.fso.FsoTree;
import io.sediment.om.listing.SegmentScan;
import io.sediment.om.openfiles.OpenFilePaths;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.KeyInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The paged listings of {@link OmInsight}: open keys and files, pending deletes, pending directory
 * deletes and committed keys, each a {@link SegmentScan} over one {@link ReadView}, rows in table
 * rank then DB-key order; the paging contract is {@link OmInsight}'s. Thread-safe: no state
 * between calls.
 */
final class InsightListings {

  /** Ranks: a listing over two tables returns every row of the first before the second. */
  private static final int FIRST = 0;
  private static final int SECOND = 1;

  private final DBStore store;
  private final int maxLimit;
  private final long walkBudget;

  InsightListings(DBStore store, int maxLimit, long walkBudget) {
    this.store = store;
    this.maxLimit = maxLimit;
    this.walkBudget = walkBudget;
  }

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
   * @throws OmException INVALID_ARGUMENT for a bad limit, prefix or table, NOT_FOUND if the
   *     prefix names a missing volume or bucket, RESOURCE_EXHAUSTED if an FSO subtree is larger
   *     than the walk budget
   */
  OmInsight.Page openKeys(String startPrefix, String prevKey, String prevKeyTable, int limit,
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
   *     (the bucket need not exist any more while versions of its keys wait for the purge)
   * @throws OmException INVALID_ARGUMENT for a bad limit or prefix, NOT_FOUND if the prefix names
   *     a missing volume or bucket of which no deleted version waits either
   */
  OmInsight.Page deletedKeys(String startPrefix, String prevKey, int limit) {
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
   *     existing bucket (an OBS or LEGACY one has none)
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED as
   *     {@link OmInsight#openKeys}
   */
  OmInsight.Page deletedDirectories(String startPrefix, String prevKey, int limit) {
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
   * @param startPrefix {@code /volume/bucket[/prefix]}, required; a prefix below the bucket that
   *     names no key or directory gives an empty page
   * @param minSize only keys of at least this many bytes (0: all)
   * @param createdSince only keys created at or after this epoch-millis time (0: all)
   * @throws OmException INVALID_ARGUMENT for a bad limit, a missing or too short prefix,
   *     NOT_FOUND if the prefix names a missing volume or bucket, RESOURCE_EXHAUSTED as
   *     {@link OmInsight#openKeys}
   */
  OmInsight.Page listKeys(String startPrefix, String prevKey, int limit, long minSize,
      long createdSince) {
    int max = checkLimit(limit);
    List<String> parts = InsightPaths.startPrefixComponents(startPrefix);
    if (parts.size() < 2) {
      throw OmException.invalid("startPrefix must name a bucket or a path inside one"
          + " (/volume/bucket[/prefix]), not '" + startPrefix + "'");
    }
    Predicate<KeyInfo> filter = minSize <= 0 && createdSince <= 0 ? null
        : k -> k.getDataSize() >= minSize && k.getCreationTime() >= createdSince;
    try (ReadView view = store.openReadView()) {
      BucketInfo bucket = InsightPaths.requireBucket(view, parts);
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
   * Segments of a name-keyed table ({@code /volume/bucket/...}) under a start prefix: one
   * segment, the whole table for {@code ""} or {@code /}; none for an FSO bucket, unless
   * {@code leftoversOfMissingBuckets}.
   *
   * @param leftoversOfMissingBuckets whether the table keeps rows of deleted buckets (a missing
   *     bucket is NOT_FOUND only if the table holds none of its rows either), and of every layout
   * @throws OmException NOT_FOUND naming the missing volume or bucket
   */
  private static List<SegmentScan.Segment> nameSegments(ReadView view, String table, int order,
      String startPrefix, boolean leftoversOfMissingBuckets) {
    if (startPrefix == null || startPrefix.isEmpty() || startPrefix.equals(InsightPaths.ROOT)) {
      return List.of(new SegmentScan.Segment(order, table, ""));
    }
    List<String> parts = InsightPaths.startPrefixComponents(startPrefix);
    if (parts.size() < 2) {
      throw OmException.invalid("startPrefix must be at bucket level or deeper"
          + " (/volume/bucket[/prefix]), not '" + startPrefix + "'");
    }
    String bucketPrefix = OmKeys.bucketPrefix(parts.get(0), parts.get(1));
    if (!leftoversOfMissingBuckets) {
      if (InsightPaths.requireBucket(view, parts).getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
        return List.of();
      }
    } else if (!view.getTable(table).hasLiveKey(StringCodec.get().toPersistedFormat(bucketPrefix))) {
      InsightPaths.requireBucket(view, parts);
    }
    if (startPrefix.startsWith(bucketPrefix)) {
      return List.of(new SegmentScan.Segment(order, table, startPrefix));
    }
    if ((startPrefix + InsightPaths.ROOT).equals(bucketPrefix)) {
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
   * component; none for an OBS or LEGACY bucket. Fills {@code dirPaths} (id to path below the
   * bucket) when not null.
   *
   * @throws OmException NOT_FOUND naming the missing volume or bucket
   */
  private List<SegmentScan.Segment> idSegments(ReadView view, String table, int order,
      String startPrefix, Map<Long, String> dirPaths) {
    if (startPrefix == null || startPrefix.isEmpty() || startPrefix.equals(InsightPaths.ROOT)) {
      if (dirPaths != null) {
        throw new IllegalStateException("a walk needs a bucket");
      }
      return List.of(new SegmentScan.Segment(order, table, ""));
    }
    List<String> parts = InsightPaths.startPrefixComponents(startPrefix);
    if (parts.size() < 2) {
      throw OmException.invalid("startPrefix must be at bucket level or deeper"
          + " (/volume/bucket[/prefix]), not '" + startPrefix + "'");
    }
    BucketInfo bucket = InsightPaths.requireBucket(view, parts);
    if (bucket.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      return List.of();
    }
    FsoTree tree = InsightPaths.tree(view, bucket, walkBudget);
    List<String> inside = new ArrayList<>(parts.subList(2, parts.size()));
    String leaf = "";
    if (!inside.isEmpty() && !startPrefix.endsWith(InsightPaths.ROOT)) {
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
    TreeMap<Long, String> dirs = tree.directories(dirId, String.join(InsightPaths.ROOT, inside), leaf);
    List<SegmentScan.Segment> out = new ArrayList<>(dirs.size());
    for (Long id : dirs.keySet()) {
      String prefix = tree.childPrefix(id) + (id.equals(dirId) ? leaf : "");
      out.add(new SegmentScan.Segment(order, table, prefix));
    }
    if (dirPaths != null) {
      String base = InsightPaths.ROOT + bucket.getVolumeName() + InsightPaths.ROOT + bucket.getBucketName();
      for (Map.Entry<Long, String> d : dirs.entrySet()) {
        dirPaths.put(d.getKey(), d.getValue().isEmpty() ? base : base + InsightPaths.ROOT + d.getValue());
      }
    }
    return out;
  }

  private OmInsight.Page page(ReadView view, SegmentScan.Page scan, Map<Long, String> dirPaths) {
    List<OmInsight.Row> rows = new ArrayList<>(scan.rows().size());
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
        path = (parent == null ? "?" : parent) + InsightPaths.ROOT + name;
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
          path = InsightPaths.ROOT + k.getVolumeName() + InsightPaths.ROOT + k.getBucketName() + InsightPaths.ROOT + inBucket;
        } else {
          if (bucketNames == null) {
            bucketNames = bucketNames(view);
          }
          path = fsoFallbackPath(r.key(), bucketNames);
        }
      }
      rows.add(new OmInsight.Row(table, r.key(), path, fso, r.info()));
      size += r.info().getDataSize();
    }
    OmInsight.Row last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
    return new OmInsight.Page(List.copyOf(rows), last == null ? "" : last.key(),
        last == null ? "" : last.table(), scan.truncated(), size);
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
  private static boolean isIdShaped(String key) {
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
}
