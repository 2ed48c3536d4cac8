package io.sediment.cli;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.TableIterator;
import io.sediment.db.codec.StringCodec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Opens (or creates) a store under the data directory, writes a bucket of keys, deletes a band of
 * them with point deletes and another with one range delete, and pages through what is left,
 * printing what RocksDB had to skip. Idempotent: a second run rewrites the same keys.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Write, delete and list keys in an embedded store (until `serve` exists).")
final class DemoCommand implements Callable<Integer> {

  static final TableDefinition<String, String> KEYS =
      TableDefinition.of("keyTable", StringCodec.get(), StringCodec.get());
  static final DBDefinition DEFINITION = DBDefinition.of("demo", KEYS);
  private static final String BUCKET = "/vol1/bucket1/";

  @Option(names = "--data", defaultValue = "./data", description = "Data directory (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(names = "--keys", defaultValue = "10000", description = "Keys to write (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--page-size", defaultValue = "5", description = "Entries per listed page (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (keys < 10 || keys > 10_000_000) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--keys must be in [10, 10000000]");
    }
    if (pageSize < 1 || pageSize > 1000) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--page-size must be in [1, 1000]");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path dir = data.resolve("demo");
    try (DBStore store = DBStoreBuilder.newBuilder(DEFINITION).setPath(dir).build()) {
      Table<String, String> table = store.getTable(KEYS);
      out.printf("store %s at %s%n", store.getName(), store.getPath().toAbsolutePath().normalize());
      for (int i = 0; i < keys; i++) {
        table.put(key(i), "size=" + (i * 37 % 4096));
      }
      int half = keys / 2;
      for (int i = 0; i < half; i++) {
        table.delete(key(i));
      }
      table.deleteRange(key(half), key(half + keys / 4));
      store.flush();
      out.printf("wrote %d keys, deleted %d with point deletes and %d with one range delete%n",
          keys, half, keys / 4);

      long seeksBefore = store.getTickerCount("NUMBER_DB_SEEK");
      List<KeyValue<String, String>> page;
      try (TableIterator<String, KeyValue<String, String>> it =
               table.iterator(BUCKET, IteratorType.KEY_AND_VALUE)) {
        page = new java.util.ArrayList<>();
        while (page.size() < pageSize && it.hasNext()) {
          page.add(it.next());
        }
      }
      out.printf("first page of %s (%d native seek):%n", BUCKET,
          store.getTickerCount("NUMBER_DB_SEEK") - seeksBefore);
      for (KeyValue<String, String> kv : page) {
        out.printf("  %s  %s%n", kv.getKey(), kv.getValue());
      }
      out.printf("skipped while iterating so far: %d internal entries%n",
          store.getTickerCount("NUMBER_ITER_SKIP"));
      out.printf("estimated live keys: %d%n", table.getEstimatedKeyCount());
    }
    return 0;
  }

  private static String key(int i) {
    return BUCKET + String.format("key-%08d", i);
  }
}
