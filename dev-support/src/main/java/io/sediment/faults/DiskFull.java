package io.sediment.faults;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Part (c): {@code serve} on a small tmpfs under writers, the rest of the file system then
 * filled by another file until writes fail. Records how they fail (the status code and message),
 * whether reads still work, whether writes resume by themselves once the file is removed, and
 * after a stop and restart that no acknowledged write was lost and verify passes. Skipped where
 * mounting is not permitted.
 */
final class DiskFull {

  static final String VOLUME = "faults";
  static final String BUCKET = "diskfull";
  /**
   * Room for the store, its 70 MiB write-ahead log reservation, and the 64 MiB that must be free
   * again before RocksDB resumes writes (the largest memtable, README "When the disk is full").
   */
  private static final int TMPFS_MIB = 192;

  private final CampaignContext ctx;

  DiskFull(CampaignContext ctx) {
    this.ctx = ctx;
  }

  Row run() throws IOException, InterruptedException {
    String name = "disk full";
    String tried = "serve on a " + TMPFS_MIB + " MiB tmpfs, 2 writers of ~1 KiB keys, the free "
        + "space then taken by another file until writes fail; file removed; stop; restart";
    Path mnt = ctx.workspace().dir("diskfull/mnt");
    Path work = ctx.workspace().dir("diskfull/run");
    TmpfsMount.Attempt attempt = TmpfsMount.tryMount(mnt, TMPFS_MIB);
    if (attempt.mount() == null) {
      return Row.skipped(name, tried, attempt.refusal());
    }
    ctx.workspace().track(attempt.mount());
    try {
      return exercise(name, tried, mnt.resolve("data"), mnt.resolve("filler"), work);
    } finally {
      attempt.mount().unmountQuietly();
      ctx.workspace().untrack(attempt.mount());
    }
  }

  private Row exercise(String name, String tried, Path data, Path filler, Path work)
      throws IOException, InterruptedException {
    List<String> facts = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    AckLedger ledger = new AckLedger();
    Server server = Server.start(ctx.launcher(), work, "serve", data, ctx.options().startTimeout());
    if (!server.up()) {
      return Row.fail(name, tried, "serve did not start on the tmpfs: "
          + KillCycles.describe(server), -1);
    }
    try (OmClient client = new OmClient(server.target(), ctx.options().callDeadline())) {
      client.ensureBucket(VOLUME, BUCKET);
      Writers writers = new Writers(client, VOLUME, BUCKET, ledger,
          new Writers.Settings(2, 0.1, 900, Duration.ofMinutes(5)), ctx.options().seed() + 3);
      writers.start();
      writers.awaitAcks(20, ctx.options().startTimeout());
      long filled = fill(filler);
      long acksAtFill = writers.acks();
      Status.Code code = awaitFailure(writers, Duration.ofSeconds(ctx.options().quick() ? 60 : 120));
      if (code == null) {
        writers.stop();
        server.stop(ctx.options().drainTimeout().plusSeconds(60));
        return Row.skipped(name, tried, "writes never failed (" + (writers.acks() - acksAtFill)
            + " acknowledged after the filler took " + (filled >> 20) + " MiB)");
      }
      facts.add("writes failed with " + code + ": \"" + shorten(writers.firstMessage(code))
          + "\"");
      if (code != Status.Code.RESOURCE_EXHAUSTED) {
        problems.add("writes failed with " + code + ", not RESOURCE_EXHAUSTED");
      }
      facts.add("reads while full: " + readOne(client, ledger));
      Thread.sleep(2000);
      long acksBeforeFree = writers.acks();
      long freed = Files.size(filler);
      Files.delete(filler);
      long t0 = System.nanoTime();
      Duration resumeWait = Duration.ofSeconds(ctx.options().quick() ? 20 : 40);
      boolean resumed = writers.awaitAcks(acksBeforeFree + 5, resumeWait);
      facts.add(resumed
          ? String.format("after freeing %d MiB writes resumed without a restart in %.1f s",
              freed >> 20, (System.nanoTime() - t0) / 1e9)
          : "after freeing " + (freed >> 20) + " MiB writes did not resume within "
              + resumeWait.toSeconds() + " s without a restart");
      if (!resumed) {
        problems.add("writes did not resume by themselves");
      }
      writers.stop();
      facts.add("failed calls in all: " + writers.failures());
    } catch (StatusRuntimeException e) {
      problems.add("a setup or read call failed: " + e.getStatus());
    }
    ToolResult stopped = server.stop(ctx.options().drainTimeout().plusSeconds(60));
    facts.add("stop: " + (stopped.timedOut() ? "did not exit (killed)" : "exit "
        + stopped.exitCode()));
    if (stopped.crashed()) {
      problems.add("CRASH " + stopped.crash());
    }

    int lost = 0;
    Server again = Server.start(ctx.launcher(), work, "serve", data, ctx.options().startTimeout());
    if (!again.up()) {
      problems.add("restart failed: " + KillCycles.describe(again));
    } else {
      try (OmClient client = new OmClient(again.target(), ctx.options().callDeadline())) {
        AckLedger.Check check = ledger.check(client.listKeys(VOLUME, BUCKET));
        lost = check.lost();
        facts.add("after restart " + ledger.acknowledgedWrites() + " acknowledged writes checked"
            + (lost == 0 ? ", none lost" : ": " + check.describeLoss()));
        client.commit(VOLUME, BUCKET, "after-restart", 1);
        facts.add("writes work after restart");
      } catch (StatusRuntimeException e) {
        problems.add("after restart: " + e.getStatus());
      }
      ToolResult s = again.stop(ctx.options().drainTimeout().plusSeconds(60));
      if (s.crashed()) {
        problems.add("CRASH " + s.crash());
      }
    }
    ToolResult verify = ctx.launcher().run(work, "verify", ctx.options().toolTimeout(), "verify", "--data",
        data.toString());
    facts.add("verify exit " + verify.exitCode());
    if (verify.exitCode() != 0) {
      problems.add("verify: " + verify.out().replaceAll("\\s+", " "));
    }
    String outcome = String.join("; ", facts)
        + (problems.isEmpty() ? "" : "; " + String.join("; ", problems));
    return problems.isEmpty() && lost == 0 ? Row.pass(name, tried, outcome, lost)
        : Row.fail(name, tried, outcome, lost);
  }

