package io.sediment.freon;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.bulk.BulkLoadResult;
import io.sediment.om.bulk.NamespaceBulkLoader;
import io.sediment.om.bulk.NamespacePlan;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.insight.OmInsight;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code freon build}: builds freon's namespace at scale in a stopped (or new) store with the
 * bulk loader ({@link NamespaceBulkLoader}: sorted SST files per table, ingested, counters
 * committed in one write) instead of one call per key: volume {@code freon}, OBS bucket
 * {@code obs} with {@code --keys} keys named as freon's prefill ({@code key-0000000000}, ...) and
 * {@code --mpu} multipart uploads in progress, FSO bucket {@code fso} with a tree of
 * {@code --fso-entries} directories and files. The store is the one {@code sediment serve --data
 * DIR} serves ({@code DIR/om}). Exit 0 when built, 1 when the store refused it or it failed, 2
 * for bad options.
 */
@Command(name = "build", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Build freon's namespace at scale in a stopped or new store, from sorted SST "
        + "files ingested into each table (minutes for ten million keys instead of hours of "
        + "write-path calls), with exact counters.",
        "Volume freon; OBS bucket obs: --keys keys key-0000000000.. and --mpu uploads in "
            + "progress; FSO bucket fso: a tree of --fso-entries directories and files."})
