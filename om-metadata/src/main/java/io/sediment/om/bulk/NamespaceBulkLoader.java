package io.sediment.om.bulk;

import static io.sediment.om.core.OmDBDefinition.DIRECTORY_TABLE;
import static io.sediment.om.core.OmDBDefinition.FILE_TABLE;
import static io.sediment.om.core.OmDBDefinition.KEY_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_INFO_TABLE;
import static io.sediment.om.core.OmDBDefinition.MULTIPART_PARTS_TABLE;

import io.sediment.db.DBStore;
import io.sediment.db.TableBulkLoad;
import io.sediment.om.bulk.NamespaceLayout.Bucket;
import io.sediment.om.core.OmContext;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmValidation;
import io.sediment.om.core.WriteTxn;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.VolumeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;

/**
 * Builds a large namespace ({@link NamespacePlan}: volumes, OBS buckets with millions of keys and
 * multipart uploads in progress, FSO buckets with a tree of directories and files) in minutes
 * instead of hours, by writing each table's rows in key order into SST files and ingesting them,
 * instead of one write-path call per object. For a store nobody else writes meanwhile (a stopped
 * or a fresh one, opened by the caller); other writes must wait until it returns.
 *
 * <p><b>What it writes</b> is exactly what the equivalent writes through the write path would
 * write under the same clock ({@link NamespaceLayout} fixes their order and so every id): the
 * same rows, built by the write path's own row factories, under the same keys, encoded by the
 * tables' codecs ({@link NamespaceRows}); the same counters; the same next object id.
 *
 * <p><b>Steps.</b>
 * <ol>
 *   <li>Check the plan against the store (no volume of the plan exists; paths within the depth
 *       limit) and reserve the ids in one write: the store's next object id moves past them, so
 *       they are never reused, whatever happens next.
 *   <li>Generate every table's rows into SST files (keyTable, multipartInfoTable and
 *       multipartPartsTable, directoryTable and fileTable; in parallel threads, one per group).
 *       Nothing is visible yet; a failure here leaves the store as it was.
 *   <li>Ingest each table's files (one atomic call per table). The rows are now in the store but
 *       belong to no bucket: their volume and bucket rows do not exist yet, so no listing or
 *       lookup reaches them.
 *   <li>Commit the volume and bucket rows and every counter change in ONE write (the store-wide
 *       and per-bucket counters as the equivalent writes would leave them), after checking again
 *       that no volume of the plan exists: the namespace appears at once, with exact counters.
 * </ol>
 * A failure after ingestion began deletes what was ingested (one range delete per bucket and
 * table: every such range holds only the load's rows, since their buckets are new), so the
 * namespace and the counters are as before. A process killed between steps 3 and 4 leaves
 * ingested rows that no bucket owns; {@code sediment verify} then reports the store-wide
 * counters below its scan.
 *
 * <p>Not replicated: on a member of a replicated group it changes that replica's store only (its
 * rows carry the time of the load), so build a group's namespace in one store before the group
 * first starts and copy that store to the others. Thread-safe to call, one load at a time per
 * store.
 */
public final class NamespaceBulkLoader {

  /** The steps {@link #load} reports, in order. */
  public enum Step {
    /** The ids are reserved. */
    RESERVED,
    /** One table's SST files are written. */
    GENERATED,
    /** One table's files are ingested. */
    INGESTED,
    /** The volumes, buckets and counters are committed: the load is done. */
    COMMITTED
  }

  /** Receives each step as it ends, with a line for a log; called on the loading thread only. */
  @FunctionalInterface
  public interface Progress {
    void step(Step step, String message);
  }

  private final OmContext ctx;
  private final int threads;
  private final LongAdder written = new LongAdder();

