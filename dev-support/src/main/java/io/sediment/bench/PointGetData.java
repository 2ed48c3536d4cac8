package io.sediment.bench;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.Table;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.managed.SstFileProperties;
import io.sediment.db.rdb.RDBStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The store of suite {@code pointget}: BookKeeper's entry-location index, keys
 * {@code (ledgerId, entryId)} as two big-endian longs and 8-byte values (an entry's location), in
 * SSTs of a target size at the bottom level. Loading takes minutes, so each layout is built once
 * into {@code <sediment.bench.data>/pointget-<keys>-<full|partitioned>-<target>MiB} and reused by
 * every fork; a {@value #READY} file marks a finished build (a directory without one is rebuilt).
 *
 * <p>Build: batches of {@value #BATCH} puts in key order with the WAL off and automatic compaction
 * off, one flush, then {@code compactRange} over the whole table, which rewrites everything into
 * bottom-level files of the target size with the layout's index and filters (a full filter and a
 * binary-search index, or partitioned index and filters).
 *
 * <p>Also a command ({@code java -cp benchmarks.jar io.sediment.bench.PointGetData <keys>
 * <targetMiB>}) that builds both layouts up front and prints what it built, so that the bench
 * script can time loading apart from the measurements.
 */
public final class PointGetData {

  /** Entries of one ledger; a key's ledger is {@code index / ENTRIES_PER_LEDGER}. */
  static final long ENTRIES_PER_LEDGER = 10_000;

  /** Marks a finished build and records what it holds. */
  static final String READY = "READY";

  /** Partition size of the partitioned layout, KiB: the profile's default, 4 KiB. */
  static final int DEFAULT_METADATA_KIB = 4;

  private static final int BATCH = 100_000;

  private PointGetData() {
  }

  /** The key of the {@code index}-th entry in key order: {@code (ledgerId, entryId)}. */
  static void key(long index, byte[] into) {
    long ledger = index / ENTRIES_PER_LEDGER;
    long entry = index % ENTRIES_PER_LEDGER;
    for (int b = 0; b < 8; b++) {
      into[b] = (byte) (ledger >>> (56 - 8 * b));
      into[8 + b] = (byte) (entry >>> (56 - 8 * b));
    }
  }

  /** The value of the {@code index}-th entry: an 8-byte location, derived from the index. */
  static byte[] value(long index) {
    long location = index * 4_133L + (index >>> 3);
    byte[] v = new byte[8];
    for (int b = 0; b < 8; b++) {
      v[b] = (byte) (location >>> (56 - 8 * b));
    }
    return v;
  }

  /** Root of the reusable benchmark data: {@code -Dsediment.bench.data}, else target/bench/data. */
  static Path root() {
    return Path.of(System.getProperty("sediment.bench.data", "target/bench/data"));
  }

  static Path dir(long keys, boolean partitioned, int targetFileMiB, int metadataKiB) {
    String layout = !partitioned ? "full"
        : metadataKiB == DEFAULT_METADATA_KIB ? "partitioned" : "partitioned" + metadataKiB + "KiB";
    return root().resolve(String.format(Locale.ROOT, "pointget-%d-%s-%dMiB", keys, layout,
        targetFileMiB));
  }

  /**
   * The profile of a layout: the defaults with the layout's index and filters, the target file
   * size, WAL and automatic compaction off, and the given block cache.
   */
  static DBProfile profile(boolean partitioned, int targetFileMiB, int metadataKiB,
      long cacheBytes) {
    return DBProfile.builder()
        .partitionedIndexAndFilters(partitioned)
        .metadataBlockSize((partitioned ? metadataKiB : DEFAULT_METADATA_KIB) << 10)
        .pinTopLevelIndexAndFilter(true)
        .cacheIndexAndFilterBlocks(true)
        .targetFileSizeBase((long) targetFileMiB << 20)
        .blockCacheBytes(cacheBytes)
        .disableWal(true)
        .disableAutoCompactions(true)
        .partitionPinning(DBProfile.PartitionPinning.NONE)
        .build();
  }

  /** The directory of a finished build of this layout, building it first if needed. */
  static synchronized Path ensure(long keys, boolean partitioned, int targetFileMiB,
      int metadataKiB) {
    Path dir = dir(keys, partitioned, targetFileMiB, metadataKiB);
    if (Files.exists(dir.resolve(READY))) {
      return dir;
    }
    BenchStores.deleteTree(dir);
    long start = System.nanoTime();
    try {
      Files.createDirectories(dir);
      List<String> summary = new ArrayList<>();
      try (DBStore store = BenchStores.openAt(dir, "pointget",
          profile(partitioned, targetFileMiB, metadataKiB, 64L << 20), TombstonePolicy.disabled())) {
        Table<byte[], byte[]> table = store.getTable(BenchStores.TABLE);
        long i = 0;
        while (i < keys) {
          try (BatchOperation batch = store.initBatchOperation()) {
            for (int n = 0; n < BATCH && i < keys; n++, i++) {
              byte[] key = new byte[16];
              key(i, key);
              table.putWithBatch(batch, key, value(i));
            }
            batch.commit();
          }
        }
        long loaded = System.nanoTime();
        store.flush();
        store.compactRange(BenchStores.TABLE, null, null);
        long compacted = System.nanoTime();
        summary.add(String.format(Locale.ROOT, "keys=%d layout=%s targetFileMiB=%d loadSeconds=%.1f"
                + " compactSeconds=%.1f", keys, partitioned ? "partitioned" : "full", targetFileMiB,
            (loaded - start) / 1e9, (compacted - loaded) / 1e9));
        summary.addAll(describe(store));
      }
      Files.write(dir.resolve(READY), summary);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The store's SST files: level counts, entries, filter sizes and partitioning. */
  static List<String> describe(DBStore store) {
    var db = ((RDBStore) store).database();
    var cf = db.columnFamily(BenchStores.TABLE);
    List<String> out = new ArrayList<>();
    Map<Integer, Integer> levels = db.introspection().filesPerLevel(cf);
    long maxFilter = 0;
    long totalFilter = 0;
    long entries = 0;
    List<SstFileProperties> files = db.introspection().sstFileProperties(cf);
    boolean partitionedFilter = false;
    long indexType = -1;
    for (SstFileProperties f : files) {
      maxFilter = Math.max(maxFilter, f.filterSize());
      totalFilter += f.filterSize();
      entries += f.entries();
      partitionedFilter |= f.partitionedFilter();
      indexType = f.indexType();
    }
    long sstBytes = 0;
    try (var paths = Files.list(store.getPath())) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        if (p.getFileName().toString().endsWith(".sst")) {
          sstBytes += Files.size(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.add("filesPerLevel=" + levels.toString().replace(" ", ""));
    out.add("sstFiles=" + files.size());
    out.add("sstBytes=" + sstBytes);
    out.add("entries=" + entries);
    out.add("maxFilterBytes=" + maxFilter);
    out.add("totalFilterBytes=" + totalFilter);
    out.add("partitionedFilter=" + partitionedFilter);
    out.add("indexType=" + indexType);
    return out;
  }

  /**
   * Builds both layouts of {@code <keys> <targetMiB> [<metadataKiB>]} unless they exist; prints
   * their summaries.
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2 && args.length != 3) {
      System.err.println("usage: PointGetData <keys> <targetFileMiB> [<metadataKiB>]");
      System.exit(2);
    }
    long keys = Long.parseLong(args[0]);
    int target = Integer.parseInt(args[1]);
    int metadataKiB = args.length == 3 ? Integer.parseInt(args[2]) : DEFAULT_METADATA_KIB;
    for (boolean partitioned : new boolean[] {false, true}) {
      long start = System.nanoTime();
      Path dir = ensure(keys, partitioned, target, metadataKiB);
      System.out.printf(Locale.ROOT, "pointget data %s ready in %.1f s:%n", dir,
          (System.nanoTime() - start) / 1e9);
      for (String line : Files.readAllLines(dir.resolve(READY))) {
        System.out.println("  " + line);
      }
    }
  }
}
