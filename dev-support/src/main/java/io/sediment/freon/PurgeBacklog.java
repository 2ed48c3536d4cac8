package io.sediment.freon;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OpenKeySession;
import io.sediment.proto.om.BucketLayout;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A purge backlog for the purge-interference runs: {@code keys} OBJECT_STORE keys written and
 * deleted in bucket {@value #BUCKET} (so deletedTable holds that many rows for the key purge), and
 * an FSO directory {@value #TREE} of {@code files} files, 1,000 per subdirectory, in bucket
 * {@value #FSO_BUCKET}, deleted recursively (one queue row for the directory purge, which moves
 * the files to deletedTable for the key purge). The workloads never touch these buckets, so what
 * is left of the backlog is read from their counters. Not measured.
 */
final class PurgeBacklog {

  static final String BUCKET = "purge";
  static final String FSO_BUCKET = "purge-fso";
  static final String TREE = "doomed";
  private static final int FILES_PER_DIRECTORY = 1_000;
  private static final int DELETE_BATCH = 1_000;

  private final long keys;
  private final long files;

  PurgeBacklog(long keys, long files) {
    this.keys = keys;
    this.files = files;
  }

  long keys() {
    return keys;
  }

  long files() {
    return files;
  }

  boolean isEmpty() {
    return keys == 0 && files == 0;
  }

  /** Writes and deletes the backlog through the store's API from {@code threads} threads. */
  void create(OmMetadataStore store, Names names, String owner, int threads, PrintStream progress)
      throws InterruptedException {
    String v = names.volume();
    store.createBucket(v, BUCKET, BucketLayout.OBJECT_STORE, owner, 0);
    store.createBucket(v, FSO_BUCKET, BucketLayout.FILE_SYSTEM_OPTIMIZED, owner, 0);
    Prefill.run("backlog keys", keys, threads, i -> {
      String name = key(i);
      OpenKeySession s = store.openKey(v, BUCKET, name, owner);
      store.commitKey(v, BUCKET, name, s.clientId(), ServiceCalls.DATA_SIZE);
    }, progress);
    long batches = (keys + DELETE_BATCH - 1) / DELETE_BATCH;
    Prefill.run("backlog deletes (batches of " + DELETE_BATCH + ")", batches, threads, b -> {
      List<String> page = new ArrayList<>(DELETE_BATCH);
      for (long i = b * DELETE_BATCH; i < Math.min(keys, (b + 1) * DELETE_BATCH); i++) {
        page.add(key(i));
      }
      store.deleteKeys(v, BUCKET, page, Set.of());
    }, progress);
    if (files > 0) {
      Prefill.run("backlog FSO files", files, threads, i -> {
        String path = String.format("%s/d%06d/f%010d", TREE, i / FILES_PER_DIRECTORY, i);
        OpenKeySession s = store.fso().createFile(v, FSO_BUCKET, path, owner);
        store.fso().commitFile(v, FSO_BUCKET, path, s.clientId(), ServiceCalls.DATA_SIZE);
      }, progress);
      store.fso().deleteDirectory(v, FSO_BUCKET, TREE, true);
    }
  }

  /**
   * Rows of the backlog still to purge: deleted versions of the backlog buckets, plus files,
   * directories and the queue row below the deleted tree.
   */
  long left(OmMetadataStore store, Names names) {
    Map<OmCounter, Long> obs = store.bucketCounters(names.volume(), BUCKET);
    Map<OmCounter, Long> fso = store.bucketCounters(names.volume(), FSO_BUCKET);
    return obs.get(OmCounter.DELETED_KEYS) + fso.get(OmCounter.DELETED_KEYS)
        + fso.get(OmCounter.FILES) + fso.get(OmCounter.DIRECTORIES)
        + fso.get(OmCounter.DELETED_DIRECTORIES);
  }

  private static String key(long i) {
    return String.format("gone-%010d", i);
  }
}
