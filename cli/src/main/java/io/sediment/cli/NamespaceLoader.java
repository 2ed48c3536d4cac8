package io.sediment.cli;

import static io.sediment.cli.LoadPlan.PARTS;
import static io.sediment.cli.LoadPlan.SNAPSHOT;
import static io.sediment.cli.LoadPlan.keyName;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.proto.om.AbortMultipartUploadRequest;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitMultipartPartRequest;
import io.sediment.proto.om.CompleteMultipartUploadRequest;
import io.sediment.proto.om.CompletedPart;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Writes a {@link LoadPlan} through one OmService stub, phase by phase: volumes and buckets, keys,
 * open keys, FSO directories and files, multipart uploads, snapshots, then the deletes; then prints
 * what it wrote. What already exists is kept (volumes, buckets, snapshots) or overwritten (keys,
 * files); a server that does not serve multipart uploads or snapshots (UNIMPLEMENTED) has that
 * phase skipped and named in the summary. The first failed call stops the load and is thrown.
 *
 * <p>One load at a time; its own pool of {@code --threads} writers.
 */
final class NamespaceLoader {

  private static final long MIN_PART_BYTES = 5L << 20;

  private final LoadPlan plan;
  private final FsoTreeShape tree;
  /** The stub under the command's deadline, for each next call. */
  private final Supplier<OmServiceGrpc.OmServiceBlockingStub> rpc;
  private final ProgressBar progress;
  private final List<String> skipped = new ArrayList<>();

  /**
   * @param plan a validated plan
   * @param rpc the stub with a fresh deadline, each time it is asked
   * @param progress where each finished call is counted
   */
  NamespaceLoader(LoadPlan plan, Supplier<OmServiceGrpc.OmServiceBlockingStub> rpc,
      ProgressBar progress) {
    this.plan = plan;
    this.tree = plan.tree();
    this.rpc = rpc;
    this.progress = progress;
  }