  /**
   * @param threads how many tables are generated at once (1 to 3: there are three groups)
   */
  public NamespaceBulkLoader(OmContext ctx, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1: " + threads);
    }
    this.ctx = ctx;
    this.threads = Math.min(threads, 3);
  }

  /** Rows generated so far by this loader's loads, for progress. */
  public long rowsWritten() {
    return written.sum();
  }

  /**
   * Builds {@code plan}'s namespace; see the class comment.
   *
   * @throws OmException INVALID_ARGUMENT if the plan does not fit the store (too deep, too many
   *     ids or bytes), ALREADY_EXISTS if one of its volumes exists; nothing changed then
   * @throws RuntimeException if writing or ingesting fails; the rows are then removed again and
   *     only the reserved ids are spent
   */
  public BulkLoadResult load(NamespacePlan plan, Progress progress) {
    long start = System.nanoTime();
    FsoTreeLayout tree = new FsoTreeLayout(plan.fsoEntries(), plan.fsoFanout(),
        plan.filesPerDirectory());
    check(plan, tree);
    long ids = NamespaceLayout.ids(plan, tree);
    long now = ctx.options().clock().millis();
    long firstId = ctx.write(txn -> {
      requireNew(plan);
      return txn.allocateIds(ids);
    });
    progress.step(Step.RESERVED, String.format(Locale.ROOT, "reserved %,d object ids from %d",
        ids, firstId));
    NamespaceLayout layout = new NamespaceLayout(plan, tree, firstId, now);
    NamespaceRows rows = new NamespaceRows(plan, layout, tree, now,
        ctx.options().defaultReplication(), written);
    Map<String, BulkLoadResult.TableResult> results = new LinkedHashMap<>();
    List<TableBulkLoad<?, ?>> loads = new ArrayList<>();
    boolean ingesting = false;
    long generated;
    long ingested;
    try {
      generate(rows, loads, progress);
      generated = System.nanoTime();
      ingesting = true;
      for (TableBulkLoad<?, ?> load : loads) {
        load.ingest();
        BulkLoadResult.TableResult r = new BulkLoadResult.TableResult(load.rowCount(),
            load.files().size(), load.fileBytes());
        results.merge(load.table(), r, (a, b) -> new BulkLoadResult.TableResult(
            a.rows() + b.rows(), a.files() + b.files(), a.bytes() + b.bytes()));
        progress.step(Step.INGESTED, String.format(Locale.ROOT,
            "ingested %s: %,d rows in %d files, %,d bytes", load.table(), r.rows(), r.files(),
            r.bytes()));
      }
      ingested = System.nanoTime();
      ctx.write(txn -> {
        requireNew(plan);
        commitRows(txn, plan, layout, tree);
        return null;
      });
    } catch (RuntimeException | Error e) {
      if (ingesting) {
        try {
          removeIngested(layout);
        } catch (RuntimeException | Error cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      throw e;
    } finally {
      for (TableBulkLoad<?, ?> load : loads) {
        load.close();
      }
    }
    long end = System.nanoTime();
    progress.step(Step.COMMITTED, "committed " + plan.volumes().size() + " volumes, "
        + (layout.obsBuckets().size() + layout.fsoBuckets().size()) + " buckets and their "
        + "counters");
    return new BulkLoadResult(firstId, ids, results, Duration.ofNanos(generated - start),
        Duration.ofNanos(ingested - generated), Duration.ofNanos(end - start));
  }

  /** Checks what the plan cannot know: the store's path depth limit. */
  private void check(NamespacePlan plan, FsoTreeLayout tree) {
    if (!plan.fsoBuckets().isEmpty() && plan.fsoEntries() > 0) {
      String deepest = tree.deepestPath();
      int depth = deepest.split("/").length;
      if (depth > ctx.options().maxPathDepth()) {
        throw OmException.invalid("The FSO tree would be " + depth + " levels deep, more than "
            + "the maximum path depth of " + ctx.options().maxPathDepth() + ": raise the fanout");
      }
      OmValidation.checkPathText("The deepest FSO path", deepest, OmValidation.MAX_KEY_BYTES);
    }
    try {
      long buckets = (long) plan.volumes().size() * plan.fsoBuckets().size();
      Math.multiplyExact(buckets, Math.multiplyExact(tree.files(), plan.fileSize()));
      long obs = (long) plan.volumes().size() * plan.obsBuckets().size();
      Math.multiplyExact(obs, Math.multiplyExact(plan.keysPerBucket(), plan.keySize()));
    } catch (ArithmeticException e) {
      throw OmException.invalid("The plan's bytes would overflow a counter");
    }
  }

  private void requireNew(NamespacePlan plan) {
    for (String v : plan.volumes()) {
      if (ctx.volumeIfExists(v) != null) {
        throw new OmException(OmException.Code.ALREADY_EXISTS, "Volume '" + v + "' already "
            + "exists: a bulk load creates its volumes");
      }
    }
  }

  /**
   * Writes the tables' files: keyTable in one thread, the multipart tables in another, the FSO
   * tables in a third (fewer with fewer threads). Adds every load, finished, to {@code loads}.
   */
  private void generate(NamespaceRows rows, List<TableBulkLoad<?, ?>> loads, Progress progress) {
    DBStore store = ctx.store();
    List<Runnable> groups = new ArrayList<>();
    List<List<TableBulkLoad<?, ?>>> made = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      made.add(java.util.Collections.synchronizedList(new ArrayList<>()));
    }
    groups.add(() -> {
      var keys = open(store.bulkLoad(KEY_TABLE), made.get(0));
      rows.keys(keys);
      keys.finish();
    });
    groups.add(() -> {
      var uploads = open(store.bulkLoad(MULTIPART_INFO_TABLE), made.get(1));
      rows.uploads(uploads);
      uploads.finish();
      var parts = open(store.bulkLoad(MULTIPART_PARTS_TABLE), made.get(1));
      rows.parts(parts);
      parts.finish();
    });
    groups.add(() -> {
      var dirs = open(store.bulkLoad(DIRECTORY_TABLE), made.get(2));
      var files = open(store.bulkLoad(FILE_TABLE), made.get(2));
      rows.tree(dirs, files);
      dirs.finish();
      files.finish();
    });
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "bulk-load");
      t.setDaemon(true);
      return t;
    });
    RuntimeException failure = null;
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (Runnable g : groups) {
        futures.add(pool.submit(g));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          // The first failure stops the others (below): their interruptions say nothing more.
          failure = e.getCause() instanceof RuntimeException r ? r
              : new IllegalStateException("Bulk load failed: " + e.getCause(), e.getCause());
          break;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          failure = new IllegalStateException("Interrupted while generating the bulk load", e);
          break;
        }
      }
    } finally {
      // Generators not started are dropped, running ones stop at their next row once interrupted;
      // their loads must not be closed (freeing native writers) while one may still add to it.
      pool.shutdownNow();
      awaitTermination(pool);
      for (List<TableBulkLoad<?, ?>> m : made) {
        loads.addAll(m);
      }
    }
    if (failure != null) {
      throw failure;
    }
    for (TableBulkLoad<?, ?> load : loads) {
      progress.step(Step.GENERATED, String.format(Locale.ROOT,
          "generated %s: %,d rows in %d files", load.table(), load.rowCount(),
          load.files().size()));
    }
  }

  /** Waits for {@code pool}'s threads to end, keeping (and restoring) an interrupt. */
  private static void awaitTermination(ExecutorService pool) {
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, java.util.concurrent.TimeUnit.SECONDS)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static <K, V> TableBulkLoad<K, V> open(TableBulkLoad<K, V> load,
      List<TableBulkLoad<?, ?>> into) {
    into.add(load);
    return load;
  }

  /** The volume and bucket rows and the counters, into the commit's transaction. */
  private void commitRows(WriteTxn txn, NamespacePlan plan, NamespaceLayout layout,
      FsoTreeLayout tree) {
    for (VolumeInfo v : layout.volumes()) {
      ctx.parsedRows().putVolume(txn, v);
      txn.count(OmCounter.VOLUMES, 1);
    }
    for (Bucket b : layout.obsBuckets()) {
      long id = bucket(txn, b.row());
      txn.count(id, OmCounter.KEYS, plan.keysPerBucket());
      txn.count(id, OmCounter.KEY_BYTES, plan.keysPerBucket() * plan.keySize());
      txn.count(id, OmCounter.MULTIPART_UPLOADS, plan.uploadsPerBucket());
    }
    for (Bucket b : layout.fsoBuckets()) {
      long id = bucket(txn, b.row());
      txn.count(id, OmCounter.DIRECTORIES, tree.directories());
      txn.count(id, OmCounter.FILES, tree.files());
      txn.count(id, OmCounter.FILE_BYTES, tree.files() * plan.fileSize());
    }
  }

  private long bucket(WriteTxn txn, BucketInfo row) {
    ctx.parsedRows().putBucket(txn, row);
    txn.count(OmCounter.BUCKETS, 1);
    return row.getObjectId();
  }

  /**
   * Deletes every row the load may have ingested: per OBS bucket its prefix in keyTable and
   * multipartInfoTable, per FSO bucket its prefix in directoryTable and fileTable, and the parts
   * of the reserved ids. Each range holds only rows of this load: the buckets are new (a deleted
   * bucket of the same name left no keys or uploads behind) and the ids were reserved for it.
   */
  private void removeIngested(NamespaceLayout layout) {
    for (Bucket b : layout.obsBuckets()) {
      ctx.table(KEY_TABLE).deletePrefix(b.namePrefix());
      ctx.table(MULTIPART_INFO_TABLE).deletePrefix(b.namePrefix());
    }
    for (Bucket b : layout.fsoBuckets()) {
      ctx.table(DIRECTORY_TABLE).deletePrefix(b.idPrefix());
      ctx.table(FILE_TABLE).deletePrefix(b.idPrefix());
    }
    ctx.table(MULTIPART_PARTS_TABLE).deleteRange(OmKeys.id(layout.firstId()),
        OmKeys.id(layout.endId()));
  }
}
