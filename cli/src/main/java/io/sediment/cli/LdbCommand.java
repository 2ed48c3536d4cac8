package io.sediment.cli;

import com.google.protobuf.MessageOrBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.StoreException;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.om.core.OmDBDefinition;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sediment ldb}: scans one table of a store, read-only, printing each row as one JSON line
 * {@code {"key": ..., "value": ...}} with the value decoded by the table's codec (protobuf
 * messages as proto3 JSON, byte values as base64), like {@code ozone debug ldb scan}.
 */
@Command(name = "ldb", mixinStandardHelpOptions = true,
    description = {"Scan a table of a store and print its rows as JSON lines, values decoded. "
        + "The store is opened read-only (a running server's too: its rows as of the scan's "
        + "start)."})
final class LdbCommand implements Callable<Integer> {

  @Mixin
  DataDirOption data;

  @Option(names = "--table", required = true, completionCandidates = TableNames.class,
      description = "Table to scan: ${COMPLETION-CANDIDATES}.")
  String table;

  @Option(names = "--prefix", description = "Only keys starting with this (e.g. /vol/bucket/).")
  String prefix;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "0",
      description = "At most N rows; 0 for all (default: ${DEFAULT-VALUE}).")
  long limit;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    CommandLine cmd = spec.commandLine();
    TableDefinition<?, ?> def = OmDBDefinition.DEFINITION.tables().stream()
        .filter(t -> t.name().equals(table)).findFirst()
        .orElseThrow(() -> new CommandLine.ParameterException(cmd, "No table '" + table
            + "'; tables: " + OmDBDefinition.DEFINITION.tables().stream()
            .map(TableDefinition::name).collect(Collectors.joining(", "))));
    if (limit < 0) {
      throw new CommandLine.ParameterException(cmd, "--limit must not be negative: " + limit);
    }
    PrintWriter out = cmd.getOut();
    try (StoreDirs.ReadOnlyStore ro = StoreDirs.openReadOnly(data.dir)) {
      byte[] p = prefix == null || prefix.isEmpty() ? null : prefix.getBytes(StandardCharsets.UTF_8);
      long n = 0;
      try (TableIterator<byte[], KeyValue<byte[], byte[]>> it =
               ro.store().getTable(def.name()).iterator(p, IteratorType.KEY_AND_VALUE)) {
        while (it.hasNext() && (limit == 0 || n < limit)) {
          KeyValue<byte[], byte[]> kv = it.next();
          out.println("{\"key\":" + render(def.keyCodec().fromPersistedFormat(kv.getKey()))
              + ",\"value\":" + render(def.valueCodec().fromPersistedFormat(kv.getValue())) + "}");
          n++;
        }
      }
      out.flush();
      cmd.getErr().printf("%d rows of %s%n", n, def.name());
      cmd.getErr().flush();
    } catch (StoreException e) {
      throw new CliFailure("Reading " + def.name() + " of the store under " + data.dir
          + " failed: " + e.getMessage() + ". The store may be damaged: `sediment verify --data "
          + data.dir + "` checks every file", e);
    }
    return 0;
  }

  private static String render(Object o) {
    if (o instanceof MessageOrBuilder m) {
      return Json.of(m);
    }
    if (o instanceof byte[] b) {
      return Json.str(Base64.getEncoder().encodeToString(b));
    }
    if (o instanceof String s) {
      return Json.str(s);
    }
    return Json.str(String.valueOf(o));
  }

  /** The store's tables, named in the help from the definition itself so that none is left out. */
  static final class TableNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return OmDBDefinition.DEFINITION.tables().stream().map(TableDefinition::name).iterator();
    }
  }
}