  /** Runs every phase, then prints the summary to {@code out}. */
  void load(PrintWriter out) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(plan.threads);
    boolean uploads;
    boolean snapshots;
    try {
      progress.phase("volumes and buckets");
      List<String[]> fsoTargets = new ArrayList<>();
      List<String[]> obsBuckets = createVolumesAndBuckets(fsoTargets);
      progress.phase("keys");
      parallel(pool, obsBuckets, plan.keys, (b, i) -> commitKey(b, keyName(i), i));
      progress.phase("open keys");
      parallel(pool, obsBuckets, plan.openKeys, (b, i) -> openKey(b, "open/key-" + i));
      progress.phase("FSO directories");
      parallel(pool, fsoTargets, (int) tree.directories(),
          (b, i) -> createDirectory(b, tree.directory(i)));
      progress.phase("FSO files");
      parallel(pool, fsoTargets, (int) tree.files(), (b, i) -> commitFile(b, tree.file(i), i));
      progress.phase("multipart uploads");
      uploads = multipart(obsBuckets);
      progress.phase("snapshots");
      snapshots = snapshots(obsBuckets);
      progress.phase("deletes");
      // One task per bucket, which counts its own steps (one per key of the band).
      parallel(pool, obsBuckets, 1, (b, i) -> deleteBand(b), false);
      List<String> subtrees = tree.deletedSubtrees();
      parallel(pool, fsoTargets, subtrees.size(),
          (b, i) -> deleteDirectory(b, subtrees.get(i)));
      progress.phase("done");
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
      progress.finish();
    }
    plan.printSummary(out, uploads, snapshots);
    for (String s : skipped) {
      out.println("Skipped: " + s);
    }
    out.flush();
  }

  // ---- phases -----------------------------------------------------------------------------------

  /**
   * Creates the volumes and buckets (existing ones are kept).
   *
   * @param fso receives each FSO bucket as {volume, bucket}
   * @return the OBS buckets as {volume, bucket}
   */
  private List<String[]> createVolumesAndBuckets(List<String[]> fso) {
    List<String[]> obs = new ArrayList<>();
    for (int v = 0; v < plan.volumes; v++) {
      String vol = String.format("%s-v%03d", plan.namePrefix, v);
      tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createVolume(
          CreateVolumeRequest.newBuilder().setVolume(vol).setOwner("load").build()));
      progress.step();
      createBuckets(vol, "obs-%03d", plan.buckets, BucketLayout.OBJECT_STORE, obs);
      createBuckets(vol, "fso-%03d", plan.fsoBuckets, BucketLayout.FILE_SYSTEM_OPTIMIZED, fso);
    }
    return obs;
  }

  /** Creates {@code count} buckets named {@code nameFormat} of {@code vol}, added to {@code to}. */
  private void createBuckets(String vol, String nameFormat, int count, BucketLayout layout,
      List<String[]> to) {
    for (int b = 0; b < count; b++) {
      String bucket = String.format(nameFormat, b);
      tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createBucket(CreateBucketRequest
          .newBuilder().setVolume(vol).setBucket(bucket).setLayout(layout).build()));
      to.add(new String[] {vol, bucket});
      progress.step();
    }
  }

  /**
   * Upload u of each OBS bucket, key {@code multipart/object-u}: {@link LoadPlan#PARTS} parts,
   * then completed (u % 3 == 0), aborted (1) or left in progress (2).
   *
   * @return false if the server does not serve multipart uploads (noted in {@link #skipped})
   */
  private boolean multipart(List<String[]> obsBuckets) {
    return unlessUnimplemented("multipart uploads", () -> {
      for (String[] b : obsBuckets) {
        for (int u = 0; u < plan.multipartUploads; u++) {
          upload(b, u);
        }
      }
    });
  }

  private void upload(String[] b, int u) {
    String key = "multipart/object-" + u;
    String uploadId = rpc().initiateMultipartUpload(InitiateMultipartUploadRequest
        .newBuilder().setVolume(b[0]).setBucket(b[1]).setKey(key).build()).getUploadId();
    progress.step();
    CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest
        .newBuilder().setVolume(b[0]).setBucket(b[1]).setKey(key).setUploadId(uploadId);
    for (int part = 1; part <= PARTS; part++) {
      String etag = String.format("%032x", (long) u * 100_000 + part);
      rpc().commitMultipartPart(CommitMultipartPartRequest.newBuilder().setVolume(b[0])
          .setBucket(b[1]).setKey(key).setUploadId(uploadId).setPartNumber(part)
          .setSize(part < PARTS ? MIN_PART_BYTES : 1024L * (u + 1)).setEtag(etag).build());
      complete.addParts(CompletedPart.newBuilder().setPartNumber(part).setEtag(etag));
      progress.step();
    }
    switch (u % 3) {
      case 0 -> rpc().completeMultipartUpload(complete.build());
      case 1 -> rpc().abortMultipartUpload(AbortMultipartUploadRequest.newBuilder()
          .setVolume(b[0]).setBucket(b[1]).setKey(key).setUploadId(uploadId).build());
      default -> { } // left in progress
    }
    progress.step();
  }

  /**
   * Snapshot {@link LoadPlan#SNAPSHOT} of each OBS bucket (an existing one is kept).
   *
   * @return false if none was taken (--no-snapshots, or not served)
   */
  private boolean snapshots(List<String[]> obsBuckets) {
    if (plan.noSnapshots) {
      return false;
    }
    return unlessUnimplemented("snapshots", () -> {
      for (String[] b : obsBuckets) {
        tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createSnapshot(CreateSnapshotRequest
            .newBuilder().setVolume(b[0]).setBucket(b[1]).setName(SNAPSHOT).build()));
        progress.step();
      }
    });
  }

  /**
   * Runs {@code phase}; if the server answers UNIMPLEMENTED, notes {@code what} in
   * {@link #skipped} and returns false (the rest of the phase is not tried).
   */
  private boolean unlessUnimplemented(String what, Runnable phase) {
    try {
      phase.run();
      return true;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        skipped.add(what + " (" + e.getStatus().getDescription() + ")");
        return false;
      }
      throw e;
    }
  }

  private void commitKey(String[] b, String key, long size) {
    OpenKeyResponse open = openKey(b, key);
    rpc().commitKey(CommitKeyRequest.newBuilder().setVolume(b[0]).setBucket(b[1]).setKey(key)
        .setClientId(open.getClientId()).setDataSize(size).build());
  }

  private OpenKeyResponse openKey(String[] b, String key) {
    return rpc().openKey(OpenKeyRequest.newBuilder().setVolume(b[0]).setBucket(b[1])
        .setKey(key).build());
  }

  private void createDirectory(String[] b, String path) {
    rpc().createDirectory(CreateDirectoryRequest.newBuilder().setVolume(b[0]).setBucket(b[1])
        .setPath(path).build());
  }

  /** Opens and commits file {@code path} of {@code size} bytes; an existing file is replaced. */
  private void commitFile(String[] b, String path, long size) {
    CreateFileResponse open = rpc().createFile(CreateFileRequest.newBuilder().setVolume(b[0])
        .setBucket(b[1]).setPath(path).build());
    rpc().commitFile(CommitFileRequest.newBuilder().setVolume(b[0]).setBucket(b[1]).setPath(path)
        .setClientId(open.getClientId()).setDataSize(size).build());
  }

  private void deleteDirectory(String[] b, String path) {
    tolerate(Status.Code.NOT_FOUND, () -> rpc().deleteDirectory(DeleteDirectoryRequest
        .newBuilder().setVolume(b[0]).setBucket(b[1]).setPath(path).setRecursive(true).build()));
  }

  /**
   * Deletes the band of bucket {@code b} page by page: lists the bucket's keys (pages of the
   * server's cap) and deletes the band's keys on each page with one DeleteKeys call, an atomic
   * write of at most the cap. A band key already gone (a re-run) is not listed; a key the server
   * refuses to delete fails the load. Counts one progress step per key of the band.
   */
  private void deleteBand(String[] b) {
    int first = plan.deleteStart();
    int end = first + plan.deleteCount();
    if (first == end) {
      return;
    }
    ByteString token = ByteString.EMPTY;
    int deleted = 0;
    do {
      ListKeysResponse page = rpc().listKeys(ListKeysRequest.newBuilder().setVolume(b[0])
          .setBucket(b[1]).setPageToken(token).build());
      List<String> band = new ArrayList<>();
      for (KeyInfo k : page.getKeysList()) {
        int i = LoadPlan.keyIndex(k.getKeyName());
        if (i >= first && i < end) {
          band.add(k.getKeyName());
        }
      }
      if (!band.isEmpty()) {
        DeleteKeysResponse r = rpc().deleteKeys(DeleteKeysRequest.newBuilder().setVolume(b[0])
            .setBucket(b[1]).addAllKeys(band).build());
        for (DeleteKeyResult result : r.getResultsList()) {
          if (result.getOutcome() == DeleteKeyResult.Outcome.FAILED) {
            throw Status.fromCode(Status.Code.valueOf(result.getErrorCode()))
                .withDescription("cannot delete " + result.getKey() + ": " + result.getMessage())
                .asRuntimeException();
          }
        }
        deleted += band.size();
        progress.step(band.size());
      }
      token = page.getTruncated() ? page.getNextPageToken() : ByteString.EMPTY;
    } while (!token.isEmpty());
    // Keys deleted by an earlier run were not listed: count them done too.
    progress.step(end - first - deleted);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private OmServiceGrpc.OmServiceBlockingStub rpc() {
    return rpc.get();
  }

  private interface Task {
    void run(String[] bucket, int i);
  }

  /**
   * Runs {@code task} for every (bucket, i < count) on the pool, a progress step each; the first
   * failure is thrown.
   */
  private void parallel(ExecutorService pool, List<String[]> targets, int count, Task task)
      throws Exception {
    parallel(pool, targets, count, task, true);
  }

  /** As above; {@code step}: whether each task is a progress step (else it counts its own). */
  private void parallel(ExecutorService pool, List<String[]> targets, int count, Task task,
      boolean step) throws Exception {
    AtomicInteger next = new AtomicInteger();
    long total = (long) targets.size() * count;
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    List<Future<?>> workers = new ArrayList<>();
    for (int w = 0; w < plan.threads; w++) {
      workers.add(pool.submit(() -> {
        while (failure.get() == null) {
          long n = next.getAndIncrement();
          if (n >= total) {
            return;
          }
          try {
            task.run(targets.get((int) (n / count)), (int) (n % count));
            if (step) {
              progress.step();
            }
          } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
          }
        }
      }));
    }
    for (Future<?> f : workers) {
      f.get();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private static void tolerate(Status.Code code, Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != code) {
        throw e;
      }
    }
  }
}
