package io.sediment.om.purge;

import static io.sediment.om.core.OmDBDefinition.DELETED_TABLE;
import static io.sediment.om.core.OmDBDefinition.META_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.OPEN_KEY_TABLE;

import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.om.core.CursorSweep;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.UnlockedPhase;
import io.sediment.om.core.WriteTxn;
import io.sediment.om.multipart.MultipartParts;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.MultipartUploadInfo;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The purge steps the background services run ({@code io.sediment.om.service}): each call reads
 * at most {@code limit} rows without the write lock, then removes those still there in one
 * ordinary write transaction ({@link OmContext#write}: under the write lock, one atomic batch,
 * counters adjusted in the same batch), so foreground writes wait only for that short write, not
 * for the scan. This is the whole surface the services need; it exposes no table or batch.
 *
 * <p><b>Read, then confirm.</b> The read ({@link CursorSweep#read}) decodes the rows; the write
 * confirms them ({@link CursorSweep#confirm}: one walk over exactly the keys read, comparing stored
 * bytes) and removes only rows still there unchanged, deciding what to do with each (expired or
 * not, which bucket to count it against) under the lock, as before. Rows a foreground write
 * added among the rows read, or changed, stay; rows gone meanwhile are not counted. Runs of one
 * step never overlap ({@link io.sediment.om.core.UnlockedWork#serializedStep}), and the cursor is
 * checked again in the write (a step that finds it moved writes nothing). Replicas apply a step
 * as one log entry, with no other write in between, so they all remove the same rows.
 *
 * <p><b>Cursors.</b> Each step keeps a resume cursor in metaTable under {@link #cursorKey}, written
 * in the same batch as the step's deletes, so it survives a restart exactly as far as the purge it
 * describes. A run examines the rows after the cursor and, reaching the end of the table with room
 * to spare, wraps to the head (see {@link CursorSweep}); a run never walks again the tombstones
 * that the earlier runs of the same pass left behind the cursor. For deletedTable this makes the
 * cursor a watermark of the pass: every row below it that existed when the pass began is purged.
 * Rows deleted later below the cursor wait for the next pass rather than drag every run back to
 * the head: deletedTable is keyed by name, so new rows land anywhere, and a writer-lowered
 * watermark would send nearly every run back through the tombstones of the previous ones.
 *
 * <p><b>Idle steps.</b> When the maintained counter of the step's table (DELETED_KEYS, OPEN_KEYS,
 * OPEN_FILES, MULTIPART_UPLOADS) is 0 the step does not scan at all (no iterator over the
 * tombstones the purges left); counters are exact by construction ({@link io.sediment.om.OmMetadataStore#recount}
 * repairs them after external edits).
 *
 * <p><b>Range deletes.</b> A run the write confirmed has no other row between its first and last
 * key, so a run of consecutive rows that all go is exactly the key range {@code [first, last]}: at
 * least {@value CursorSweep#RANGE_DELETE_MIN_ROWS} such rows are deleted with one range tombstone,
 * shorter runs with point deletes. Rows that must survive (not yet expired, or added or changed
 * since the read) split the runs.
 *
 * <p><b>Bucket attribution.</b> Rows keyed by names ({@code /volume/bucket/...}) are counted
 * against the bucket of that name only if it exists and is older than the row (its object id is
 * smaller than the row's): ids increase, and a bucket is deleted only after its keys, uploads and
 * open keys are gone, so a row with a smaller id than the bucket of its name belongs to an earlier,
 * deleted bucket of that name, whose counters were dropped; such rows are counted store-wide only.
 * FSO open files carry their bucket id in the key.
 *
 * <p>Thread-safe; the write of a step serializes with every other write, its read with nothing
 * but other runs of the same step.
 */
public final class OmPurges {

  /** Purges deletedTable rows (the data of deleted and overwritten versions). */
  public static final String KEY_DELETING = "keyDeleting";
  /** Expires openKeyTable rows (OBJECT_STORE/LEGACY keys never committed). */
  public static final String OPEN_KEY_CLEANUP = "openKeyCleanup";
  /** Expires openFileTable rows (FSO files never committed). */
  public static final String OPEN_FILE_CLEANUP = "openFileCleanup";
  /** Aborts multipart uploads never completed. */
  public static final String MULTIPART_UPLOAD_CLEANUP = "multipartUploadCleanup";
  /** Every step's name. */
  public static final Set<String> STEPS = Set.of(KEY_DELETING, OPEN_KEY_CLEANUP,
      OPEN_FILE_CLEANUP, MULTIPART_UPLOAD_CLEANUP);
  /** The largest {@code limit} of one step (bounds the time one purge holds the write lock). */
  public static final int MAX_LIMIT = 100_000;

  private final OmContext ctx;
  private final MultipartParts parts;
  private final Table<String, byte[]> meta;
  private final Table<String, KeyInfo> deletedTable;

  public OmPurges(OmContext ctx, MultipartParts parts) {
    this.ctx = ctx;
    this.parts = parts;
    this.meta = ctx.table(META_TABLE);
    this.deletedTable = ctx.table(DELETED_TABLE);
  }

  /** The metaTable key of a step's cursor: {@code service/<step>/cursor}. */
  public static String cursorKey(String step) {
    return "service/" + step + "/cursor";
  }

  /**
   * The persisted cursor of {@code step}: the last key examined by its latest run, or {@code null}
   * when its next run starts at the head of its table.
   *
   * @throws IllegalArgumentException for an unknown step
   */
  public String cursor(String step) {
    if (!STEPS.contains(step)) {
      throw new IllegalArgumentException("Unknown purge step '" + step + "'; steps: " + STEPS);
    }
    return readCursor(step);
  }

  /**
   * Purges up to {@code limit} deletedTable rows after the cursor (wrapping once), counting
   * DELETED_KEYS and DELETED_KEY_BYTES down. (In Ozone the blocks are deleted first; this store
   * keeps no block data, so a purge is the row deletion.)
   *
   * @throws OmException INVALID_ARGUMENT if {@code limit} is not in {@code [1, MAX_LIMIT]}
   */
  public PurgeResult purgeDeletedKeys(int limit) {
    checkLimit(limit);
    if (counter(OmCounter.DELETED_KEYS) == 0) {
      return skipped(KEY_DELETING);
    }
    return ctx.unlocked().serializedStep(KEY_DELETING, () -> {
      String cursor = readCursor(KEY_DELETING);
      CursorSweep<KeyInfo> sweep = scan(KEY_DELETING, DELETED_TABLE, cursor, limit);
      return ctx.write(txn -> {
        if (!Objects.equals(cursor, readCursor(KEY_DELETING))) {
          return moved(KEY_DELETING, sweep);
        }
        BucketOwners owners = new BucketOwners();
        long bytes = 0;
        int purged = 0;
        int ranges = 0;
        for (List<CursorSweep.Row<KeyInfo>> run : sweep.confirm(ctx.store(), DELETED_TABLE)) {
          for (CursorSweep.Row<KeyInfo> row : run) {
            long size = row.value().getDataSize();
            Long bucketId = owners.of(row.key(), row.value().getObjectId());
            txn.countIn(bucketId, OmCounter.DELETED_KEYS, -1);
            txn.countIn(bucketId, OmCounter.DELETED_KEY_BYTES, -size);
            bytes += size;
          }
          purged += run.size();
          ranges += CursorSweep.deleteRun(deletedTable, txn.batch(), run);
        }
        writeCursor(txn, KEY_DELETING, cursor, sweep.nextCursor());
        return new PurgeResult(KEY_DELETING, sweep.size(), purged, bytes, ranges,
            sweep.nextCursor(), false);
      });
    });
  }

  /** Reads a step's rows without the write lock, telling the phase observer. */
  private <V> CursorSweep<V> scan(String step, TableDefinition<String, V> table, String cursor,
      int limit) {
    ctx.unlocked().reached(UnlockedPhase.PURGE_SCAN_BEGINS, step);
    CursorSweep<V> sweep = CursorSweep.read(ctx.store(), table, cursor, limit);
    ctx.unlocked().reached(UnlockedPhase.PURGE_SCAN_DONE, step);
    return sweep;
  }

  /** A step that found its cursor moved since its read: it wrote nothing. */
  private PurgeResult moved(String step, CursorSweep<?> sweep) {
    return new PurgeResult(step, sweep.size(), 0, 0, 0, readCursor(step), false);
  }

  /**
   * Expires openKeyTable rows created at or before {@code now - threshold} (the store's clock),
   * examining up to {@code limit} rows after the cursor (wrapping once): each is deleted and
   * OPEN_KEYS counted down; one that recorded data ({@code data_size > 0}) moves to deletedTable so
   * the key purge reclaims it. A later commit of an expired key fails with NOT_FOUND.
   *
   * @throws OmException INVALID_ARGUMENT for a negative threshold or a limit out of range
   */
  public PurgeResult expireOpenKeys(Duration threshold, int limit) {
    return expireOpen(OPEN_KEY_CLEANUP, OPEN_KEY_TABLE, OmCounter.OPEN_KEYS, threshold, limit);
  }

  /** As {@link #expireOpenKeys}, for FSO openFileTable rows (OPEN_FILES). */
  public PurgeResult expireOpenFiles(Duration threshold, int limit) {
    return expireOpen(OPEN_FILE_CLEANUP, OPEN_FILE_TABLE, OmCounter.OPEN_FILES, threshold, limit);
  }

  /**
   * Aborts multipart uploads initiated at or before {@code now - threshold}, examining up to
   * {@code limit} uploads after the cursor (wrapping once): as {@code multipart().abort}, their
   * parts move to deletedTable and MULTIPART_UPLOADS is counted down.
   *
   * @throws OmException INVALID_ARGUMENT for a negative threshold or a limit out of range
   */
  public PurgeResult abortExpiredUploads(Duration threshold, int limit) {
    // A null bucket id (its bucket is gone; cannot happen while deleteBucket refuses buckets
    // with uploads, kept total) counts the upload and its parts store-wide.
    return expireSweep(MULTIPART_UPLOAD_CLEANUP, MULTIPART_INFO_TABLE, OmCounter.MULTIPART_UPLOADS,
        threshold, limit, MultipartUploadInfo::getCreationTime,
        (txn, owners, row) -> parts.discard(txn,
            owners.of(row.key(), row.value().getObjectId()), row.value()));
  }

  // ---- implementation ----

  private PurgeResult expireOpen(String step, TableDefinition<String, KeyInfo> table,
      OmCounter counter,
      Duration threshold, int limit) {
    boolean fso = counter == OmCounter.OPEN_FILES;
    return expireSweep(step, table, counter, threshold, limit, KeyInfo::getCreationTime,
        (txn, owners, row) -> {
          KeyInfo open = row.value();
          Long bucketId = fso ? Long.valueOf(OmKeys.fsoBucketIdOf(row.key()))
              : owners.of(row.key(), open.getObjectId());
          txn.countIn(bucketId, counter, -1);
          if (open.getDataSize() == 0) {
            return 0;
          }
          ctx.moveToDeleted(txn, bucketId, open.toBuilder().setClientId(0).build());
          return open.getDataSize();
        });
  }

  /** What an expiry sweep does for one expired row besides deleting it; returns bytes reclaimed. */
  private interface ExpiredRow<V> {
    long retire(WriteTxn txn, BucketOwners owners, CursorSweep.Row<V> row);
  }

  /**
   * One expiry step: skipped when {@code counter} is 0; else it reads up to {@code limit} rows of
   * {@code table} after the step's cursor (wrapping once) without the write lock, then one write
   * transaction deletes those still there unchanged and created at or before
   * {@code now - threshold} (each maximal run as one delete), runs {@code retire} for each, and
   * saves the cursor.
   *
   * @throws OmException INVALID_ARGUMENT for a negative threshold or a limit out of range
   */
  private <V> PurgeResult expireSweep(String step, TableDefinition<String, V> table,
      OmCounter counter, Duration threshold, int limit, ToLongFunction<V> createdAt,
      ExpiredRow<V> retire) {
    long age = checkThreshold(threshold);
    checkLimit(limit);
    if (counter(counter) == 0) {
      return skipped(step);
    }
    Table<String, V> typed = ctx.table(table);
    return ctx.unlocked().serializedStep(step, () -> {
      String cursor = readCursor(step);
      CursorSweep<V> sweep = scan(step, table, cursor, limit);
      return ctx.write(txn -> {
        if (!Objects.equals(cursor, readCursor(step))) {
          return moved(step, sweep);
        }
        long expiredAtOrBefore = txn.now() - age;
        BucketOwners owners = new BucketOwners();
        long[] bytes = {0};
        Outcome outcome = deleteExpired(txn, typed, sweep.confirm(ctx.store(), table),
            v -> createdAt.applyAsLong(v) <= expiredAtOrBefore,
            row -> bytes[0] += retire.retire(txn, owners, row));
        writeCursor(txn, step, cursor, sweep.nextCursor());
        return new PurgeResult(step, sweep.size(), outcome.purged, bytes[0], outcome.ranges,
            sweep.nextCursor(), false);
      });
    });
  }

  private record Outcome(int purged, int ranges) {
  }

  /**
   * Runs {@code onExpired} for every row {@code expired} selects and deletes those rows, each
   * maximal run of consecutive ones within a confirmed run as one {@link CursorSweep#deleteRun}.
   */
  private static <V> Outcome deleteExpired(WriteTxn txn, Table<String, V> table,
      List<List<CursorSweep.Row<V>>> confirmed, Predicate<V> expired,
      Consumer<CursorSweep.Row<V>> onExpired) {
    int purged = 0;
    int ranges = 0;
    for (List<CursorSweep.Row<V>> segment : confirmed) {
      List<CursorSweep.Row<V>> run = new ArrayList<>();
      for (CursorSweep.Row<V> row : segment) {
        if (expired.test(row.value())) {
          onExpired.accept(row);
          run.add(row);
          purged++;
        } else if (!run.isEmpty()) {
          ranges += CursorSweep.deleteRun(table, txn.batch(), run);
          run = new ArrayList<>();
        }
      }
      if (!run.isEmpty()) {
        ranges += CursorSweep.deleteRun(table, txn.batch(), run);
      }
    }
    return new Outcome(purged, ranges);
  }

  private long counter(OmCounter c) {
    return ctx.counters().get(c);
  }

  private PurgeResult skipped(String step) {
    return new PurgeResult(step, 0, 0, 0, 0, readCursor(step), true);
  }

  private String readCursor(String step) {
    byte[] v = meta.get(cursorKey(step));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  private void writeCursor(WriteTxn txn, String step, String before, String after) {
    if (Objects.equals(before, after)) {
      return;
    }
    if (after == null) {
      meta.deleteWithBatch(txn.batch(), cursorKey(step));
    } else {
      meta.putWithBatch(txn.batch(), cursorKey(step), after.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw OmException.invalid("A purge limit must be 1 to " + MAX_LIMIT + ": " + limit);
    }
  }

  private static long checkThreshold(Duration threshold) {
    if (threshold == null || threshold.isNegative()) {
      throw OmException.invalid("An expiry threshold must be zero or positive: " + threshold);
    }
    return threshold.toMillis();
  }

  /**
   * The live bucket a row keyed {@code /volume/bucket/...} belongs to (see the class comment),
   * read under the write lock from the parsed-row cache, once per bucket name per transaction.
   */
  private final class BucketOwners {
    private final Map<String, Long> byName = new HashMap<>();

    Long of(String rowKey, long rowObjectId) {
      int volumeEnd = rowKey.indexOf(OmKeys.SEPARATOR, 1);
      int bucketEnd = volumeEnd < 0 ? -1 : rowKey.indexOf(OmKeys.SEPARATOR, volumeEnd + 1);
      if (bucketEnd < 0) {
        return null;
      }
      long bucketId = byName.computeIfAbsent(rowKey.substring(0, bucketEnd), k -> {
        BucketInfo b = ctx.bucketIfExists(rowKey.substring(1, volumeEnd),
            rowKey.substring(volumeEnd + 1, bucketEnd));
        return b == null ? 0L : b.getObjectId();
      });
      return bucketId != 0 && Long.compareUnsigned(rowObjectId, bucketId) > 0 ? bucketId : null;
    }
  }
}
