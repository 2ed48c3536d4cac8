package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sediment scan VOLUME/BUCKET[/PREFIX]}: the listing {@code ls} makes of the same path (the
 * same delimiter, {@code --recursive} and page size), made {@code --times} times,
 * {@code --interval} apart, printing how long each pass took instead of the entries. A listing
 * across a band of tombstones is slow until the server's tombstone tracker has seen it and
 * compacted the band away; the passes after that show the drop. After each pass it asks the
 * server what its tracker saw ({@link TrackerWatch}) and prints what changed: a hot range, a
 * compaction pending, a compaction's outcome. The tracker samples the first listing of a table
 * that comes a second or more after its last sampled one, so passes a second apart are each
 * watched.
 *
 * <p>The bucket is looked up (which also connects) and the tracker asked once before the first
 * pass, so a pass's time is its listing calls alone, measured on this side of the wire.
 */
@Command(name = "scan", mixinStandardHelpOptions = true,
    description = {"Make the listing `ls PATH` makes again and again, and print each pass's time "
        + "and what the server's tombstone tracker saw: a listing across a band of tombstones is "
        + "slow until the tracker compacts the band (a TRACKER compaction), then fast.",
        "Passes a second or more apart are each sampled by the tracker."})
final class ScanCommand extends ClientCommand {

  /** Untimed calls before the first pass ({@link #warmUp}). */
  private static final int WARM_UP_CALLS = 5;

  /** Most passes one run makes. */
  static final int MAX_TIMES = 100_000;

  @Parameters(index = "0", paramLabel = "VOLUME/BUCKET[/PREFIX]",
      description = "The bucket, and optionally the key prefix (FSO: the directory) to list.")
  String path;

  @Option(names = "--times", paramLabel = "N", defaultValue = "10",
      description = "Passes, 1 to " + MAX_TIMES + " (default: ${DEFAULT-VALUE}).")
  int times;

