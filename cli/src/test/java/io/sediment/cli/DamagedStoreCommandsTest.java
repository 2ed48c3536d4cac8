package io.sediment.cli;

import static io.sediment.cli.SedimentCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.cli.SedimentCommandTest.Run;
import io.sediment.db.testing.StoreFiles;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OpenKeySession;
import io.sediment.proto.om.BucketLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every command does with a damaged store: serve, ldb and recon refuse it naming the file
 * and change nothing; verify reports each file and counter and exits 1; repair only diagnoses
 * unless told what loss to accept, and then opens the store again and says what it dropped.
 */
class DamagedStoreCommandsTest {

  private static final int KEYS = 400;

  @TempDir Path dir;

  private Path data() {
    return dir.resolve("data");
  }

  private Path om() {
    return data().resolve("om");
  }

  /** A store with {@code KEYS} committed keys, flushed to SSTs or left in the WAL. */
  private void store(boolean flush) {
    try (OmMetadataStore store = OmMetadataStore.open(om())) {
      store.createVolume("vol", "owner");
      store.createBucket("vol", "bkt", BucketLayout.OBJECT_STORE, "owner", 0);
      for (int i = 0; i < KEYS; i++) {
        String key = String.format("key-%05d", i);
        OpenKeySession s = store.openKey("vol", "bkt", key, "owner");
        store.commitKey("vol", "bkt", key, s.clientId(), 100 + i);
      }
      if (flush) {
        store.dbStore().flush();
      }
    }
  }

  private Map<String, String> dataFiles() {
    return StoreFiles.fingerprint(om(), n -> !n.startsWith("LOG"));
  }

  @Test
  void verifyPassesAnIntactStoreAndChangesNothing() {
    store(false);
    Map<String, String> before = StoreFiles.fingerprint(om());
    Run r = run("verify", "--data", data().toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("counters match a full scan"), r.out());
    assertTrue(r.out().contains("wal"), r.out());
    assertTrue(r.out().contains("OK: "), r.out());
    assertEquals(before, StoreFiles.fingerprint(om()), "verify only reads");
  }

  @Test
  void aTruncatedSstIsRefusedByLdbAndReconAndReportedByVerify() throws IOException {
    store(true);
    Path sst = StoreFiles.largest(om(), ".sst");
    StoreFiles.truncate(sst, Files.size(sst) / 2);
    Map<String, String> before = dataFiles();

    Run ldb = run("ldb", "--data", data().toString(), "--table", "keyTable");
    assertEquals(1, ldb.code(), ldb.out());
    assertTrue(ldb.err().contains(sst.getFileName().toString()), ldb.err());
    assertEquals("", ldb.out(), "no partial table printed");

    Run verify = run("verify", "--data", data().toString());
    assertEquals(1, verify.code(), verify.out());
    assertTrue(verify.out().contains(sst.getFileName().toString()), verify.out());
    assertTrue(verify.out().contains("FAILED"), verify.out());

    Run serve = run("serve", "--data", data().toString(), "--port", "0", "--no-recon",
        "--no-background-services");
    assertEquals(1, serve.code(), serve.out());
    assertTrue(serve.err().contains(sst.getFileName().toString()), serve.err());

    Run repair = run("repair", "--data", data().toString(), "--accept-wal-loss");
    assertEquals(1, repair.code(), repair.out());
    assertTrue(repair.err().contains("Restore it from a checkpoint"), repair.err());
    assertEquals(before, dataFiles(), "no data file changed (serve's refused open rotates LOG)");
  }

