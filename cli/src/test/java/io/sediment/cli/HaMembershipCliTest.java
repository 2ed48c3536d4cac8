package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ha add-peer} and {@code ha remove-peer} as an operator runs them: a group of one
 * {@code serve --ha-id}, a second serve started with {@code --ha-join}, added, listed by
 * {@code ha status}, removed; and the commands' usage errors.
 */
class HaMembershipCliTest {

  @TempDir Path dir;
  private final ServeThreads serves = new ServeThreads();

  @AfterEach
  void stopAll() throws InterruptedException {
    serves.stopAll();
  }

  private static int freePort() throws IOException {
    return ServeThreads.freePort();
  }

  private void serve(String... args) throws InterruptedException {
    serves.serve(args);
  }

  @Test
  void aReplicaStartedToJoinIsAddedListedAndRemoved() throws Exception {
    int raft1 = freePort();
    int rpc1 = freePort();
    int raft2 = freePort();
    int rpc2 = freePort();
    String one = "om1=127.0.0.1:" + raft1 + ":" + rpc1;
    String two = "om2=127.0.0.1:" + raft2 + ":" + rpc2;
    String target1 = "127.0.0.1:" + rpc1;
    String target2 = "127.0.0.1:" + rpc2;
    serve("serve", "--data", dir.resolve("om1").toString(), "--port", "" + rpc1,
        "--recon-port", "0", "--ha-id", "om1", "--peers", one, "--election-timeout", "300ms",
        "--drain-timeout", "1");
    serve("serve", "--data", dir.resolve("om2").toString(), "--port", "" + rpc2,
        "--recon-port", "0", "--ha-id", "om2", "--peers", one + "," + two, "--ha-join",
        "--election-timeout", "300ms", "--drain-timeout", "1");

    Run status = run("ha", "status", "--target", target1 + "," + target2);
    for (int i = 0; i < 100 && status.code() != 0; i++) {
      Thread.sleep(100); // the group of one elects itself
      status = run("ha", "status", "--target", target1 + "," + target2);
    }
    assertEquals(0, status.code(), status.out() + status.err());
    assertTrue(status.out().contains("members: om1 (raft 127.0.0.1:" + raft1 + ", rpc "
        + target1 + ")"), status.out());
    assertTrue(status.out().contains("not a member yet"), status.out());

    Run added = run("ha", "add-peer", "--target", target1, "--peer", two, "--timeout", "30");
    assertEquals(0, added.code(), added.err());
    assertTrue(added.out().startsWith("Added om2. Members: om1 (raft 127.0.0.1:" + raft1),
        added.out());
    assertTrue(added.out().contains("om2 (raft 127.0.0.1:" + raft2 + ", rpc " + target2 + ")"),
        added.out());
    Run again = run("ha", "add-peer", "--target", target1, "--peer", two);
    assertEquals(1, again.code());
    assertTrue(again.err().contains("FAILED_PRECONDITION") && again.err()
        .contains("in the group already"), again.err());

    Run listed = run("ha", "status", "--target", target1 + "," + target2);
    assertEquals(0, listed.code(), listed.err());
    assertTrue(listed.out().contains("members: om1 (raft 127.0.0.1:" + raft1 + ", rpc " + target1
        + "), om2 (raft 127.0.0.1:" + raft2 + ", rpc " + target2 + ")"), listed.out());

    Run self = run("ha", "remove-peer", "--target", target1, "--id", "om1");
    assertEquals(1, self.code());
    assertTrue(self.err().contains("transfer the leadership"), self.err());
    Run removed = run("ha", "remove-peer", "--target", target1, "--id", "om2", "--timeout", "30");
    assertEquals(0, removed.code(), removed.err());
    assertEquals("Removed om2: stop its serve now. Members: om1 (raft 127.0.0.1:" + raft1
        + ", rpc " + target1 + ")", removed.out().trim());
  }

  @Test
  void usageErrorsChangeNothingAndASingleNodeRefuses() throws Exception {
    assertEquals(2, run("ha", "add-peer", "--target", "127.0.0.1:1").code(), "--peer required");
    assertEquals(2, run("ha", "remove-peer", "--target", "127.0.0.1:1").code(), "--id required");
    Run noRpc = run("ha", "add-peer", "--target", "127.0.0.1:1", "--peer", "om4=127.0.0.1:9875");
    assertEquals(2, noRpc.code());
    assertTrue(noRpc.err().contains("lacks the gRPC port"), noRpc.err());
    Run two = run("ha", "add-peer", "--target", "127.0.0.1:1", "--peer",
        "om4=127.0.0.1:9875:9865,om5=127.0.0.1:9876:9866");
    assertEquals(2, two.code());
    assertTrue(two.err().contains("names one replica"), two.err());
    Run bad = run("ha", "add-peer", "--target", "127.0.0.1:1", "--peer", "om 4=host:1:2");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("Malformed peer"), bad.err());
    Run joinAlone = run("serve", "--data", dir.resolve("x").toString(), "--ha-join");
    assertEquals(2, joinAlone.code());
    assertTrue(joinAlone.err().contains("--ha-join needs --ha-id"), joinAlone.err());

    int rpc = freePort();
    serve("serve", "--data", dir.resolve("single").toString(), "--port", "" + rpc,
        "--recon-port", "0", "--drain-timeout", "1");
    Run single = run("ha", "add-peer", "--target", "127.0.0.1:" + rpc, "--peer",
        "om4=127.0.0.1:9875:9865");
    assertEquals(1, single.code());
    assertTrue(single.err().contains("FAILED_PRECONDITION") && single.err()
        .contains("single node"), single.err());
    Run singleRemove = run("ha", "remove-peer", "--target", "127.0.0.1:" + rpc, "--id", "om1");
    assertEquals(1, singleRemove.code());
    assertTrue(singleRemove.err().contains("single node"), singleRemove.err());
  }
}