  @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s",
      converter = Durations.class,
      description = "Pause between passes, e.g. 500ms or 2s, at most 1h (default: "
          + "${DEFAULT-VALUE}, so that the tracker samples every pass).")
  Duration interval;

  @Mixin
  ListingOptions listing;

  @Option(names = "--no-tracker",
      description = "Do not ask the server what its tombstone tracker saw (AdminService "
          + "GetTombstoneStats) after each pass.")
  boolean noTracker;

  @Option(names = "--json", description = "One JSON object per pass, then one for the summary.")
  boolean json;

  /** What one pass listed and how long its calls took. */
  record Pass(int number, long entries, int calls, long nanos) {
    double millis() {
      return nanos / 1e6;
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    CommandLine cmd = spec.commandLine();
    LoadPlan.check(cmd, times >= 1 && times <= MAX_TIMES,
        "--times must be in [1, " + MAX_TIMES + "]: " + times);
    LoadPlan.check(cmd, interval.compareTo(Duration.ofHours(1)) <= 0,
        "--interval must be at most 1h: " + Durations.format(interval));
    listing.check(cmd);
    String p = path.startsWith("/") ? path.substring(1) : path;
    String[] parts = p.split("/", 3);
    if (parts.length < 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new CommandLine.ParameterException(cmd,
          "expected VOLUME/BUCKET[/PREFIX]: '" + path + "'");
    }
    String volume = parts[0];
    String bucket = parts[1];
    String prefix = parts.length == 3 ? parts[2] : "";
    PrintWriter out = cmd.getOut();
    boolean[] interrupted = new boolean[1];
    target.om(cmd, stub -> {
      boolean fso = target.deadline(stub).getBucket(GetBucketRequest.newBuilder()
          .setVolume(volume).setBucket(bucket).build()).getBucket().getLayout()
          == BucketLayout.FILE_SYSTEM_OPTIMIZED;
      try (TrackerWatch tracker = noTracker ? null : TrackerWatch.start(cmd, target)) {
        // After the tracker's first look, whose first calls on a channel of their own would
        // otherwise slow the first pass.
        warmUp(stub, fso, volume, bucket, prefix);
        Pass[] passes = new Pass[times];
        for (int i = 0; i < times; i++) {
          if (i > 0 && !interval.isZero()) {
            try {
              Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              interrupted[0] = true;
              return;
            }
          }
          passes[i] = fso ? statusPass(stub, i + 1, volume, bucket, prefix)
              : objectsPass(stub, i + 1, volume, bucket, prefix);
          print(out, passes[i], tracker == null ? null : tracker.changes());
        }
        summary(out, passes);
      }
    });
    if (interrupted[0]) {
      throw new InterruptedException("scan interrupted");
    }
    return 0;
  }

  /**
   * Makes the pass's listing call a few times asking for an empty page, untimed, so that the first
   * timed pass does not pay for this JVM's first calls (class loading, the interpreter). A server
   * answers a page of 0 entries without opening an iterator, so the tracker sees nothing of it
   * and its sampling is left as it was.
   */
  private void warmUp(OmServiceGrpc.OmServiceBlockingStub stub, boolean fso, String volume,
      String bucket, String prefix) {
    for (int i = 0; i < WARM_UP_CALLS; i++) {
      if (fso) {
        target.deadline(stub).listStatus(ListStatusRequest.newBuilder().setVolume(volume)
            .setBucket(bucket).setPath(prefix).setRecursive(listing.recursive).setNumEntries(0)
            .build());
      } else {
        target.deadline(stub).listObjectsV2(ListObjectsV2Request.newBuilder().setVolume(volume)
            .setBucket(bucket).setPrefix(prefix).setDelimiter(listing.objectsDelimiter())
            .setMaxKeys(0).build());
      }
    }
  }

  /** One pass of ListObjectsV2 pages over the prefix of an OBJECT_STORE or LEGACY bucket. */
  private Pass objectsPass(OmServiceGrpc.OmServiceBlockingStub stub, int number, String volume,
      String bucket, String prefix) {
    long entries = 0;
    int calls = 0;
    ByteString token = ByteString.EMPTY;
    long start = System.nanoTime();
    do {
      ListObjectsV2Request.Builder req = ListObjectsV2Request.newBuilder().setVolume(volume)
          .setBucket(bucket).setPrefix(prefix).setDelimiter(listing.objectsDelimiter())
          .setContinuationToken(token);
      listing.pageSizeInto(req::setMaxKeys);
      ListObjectsV2Response r = target.deadline(stub).listObjectsV2(req.build());
      calls++;
      entries += r.getContentsCount() + r.getCommonPrefixesCount();
      token = r.getNextContinuationToken();
    } while (!token.isEmpty());
    return new Pass(number, entries, calls, System.nanoTime() - start);
  }

  /** One pass of ListStatus pages over a directory of an FSO bucket. */
  private Pass statusPass(OmServiceGrpc.OmServiceBlockingStub stub, int number, String volume,
      String bucket, String dir) {
    long entries = 0;
    int calls = 0;
    ByteString token = ByteString.EMPTY;
    long start = System.nanoTime();
    do {
      ListStatusRequest.Builder req = ListStatusRequest.newBuilder().setVolume(volume)
          .setBucket(bucket).setPath(dir).setRecursive(listing.recursive).setPageToken(token);
      listing.pageSizeInto(req::setNumEntries);
      ListStatusResponse r = target.deadline(stub).listStatus(req.build());
      calls++;
      entries += r.getStatusesCount();
      token = r.getNextPageToken();
    } while (!token.isEmpty());
    return new Pass(number, entries, calls, System.nanoTime() - start);
  }

  private void print(PrintWriter out, Pass p, TrackerWatch.Changes changes) {
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pass", p.number());
      m.put("entries", p.entries());
      m.put("calls", p.calls());
      m.put("millis", round(p.millis()));
      if (changes != null) {
        m.put("tracker", changes.json());
      }
      out.println(Json.write(m));
    } else {
      out.printf(Locale.ROOT,
          "pass %" + digits(times) + "d/%d: %,d entr%s in %d call%s, %.1f ms%s%n",
          p.number(), times, p.entries(), p.entries() == 1 ? "y" : "ies", p.calls(),
          p.calls() == 1 ? "" : "s", p.millis(), changes == null ? "" : sampled(changes.sampled()));
      if (changes != null) {
        for (String line : changes.lines()) {
          out.println("    tracker: " + line);
        }
      }
    }
    out.flush();
  }

  /** The first and last pass, the fastest, the median and the slowest. */
  private void summary(PrintWriter out, Pass[] passes) {
    double[] ms = Arrays.stream(passes).mapToDouble(Pass::millis).sorted().toArray();
    double first = passes[0].millis();
    double last = passes[passes.length - 1].millis();
    double median = ms.length % 2 == 1 ? ms[ms.length / 2]
        : (ms[ms.length / 2 - 1] + ms[ms.length / 2]) / 2;
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("passes", passes.length);
      m.put("firstMillis", round(first));
      m.put("lastMillis", round(last));
      m.put("minMillis", round(ms[0]));
      m.put("medianMillis", round(median));
      m.put("maxMillis", round(ms[ms.length - 1]));
      out.println(Json.write(m));
    } else {
      out.printf(Locale.ROOT, "%d pass%s: first %.1f ms, last %.1f ms; min %.1f, median %.1f, "
              + "max %.1f ms%n", passes.length, passes.length == 1 ? "" : "es", first, last, ms[0],
          median, ms[ms.length - 1]);
    }
    out.flush();
  }

  /**
   * {@code "; the server's sampled listing skipped 1,500 tombstones in 3.9 ms"} for the listings
   * the tracker sampled since the last look (this pass's, unless other calls listed meanwhile),
   * {@code "; not sampled"} when there was none.
   */
  private static String sampled(TrackerWatch.Sampled s) {
    if (s == null) {
      return "";
    }
    if (s.scans() == 0) {
      return "; not sampled by the server";
    }
    return String.format(Locale.ROOT, "; the server's sampled listing%s skipped %,d tombstones in "
        + "%.2f ms", s.scans() == 1 ? "" : "s (" + s.scans() + ")", s.tombstonesSkipped(),
        s.nativeNanos() / 1e6);
  }

  private static double round(double ms) {
    return Math.round(ms * 100) / 100.0;
  }

  private static int digits(int n) {
    return Integer.toString(n).length();
  }
}
