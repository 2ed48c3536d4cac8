package io.sediment.db.managed;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.IngestExternalFileOptions;

/**
 * SST files of one {@link RocksDatabase} written outside it and ingested into it: the two guarded
 * operations of a bulk load. Thread-safe.
 */
public final class SstIngestion {

  private final RocksDatabase db;
  private final GuardedCalls calls;
  private final RocksOptions options;

  SstIngestion(RocksDatabase db, GuardedCalls calls, RocksOptions options) {
    this.db = db;
    this.calls = calls;
    this.options = options;
  }

  /**
   * A new series of SST files of {@code cf} in {@code dir} (which must exist), each finished at
   * about {@code targetFileBytes}, written with {@code cf}'s options; the caller closes it.
   *
   * @throws UnsupportedOperationException on a secondary
   */
  public SstFileSeries newFiles(ColumnFamily cf, Path dir, long targetFileBytes) {
    calls.checkWritable("bulk load");
    return calls.call(cf, "newSstFiles", rocks -> {
      db.handle(cf);
      return new SstFileSeries(db.name(), cf.name(), dir, options.sstWriterOptions(cf.name()),
          targetFileBytes);
    });
  }

  /**
   * Ingests {@code files} (finished SST files whose key ranges do not overlap) into {@code cf} in
   * one atomic call: all of them or, when it fails, none. The files are moved into the store
   * (copied where they cannot be linked) and synced; their rows take a sequence number above
   * every earlier write, so they replace rows under the same keys.
   *
   * @throws io.sediment.db.StoreException if RocksDB refuses them; the column family is unchanged
   */
  public void ingest(ColumnFamily cf, List<Path> files) {
    List<String> paths = new ArrayList<>(files.size());
    for (Path f : files) {
      paths.add(f.toAbsolutePath().toString());
    }
    calls.write(cf, "ingestExternalFile", rocks -> {
      try (Managed<IngestExternalFileOptions> o =
               Managed.of(new IngestExternalFileOptions(), db.name())) {
        o.get().setMoveFiles(true).setSnapshotConsistency(true).setAllowGlobalSeqNo(true)
            .setAllowBlockingFlush(true);
        rocks.ingestExternalFile(db.handle(cf), paths, o.get());
      }
    });
  }
}
