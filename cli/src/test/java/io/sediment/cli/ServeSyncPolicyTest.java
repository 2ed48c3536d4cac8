package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.om.core.SyncPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code serve --sync}: a single server's store syncs as the option says; a replica's runs without
 * a WAL whatever it says, its Raft log replaying what a crash loses; a single server cannot ask
 * for that, having no log.
 */
class ServeSyncPolicyTest {

  @TempDir Path dir;

  @Test
  void aReplicasStoreRunsWithoutAWalWhateverSyncSays() {
    ServeCommand serve = new ServeCommand();
    new CommandLine(serve).parseArgs("--sync", "PROCESS_CRASH_SAFE");
    assertEquals(SyncPolicy.PROCESS_CRASH_SAFE,
        serve.storeOptions.storeOptions(false).syncPolicy());
    assertEquals(SyncPolicy.REPLAYED_FROM_LOG, serve.storeOptions.storeOptions(true).syncPolicy());
    new CommandLine(serve).parseArgs();
    assertEquals(SyncPolicy.DURABLE, serve.storeOptions.storeOptions(false).syncPolicy());
  }

  @Test
  void aSingleServerWithoutAWalIsAUsageError() {
    Path data = dir.resolve("data");
    Run r = run("serve", "--data", data.toString(), "--port", "0", "--recon-port", "0",
        "--sync", "REPLAYED_FROM_LOG");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--sync must be DURABLE or PROCESS_CRASH_SAFE"), r.err());
    assertFalse(Files.exists(data.resolve("om")), "no store is created");
  }
}
