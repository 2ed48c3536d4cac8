package io.sediment.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The campaign's command line. {@code --quick} shrinks it to fit CI (3 kill cycles, the matrix
 * against verify, ldb and serve only, shorter waits); explicit options still override.
 */
record CampaignOptions(Path jar, int cycles, boolean quick, long seed, boolean keep, int writers,
    Set<Part> parts, Set<MatrixTool> matrixTools, Duration limit) {

  /**
   * The four parts of the campaign, in the order they run: the matrix last, since it is the one
   * the time limit can cut row by row. The table lists them as the documentation letters them.
   */
  enum Part {
    KILL(0), SIGTERM(3), DISKFULL(2), MATRIX(1);

    private final int tableOrder;

    Part(int tableOrder) {
      this.tableOrder = tableOrder;
    }

    int tableOrder() {
      return tableOrder;
    }
  }

  static final String USAGE = """
      Usage: faults --jar PATH [--quick] [--cycles N] [--seed N] [--writers N]
                    [--only kill,matrix,diskfull,sigterm] [--tools verify,ldb,serve,recon]
                    [--max-minutes N] [--keep]
        --jar PATH        the sediment.jar to test (dev-support/bin/faults passes cli/target/sediment.jar)
        --quick           3 kill cycles, the matrix against verify, ldb and serve only (CI: <= 3 min)
        --cycles N        kill -9 cycles (default 20, 3 with --quick)
        --seed N          seed of the kill moments and writer choices (default: from the clock; printed)
        --writers N       writer threads (default 4)
        --only PARTS      run only these parts (default all)
        --tools TOOLS     the tools of the corruption matrix (default all four; --quick: verify,ldb,serve)
        --max-minutes N   stop starting new work after N minutes (default 25, 3 with --quick)
        --keep            keep the temporary directory (stores, outputs) for a look afterwards
      Exit codes: 0 every row passed, 1 a lost acknowledged write, a silent open of a damaged store,
      a JVM crash or another wrong outcome, 2 usage error.""";

  /** A bad command line; the message says what is wrong. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static CampaignOptions parse(String[] args) throws UsageException {
    Path jar = null;
    Integer cycles = null;
    boolean quick = false;
    long seed = System.currentTimeMillis() % 1_000_000;
    boolean keep = false;
    int writers = 4;
    Set<Part> parts = EnumSet.allOf(Part.class);
    Set<MatrixTool> tools = null;
    Integer minutes = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--quick" -> quick = true;
        case "--keep" -> keep = true;
        case "--jar" -> jar = Path.of(value(args, ++i, a));
        case "--cycles" -> cycles = number(args, ++i, a, 0, 1000);
        case "--seed" -> seed = number(args, ++i, a, 0, Integer.MAX_VALUE);
        case "--writers" -> writers = number(args, ++i, a, 1, 64);
        case "--max-minutes" -> minutes = number(args, ++i, a, 1, 600);
        case "--only" -> {
          parts = EnumSet.noneOf(Part.class);
          for (String p : value(args, ++i, a).split(",")) {
            parts.add(parse(Part.class, p, a));
          }
        }
        case "--tools" -> {
          tools = EnumSet.noneOf(MatrixTool.class);
          for (String t : value(args, ++i, a).split(",")) {
            tools.add(parse(MatrixTool.class, t, a));
          }
        }
        default -> throw new UsageException("unknown argument '" + a + "'");
      }
    }
    if (jar == null) {
      throw new UsageException("--jar is required");
    }
    if (!Files.isRegularFile(jar)) {
      throw new UsageException("--jar " + jar + " is not a file");
    }
    if (tools == null) {
      tools = quick ? EnumSet.of(MatrixTool.VERIFY, MatrixTool.LDB, MatrixTool.SERVE)
          : EnumSet.allOf(MatrixTool.class);
    }
    return new CampaignOptions(jar, cycles != null ? cycles : quick ? 3 : 20, quick, seed, keep,
        writers, parts, tools, Duration.ofMinutes(minutes != null ? minutes : quick ? 3 : 25));
  }

  private static String value(String[] args, int i, String option) throws UsageException {
    if (i >= args.length) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
  }

  private static int number(String[] args, int i, String option, int min, int max)
      throws UsageException {
    String v = value(args, i, option);
    try {
      int n = Integer.parseInt(v);
      if (n < min || n > max) {
        throw new UsageException(option + " must be in [" + min + ", " + max + "]: " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(option + " is not a number: '" + v + "'");
    }
  }

  private static <E extends Enum<E>> E parse(Class<E> type, String name, String option)
      throws UsageException {
    try {
      return Enum.valueOf(type, name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": unknown value '" + name + "'");
    }
  }

  /** How long a server may take to listen (the machine may be busy). */
  Duration startTimeout() {
    return Duration.ofSeconds(120);
  }

  /** How long a read-only tool (verify, ldb) may run. */
  Duration toolTimeout() {
    return Duration.ofSeconds(180);
  }

  /** Deadline of each gRPC call. */
  Duration callDeadline() {
    return Duration.ofSeconds(15);
  }

  /** The {@code --drain-timeout} given to serve where the campaign stops it under load. */
  Duration drainTimeout() {
    return Duration.ofSeconds(5);
  }
}
