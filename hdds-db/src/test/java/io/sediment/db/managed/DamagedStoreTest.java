package io.sediment.db.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.DamagedStoreException;
import io.sediment.db.StoreInUseException;
import io.sediment.db.Table;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.WalRecovery;
import io.sediment.db.WalReport;
import io.sediment.db.testing.StoreFiles;
import io.sediment.db.testing.TestStores;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store whose files are missing or damaged is refused at open, naming the file, with nothing in
 * its directory changed; a torn write-ahead log tail is still accepted; only an explicit
 * {@link WalRecovery#ACCEPT_LOSS_AFTER_DAMAGE} open drops what lies after a damaged record.
 */
class DamagedStoreTest {

  private static final int KEYS = 3000;

  @TempDir Path tmp;

  private Path db() {
    return tmp.resolve("db");
  }

  private static String key(int i) {
    return String.format("key-%06d", i);
  }

  /** {@code KEYS} puts, each its own WAL record, left in the WAL (no flush). */
  private void writeKeysToWal() throws IOException {
    try (DBStore store = TestStores.open(db())) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      for (int i = 0; i < KEYS; i++) {
        t.put(key(i), "value-" + i + "-" + "x".repeat(40));
      }
    }
    assertTrue(Files.size(StoreFiles.largest(db(), ".log")) > 100_000, "the writes are in the WAL");
  }

  /** {@code KEYS} keys flushed into SSTs (plus an empty WAL). */
  private void writeKeysToSsts() {
    try (DBStore store = TestStores.open(db())) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      for (int i = 0; i < KEYS; i++) {
        t.put(key(i), "value-" + i + "-" + "x".repeat(40));
      }
      store.flush();
    }
  }

  /** Files whose content is the store's data, RocksDB's info logs excepted. */
  private Map<String, String> dataFingerprint() {
    return StoreFiles.fingerprint(db(), n -> !n.startsWith("LOG"));
  }

  @Test
  void aStoreWithoutCurrentIsRefusedNamingItAndKeptAsItWas() throws IOException {
    writeKeysToSsts();
    Files.delete(db().resolve("CURRENT"));
    for (Path log : StoreFiles.withSuffix(db(), ".log")) {
      Files.delete(log);
    }
    Map<String, String> before = StoreFiles.fingerprint(db());

    DamagedStoreException e = assertThrows(DamagedStoreException.class,
        () -> TestStores.open(db()));

    assertEquals(db().resolve("CURRENT"), e.file());
    assertTrue(e.getMessage().contains("CURRENT file is missing"), e.getMessage());
    assertTrue(e.getMessage().contains("MANIFEST-"), e.getMessage());
    assertEquals(before, StoreFiles.fingerprint(db()), "nothing in the directory changed");
  }

  @Test
  void aDirectoryWithoutDataFilesIsCreatedAsANewStore() throws IOException {
    Files.createDirectories(db());
    Files.writeString(db().resolve("LOG"), "an info log left behind\n");
    try (DBStore store = TestStores.open(db())) {
      store.getTable(TestStores.STRINGS).put("a", "b");
    }
    try (DBStore store = TestStores.open(db())) {
      assertEquals("b", store.getTable(TestStores.STRINGS).get("a"));
    }
  }

  @Test
  void aDamagedRecordInTheMiddleOfTheWalFailsTheOpenNamingTheLogAndOffset() throws IOException {
    writeKeysToWal();
    Path wal = StoreFiles.largest(db(), ".log");
    long offset = Files.size(wal) / 2;
    StoreFiles.flipByte(wal, offset);
    Map<String, String> before = dataFingerprint();

    DamagedStoreException e = assertThrows(DamagedStoreException.class,
        () -> TestStores.open(db()));

    assertEquals(wal, e.file());
    WalReport report = WalScanner.scan(wal);
    assertTrue(report.damaged());
    assertTrue(report.damageOffset() <= offset && offset - report.damageOffset() < 32 * 1024,
        "the damaged record holds the flipped byte: " + report.describe());
    assertTrue(e.getMessage().contains(wal.getFileName() + ": a checksum mismatch at byte "
        + report.damageOffset()), e.getMessage());
    assertEquals(before, dataFingerprint(), "no data file changed, the damaged WAL kept");
  }

  @Test
  void aTornWalTailIsAcceptedAndKeepsEveryEarlierWrite() throws IOException {
    writeKeysToWal();
    Path wal = StoreFiles.largest(db(), ".log");
    StoreFiles.truncate(wal, Files.size(wal) - 20);
    assertTrue(WalScanner.scan(wal).tornTailBytes() > 0);
    assertTrue(!WalScanner.scan(wal).damaged());

    try (DBStore store = TestStores.open(db())) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      for (int i = 0; i < KEYS - 1; i++) {
        assertNotNull(t.get(key(i)), key(i));
      }
      assertNull(t.get(key(KEYS - 1)), "only the torn last write is gone");
    }
  }

  @Test
  void acceptingWalLossOpensAsOfTheLastWriteBeforeTheDamage() throws IOException {
    writeKeysToWal();
    Path wal = StoreFiles.largest(db(), ".log");
    StoreFiles.flipByte(wal, Files.size(wal) / 2);
    WalReport report = WalScanner.scan(wal);

    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db())
        .setProfile(TestStores.smallProfile()).setTombstonePolicy(TombstonePolicy.disabled())
        .setWalRecovery(WalRecovery.ACCEPT_LOSS_AFTER_DAMAGE).build()) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      int kept = 0;
      while (kept < KEYS && t.get(key(kept)) != null) {
        kept++;
      }
      for (int i = kept; i < KEYS; i++) {
        assertNull(t.get(key(i)), "everything after the damage is dropped: " + key(i));
      }
      assertTrue(kept > 0 && kept < KEYS, "kept " + kept);
      assertEquals(report.records() - report.recordsAfterDamage(), kept,
          "the scanner counts what recovery keeps: " + report.describe());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"truncated", "deleted", "footer"})
  void aSecondaryRefusesAStoreWithADamagedSstAndTouchesNothing(String damage) throws IOException {
    writeKeysToSsts();
    Path sst = StoreFiles.largest(db(), ".sst");
    switch (damage) {
      case "truncated" -> StoreFiles.truncate(sst, Files.size(sst) / 2);
      case "deleted" -> Files.delete(sst);
      default -> StoreFiles.flipByte(sst, Files.size(sst) - 10);
    }
    Map<String, String> before = StoreFiles.fingerprint(db());

    DamagedStoreException e = assertThrows(DamagedStoreException.class,
        () -> DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db())
            .setSecondary(tmp.resolve("secondary")).setProfile(TestStores.smallProfile())
            .setTombstonePolicy(TombstonePolicy.disabled()).build());

    assertEquals(sst, e.file(), e.getMessage());
    assertEquals(before, StoreFiles.fingerprint(db()), "nothing in the store changed");
    assertThrows(DamagedStoreException.class, () -> TestStores.open(db()),
        "a primary refuses it too");
  }

  @Test
  void aSecondaryOfAnIntactStoreLeavesEveryFileAsItWas() throws IOException {
    writeKeysToWal();
    Map<String, String> before = StoreFiles.fingerprint(db());
    try (DBStore store = DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(db())
        .setSecondary(tmp.resolve("secondary")).setProfile(TestStores.smallProfile())
        .setTombstonePolicy(TombstonePolicy.disabled()).build()) {
      assertNotNull(store.getTable(TestStores.STRINGS).get(key(KEYS - 1)));
    }
    assertEquals(before, StoreFiles.fingerprint(db()));
  }

  @Test
  void aSecondOpenInThisProcessIsRefusedWithoutTouchingTheLiveStore() throws IOException {
    try (DBStore live = TestStores.open(db())) {
      live.getTable(TestStores.STRINGS).put("a", "b");
      Set<String> names = StoreFiles.fingerprint(db()).keySet();

      StoreInUseException e = assertThrows(StoreInUseException.class,
          () -> TestStores.open(db()));

      assertTrue(e.getMessage().contains("already open in this process"), e.getMessage());
      assertEquals(names, StoreFiles.fingerprint(db()).keySet(), "no info log rotated");
      assertEquals("b", live.getTable(TestStores.STRINGS).get("a"));
    }
    try (DBStore again = TestStores.open(db())) {
      assertEquals("b", again.getTable(TestStores.STRINGS).get("a"), "closing released the claim");
    }
  }

  @Test
  void aStoreLockedByAnotherProcessIsRefusedWithoutTouchingIt() throws IOException {
    writeKeysToSsts();
    Map<String, String> before = StoreFiles.fingerprint(db());
    // A lock this JVM holds through Java stands in for another process's: the probe sees it held.
    try (FileChannel ch = FileChannel.open(db().resolve("LOCK"), StandardOpenOption.WRITE);
         FileLock held = ch.lock()) {
      StoreInUseException e = assertThrows(StoreInUseException.class,
          () -> TestStores.open(db()));
      assertTrue(e.getMessage().contains("held by another process"), e.getMessage());
    }
    assertEquals(before, StoreFiles.fingerprint(db()), "not even the info log rotated");
  }

  @Test
  void aStoreWithoutItsManifestIsRefusedNamingIt() throws IOException {
    writeKeysToSsts();
    Path manifest = StoreFiles.withSuffix(db(), "").stream()
        .filter(p -> p.getFileName().toString().startsWith("MANIFEST-")).findFirst().orElseThrow();
    Files.delete(manifest);
    Map<String, String> before = dataFingerprint();

    DamagedStoreException e = assertThrows(DamagedStoreException.class,
        () -> TestStores.open(db()));

    assertEquals(manifest, e.file(), e.getMessage());
    assertEquals(before, dataFingerprint());
  }

  @Test
  void theScannerFindsAnIntactLogIntact() throws IOException {
    writeKeysToWal();
    WalReport r = WalScanner.scan(StoreFiles.largest(db(), ".log"));
    assertEquals(-1, r.damageOffset(), r.describe());
    assertEquals(0, r.tornTailBytes());
    assertTrue(r.records() >= KEYS, r.describe());
  }

  @Test
  void closingAStoreLeavesNoClaimBehindEvenWhenItsOpenFailed() throws IOException {
    writeKeysToSsts();
    Path current = db().resolve("CURRENT");
    byte[] saved = Files.readAllBytes(current);
    Files.delete(current);
    assertThrows(DamagedStoreException.class, () -> TestStores.open(db()));
    Files.write(current, saved);
    try (DBStore store = TestStores.open(db())) {
      assertEquals("value-0-" + "x".repeat(40), store.getTable(TestStores.STRINGS).get(key(0)));
    }
  }

}
