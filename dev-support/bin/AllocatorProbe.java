import io.sediment.om.FileStatus;
import io.sediment.om.ListPage;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.OmStoreOptions;
import io.sediment.om.OpenKeySession;
import io.sediment.om.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The workloads dev-support/bin/allocators runs in one JVM per allocator setting; prints one line
 * "workload seconds=S peakRssMiB=P rssMiB=R". Run from the runnable jar's classpath:
 * {@code java -cp cli/target/sediment.jar dev-support/bin/AllocatorProbe.java MODE DIR ...}.
 *
 * <ul>
 *   <li>{@code build-deep DIR LEVELS}: a store in DIR whose FSO bucket v/deep holds a chain
 *       LEVELS deep (segments of 500 created shallow, then renamed under each other), a file
 *       every 50 levels;
 *   <li>{@code list-deep DIR THREADS ROUNDS}: THREADS threads each list the whole bucket
 *       recursively (pages of 1,000, continuation tokens) ROUNDS times;
 *   <li>{@code normal DIR THREADS OPS}: THREADS threads each write OPS OBS keys and OPS FSO files
 *       (100 directories), listing a page of each every 100 writes.
 * </ul>
 */
public final class AllocatorProbe {

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    long t0 = System.nanoTime();
    switch (args[0]) {
      case "build-deep" -> buildDeep(dir, Integer.parseInt(args[2]));
      case "list-deep" -> listDeep(dir, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      case "normal" -> normal(dir, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf("%s seconds=%.1f peakRssMiB=%d rssMiB=%d%n", args[0], seconds,
        status("VmHWM") / 1024, status("VmRSS") / 1024);
  }

  private static OmMetadataStore open(Path dir) {
    return OmMetadataStore.open(dir, OmStoreOptions.defaults()
        .withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxPathDepth(100_000));
  }

  private static void buildDeep(Path dir, int levels) {
    try (OmMetadataStore om = open(dir)) {
      om.createVolume("v01", "probe");
      om.createBucket("v01", "deep", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      String root = null;
      for (int i = 0; i * 500 < levels; i++) {
        String top = "s" + i;
        String bottom = top + "/" + String.join("/", Collections.nCopies(499, "a"));
        om.fso().createDirectory("v01", "deep", bottom);
        StringBuilder level = new StringBuilder(top);
        for (int j = 1; j <= 500; j++) {
          if (j > 1) {
            level.append("/a");
          }
          if (j % 50 == 0) {
            OpenKeySession s = om.fso().createFile("v01", "deep", level + "/f", null);
            om.fso().commitFile("v01", "deep", level + "/f", s.clientId(), j);
          }
        }
        if (root != null) {
          om.fso().rename("v01", "deep", root, bottom + "/" + root);
        }
        root = top;
      }
    }
  }

  private static void listDeep(Path dir, int threads, int rounds) throws Exception {
    try (OmMetadataStore om = open(dir)) {
      run(threads, t -> {
        for (int r = 0; r < rounds; r++) {
          long n = 0;
          String token = null;
          do {
            ListPage<FileStatus> page = om.fso().listStatus("v01", "deep", "", true, null, 1000, token);
            n += page.items().size();
            token = page.nextToken();
          } while (token != null);
          if (n == 0) {
            throw new IllegalStateException("empty listing");
          }
        }
      });
    }
  }

  private static void normal(Path dir, int threads, int ops) throws Exception {
    try (OmMetadataStore om = open(dir)) {
      om.createVolume("v01", "probe");
      om.createBucket("v01", "obs", BucketLayout.OBJECT_STORE, null, 0);
      om.createBucket("v01", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, null, 0);
      run(threads, t -> {
        for (int i = 0; i < ops; i++) {
          String key = String.format("t%02d/key-%07d", t, i);
          OpenKeySession k = om.openKey("v01", "obs", key, null);
          om.commitKey("v01", "obs", key, k.clientId(), i);
          String file = String.format("d%03d/t%02d-%07d", i % 100, t, i);
          OpenKeySession f = om.fso().createFile("v01", "fso", file, null);
          om.fso().commitFile("v01", "fso", file, f.clientId(), i);
          if (i % 100 == 99) {
            om.listKeys("v01", "obs", String.format("t%02d/", t), null, 1000, null);
            om.fso().listStatus("v01", "fso", String.format("d%03d", i % 100), false, null, 1000, null);
          }
        }
      });
    }
  }

  private interface Work {
    void run(int thread) throws Exception;
  }

  private static void run(int threads, Work work) throws Exception {
    List<Thread> all = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread th = new Thread(() -> {
        try {
          work.run(id);
        } catch (Throwable e) {
          failures.add(e);
        }
      }, "probe-" + t);
      all.add(th);
      th.start();
    }
    for (Thread th : all) {
      th.join();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a worker failed", failures.get(0));
    }
  }

  /** A field of /proc/self/status, in KiB. */
  private static long status(String field) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }
}
