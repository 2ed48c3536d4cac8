package io.sediment.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stopped store every corruption case starts from, with data in both places a store keeps it:
 * {@code sediment load} writes a namespace, a {@code serve} run then flushes it into SSTs while
 * it recovers the log, and leaves in its write-ahead log a few dozen commits and deletes made
 * through gRPC, the last of them {@link #MARKER_KEY}. Immutable once made.
 *
 * @param data the data directory ({@code data/om} is the store)
 * @param keyTableSst the largest SST holding keyTable rows (named by {@code verify})
 * @param wal the newest non-empty write-ahead log
 */
record PristineStore(Path data, String keyTableSst, String wal, long walBytes, int sstCount) {

  static final String VOLUME = "load-v000";
  static final String LOAD_BUCKET = "obs-000";
  static final String WAL_BUCKET = "wal-000";
  /** The last write of the pristine store: what a torn WAL tail may lose. */
  static final String MARKER_KEY = "zz-last-write";
  /** The buckets whose keys the serve and recon views list. */
  static final List<String> BUCKETS = List.of(LOAD_BUCKET, WAL_BUCKET);

  private static final Pattern KEY_TABLE_SST =
      Pattern.compile("(?m)^sst\\s+(\\d+\\.sst) \\(keyTable\\)");

  Path om() {
    return data.resolve("om");
  }

  String describe() {
    return String.format("%d SSTs, WAL %s of %d bytes", sstCount, wal, walBytes);
  }

  /** Makes the store in {@code dir}/data; throws with the reason if any step fails. */
  static PristineStore create(SedimentLauncher launcher, Path dir, CampaignOptions options)
      throws IOException, InterruptedException {
    Path data = dir.resolve("data");
    ToolResult load = launcher.run(dir, "load", options.toolTimeout(), "load", "--data",
        data.toString(), "--volumes", "1", "--buckets", "1", "--fso-buckets", "0", "--keys", "300",
        "--no-snapshots", "--threads", "2", "--no-progress");
    require(load.exitCode() == 0 && !load.crashed(), "load failed", load);

    Server server = Server.start(launcher, dir, "serve", data, options.startTimeout(),
        "--no-background-services");
    if (!server.up()) {
      throw new IOException("serve on the loaded store did not start: "
          + KillCycles.describe(server));
    }
    try (OmClient client = new OmClient(server.target(), options.callDeadline())) {
      client.ensureBucket(VOLUME, WAL_BUCKET);
      for (int i = 0; i < 60; i++) {
        client.commit(VOLUME, WAL_BUCKET, String.format("wal-%03d", i), 1000 + i);
      }
      for (int i = 0; i < 60; i += 6) {
        client.delete(VOLUME, WAL_BUCKET, String.format("wal-%03d", i));
      }
      client.commit(VOLUME, WAL_BUCKET, MARKER_KEY, 1);
    } finally {
      ToolResult stopped = server.stop(Duration.ofSeconds(60));
      require(stopped.exitCode() == 0 && !stopped.crashed(), "serve did not stop cleanly",
          stopped);
    }

    Path om = data.resolve("om");
    ToolResult verify = launcher.run(dir, "verify", options.toolTimeout(), "verify", "--data",
        data.toString());
    require(verify.exitCode() == 0, "verify fails on the pristine store", verify);
    String sst = null;
    long sstSize = -1;
    Matcher m = KEY_TABLE_SST.matcher(verify.out());
    while (m.find()) {
      long size = StoreFiles.size(om.resolve(m.group(1)));
      if (size > sstSize) {
        sst = m.group(1);
        sstSize = size;
      }
    }
    if (sst == null) {
      throw new IOException("verify names no keyTable SST in the pristine store:\n" + verify.out());
    }
    if (sstSize <= Damage.SST_FLIP_OFFSET * 4) {
      throw new IOException("keyTable SST " + sst + " is too small to flip a data block byte ("
          + sstSize + " bytes)");
    }
    Path wal = StoreFiles.newestLog(om);
    if (wal == null || Files.size(wal) < 4096) {
      throw new IOException("the pristine store has no write-ahead log with records to damage: "
          + StoreFiles.withSuffix(om, ".log"));
    }
    return new PristineStore(data, sst, wal.getFileName().toString(), Files.size(wal),
        StoreFiles.withSuffix(om, ".sst").size());
  }

  private static void require(boolean ok, String what, ToolResult r) throws IOException {
    if (!ok) {
      throw new IOException(what + " (exit " + r.exitCode() + (r.crashed() ? ", " + r.crash() : "")
          + "): " + r.err() + r.out());
    }
  }
}
