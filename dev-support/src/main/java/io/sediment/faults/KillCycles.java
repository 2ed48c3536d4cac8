package io.sediment.faults;

import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Part (a): {@code kill -9} of {@code serve} at a random moment under writers, then a restart on
 * the same data and a check of every acknowledged write and delete against the whole listing of
 * the bucket, cycle after cycle; at the end a graceful stop and {@code sediment verify}, whose
 * counters must match a full scan.
 */
final class KillCycles {

  static final String VOLUME = "faults";
  static final String BUCKET = "kill9";

  private final CampaignContext ctx;

  KillCycles(CampaignContext ctx) {
    this.ctx = ctx;
  }

  List<Row> run() throws IOException, InterruptedException {
    String name = "kill -9 under writes";
    Path data = ctx.workspace().dir("kill9/data");
    Path work = ctx.workspace().dir("kill9/run");
    SplittableRandom random = new SplittableRandom(ctx.options().seed());
    AckLedger ledger = new AckLedger();
    String tried = ctx.options().cycles() + " cycles: serve killed with SIGKILL 0.3-3 s into the writes of "
        + ctx.options().writers() + " threads (OpenKey+CommitKey, 20 % DeleteKey), restarted (every 4th "
        + "restart first killed again 0-0.7 s into opening the store), every key checked with "
        + "ListKeys";

    Server server = Server.start(ctx.launcher(), work, "serve", data, ctx.options().startTimeout());
    if (!server.up()) {
      return List.of(Row.fail(name, tried, "serve did not start: " + describe(server), -1));
    }
    OmClient client = new OmClient(server.target(), ctx.options().callDeadline());
    List<String> problems = new ArrayList<>();
    int lost = 0;
    int done = 0;
    int killedOpening = 0;
    try {
      client.ensureBucket(VOLUME, BUCKET);
      for (int cycle = 1; cycle <= ctx.options().cycles(); cycle++) {
        if (ctx.deadline().passed()) {
          problems.add("time limit reached after " + done + " cycles");
          break;
        }
        Writers writers = new Writers(client, VOLUME, BUCKET, ledger,
            new Writers.Settings(ctx.options().writers(), 0.2, 0, Duration.ofMinutes(2)),
            ctx.options().seed() + cycle);
        writers.start();
        boolean acked = writers.awaitAcks(1, ctx.options().startTimeout());
        Thread.sleep(300 + random.nextInt(2700));
        long acksBeforeKill = writers.acks();
        String died = server.kill();
        writers.stop();
        client.close();
        if (died != null) {
          problems.add("cycle " + cycle + ": " + died);
        }
        if (!acked) {
          problems.add("cycle " + cycle + ": no write acknowledged in "
              + ctx.options().startTimeout().toSeconds() + " s " + writers.failures());
        }
        if (cycle % 4 == 2) { // cycles 2, 6, 10...: --quick has one too
          Server.OpeningKill k = Server.killWhileOpening(ctx.launcher(), work, data,
              ctx.options().startTimeout(), random.nextInt(700));
          killedOpening += k.beforeListening() ? 1 : 0;
          if (k.problem() != null) {
            problems.add("cycle " + cycle + ": " + k.problem());
          }
        }
        server = Server.start(ctx.launcher(), work, "serve", data, ctx.options().startTimeout());
        if (!server.up()) {
          problems.add("cycle " + cycle + ": restart after kill -9 failed: " + describe(server));
          client = null;
          break;
        }
        client = new OmClient(server.target(), ctx.options().callDeadline());
        AckLedger.Check check = ledger.check(client.listKeys(VOLUME, BUCKET));
        lost += check.lost();
        if (check.lost() > 0) {
          problems.add("cycle " + cycle + ": " + check.describeLoss());
        }
        done = cycle;
        System.err.printf("faults: kill -9 cycle %d/%d: %d calls acknowledged before the kill, "
                + "%d keys checked, %d in doubt settled, %d lost%n", cycle, ctx.options().cycles(),
            acksBeforeKill, check.committedChecked() + check.deletedChecked(),
            check.inDoubtSettled(), check.lost());
      }
    } catch (StatusRuntimeException e) {
      problems.add("a check call failed: " + e.getStatus());
    } finally {
      if (client != null) {
        client.close();
      }
    }

    List<Row> rows = new ArrayList<>();
    String outcome = String.format("%d restarts (%d of them after a kill before the restart "
            + "listened); %d "
            + "acknowledged writes and %d acknowledged deletes; %s", done, killedOpening,
        ledger.acknowledgedWrites(), ledger.acknowledgedDeletes(),
        lost == 0 ? "every acknowledged write present and every acknowledged delete absent after "
            + "each restart" : "LOST: " + String.join("; ", problems));
    boolean failed = lost > 0 || !problems.isEmpty();
    if (lost == 0 && !problems.isEmpty()) {
      outcome += "; " + String.join("; ", problems);
    }
    rows.add(failed ? Row.fail(name, tried, outcome, lost) : Row.pass(name, tried, outcome, lost));
    rows.add(stopAndVerify(server, data, work));
    return rows;
  }

  private Row stopAndVerify(Server server, Path data, Path work)
      throws IOException, InterruptedException {
    String name = "kill -9: final stop and verify";
    String tried = "SIGTERM, then `sediment verify` (every file, every log, counters vs a full scan)";
    List<String> out = new ArrayList<>();
    boolean ok = true;
    if (server.up() && server.alive()) {
      ToolResult stopped = server.stop(ctx.options().drainTimeout().plusSeconds(60));
      out.add("serve exit " + stopped.exitCode());
      ok &= stopped.exitCode() == 0 && !stopped.crashed();
    }
    ToolResult verify = ctx.launcher().run(work, "verify", ctx.options().toolTimeout(), "verify", "--data",
        data.toString());
    String summary = verify.out().lines().filter(l -> l.startsWith("OK:") || l.startsWith("FAILED"))
        .findFirst().orElse(verify.firstMessage());
    String counters = verify.out().lines().filter(l -> l.startsWith("counters"))
        .map(l -> l.replaceAll("\\s+", " ")).findFirst().orElse("");
    out.add("verify exit " + verify.exitCode() + " (" + summary + "; " + counters + ")");
    ok &= verify.exitCode() == 0 && !verify.crashed();
    String outcome = String.join("; ", out);
    return ok ? Row.pass(name, tried, outcome, -1) : Row.fail(name, tried, outcome, -1);
  }

  static String describe(Server server) {
    ToolResult r = server.refusal();
    if (r == null) {
      return "";
    }
    return (r.timedOut() ? "no answer in time" : "exit " + r.exitCode())
        + (r.crashed() ? " CRASH (" + r.crash() + ")" : "") + ": " + r.firstMessage();
  }
}