  /** Writes {@code filler} until the file system is full; returns its size. */
  private static long fill(Path filler) throws IOException {
    byte[] chunk = new byte[1 << 20];
    long written = 0;
    try (OutputStream out = Files.newOutputStream(filler)) {
      for (int i = 0; i < 4 * TMPFS_MIB; i++) {
        out.write(chunk);
        written += chunk.length;
      }
    } catch (IOException full) {
      // ENOSPC: the point; then take what is left in small pieces
      try (OutputStream out = Files.newOutputStream(filler,
          java.nio.file.StandardOpenOption.APPEND)) {
        byte[] small = new byte[4096];
        for (int i = 0; i < 256 * 16; i++) {
          out.write(small);
          out.flush();
        }
      } catch (IOException stillFull) {
        // full
      }
    }
    return Math.max(written, Files.size(filler));
  }

  /** Waits for the writers' first failure after now; returns its code, or null. */
  private static Status.Code awaitFailure(Writers writers, Duration max)
      throws InterruptedException {
    Map<Status.Code, Long> before = writers.failures();
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      Map<Status.Code, Long> now = writers.failures();
      for (Map.Entry<Status.Code, Long> e : now.entrySet()) {
        if (e.getValue() > before.getOrDefault(e.getKey(), 0L)) {
          return e.getKey();
        }
      }
      Thread.sleep(TimeUnit.MILLISECONDS.toMillis(50));
    }
    return null;
  }

  private static String readOne(OmClient client, AckLedger ledger) {
    List<String> keys = ledger.committed("w0/");
    if (keys.isEmpty()) {
      return "nothing to read";
    }
    try {
      return client.exists(VOLUME, BUCKET, keys.get(0)) ? "ok (LookupKey found an acknowledged key)"
          : "LookupKey did not find an acknowledged key";
    } catch (StatusRuntimeException e) {
      return "LookupKey failed: " + e.getStatus().getCode();
    }
  }

  private static String shorten(String s) {
    if (s == null) {
      return "";
    }
    String t = s.replaceAll("\\s+", " ").strip();
    return t.length() > 160 ? t.substring(0, 157) + "..." : t;
  }
}
