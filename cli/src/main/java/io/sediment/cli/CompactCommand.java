package io.sediment.cli;

import com.google.protobuf.ByteString;
import io.sediment.proto.om.CompactTableRequest;
import io.sediment.proto.om.CompactTableResponse;
import io.sediment.proto.om.GetTableStatsRequest;
import io.sediment.proto.om.TableStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code sediment compact}: compacts a table (or a key range of it), or every table. */
@Command(name = "compact", mixinStandardHelpOptions = true,
    description = "Compact a table, a key range of it, or every table of a running server down to "
        + "the bottommost level, dropping tombstones no snapshot needs.")
final class CompactCommand extends ClientCommand {

  @Option(names = "--table", description = "Table to compact (default: every table).")
  String table;

  @Option(names = "--begin", paramLabel = "KEY", description = "First key (inclusive; needs --table).")
  String begin;

  @Option(names = "--end", paramLabel = "KEY", description = "Last key (needs --table).")
  String end;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    if (table == null && (begin != null || end != null)) {
      throw new CommandLine.ParameterException(cmd, "--begin and --end need --table");
    }
    return target.admin(cmd, admin -> {
      List<String> tables = new ArrayList<>();
      if (table != null) {
        tables.add(table);
      } else {
        for (TableStats t : target.deadline(admin)
            .getTableStats(GetTableStatsRequest.getDefaultInstance()).getTablesList()) {
          tables.add(t.getTable());
        }
      }
      PrintWriter out = cmd.getOut();
      for (String t : tables) {
        CompactTableRequest.Builder req = CompactTableRequest.newBuilder().setTable(t);
        if (begin != null) {
          req.setBegin(ByteString.copyFromUtf8(begin));
        }
        if (end != null) {
          req.setEnd(ByteString.copyFromUtf8(end));
        }
        CompactTableResponse r = target.deadline(admin)
            .compactTable(req.build());
        out.printf("%-22s tombstones %d -> %d (%d ms)%n", r.getTable(),
            r.getTombstonesBefore(), r.getTombstonesAfter(), r.getDurationMillis());
        out.flush();
      }
    });
  }
}
