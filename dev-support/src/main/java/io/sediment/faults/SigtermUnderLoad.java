package io.sediment.faults;

import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Part (d): SIGTERM to {@code serve} while writers run. It must exit 0 within its drain timeout
 * plus a margin, and after a restart every acknowledged write must be there and every
 * acknowledged delete gone; {@code verify} then passes the stopped store.
 */
final class SigtermUnderLoad {

  static final String VOLUME = "faults";
  static final String BUCKET = "sigterm";
  /** What the JVM may take beyond the drain timeout to close the store and exit. */
  private static final Duration MARGIN = Duration.ofSeconds(30);

  private final CampaignContext ctx;

  SigtermUnderLoad(CampaignContext ctx) {
    this.ctx = ctx;
  }

  Row run() throws IOException, InterruptedException {
    String name = "SIGTERM under load";
    int rounds = ctx.options().quick() ? 1 : 3;
    String drain = Long.toString(ctx.options().drainTimeout().toSeconds());
    String tried = rounds + (rounds == 1 ? " round" : " rounds") + ": SIGTERM to serve --drain-timeout "
        + drain + " 1-2 s into the writes of " + ctx.options().writers() + " threads; exit 0 within "
        + drain + " s + " + MARGIN.toSeconds() + " s expected; restart, every key checked";
    Path data = ctx.workspace().dir("sigterm/data");
    Path work = ctx.workspace().dir("sigterm/run");
    SplittableRandom random = new SplittableRandom(ctx.options().seed() + 7);
    AckLedger ledger = new AckLedger();
    List<String> problems = new ArrayList<>();
    List<String> exits = new ArrayList<>();
    int lost = 0;
    for (int round = 1; round <= rounds; round++) {
      Server server = Server.start(ctx.launcher(), work, "serve", data, ctx.options().startTimeout(),
          "--drain-timeout", drain);
      if (!server.up()) {
        problems.add("round " + round + ": serve did not start: " + KillCycles.describe(server));
        break;
      }
      try (OmClient client = new OmClient(server.target(), ctx.options().callDeadline())) {
        client.ensureBucket(VOLUME, BUCKET);
        AckLedger.Check check = ledger.check(client.listKeys(VOLUME, BUCKET));
        lost += check.lost();
        if (check.lost() > 0) {
          problems.add("after round " + (round - 1) + ": " + check.describeLoss());
        }
        Writers writers = new Writers(client, VOLUME, BUCKET, ledger,
            new Writers.Settings(ctx.options().writers(), 0.2, 0, Duration.ofMinutes(2)),
            ctx.options().seed() + 100 + round);
        writers.start();
        writers.awaitAcks(20, ctx.options().startTimeout());
        Thread.sleep(1000 + random.nextInt(1000));
        long t0 = System.nanoTime();
        ToolResult stopped = server.stop(ctx.options().drainTimeout().plus(MARGIN).plusSeconds(30));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        writers.stop();
        exits.add(String.format("exit %d after %.1f s", stopped.exitCode(), millis / 1000.0));
        if (stopped.crashed()) {
          problems.add("round " + round + ": CRASH " + stopped.crash());
        } else if (stopped.exitCode() != 0) {
          problems.add("round " + round + ": exit " + stopped.exitCode() + ": "
              + stopped.firstMessage());
        } else if (millis > ctx.options().drainTimeout().plus(MARGIN).toMillis()) {
          problems.add("round " + round + ": took " + millis + " ms");
        }
      } catch (StatusRuntimeException e) {
        problems.add("round " + round + ": a check call failed: " + e.getStatus());
        server.kill();
      }
    }
    // the last round's writes, checked after one more restart, then the stopped store verified
    Server server = Server.start(ctx.launcher(), work, "serve", data, ctx.options().startTimeout());
    if (server.up()) {
      try (OmClient client = new OmClient(server.target(), ctx.options().callDeadline())) {
        AckLedger.Check check = ledger.check(client.listKeys(VOLUME, BUCKET));
        lost += check.lost();
        if (check.lost() > 0) {
          problems.add("after the last round: " + check.describeLoss());
        }
      } catch (StatusRuntimeException e) {
        problems.add("the final check failed: " + e.getStatus());
      }
      ToolResult stopped = server.stop(ctx.options().drainTimeout().plus(MARGIN));
      if (stopped.exitCode() != 0) {
        problems.add("idle stop: exit " + stopped.exitCode());
      }
    } else {
      problems.add("the final restart failed: " + KillCycles.describe(server));
    }
    ToolResult verify = ctx.launcher().run(work, "verify", ctx.options().toolTimeout(), "verify", "--data",
        data.toString());
    if (verify.exitCode() != 0) {
      problems.add("verify exit " + verify.exitCode() + ": " + verify.out());
    }
    String outcome = "serve " + String.join(", ", exits) + "; " + ledger.acknowledgedWrites()
        + " acknowledged writes and " + ledger.acknowledgedDeletes() + " deletes, "
        + (lost == 0 ? "all as acknowledged after restart" : "LOST")
        + "; verify exit " + verify.exitCode()
        + (problems.isEmpty() ? "" : "; " + String.join("; ", problems));
    return problems.isEmpty() ? Row.pass(name, tried, outcome, lost)
        : Row.fail(name, tried, outcome, lost);
  }
}
