package io.sediment.faults;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fault campaign (dev-support/bin/faults): runs {@code sediment} as an operator would, on
 * temporary directories and free loopback ports, and breaks it on purpose: (a) kill -9 cycles under
 * writers, (b) the corruption matrix, (c) a full disk on a small tmpfs, (d) SIGTERM under load.
 * Prints one table (case | tried | outcome | acknowledged writes lost) and exits 1 on any lost
 * acknowledged write, silent open of a damaged store, JVM crash or other wrong outcome, 2 on a
 * usage error, 0 otherwise. Every child process and temporary file is removed at the end, also
 * when the campaign is interrupted.
 */
public final class FaultCampaign {

  private FaultCampaign() {
  }

  public static void main(String[] args) throws Exception {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(CampaignOptions.USAGE);
      return;
    }
    CampaignOptions options;
    try {
      options = CampaignOptions.parse(args);
    } catch (CampaignOptions.UsageException e) {
      System.err.println("faults: " + e.getMessage());
      System.err.println(CampaignOptions.USAGE);
      System.exit(2);
      return;
    }
    System.exit(run(options));
  }

  static int run(CampaignOptions options) throws IOException, InterruptedException {
    Instant start = Instant.now();
    ResultTable table = new ResultTable();
    Workspace workspace = new Workspace(options.keep());
    Thread hook = new Thread(workspace::close, "faults-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    System.err.printf("faults: %s mode, seed %d, jar %s, work in %s%n",
        options.quick() ? "quick" : "full", options.seed(), options.jar(), workspace.root());
    try {
      SedimentLauncher launcher = new SedimentLauncher(options.jar(), workspace, childJvmOptions());
      Deadline deadline = new Deadline(options.limit());
      CampaignContext ctx = new CampaignContext(launcher, workspace, options, deadline);
      for (CampaignOptions.Part part : options.parts()) {
        if (deadline.passed()) {
          table.add(part.tableOrder(),
              Row.skipped(part.name().toLowerCase(), "", "time limit reached"));
          continue;
        }
        long t0 = System.nanoTime();
        System.err.println("faults: part " + part.name().toLowerCase() + " ...");
        switch (part) {
          case KILL -> table.addAll(part.tableOrder(),
              new KillCycles(ctx).run());
          case MATRIX -> table.addAll(part.tableOrder(),
              new CorruptionMatrix(ctx).run());
          case DISKFULL -> table.add(part.tableOrder(),
              new DiskFull(ctx).run());
          case SIGTERM -> table.add(part.tableOrder(),
              new SigtermUnderLoad(ctx).run());
        }
        System.err.printf("faults: part %s took %d s%n", part.name().toLowerCase(),
            Duration.ofNanos(System.nanoTime() - t0).toSeconds());
      }
    } finally {
      workspace.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or has run
      }
    }
    Duration took = Duration.between(start, Instant.now());
    System.out.printf("Sediment fault campaign, %s mode (%d kill -9 cycles), seed %d, %s, took "
            + "%d min %02d s%n%n", options.quick() ? "quick" : "full", options.cycles(),
        options.seed(), start, took.toMinutes(), took.toSecondsPart());
    table.print(System.out);
    return table.failed() ? 1 : 0;
  }

  /**
   * Options of every child JVM: FAULTS_CHILD_JAVA_OPTS if set, else a small heap and the client
   * compiler only, which start the many short-lived tool runs faster on a busy machine and change
   * nothing the campaign observes.
   */
  private static List<String> childJvmOptions() {
    String env = System.getenv("FAULTS_CHILD_JAVA_OPTS");
    List<String> out = new ArrayList<>();
    if (env != null && !env.isBlank()) {
      out.addAll(List.of(env.trim().split("\\s+")));
    } else {
      out.addAll(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    }
    return out;
  }
}
