package io.sediment.freon;

import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.purge.OmPurges;
import io.sediment.om.service.PurgePacing;
import io.sediment.proto.om.KeyView;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sediment freon}: a closed-loop load generator for the OM gRPC service, after Ozone's
 * {@code ozone freon} (its OM key generator), with the floors of the same work measured in the
 * same run. Run by {@code dev-support/bin/freon}; README "Load generation" documents it.
 *
 * <p>One invocation: prepare the target (volume {@code freon}, buckets {@code obs} and
 * {@code fso}, the prefilled keys), warm up, measure the service, then (in-process only) warm up
 * and measure floor (a), {@link EchoService} calls of the same sizes on the same server and
 * channel, and floor (b), the same work as plain rocksdbjni calls on the same store
 * ({@link RawCalls}), each with the same clients and stop rule, one after the other (with
 * {@code --rounds R}, each phase in R parts, the first phase rotating by round). Prints the
 * summary ({@link Report}) and writes it as JSON when asked. Exit code 0 when the run completed
 * (failed operations are reported, not fatal), 1 when it could not start, 2 for bad options.
 * {@code freon build} ({@link BuildCommand}) builds a large namespace in a store instead.
 */
@Command(name = "freon", mixinStandardHelpOptions = true, sortOptions = false,
    subcommands = BuildCommand.class,
    description = {"Load generator for the OM gRPC service, with its floors in the same run.",
        "Workloads: create (OpenKey + CommitKey of new names), lookup (LookupKey), list "
            + "(ListObjectsV2 pages of 1,000 with and without delimiter, ListStatus pages of an "
            + "FSO bucket), delete (DeleteKey), delete-batch (DeleteKeys of --batch keys), mixed "
            + "(60%% lookup, 20%% create, 10%% list, 10%% delete).",
        "`freon build` builds a namespace of millions of keys in a store by SST ingestion "
            + "(see freon build --help).",
        "With --purge-backlog: the purge services drain that many deleted keys while the "
            + "service phase is measured (--no-purge: the same run with them off)."})
public final class Freon implements Callable<Integer> {

  private static final String WORKLOADS = "create, lookup, list, delete, delete-batch, mixed";
  /** The most keys one DeleteKeys call takes: the page cap of a server with default options. */
  static final int MAX_BATCH = OmStoreOptions.DEFAULT_MAX_LIST_SIZE;

  @Spec
  CommandSpec spec;

  // Optional for picocli only, so that `freon build` does not ask for it; call() requires it.
  @Parameters(index = "0", arity = "0..1", paramLabel = "WORKLOAD",
      description = "create, lookup, list, delete, delete-batch or mixed.")
  String workloadName;

  @Option(names = "--clients", paramLabel = "N", defaultValue = "8",
      description = "Client threads, each with one call in flight (default ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--duration", paramLabel = "D",
      description = "Measure each phase for D (500ms, 30s, 5m); default 10s unless --count.")
  String duration;

  @Option(names = "--count", paramLabel = "N",
      description = "Measure each phase for N operations (all clients together).")
  long count;

  @Option(names = "--warmup", paramLabel = "D", defaultValue = "30s",
      description = "Unmeasured load before each phase's first round (default ${DEFAULT-VALUE}, "
          + "about what the JIT needs to compile the service's path on a small loaded machine; "
          + "0s: none).")
  String warmup;

  @Option(names = "--rounds", paramLabel = "R", defaultValue = "1",
      description = "Split each phase into R rounds, rotating which phase goes first, so that "
          + "load from other processes falls on the service and its floors alike (default "
          + "${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--distribution", paramLabel = "NAME", defaultValue = "uniform",
      description = "Which existing keys lookups and pages touch: uniform, zipfian (skew 0.99, "
          + "the first keys hottest) or sequential (default ${DEFAULT-VALUE}).")
  String distributionName;

  @Option(names = "--list-view", paramLabel = "VIEW", defaultValue = "basic",
      description = "What ListObjectsV2 pages return of each key: basic (the fields an S3 "
          + "listing shows, as an S3 gateway asks), columns (the same fields as the page's "
          + "columns) or full (default ${DEFAULT-VALUE}).")
  String listViewName;

  /** {@link #listViewName} as the request's enum, set when the options are checked. */
  private KeyView listView;

