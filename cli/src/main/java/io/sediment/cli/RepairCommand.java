package io.sediment.cli;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.DamagedStoreException;
import io.sediment.db.StoreDirectory;
import io.sediment.db.StoreException;
import io.sediment.db.StoreMaintenance;
import io.sediment.db.WalRecovery;
import io.sediment.db.WalReport;
import io.sediment.db.managed.WalScanner;
import io.sediment.om.core.OmDBDefinition;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sediment repair}: makes a damaged stopped store open again where that is possible, and
 * only as far as the operator allows: a lost {@code CURRENT} is rebuilt from the newest MANIFEST
 * ({@code --rebuild-current}); a write-ahead log damaged before its tail is replayed up to the
 * damage and the rest dropped ({@code --accept-wal-loss}), after its files are copied aside, with
 * what was dropped reported. Without a flag it only says what it would do. Damaged SSTs it cannot
 * repair: restore a checkpoint.
 */
@Command(name = "repair", mixinStandardHelpOptions = true,
    description = {"Make a damaged, stopped store open again, as far as the flags allow. "
        + "Without flags it only diagnoses and says which flag would help.",
        "Exit codes: 0 the store opens (repaired, or nothing to repair), 1 it still does not."})
final class RepairCommand implements Callable<Integer> {

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  @Mixin
  DataDirOption data;

  @Option(names = "--accept-wal-loss",
      description = "Replay a damaged write-ahead log up to the damage and drop every write after "
          + "it (the logs, MANIFEST, CURRENT and OPTIONS are first copied to DIR/om-damaged-TIME).")
  boolean acceptWalLoss;

  @Option(names = "--rebuild-current",
      description = "Write a lost CURRENT naming the newest MANIFEST (removed again if the store "
          + "still does not open).")
  boolean rebuildCurrent;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    Path dir = StoreDirs.store(data.dir).toAbsolutePath().normalize();
    StoreDirectory found = StoreDirectory.inspect(dir);
    if (found.state() == StoreDirectory.State.NEW) {
      throw new CliFailure("No store at " + dir + ": nothing to repair");
    }
    if (found.state() == StoreDirectory.State.NO_CURRENT) {
      if (!rebuildCurrent) {
        throw new CliFailure("The store at " + dir + " has lost its CURRENT file. "
            + "Rerun with --rebuild-current to point it at its newest MANIFEST, or restore a "
            + "checkpoint");
      }
      String manifest = StoreMaintenance.rebuildCurrent(dir);
      CliFailure problem = openFailure();
      if (problem != null && !isWalDamage(problem)) {
        Files.delete(dir.resolve("CURRENT"));
        throw new CliFailure("Rebuilt CURRENT naming " + manifest + ", but the store still does "
            + "not open, so CURRENT was removed again: " + problem.getMessage());
      }
      out.printf("Rebuilt CURRENT: it names %s%n", manifest);
      out.flush();
    }
    CliFailure problem = openFailure();
    if (problem == null) {
      out.printf("The store at %s opens: nothing %s (`sediment verify` checks every file)%n",
          dir, found.state() == StoreDirectory.State.NO_CURRENT ? "more to repair"
              : "to repair");
      out.flush();
      return 0;
    }
    if (!isWalDamage(problem)) {
      throw new CliFailure("The store at " + dir + " does not open, and not because of its "
          + "write-ahead log: " + problem.getMessage() + ". Restore it from a checkpoint");
    }
    return repairWal(dir, out);
  }

  private int repairWal(Path dir, PrintWriter out) throws IOException {
    List<WalReport> logs = StoreMaintenance.scanLogs(dir);
    int first = 0;
    while (first < logs.size() && !logs.get(first).damaged()) {
      first++;
    }
    long records = 0;
    long bytes = 0;
    for (int i = first; i < logs.size(); i++) {
      WalReport r = logs.get(i);
      records += i == first ? r.recordsAfterDamage() : r.records();
      bytes += i == first ? r.bytes() - r.damageOffset() : r.bytes();
    }
    String what = first < logs.size()
        ? logs.get(first).describe() + (logs.size() - first - 1 > 0
            ? "; " + (logs.size() - first - 1) + " later logs follow" : "")
        : "RocksDB reports a damaged log the scanner cannot place";
    if (!acceptWalLoss) {
      throw new CliFailure("The store at " + dir + " has a damaged write-ahead log: " + what
          + ". Opening it as of the last write before the damage drops the damaged record and "
          + records + " readable records (" + bytes + " bytes) after it. Rerun with "
          + "--accept-wal-loss to do that (the logs are copied aside first), or restore a "
          + "checkpoint");
    }
    Path aside = dir.resolveSibling("om-damaged-" + LocalDateTime.now().format(STAMP));
    List<Path> copied = StoreMaintenance.copyMetadataAside(dir, aside);
    out.printf("Copied %d files (write-ahead logs, MANIFEST, CURRENT, OPTIONS) to %s%n",
        copied.size(), aside);
    try (DBStore store = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(dir)
        .setWalRecovery(WalRecovery.ACCEPT_LOSS_AFTER_DAMAGE).build()) {
      store.flush();
    } catch (StoreException e) {
      throw StoreDirs.failure(dir, data.dir, e);
    }
    CliFailure still = openFailure();
    if (still != null) {
      throw new CliFailure("Replayed the logs up to the damage, but the store still does not "
          + "open: " + still.getMessage() + ". The original files are in " + aside);
    }
    out.printf("Repaired: %s. Dropped the damaged record and %d readable records (%d bytes) "
        + "after it; the store now opens as of the last write before the damage.%n", what,
        records, bytes);
    out.printf("Counters are kept in the same batches as the rows, so they still match; "
        + "`sediment verify --data %s` checks every file and counter.%n", data.dir);
    out.flush();
    return 0;
  }

  /** Null if the store opens read-only, else why not. */
  private CliFailure openFailure() throws IOException {
    try (StoreDirs.ReadOnlyStore ro = StoreDirs.openReadOnly(data.dir)) {
      return null;
    } catch (CliFailure e) {
      return e;
    }
  }

  /** Whether the open failed on a damaged write-ahead log (and nothing else it could tell). */
  private static boolean isWalDamage(CliFailure problem) {
    return problem.getCause() instanceof DamagedStoreException d && d.file() != null
        && d.file().getFileName().toString().endsWith(".log");
  }
}
