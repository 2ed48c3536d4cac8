package io.sediment.cli;

import io.sediment.proto.om.CompactionEventProto;
import io.sediment.proto.om.CompactionStats;
import io.sediment.proto.om.GetTombstoneStatsRequest;
import io.sediment.proto.om.GetTombstoneStatsResponse;
import io.sediment.proto.om.HotRangeProto;
import io.sediment.proto.om.KeyRangeProto;
import io.sediment.proto.om.TableTombstones;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sediment tombstones}: per-table tombstone figures and targeted compactions. */
@Command(name = "tombstones", mixinStandardHelpOptions = true,
    description = "Show tombstones per table (memtable and SST deletions, ranges where scans keep "
        + "skipping them) and the targeted compactions of a running server.")
final class TombstonesCommand extends ClientCommand {

  @Option(names = "--table", description = "Only this table.")
  String table;

  @Option(names = "--json", description = "The whole answer as one JSON object.")
  boolean json;

  @Override
  public Integer call() {
    GetTombstoneStatsRequest req = GetTombstoneStatsRequest.newBuilder()
        .setTable(table == null ? "" : table).build();
    return adminCall(admin -> admin.getTombstoneStats(req), r -> {
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.of(r));
      } else {
        out.printf("%-22s %11s %11s %10s %9s %11s %11s %11s %11s %11s %5s %7s%n", "TABLE",
            "LIVE_KEYS~", "MEM_DELETES", "MEM_RANGES", "SST_FILES", "SST_ENTRIES", "SST_DELETES", "RANGE_DELS", "SLOW_PASSES",
            "SKIPPED", "HOT", "PENDING");
        for (TableTombstones t : r.getTablesList()) {
          out.printf("%-22s %11d %11d %10d %9d %11d %11d %11d %11d %11d %5d %7d%n", t.getTable(),
              t.getEstimatedLiveKeys(), t.getMemtableDeletes(), t.getMemtableRangeDeletes(),
              t.getSstFiles(), t.getSstEntries(),
              t.getSstDeletions(), t.getSstRangeDeletions(), t.getSlowPasses(),
              t.getTombstonesSkipped(), t.getHotRangesCount(), t.getPendingCompactionsCount());
        }
        printRanges(out, r);
        CompactionStats c = r.getCompactions();
        out.printf("%ncompactions: the tracker requested %d (merged %d, completed %d, pinned %d, "
                + "skipped %d, failed %d, pending %d); the latest of any trigger:%n",
            c.getRequested(), c.getMerged(),
            c.getCompleted(), c.getPinned(), c.getSkipped(), c.getFailed(), c.getPending());
        for (CompactionEventProto e : c.getRecentList()) {
          out.printf("  %s %s %s: %s, tombstones %d -> %d in %d ms%s%n", e.getTrigger(),
              e.getTable(), TrackerWatch.range(e.getRange()), e.getOutcome(),
              e.getTombstonesBefore(),
              e.getTombstonesAfter(), e.getDurationMillis(),
              e.getReason().isEmpty() ? "" : " (" + e.getReason() + ")");
        }
      }
    });
  }

  /** The hot ranges and the compactions waiting to run, one line each, when there are any. */
  private static void printRanges(PrintWriter out, GetTombstoneStatsResponse r) {
    boolean hot = r.getTablesList().stream().anyMatch(t -> t.getHotRangesCount() > 0);
    if (hot) {
      out.printf("%nhot ranges (scans keep skipping tombstones there; not due for compaction"
          + " yet):%n");
      for (TableTombstones t : r.getTablesList()) {
        for (HotRangeProto h : t.getHotRangesList()) {
          out.printf(Locale.ROOT, "  %s %s: %,d slow pass%s, %,d tombstones skipped%n",
              t.getTable(), TrackerWatch.range(h.getRange()), h.getSlowPasses(),
              h.getSlowPasses() == 1 ? "" : "es", h.getTombstonesSkipped());
        }
      }
    }
    if (r.getTablesList().stream().anyMatch(t -> t.getPendingCompactionsCount() > 0)) {
      out.printf("%ncompactions waiting to run:%n");
      for (TableTombstones t : r.getTablesList()) {
        for (KeyRangeProto k : t.getPendingCompactionsList()) {
          out.printf("  %s %s%n", t.getTable(), TrackerWatch.range(k));
        }
      }
    }
  }
}