  @Option(names = "--batch", paramLabel = "N", defaultValue = "100",
      description = "Keys per DeleteKeys call of delete-batch, 1 to 1000 (default "
          + "${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--prefill", paramLabel = "N", defaultValue = "10000",
      description = "Keys written before the run (not measured; default ${DEFAULT-VALUE}).")
  long prefill;

  @Option(names = "--fso-prefill", paramLabel = "N", defaultValue = "-1",
      description = "Files written in the FSO bucket's root for ListStatus (default: the list "
          + "workload min(--prefill, 10000), others 0).")
  long fsoPrefill;

  @Option(names = "--prefilled",
      description = "With --target: the server holds --prefill keys and --fso-prefill files "
          + "already, named as `freon build` names them; none is written before the run.")
  boolean prefilled;

  @Option(names = "--target", paramLabel = "HOST:PORT",
      description = "A running `sediment serve` (no floors then); default: a server started "
          + "in this process on a temporary store, with the floors.")
  String target;

  @Option(names = "--tls-ca", paramLabel = "FILE",
      description = "With --target: call over TLS, trusting this PEM CA file.")
  Path tlsCa;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "With --target: authenticate with the bearer token in this file.")
  Path tokenFile;

  @Option(names = "--handler-threads", paramLabel = "N", defaultValue = "16",
      description = "The in-process server's handler threads (default ${DEFAULT-VALUE}, as "
          + "serve's).")
  int handlerThreads;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Where the in-process store's temporary directory goes (default: the "
          + "system's temporary directory).")
  Path dir;

  @Option(names = "--no-floors", description = "Measure the service only.")
  boolean noFloors;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
      description = "Seed of the clients' random draws (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--purge-backlog", paramLabel = "N", defaultValue = "0",
      description = "Before the run, write and delete N keys in bucket 'purge' (in-process "
          + "server only; no floors then), and run the purge services while the service phase "
          + "is measured (default ${DEFAULT-VALUE}).")
  long purgeBacklog;

  @Option(names = "--purge-fso-backlog", paramLabel = "N", defaultValue = "0",
      description = "Also write N files (1,000 per directory) under a directory of FSO bucket "
          + "'purge-fso' and delete it recursively before the run (default ${DEFAULT-VALUE}).")
  long purgeFsoBacklog;

  @Option(names = "--no-purge",
      description = "With a backlog: leave the purge services off (the baseline of a "
          + "purge-interference run: the same store, nothing purged).")
  boolean noPurge;

  @Option(names = "--purge-batch", paramLabel = "N", defaultValue = "1000",
      description = "Rows per batch of the key and directory purges (default ${DEFAULT-VALUE}, "
          + "as serve's).")
  int purgeBatch;

  @Option(names = "--purge-rate", paramLabel = "ROWS", defaultValue = "0",
      description = "The purge services' rate limit in rows per second, 0 for none (default "
          + "${DEFAULT-VALUE}, as serve's --purge-rate).")
  long purgeRate;

  @Option(names = "--purge-pause", paramLabel = "D", defaultValue = "20ms",
      description = "The least wait between two purge batches (default ${DEFAULT-VALUE}, as "
          + "serve's --purge-pause).")
  String purgePause;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the summary as JSON.")
  Path json;

  @Option(names = "--quiet", description = "No progress lines (stderr).")
  boolean quiet;

  /** Runs {@code freon} with {@code args} and exits with its code. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Freon()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Workload workload;
    if (workloadName == null) {
      throw bad("Missing WORKLOAD (" + WORKLOADS + "), or the build command");
    }
    try {
      workload = Workload.named(workloadName);
    } catch (IllegalArgumentException e) {
      throw bad("Unknown workload '" + workloadName + "' (" + WORKLOADS + ")");
    }
    if (batch < 1 || batch > MAX_BATCH) {
      throw bad("--batch must be in [1, " + MAX_BATCH + "]: " + batch);
    }
    if (clients < 1 || clients > 4096) {
      throw bad("--clients must be in [1, 4096]: " + clients);
    }
    if (duration != null && count != 0) {
      throw bad("--duration and --count exclude each other");
    }
    if (count < 0) {
      throw bad("--count must be positive: " + count);
    }
    LoadDriver.Stop stop = count > 0 ? new LoadDriver.Stop(null, count)
        : new LoadDriver.Stop(parseDuration("--duration", duration == null ? "10s" : duration),
            0);
    Duration warm = parseDuration("--warmup", warmup);
    if (rounds < 1 || rounds > 100) {
      throw bad("--rounds must be in [1, 100]: " + rounds);
    }
    if (count > 0 && count < rounds) {
      throw bad("--count must be at least --rounds");
    }
    LoadDriver.Stop perRound = count > 0 ? new LoadDriver.Stop(null, count / rounds)
        : new LoadDriver.Stop(stop.duration().dividedBy(rounds), 0);
    if (prefilled && target == null) {
      throw bad("--prefilled needs --target (the in-process server builds its own store)");
    }
    if (prefill < 0) {
      throw bad("--prefill must not be negative: " + prefill);
    }
    long files = fsoPrefill >= 0 ? fsoPrefill
        : workload.needsFso() ? Math.min(prefill, 10_000) : 0;
    if (workload == Workload.LIST && (prefill < KeySpace.PAGE + 2L * clients
        || files < KeySpace.PAGE)) {
      throw bad("list needs at least " + (KeySpace.PAGE + 2L * clients) + " prefilled keys and "
          + KeySpace.PAGE + " FSO files (--prefill, --fso-prefill)");
    }
    if ((workload == Workload.LOOKUP || workload == Workload.MIXED) && prefill < 1) {
      throw bad(workload.label() + " needs --prefill of at least 1");
    }
    if (workload == Workload.MIXED && prefill < KeySpace.PAGE + 2L * clients) {
      throw bad("mixed lists pages: it needs --prefill of at least "
          + (KeySpace.PAGE + 2L * clients));
    }
    listView = parseListView();
    Distribution distribution;
    try {
      distribution = Distribution.named(distributionName, Math.max(prefill, files));
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
    if (target == null && (tlsCa != null || tokenFile != null)) {
      throw bad("--tls-ca and --token-file need --target");
    }
    if (purgeBacklog < 0 || purgeFsoBacklog < 0) {
      throw bad("--purge-backlog and --purge-fso-backlog must not be negative");
    }
    PurgeBacklog backlog = new PurgeBacklog(purgeBacklog, purgeFsoBacklog);
    if (!backlog.isEmpty() && target != null) {
      throw bad("--purge-backlog and --purge-fso-backlog need the in-process server (no --target)");
    }
    if (backlog.isEmpty() && noPurge) {
      throw bad("--no-purge needs --purge-backlog or --purge-fso-backlog");
    }
    if (purgeBatch < 1 || purgeBatch > OmPurges.MAX_LIMIT) {
      throw bad("--purge-batch must be in [1, " + OmPurges.MAX_LIMIT + "]: " + purgeBatch);
    }
    PurgePacing pacing;
    try {
      pacing = new PurgePacing(purgeRate, parseDuration("--purge-pause", purgePause));
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
    String token = null;
    if (tokenFile != null) {
      token = Files.readString(tokenFile, StandardCharsets.UTF_8).trim();
    }
    PrintStream progress = quiet ? null : System.err;
    Names names = Names.defaults();
    String tag = Long.toString(System.currentTimeMillis(), 36);
    try (FreonTarget t = target == null ? new InProcessTarget(dir, handlerThreads, backlog)
        : new RemoteTarget(target, tlsCa, token, Math.max(clients, 8))) {
      t.prepare(names, prefilled ? 0 : prefill, prefilled ? 0 : files, progress);
      Map<String, Object> settings = new LinkedHashMap<>();
      settings.put("workload", workload.label());
      if (workload == Workload.DELETE_BATCH) {
        settings.put("batch", batch);
      }
      settings.put("clients", clients);
      settings.put("stop", count > 0 ? count + " ops" : format(stop.duration()));
      settings.put("warmup", format(warm));
      settings.put("distribution", distributionName);
      settings.put("list_view", listViewName);
      settings.put("prefill", prefill);
      settings.put("fso_prefill", files);
      settings.put("target", t.describe());
      settings.put("cores", Runtime.getRuntime().availableProcessors());

      settings.put("rounds", rounds);
      if (!backlog.isEmpty()) {
        settings.put("purge_backlog", purgeBacklog);
        settings.put("purge_fso_backlog", purgeFsoBacklog);
        settings.put("purge", noPurge ? "off" : "on");
      }
      // The purge services run while the service phase is measured, from the end of its warmup.
      PurgeRun purge = backlog.isEmpty() ? null
          : ((InProcessTarget) t).purgeRun(names, !noPurge, pacing, purgeBatch);
      try {
        run(t, workload, settings, distribution, perRound, warm, files, tag, names, purge, out,
            progress);
      } finally {
        if (purge != null) {
          purge.close();
        }
      }
    } catch (IOException | RuntimeException e) {
      spec.commandLine().getErr().println("freon: " + e.getMessage());
      return 1;
    }
    return 0;
  }

  /** The {@code --list-view} as the request's enum. */
  private KeyView parseListView() {
    switch (listViewName) {
      case "basic":
        return KeyView.KEY_VIEW_BASIC;
      case "columns":
        return KeyView.KEY_VIEW_COLUMNS;
      case "full":
        return KeyView.KEY_VIEW_FULL;
      default:
        throw bad("--list-view must be basic, columns or full: " + listViewName);
    }
  }

  /** Measures the phases on a prepared target and prints (and writes) the summary. */
  private void run(FreonTarget t, Workload workload, Map<String, Object> settings,
      Distribution distribution, LoadDriver.Stop perRound, Duration warm,
      long files, String tag, Names names, PurgeRun purge, PrintWriter out, PrintStream progress)
      throws IOException, InterruptedException {
    KeySpace keys = new KeySpace(prefill, files, tag, 2L * clients, false);
    CallSizes sizes = new CallSizes();
    ResponseParseTimes parses = new ResponseParseTimes();
    Channel channel = ClientInterceptors.intercept(t.channel(), parses);
    OpExecutor service = new ServiceCalls(channel, names, keys, sizes, listView);
    boolean floors = !noFloors && t.raw() != null && purge == null;
    PhaseRunner phases = new PhaseRunner(t, parses, workload, distribution, clients, batch, seed,
        progress);
    KeySpace echoKeys = new KeySpace(prefill, files, tag + "f", 2L * clients, true);
    KeySpace rawKeys = new KeySpace(prefill, files, tag + "r", 2L * clients, true);
    OpExecutor echoCalls = null;
    RunResult[] results = new RunResult[3];
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < (floors ? 3 : 1); i++) {
        // Round r starts with phase r mod 3; the service runs first in round 0, so the echo
        // knows the sizes it imitates.
        int phase = (i + round) % 3;
        // The last round takes what division left over (--count only).
        LoadDriver.Stop s = round == rounds - 1 && count > 0
            ? new LoadDriver.Stop(null, count - (rounds - 1) * (count / rounds)) : perRound;
        Duration w = round == 0 ? warm : Duration.ZERO;
        RunResult r;
        if (phase == 0) {
          r = phases.run("service", keys, s, w, round, service,
              round == 0 && purge != null ? purge::start : null);
        } else if (results[0] == null || results[0].operations() == 0) {
          continue;
        } else if (phase == 1) {
          if (echoCalls == null) {
            echoCalls = t.echo(sizes, channel);
          }
          // Floors start with the keys the service left (a mixed run's lookups stay on them).
          r = phases.run("echo", echoKeys.startingAt(keys.live()), s, w, round, echoCalls, null);
        } else {
          r = phases.run("raw", rawKeys.startingAt(keys.live()), s, w, round, t.raw(), null);
        }
        results[phase] = results[phase] == null ? r : results[phase].plus(r);
      }
    }
    PurgeRun.Result purged = purge == null ? null : purge.stop();
    if (floors) {
      t.raw().clear();
    }
    RunResult measured = results[0];
    RunResult echo = results[1];
    RunResult raw = results[2];
    Report report = new Report(settings, measured, echo, raw, purged);
    out.print(report.text());
    out.flush();
    if (json != null) {
      Files.writeString(json, report.json(), StandardCharsets.UTF_8);
    }
  }

  private CommandLine.ParameterException bad(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  private Duration parseDuration(String option, String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    int unitAt = 0;
    while (unitAt < s.length() && Character.isDigit(s.charAt(unitAt))) {
      unitAt++;
    }
    if (unitAt == 0 || unitAt > 9) {
      throw bad(option + ": '" + text + "' is not a duration (500ms, 30s, 5m)");
    }
    long n = Long.parseLong(s.substring(0, unitAt));
    Duration d = switch (s.substring(unitAt)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> throw bad(option + ": '" + text + "' is not a duration (500ms, 30s, 5m)");
    };
    if (d.isZero() && !"--warmup".equals(option) && !"--purge-pause".equals(option)) {
      throw bad(option + " must be positive");
    }
    return d;
  }

  private static String format(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
