package io.sediment.cli;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.OmStoreOptions;
import io.sediment.om.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
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
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sediment load}: writes a synthetic namespace through gRPC (to a running server, or to a
 * store opened here behind a loopback server of its own): volumes, OBS buckets with committed keys
 * in a directory-like tree, keys left open, FSO buckets each holding a deep tree of directories
 * and files ({@link FsoTreeShape}), multipart uploads in each OBS bucket (completed, aborted, or
 * left in progress, in turn), a snapshot of each OBS bucket; then deletes a contiguous band of
 * each OBS bucket's keys, which leaves a tombstone band in keyTable (the snapshot still holds the
 * band), and recursively deletes some subtrees of each FSO tree, which the directory purge
 * removes later. Re-running it overwrites the same keys and files, recreates and deletes again the
 * same subtrees, starts new uploads and keeps the existing snapshots.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
    description = {"Write a synthetic namespace (volumes, buckets, keys, open keys, FSO trees of "
        + "directories and files, multipart uploads completed, aborted and in progress, a snapshot "
        + "of each OBS bucket), then delete a band of keys in each OBS bucket, leaving tombstones, "
        + "and some subtrees of each FSO tree recursively, leaving work for the directory purge.",
        "Talks to a running server (--target, the default) or opens a stopped store (--data)."})
final class LoadCommand implements Callable<Integer> {

  static final class Where {
    @Option(names = "--target", paramLabel = "HOST:PORT",
        description = "A running `sediment serve` (default: " + TargetOptions.DEFAULT_TARGET + ").")
    String target;

    @Option(names = "--data", paramLabel = "DIR",
        description = "Instead: load directly into the store under DIR (must not be served).")
    Path data;
  }

