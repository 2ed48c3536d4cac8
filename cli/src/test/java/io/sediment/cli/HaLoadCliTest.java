package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.KeyInfo;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sediment load} given every replica of a group follows the leader through a leader
 * change in the middle of the load: it ends with exit 0 and every replica holds each key once.
 */
class HaLoadCliTest {

  private static final int KEYS = 1000;

  @TempDir Path dir;
  private final ServeThreads serves = new ServeThreads();

  @AfterEach
  void stopAll() throws InterruptedException {
    serves.stopAll();
  }

  @Test
  void aLoadGoesOnThroughTheNewLeaderAfterALeaderChange() throws Exception {
    List<String> peers = new ArrayList<>();
    List<String> targets = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      int raft = ServeThreads.freePort();
      int rpc = ServeThreads.freePort();
      peers.add("om" + i + "=127.0.0.1:" + raft + ":" + rpc);
      targets.add("127.0.0.1:" + rpc);
    }
    for (int i = 1; i <= 3; i++) {
      serves.serve("serve", "--data", dir.resolve("om" + i).toString(), "--port",
          targets.get(i - 1).substring("127.0.0.1:".length()), "--no-recon", "--ha-id",
          "om" + i, "--peers", String.join(",", peers), "--election-timeout", "300ms",
          "--drain-timeout", "1");
    }
    String all = String.join(",", targets);
    String leader = awaitLeader(all);

    AtomicReference<Run> load = new AtomicReference<>();
    Thread loading = new Thread(() -> load.set(run("load", "--target", all, "--volumes", "1",
        "--buckets", "1", "--keys", "" + KEYS, "--open-keys", "0", "--delete-fraction", "0",
        "--fso-buckets", "0", "--multipart-uploads", "0", "--no-snapshots", "--threads", "4",
        "--no-progress", "--timeout", "30")));
    loading.start();
    Thread.sleep(1_000); // some of the keys are in
    // On a busy machine an election may move the leadership first: then move it from there, to
    // a replica that is neither the leader now nor the one that led when the load began.
    Run moved = null;
    for (int attempt = 0; attempt < 5 && (moved == null || moved.code() != 0); attempt++) {
      String now = awaitLeader(all);
      String next = java.util.stream.Stream.of("om1", "om2", "om3")
          .filter(id -> !id.equals(now) && !id.equals(leader)).findFirst().orElseThrow();
      moved = run("ha", "transfer-leader", "--target", all, "--to", next, "--timeout", "30");
    }
    assertEquals(0, moved.code(), moved.out() + moved.err());
    loading.join(180_000);
    assertNotNull(load.get(), "the load finished");
    assertEquals(0, load.get().code(), load.get().out() + load.get().err());
    assertTrue(load.get().out().contains("Loaded 1 volumes"), load.get().out());
    assertNotEquals(leader, awaitLeader(all), "the leadership moved during the load");

    serves.stopAll();
    for (int i = 1; i <= 3; i++) {
      try (OmMetadataStore store = StoreDirs.open(dir.resolve("om" + i),
          OmStoreOptions.defaults())) {
        assertEquals(KEYS, keyCount(store), "keys on om" + i);
      }
    }
  }

  private static long keyCount(OmMetadataStore store) {
    long n = 0;
    String after = "";
    while (true) {
      ListPage<KeyInfo> page = store.listKeys("load-v000", "obs-000", "", after, 1000, null);
      n += page.items().size();
      if (!page.truncated() || page.items().isEmpty()) {
        return n;
      }
      after = page.items().get(page.items().size() - 1).getKeyName();
    }
  }

  /** The id of the replica that leads, once {@code ha status} names one. */
  private static String awaitLeader(String targets) throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      Run status = run("ha", "status", "--target", targets);
      for (String line : status.out().lines().toList()) {
        String[] cols = line.trim().split("\\s+");
        if (cols.length > 2 && cols[2].equals("LEADER")) {
          return cols[1];
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("No leader named by ha status");
  }
}