  @Test
  void aMissingCurrentIsRefusedByServeAndRebuiltOnlyWhenAsked() throws IOException {
    store(true);
    Files.delete(om().resolve("CURRENT"));
    for (Path log : StoreFiles.withSuffix(om(), ".log")) {
      Files.delete(log);
    }
    Map<String, String> before = StoreFiles.fingerprint(om());

    Run serve = run("serve", "--data", data().toString(), "--port", "0", "--no-recon",
        "--no-background-services");
    assertEquals(1, serve.code(), serve.out());
    assertTrue(serve.err().contains("CURRENT file is missing"), serve.err());
    assertTrue(serve.err().contains("sediment repair"), serve.err());
    assertEquals(before, StoreFiles.fingerprint(om()), "serve created and deleted nothing");

    Run ldb = run("ldb", "--data", data().toString(), "--table", "keyTable");
    assertEquals(1, ldb.code());
    assertTrue(ldb.err().contains("CURRENT file is missing"), ldb.err());
    Run recon = run("recon", "--db", om().toString(), "--port", "0");
    assertEquals(1, recon.code());
    assertTrue(recon.err().contains("CURRENT file is missing"), recon.err());

    Run diagnose = run("repair", "--data", data().toString());
    assertEquals(1, diagnose.code());
    assertTrue(diagnose.err().contains("--rebuild-current"), diagnose.err());
    assertEquals(before, StoreFiles.fingerprint(om()), "a diagnosis changes nothing");

    Run repair = run("repair", "--data", data().toString(), "--rebuild-current");
    assertEquals(0, repair.code(), repair.out() + repair.err());
    Run verify = run("verify", "--data", data().toString());
    assertEquals(0, verify.code(), verify.out());
    try (OmMetadataStore store = OmMetadataStore.open(om())) {
      assertEquals(KEYS, store.listKeys("vol", "bkt", "", "", 1000, "").items().size());
    }
  }

  @Test
  void aDamagedWalIsRefusedUntilTheLossIsAcceptedThenRepairSaysWhatItDropped()
      throws IOException {
    store(false);
    Path wal = StoreFiles.largest(om(), ".log");
    StoreFiles.flipByte(wal, Files.size(wal) / 2);
    Map<String, String> before = dataFiles();

    Run serve = run("serve", "--data", data().toString(), "--port", "0", "--no-recon",
        "--no-background-services");
    assertEquals(1, serve.code(), serve.out());
    assertTrue(serve.err().contains(wal.getFileName() + ": a checksum mismatch at byte"),
        serve.err());
    Run ldb = run("ldb", "--data", data().toString(), "--table", "keyTable");
    assertEquals(1, ldb.code());
    assertTrue(ldb.err().contains(wal.getFileName().toString()), ldb.err());
    Run verify = run("verify", "--data", data().toString());
    assertEquals(1, verify.code());
    assertTrue(verify.out().contains("a checksum mismatch"), verify.out());
    Run diagnose = run("repair", "--data", data().toString());
    assertEquals(1, diagnose.code());
    assertTrue(diagnose.err().contains("--accept-wal-loss"), diagnose.err());
    assertEquals(before, dataFiles(), "refusals and diagnoses change no data file");

    Run repair = run("repair", "--data", data().toString(), "--accept-wal-loss");
    assertEquals(0, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("readable records"), repair.out());
    Path aside;
    try (var s = Files.list(data())) {
      aside = s.filter(p -> p.getFileName().toString().startsWith("om-damaged-")).findFirst()
          .orElseThrow();
    }
    assertTrue(Files.exists(aside.resolve(wal.getFileName())), "the damaged log was kept aside");
    assertEquals(before.get(wal.getFileName().toString()),
        StoreFiles.fingerprint(aside).get(wal.getFileName().toString()));

    Run after = run("verify", "--data", data().toString());
    assertEquals(0, after.code(), after.out());
    try (OmMetadataStore store = OmMetadataStore.open(om())) {
      int kept = store.listKeys("vol", "bkt", "", "", 1000, "").items().size();
      assertTrue(kept > 0 && kept < KEYS, "kept " + kept + " of " + KEYS);
    }
  }

  @Test
  void reconRefusesADamagedStore() throws IOException {
    store(true);
    Path sst = StoreFiles.largest(om(), ".sst");
    Files.delete(sst);
    Run recon = run("recon", "--db", om().toString(), "--port", "0");
    assertEquals(1, recon.code(), recon.out());
    assertTrue(recon.err().contains(sst.getFileName().toString()), recon.err());
    assertFalse(recon.out().contains("Recon at"), recon.out());
  }
}