public final class BuildCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--data", paramLabel = "DIR", required = true,
      description = "The data directory (as `sediment serve --data`); the store is DIR/om, "
          + "created if missing. It must not be served meanwhile.")
  Path data;

  @Option(names = "--keys", paramLabel = "N", defaultValue = "1000000",
      description = "Committed keys in the OBS bucket (default ${DEFAULT-VALUE}).")
  long keys;

  @Option(names = "--key-size", paramLabel = "BYTES", defaultValue = "4096",
      description = "Data size of each key (default ${DEFAULT-VALUE}, as freon's writes).")
  long keySize;

  @Option(names = "--fso-entries", paramLabel = "N", defaultValue = "0",
      description = "Directories and files in the FSO bucket (default ${DEFAULT-VALUE}).")
  long fsoEntries;

  @Option(names = "--fso-fanout", paramLabel = "N", defaultValue = "10",
      description = "Subdirectories of each FSO directory (default ${DEFAULT-VALUE}).")
  int fanout;

  @Option(names = "--files-per-dir", paramLabel = "N", defaultValue = "100",
      description = "Files in each FSO directory and the bucket's root, named f0000000000.. "
          + "(default ${DEFAULT-VALUE}).")
  int filesPerDir;

  @Option(names = "--mpu", paramLabel = "N", defaultValue = "0",
      description = "Multipart uploads in progress in the OBS bucket, of keys "
          + "mpu/key-0000000000.. (default ${DEFAULT-VALUE}).")
  long uploads;

  @Option(names = "--mpu-parts", paramLabel = "N", defaultValue = "1",
      description = "Parts committed in each upload, 5 MiB each (default ${DEFAULT-VALUE}).")
  int parts;

  @Option(names = "--volume", paramLabel = "NAME", defaultValue = "freon",
      description = "The volume, which must not exist (default ${DEFAULT-VALUE}).")
  String volume;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "3",
      description = "Tables generated at once: keys, uploads, FSO tree (default "
          + "${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--verify",
      description = "Afterwards, check every counter against a full scan, as `sediment "
          + "verify` does (reads every row).")
  boolean verify;

  @Option(names = "--quiet", description = "No progress lines (stderr).")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintStream err = quiet ? null : System.err;
    if (threads < 1 || threads > 3) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--threads must be in [1, 3]: " + threads);
    }
    NamespacePlan plan;
    try {
      Names names = Names.defaults();
      plan = NamespacePlan.freon().volumes(List.of(volume)).obsBuckets(List.of(names.bucket()))
          .fsoBuckets(List.of(names.fsoBucket())).keysPerBucket(keys).keySize(keySize)
          .uploadsPerBucket(uploads).partsPerUpload(parts).fsoEntries(fsoEntries)
          .fsoFanout(fanout).filesPerDirectory(filesPerDir).build();
    } catch (OmException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Path dir = data.resolve("om").toAbsolutePath().normalize();
    try (OmMetadataStore store = OmMetadataStore.open(dir, OmStoreOptions.defaults())) {
      NamespaceBulkLoader loader = store.bulkLoader(threads);
      Thread ticker = progress(loader, err);
      BulkLoadResult result;
      try {
        result = loader.load(plan, (step, message) -> {
          if (err != null) {
            err.println("freon build: " + message);
          }
        });
      } finally {
        ticker.interrupt();
      }
      print(out, plan, store, result);
      if (verify) {
        long start = System.nanoTime();
        List<String> differences = differences(store.insight().compareCounters());
        out.printf(Locale.ROOT, "verify: %s (full scan %.1f s)%n", differences.isEmpty()
            ? "every counter matches a full scan" : String.join("; ", differences),
            (System.nanoTime() - start) / 1e9);
        out.flush();
        return differences.isEmpty() ? 0 : 1;
      }
    } catch (OmException | io.sediment.db.StoreException e) {
      out.flush();
      spec.commandLine().getErr().println("freon build: " + e.getMessage());
      return 1;
    }
    return 0;
  }

  /** A daemon thread printing the rows generated so far every five seconds; interrupt stops it. */
  private static Thread progress(NamespaceBulkLoader loader, PrintStream err) {
    long start = System.nanoTime();
    Thread t = new Thread(() -> {
      try {
        while (err != null) {
          Thread.sleep(5_000);
          long rows = loader.rowsWritten();
          double s = (System.nanoTime() - start) / 1e9;
          err.printf(Locale.ROOT, "freon build: %,d rows generated in %.0f s (%,.0f rows/s)%n",
              rows, s, rows / s);
        }
      } catch (InterruptedException done) {
        // the load finished
      }
    }, "freon-build-progress");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void print(PrintWriter out, NamespacePlan plan, OmMetadataStore store,
      BulkLoadResult r) {
    Map<OmCounter, Long> obs = store.bucketCounters(plan.volumes().get(0),
        plan.obsBuckets().get(0));
    Map<OmCounter, Long> fso = store.bucketCounters(plan.volumes().get(0),
        plan.fsoBuckets().get(0));
    out.printf(Locale.ROOT, "Built volume %s: bucket %s with %,d keys and %,d uploads in "
            + "progress, bucket %s with %,d directories and %,d files.%n", plan.volumes().get(0),
        plan.obsBuckets().get(0), obs.get(OmCounter.KEYS), obs.get(OmCounter.MULTIPART_UPLOADS),
        plan.fsoBuckets().get(0), fso.get(OmCounter.DIRECTORIES), fso.get(OmCounter.FILES));
    out.printf("%-20s %14s %6s %12s%n", "TABLE", "ROWS", "FILES", "MIB");
    r.tables().forEach((table, t) -> out.printf(Locale.ROOT, "%-20s %,14d %6d %12.1f%n", table,
        t.rows(), t.files(), t.bytes() / 1048576.0));
    double total = r.total().toNanos() / 1e9;
    out.printf(Locale.ROOT, "%,d rows in %.1f s (generate %.1f s, ingest %.1f s): %,.0f rows/s;"
            + " object ids %d to %d; store %s%n", r.rows(), total, r.generate().toNanos() / 1e9,
        r.ingest().toNanos() / 1e9, r.rows() / total, r.firstId(), r.firstId() + r.ids() - 1,
        store.dbStore().getPath());
    out.flush();
  }

  /** The counters that differ from a full scan, as {@code sediment verify} compares them. */
  static List<String> differences(OmInsight.CounterComparison c) {
    List<String> out = new java.util.ArrayList<>();
    compare("store", c.maintained().totals(), c.scanned().totals(), out);
    Map<String, Map<OmCounter, Long>> all = new HashMap<>(c.scanned().buckets());
    c.maintained().buckets().forEach(all::putIfAbsent);
    for (String b : new java.util.TreeSet<>(all.keySet())) {
      compare(b, c.maintained().buckets().get(b), c.scanned().buckets().get(b), out);
    }
    return out;
  }

  private static void compare(String owner, Map<OmCounter, Long> maintained,
      Map<OmCounter, Long> scanned, List<String> out) {
    for (OmCounter counter : OmCounter.values()) {
      long m = maintained == null ? 0 : maintained.getOrDefault(counter, 0L);
      long s = scanned == null ? 0 : scanned.getOrDefault(counter, 0L);
      if (m != s) {
        out.add(owner + " " + counter + ": maintained " + m + ", scanned " + s);
      }
    }
  }
}
