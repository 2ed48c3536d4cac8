package io.sediment.db.managed;

import io.sediment.db.FileCheck;
import io.sediment.db.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;

/**
 * What one open database says about itself: RocksDB properties, statistics tickers, the table
 * properties and levels of its SST files, a check of every file, and counts the store keeps
 * (open snapshots, range deletions in memtables, tombstones a positioning skips). Each call is
 * one guarded operation of the database ({@link GuardedCalls}). Thread-safe.
 */
public final class RocksIntrospection {

  private static final String DEFAULT_FAMILY = "default";

  private final RocksDatabase database;
  private final GuardedCalls calls;
  private final RocksOptions options;
  private final Path path;

  RocksIntrospection(RocksDatabase database, GuardedCalls calls, RocksOptions options, Path path) {
    this.database = database;
    this.calls = calls;
    this.options = options;
    this.path = path;
  }

  /** A numeric RocksDB property of {@code cf}, e.g. {@code rocksdb.estimate-num-keys}. */
  public long getLongProperty(ColumnFamily cf, String property) {
    return calls.call(cf, "getLongProperty " + property,
        rocks -> rocks.getLongProperty(database.handle(cf), property));
  }

  /** A RocksDB property of {@code cf} as text. */
  public String getProperty(ColumnFamily cf, String property) {
    return calls.call(cf, "getProperty " + property,
        rocks -> rocks.getProperty(database.handle(cf), property));
  }

  /** The value of a RocksDB statistics ticker, by {@code TickerType} name. */
  public long tickerCount(String ticker) {
    return calls.call(null, "ticker " + ticker,
        rocks -> options.statistics().getTickerCount(TickerType.valueOf(ticker)));
  }

  /** Every RocksDB statistics ticker by {@code TickerType} name, in the enum's order. */
  public Map<String, Long> tickerCounts() {
    return calls.call(null, "tickers", rocks -> {
      Map<String, Long> out = new LinkedHashMap<>();
      for (TickerType t : TickerType.values()) {
        if (t != TickerType.TICKER_ENUM_MAX) {
          out.put(t.name(), options.statistics().getTickerCount(t));
        }
      }
      return out;
    });
  }

  /** Table properties of every live SST file of {@code cf}. */
  public List<SstFileProperties> sstFileProperties(ColumnFamily cf) {
    return calls.call(cf, "getPropertiesOfAllTables", rocks -> {
      Map<String, TableProperties> all = rocks.getPropertiesOfAllTables(database.handle(cf));
      List<SstFileProperties> out = new ArrayList<>();
      for (Map.Entry<String, TableProperties> e : all.entrySet()) {
        TableProperties p = e.getValue();
        // JNI cuts the fixed32 value at its first zero byte: empty means type 0 (binary search).
        String indexType = p.getUserCollectedProperties().get("rocksdb.block.based.table.index.type");
        out.add(new SstFileProperties(e.getKey(), p.getNumEntries(), p.getNumDeletions(),
            p.getNumRangeDeletions(), p.getNumDataBlocks(), p.getIndexSize(), p.getIndexPartitions(),
            p.getTopLevelIndexSize(),
            indexType == null ? -1 : indexType.isEmpty() ? 0 : indexType.charAt(0),
            p.getFilterPolicyName(), p.getFilterSize(),
            SstMetaIndex.hasPartitionedFilter(Path.of(e.getKey())),
            p.getPropertyCollectorsNames()));
      }
      return out;
    });
  }

  /** Number of live SST files per level of {@code cf}. */
  public Map<Integer, Integer> filesPerLevel(ColumnFamily cf) {
    return calls.call(cf, "getLiveFilesMetaData", rocks -> {
      Map<Integer, Integer> out = new LinkedHashMap<>();
      for (LiveFileMetaData f : rocks.getLiveFilesMetaData()) {
        if (new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(cf.name())) {
          out.merge(f.level(), 1, Integer::sum);
        }
      }
      return out;
    });
  }

  /**
   * Checks every file of the store ({@link FileVerifier}): each live SST present, of its recorded
   * size and with matching block checksums; each write-ahead log readable up to a torn tail; SSTs
   * the MANIFEST does not list. A secondary first catches up, and an SST it finds missing counts
   * only if it is still live after another catch-up (the primary may have compacted it away).
   * Reads every byte of every file: minutes for a large store.
   */
  public List<FileCheck> verifyFiles() {
    boolean secondary = database.isSecondary();
    return calls.call(null, "verify failed", rocks -> {
      if (secondary) {
        rocks.tryCatchUpWithPrimary();
      }
      List<FileCheck> checks = verify(rocks);
      if (secondary && checks.stream().anyMatch(c -> c.bytes() < 0)) {
        rocks.tryCatchUpWithPrimary();
        checks = verify(rocks);
      }
      return checks;
    });
  }

  private List<FileCheck> verify(RocksDB rocks) {
    try {
      return FileVerifier.verify(path, rocks.getLiveFilesMetaData());
    } catch (IOException e) {
      throw new StoreException("store " + database.name() + ": verify failed: " + e.getMessage(),
          e);
    }
  }

  /** Number of open snapshots ({@code rocksdb.num-snapshots}). */
  public long openSnapshots() {
    return getLongProperty(database.columnFamily(DEFAULT_FAMILY), "rocksdb.num-snapshots");
  }

  /**
   * Range deletions {@code cf} holds in its memtables (see {@link MemtableRangeDeletions}: an
   * upper bound, exact when writes and flushes do not interleave); 0 on a secondary instance.
   */
  public long memtableRangeDeletions(ColumnFamily cf) {
    return options.rangeDeletions().count(cf.name());
  }

  /**
   * Tombstones one positioning at the start of {@code [from, to)} skips now: 0 when the range
   * starts with a live key or holds no tombstones before its first live key.
   */
  public long probeTombstones(ColumnFamily cf, byte[] from, byte[] to) {
    try (ManagedRocksIterator it = database.newIterator(cf, from, to, true)) {
      it.seekToFirst();
      return it.lastTombstonesSkipped();
    }
  }

  /** Whether pinned cache usage has passed half the cache since the store opened. */
  boolean pinnedUsageWarned() {
    PinnedUsageWatch watch = options.pinnedUsageWatch();
    return watch != null && watch.tripped();
  }
}