  @ArgGroup(exclusive = true)
  Where where;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Deadline of each call in seconds (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--volumes", defaultValue = "2", description = "Volumes (default: ${DEFAULT-VALUE}).")
  int volumes;

  @Option(names = "--buckets", defaultValue = "2",
      description = "OBJECT_STORE buckets per volume (default: ${DEFAULT-VALUE}).")
  int buckets;

  @Option(names = "--keys", defaultValue = "1000",
      description = "Keys committed per OBS bucket (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--open-keys", defaultValue = "10",
      description = "Keys left open (uncommitted) per OBS bucket (default: ${DEFAULT-VALUE}).")
  int openKeys;

  @Option(names = "--delete-fraction", defaultValue = "0.3",
      description = "Fraction of each OBS bucket's keys deleted, as one contiguous band "
          + "(default: ${DEFAULT-VALUE}).")
  double deleteFraction;

  @Option(names = "--fso-buckets", defaultValue = "1",
      description = "FILE_SYSTEM_OPTIMIZED buckets per volume (default: ${DEFAULT-VALUE}).")
  int fsoBuckets;

  @Option(names = "--depth", defaultValue = "4",
      description = "Directory levels of each FSO tree (default: ${DEFAULT-VALUE}).")
  int depth;

  @Option(names = "--fanout", defaultValue = "2",
      description = "Subdirectories (dir-0, dir-1, ...) of each FSO directory above the deepest "
          + "level (default: ${DEFAULT-VALUE}).")
  int fanout;

  @Option(names = "--files-per-dir", defaultValue = "3",
      description = "Files (file-0, file-1, ...) committed in each FSO directory, the bucket root "
          + "included (default: ${DEFAULT-VALUE}).")
  int filesPerDir;

  @Option(names = "--multipart-uploads", defaultValue = "3",
      description = "Multipart uploads per OBS bucket (key multipart/object-N, " + PARTS
          + " parts each): in turn completed, aborted, left in progress (default: ${DEFAULT-VALUE}).")
  int multipartUploads;

  @Option(names = "--no-snapshots",
      description = "Take no snapshot (default: snapshot '" + SNAPSHOT + "' of each OBS bucket, "
          + "before the deletes).")
  boolean noSnapshots;

  @Option(names = "--threads", defaultValue = "8",
      description = "Concurrent writers (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--name-prefix", defaultValue = "load",
      description = "Volume names are PREFIX-vNNN (default: ${DEFAULT-VALUE}).")
  String namePrefix;

  @Option(names = "--no-progress", description = "No progress bar on stderr.")
  boolean noProgress;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Parts of each multipart upload: all but the last of the S3 minimum part size. */
  static final int PARTS = 3;
  /** The snapshot taken of each OBS bucket before the deletes. */
  static final String SNAPSHOT = "before-deletes";
  private static final long MIN_PART_BYTES = 5L << 20;

  private OmServiceGrpc.OmServiceBlockingStub stub;
  private FsoTreeShape tree;
  private ProgressBar progress;
  private final List<String> skipped = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    validate();
    if (where != null && where.data != null) {
      try (OmMetadataStore store = StoreDirs.open(where.data,
          OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE))) {
        OmGrpcServer local = OmGrpcServer.builder(store).port(0).build();
        try {
          local.start();
        } catch (IOException e) {
          throw new CliFailure("Cannot start the loader's loopback server: " + e.getMessage(), e);
        }
        try {
          run(TargetOptions.channelTo(spec.commandLine(), local.target()));
        } finally {
          local.shutdown(OmGrpcServer.DEFAULT_DRAIN_TIMEOUT);
          store.dbStore().syncWal();
        }
      }
    } else {
      run(TargetOptions.channelTo(spec.commandLine(),
          where == null || where.target == null ? TargetOptions.DEFAULT_TARGET : where.target));
    }
    return 0;
  }

  private void run(ManagedChannel channel) throws Exception {
    try {
      stub = OmServiceGrpc.newBlockingStub(channel);
      long obs = (long) volumes * buckets;
      long fso = (long) volumes * fsoBuckets;
      long deletes = obs * deleteCount() + fso * tree.deletedSubtrees().size();
      long total = volumes + obs + fso + obs * keys + obs * openKeys + deletes
          + fso * (tree.directories() + tree.files())
          + obs * multipartUploads * (PARTS + 2L) + (noSnapshots ? 0 : obs);
      progress = new ProgressBar(spec.commandLine().getErr(), total, !noProgress);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      boolean uploads;
      boolean snapshots;
      try {
        progress.phase("volumes and buckets");
        List<String[]> fsoTargets = new ArrayList<>();
        List<String[]> obsBuckets = createVolumesAndBuckets(fsoTargets);
        progress.phase("keys");
        parallel(pool, obsBuckets, keys, (b, i) -> commitKey(b, keyName(i), i));
        progress.phase("open keys");
        parallel(pool, obsBuckets, openKeys, (b, i) -> openKey(b, "open/key-" + i));
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
        int first = deleteStart();
        parallel(pool, obsBuckets, deleteCount(), (b, i) -> deleteKey(b, keyName(first + i)));
        List<String> subtrees = tree.deletedSubtrees();
        parallel(pool, fsoTargets, subtrees.size(),
            (b, i) -> deleteDirectory(b, subtrees.get(i)));
        progress.phase("done");
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        progress.finish();
      }
      PrintWriter out = spec.commandLine().getOut();
      out.printf("Loaded %d volumes, %d OBS buckets with %d committed keys each and %d open keys "
              + "each; %s.%n", volumes, obs, keys, openKeys, deleteCount() == 0 ? "deleted no keys"
              : String.format("deleted keys %s..%s of each bucket (%d per bucket: a tombstone band "
              + "in keyTable)", keyName(deleteStart()), keyName(deleteStart() + deleteCount() - 1),
              deleteCount()));
      if (fso > 0) {
        out.printf("Created %d FSO buckets, each a tree of %d directories (depth %d, fanout %d) and "
                + "%d files; deleted %s of each recursively (%d directories and %d files wait for "
                + "the directory purge), leaving %d entries.%n", fso, tree.directories(), depth,
            fanout, tree.files(), String.join(", ", tree.deletedSubtrees()),
            tree.deletedDirectories(), tree.deletedFiles(), tree.liveEntries());
      }
      if (uploads && multipartUploads > 0 && obs > 0) {
        out.printf("Multipart uploads in each OBS bucket: %d completed (keys multipart/object-N), "
                + "%d aborted, %d in progress.%n", (multipartUploads + 2) / 3,
            (multipartUploads + 1) / 3, multipartUploads / 3);
      }
      if (snapshots && obs > 0) {
        out.printf("Snapshot '%s' of each OBS bucket holds its keys as they were before the "
            + "deletes.%n", SNAPSHOT);
      }
      for (String s : skipped) {
        out.println("Skipped: " + s);
      }
      out.flush();
    } finally {
      TargetOptions.close(channel);
    }
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
    for (int v = 0; v < volumes; v++) {
      String vol = String.format("%s-v%03d", namePrefix, v);
      tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createVolume(
          CreateVolumeRequest.newBuilder().setVolume(vol).setOwner("load").build()));
      progress.step();
      for (int b = 0; b < buckets; b++) {
        String bucket = String.format("obs-%03d", b);
        tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createBucket(CreateBucketRequest
            .newBuilder().setVolume(vol).setBucket(bucket).setLayout(BucketLayout.OBJECT_STORE)
            .build()));
        obs.add(new String[] {vol, bucket});
        progress.step();
      }
      for (int b = 0; b < fsoBuckets; b++) {
        String bucket = String.format("fso-%03d", b);
        tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createBucket(CreateBucketRequest
            .newBuilder().setVolume(vol).setBucket(bucket)
            .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build()));
        fso.add(new String[] {vol, bucket});
        progress.step();
      }
    }
    return obs;
  }

  /**
   * Upload u of each OBS bucket, key {@code multipart/object-u}: {@link #PARTS} parts, then
   * completed (u % 3 == 0), aborted (1) or left in progress (2).
   *
   * @return false if the server does not serve multipart uploads (noted in {@link #skipped})
   */
  private boolean multipart(List<String[]> obsBuckets) {
    for (String[] b : obsBuckets) {
      for (int u = 0; u < multipartUploads; u++) {
        String key = "multipart/object-" + u;
        try {
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
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
            skipped.add("multipart uploads (" + e.getStatus().getDescription() + ")");
            return false;
          }
          throw e;
        }
      }
    }
    return true;
  }

  /**
   * Snapshot {@link #SNAPSHOT} of each OBS bucket (an existing one is kept).
   *
   * @return false if none was taken (--no-snapshots, or not served)
   */
  private boolean snapshots(List<String[]> obsBuckets) {
    if (noSnapshots) {
      return false;
    }
    for (String[] b : obsBuckets) {
      try {
        tolerate(Status.Code.ALREADY_EXISTS, () -> rpc().createSnapshot(CreateSnapshotRequest
            .newBuilder().setVolume(b[0]).setBucket(b[1]).setName(SNAPSHOT).build()));
        progress.step();
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
          skipped.add("snapshots (" + e.getStatus().getDescription() + ")");
          return false;
        }
        throw e;
      }
    }
    return true;
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

  private void deleteKey(String[] b, String key) {
    tolerate(Status.Code.NOT_FOUND, () -> rpc().deleteKey(DeleteKeyRequest.newBuilder()
        .setVolume(b[0]).setBucket(b[1]).setKey(key).build()));
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** Key i: a three-level tree, so delimiter listings show common prefixes. */
  static String keyName(int i) {
    return String.format("dir-%02d/sub-%02d/key-%06d", i / 1000, i / 100 % 10, i);
  }

  private int deleteCount() {
    return (int) Math.round(keys * deleteFraction);
  }

  /** The band starts a quarter in, so live keys stay on both sides of it. */
  private int deleteStart() {
    return Math.min(keys / 4, keys - deleteCount());
  }

  private OmServiceGrpc.OmServiceBlockingStub rpc() {
    return stub.withDeadlineAfter(timeoutSeconds, TimeUnit.SECONDS);
  }

  private interface Task {
    void run(String[] bucket, int i);
  }

  /** Runs {@code task} for every (bucket, i < count) on the pool; the first failure is thrown. */
  private void parallel(ExecutorService pool, List<String[]> targets, int count, Task task)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    long total = (long) targets.size() * count;
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    List<Future<?>> workers = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      workers.add(pool.submit(() -> {
        while (failure.get() == null) {
          long n = next.getAndIncrement();
          if (n >= total) {
            return;
          }
          try {
            task.run(targets.get((int) (n / count)), (int) (n % count));
            progress.step();
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

  private void validate() {
    CommandLine cmd = spec.commandLine();
    check(cmd, volumes >= 1 && volumes <= 1000, "--volumes must be in [1, 1000]");
    check(cmd, buckets >= 0 && buckets <= 1000, "--buckets must be in [0, 1000]");
    check(cmd, fsoBuckets >= 0 && fsoBuckets <= 1000, "--fso-buckets must be in [0, 1000]");
    check(cmd, keys >= 0 && keys <= 10_000_000, "--keys must be in [0, 10000000]");
    check(cmd, openKeys >= 0 && openKeys <= 1_000_000, "--open-keys must be in [0, 1000000]");
    check(cmd, deleteFraction >= 0 && deleteFraction <= 1, "--delete-fraction must be in [0, 1]");
    check(cmd, depth >= 1 && depth <= 100, "--depth must be in [1, 100]");
    check(cmd, fanout >= 1 && fanout <= 100, "--fanout must be in [1, 100]");
    check(cmd, filesPerDir >= 0 && filesPerDir <= 10_000, "--files-per-dir must be in [0, 10000]");
    try {
      tree = new FsoTreeShape(depth, fanout, filesPerDir);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cmd, e.getMessage() + ": lower --depth, --fanout "
          + "or --files-per-dir");
    }
    check(cmd, multipartUploads >= 0 && multipartUploads <= 10_000,
        "--multipart-uploads must be in [0, 10000]");
    check(cmd, threads >= 1 && threads <= 256, "--threads must be in [1, 256]");
    check(cmd, timeoutSeconds >= 1, "--timeout must be at least 1 second");
    check(cmd, namePrefix.matches("[a-z0-9][a-z0-9-]{0,40}"),
        "--name-prefix must be lower-case letters, digits and '-', at most 41 characters");
  }

  private static void check(CommandLine cmd, boolean ok, String message) {
    if (!ok) {
      throw new CommandLine.ParameterException(cmd, message);
    }
  }
}
