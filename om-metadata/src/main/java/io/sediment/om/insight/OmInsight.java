package io.sediment.om.insight;

import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.fso.FsoTree;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.DirectoryInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.VolumeInfo;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Read-only insight into a namespace, for Recon: paged listings of open keys, pending deletes,
 * pending directory deletes and keys, the maintained counters, and namespace summary, usage,
 * quota and file-size distribution for a path. Obtained from {@link io.sediment.om.OmMetadataStore#insight()}, or with {@link #over} from a
 * store opened some other way (for example a read-only secondary instance).
 *
 * <h2>Consistency and cost</h2>
 * Every method reads one {@link ReadView} (one RocksDB snapshot; on a secondary store, one moment
 * between catch-ups), so a page and the figures next to it agree. Counters come from the meta
 * table rows that every write updates in its own batch ({@link OmCounter}): a summary is a few
 * point reads, never a scan. A volume's figures are the sum of its buckets' counters (one bounded
 * bucketTable scan of that volume). Inside an FSO bucket, a directory's figures and the FSO
 * {@link #listKeys} need the directory tree below the path: a walk that reads at most the walk
 * budget of rows ({@link io.sediment.om.core.OmException.Code#RESOURCE_EXHAUSTED} beyond), each directory's children
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
  public static final long DEFAULT_WALK_BUDGET = FsoTree.DEFAULT_WALK_BUDGET;

  private final DBStore store;
  private final int maxLimit;
  private final InsightListings listings;
  private final InsightCounters counters;
  private final NamespaceSummaries summaries;

  private OmInsight(DBStore store, int maxLimit, long walkBudget) {
    this.store = Objects.requireNonNull(store, "store");
    if (maxLimit < 1 || walkBudget < 1) {
      throw new IllegalArgumentException("maxLimit and walkBudget must be positive");
    }
    this.maxLimit = maxLimit;
    this.listings = new InsightListings(store, maxLimit, walkBudget);
    this.counters = new InsightCounters(store);
    this.summaries = new NamespaceSummaries(store, walkBudget);
  }

  /**
   * Insight over any store of the {@link io.sediment.om.core.OmDBDefinition} layout, read-only (a secondary instance
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

  /**
   * The byte quota of a path and what is used of it, as Ozone Recon reports them.
   *
   * @param path the normalized path
   * @param type what it names; only {@link PathType#ROOT}, {@link PathType#VOLUME} and
   *     {@link PathType#BUCKET} have a quota, any other type has {@code 0} and {@code 0}
   * @param allowed the quota in bytes, {@link #UNLIMITED} for none (Ozone's value; Sediment's
   *     rows store 0); root: the sum of the volumes' quotas, unlimited if any volume is, 0 with no
   *     volume
   * @param used the data size below the path, from the counters (as the summary's size)
   */
  public record Quota(String path, PathType type, long allowed, long used) {

    /** {@link #allowed} of a volume or bucket without a byte quota. */
    public static final long UNLIMITED = -1;
  }

  /**
   * How many committed keys and files below a path fall in each size bin.
   *
   * @param path the normalized path
   * @param type what it names; a {@link PathType#KEY} or {@link PathType#UNKNOWN} path has every
   *     bin 0
   * @param counts {@link FileSizeBins#COUNT} counts, bin by bin ({@link FileSizeBins})
   */
  public record FileSizes(String path, PathType type, List<Long> counts) {
  }

  // ---------------------------------------------------------------------------------------------
  // Listings ({@link InsightListings}), counters ({@link InsightCounters}), namespace
  // ({@link NamespaceSummaries})

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
  public Page openKeys(String startPrefix, String prevKey, String prevKeyTable, int limit,
      boolean includeFso, boolean includeNonFso) {
    return listings.openKeys(startPrefix, prevKey, prevKeyTable, limit, includeFso, includeNonFso);
  }

  /**
   * Deleted and overwritten versions waiting for the purge (deletedTable).
   *
   * @param startPrefix {@code ""} or {@code /} for all; else {@code /volume/bucket[/prefix]}
   *     (the bucket need not exist any more while versions of its keys wait for the purge)
   * @throws OmException INVALID_ARGUMENT for a bad limit or prefix, NOT_FOUND if the prefix names
   *     a missing volume or bucket of which no deleted version waits either
   */
  public Page deletedKeys(String startPrefix, String prevKey, int limit) {
    return listings.deletedKeys(startPrefix, prevKey, limit);
  }

  /**
   * Deleted FSO directories waiting for the subtree purge (deletedDirectoryTable).
   *
   * @param startPrefix {@code ""} or {@code /} for all; else {@code /volume/bucket[/prefix]} of an
   *     existing bucket (an OBS or LEGACY one has none)
   * @throws OmException INVALID_ARGUMENT, NOT_FOUND, RESOURCE_EXHAUSTED as {@link #openKeys}
   */
  public Page deletedDirectories(String startPrefix, String prevKey, int limit) {
    return listings.deletedDirectories(startPrefix, prevKey, limit);
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
   *     {@link #openKeys}
   */
  public Page listKeys(String startPrefix, String prevKey, int limit, long minSize,
      long createdSince) {
    return listings.listKeys(startPrefix, prevKey, limit, minSize, createdSince);
  }

  /** The maintained store-wide counters, as the meta table holds them now (a few point reads). */
  public Map<OmCounter, Long> counters() {
    return counters.counters();
  }

  /** The maintained counters of every bucket and of the store, from one view. */
  public Counters maintainedCounters() {
    return counters.maintainedCounters();
  }

  /**
   * The maintained counters and the same figures from a full scan, both as one moment sees them,
   * so that any difference is a counter kept wrong or rows lost, never a write in between.
   */
  public CounterComparison compareCounters() {
    return counters.compareCounters();
  }

  /**
   * The same figures computed by a full scan of every counted table (for checks and recovery;
   * never used to answer a request).
   */
  public Counters scannedCounters() {
    return counters.scannedCounters();
  }

  /**
   * What is under {@code path} ({@code /}, {@code /volume}, {@code /volume/bucket} or a path inside
   * a bucket; repeated and trailing slashes are ignored). Root, volume and bucket figures come from
   * the counters; a directory of an FSO bucket costs a walk of its subtree (within the budget).
   * A path that names nothing has type {@link PathType#UNKNOWN}.
   *
   * @throws OmException INVALID_ARGUMENT if the path is missing or relative, RESOURCE_EXHAUSTED
   */
  public Summary summary(String path) {
    return summaries.summary(path);
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
    return summaries.usage(path, files, topN);
  }

  /**
   * The byte quota of {@code path} and what is used of it (paths as {@link #summary}): for root,
   * a volume or a bucket, from the rows and counters (a few point reads and one bounded range);
   * for any other path, that it exists and its type, with both figures 0.
   *
   * @throws OmException INVALID_ARGUMENT if the path is missing or relative
   */
  public Quota quota(String path) {
    return summaries.quota(path);
  }

  /**
   * The file-size distribution below {@code path} (paths as {@link #summary}): committed keys and
   * files in {@link FileSizeBins}, as many as the summary's {@code numKey}. No counter holds it,
   * so it costs a read of every key or file below the path: a bucket is one keyTable range (OBS,
   * LEGACY) or fileTable range (FSO; the files of a recursively deleted directory count until
   * the purge takes them, as in the counters), a volume or the root each of their buckets in
   * turn, an FSO directory a walk of its tree (directories read too); all the rows one call reads
   * count against one walk budget. A key or a missing path has every bin 0.
   *
   * @throws OmException INVALID_ARGUMENT if the path is missing or relative, RESOURCE_EXHAUSTED if
   *     more than the walk budget of rows lie below it
   */
  public FileSizes fileSizes(String path) {
    return summaries.fileSizes(path);
  }

  /** The maintained counters and a full scan's, from one view ({@link #compareCounters()}). */
  public record CounterComparison(Counters maintained, Counters scanned) {
  }
}
