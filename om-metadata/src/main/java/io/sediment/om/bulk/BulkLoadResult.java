package io.sediment.om.bulk;

import java.time.Duration;
import java.util.Map;

/**
 * What a {@link NamespaceBulkLoader#load} wrote.
 *
 * @param firstId the first object id the load used
 * @param ids how many ids it used ({@code firstId} to {@code firstId + ids - 1}); the store's
 *     next object id is now past them
 * @param tables per table, in the order ingested: rows, SST files and their bytes
 * @param generate time spent generating the rows into SST files
 * @param ingest time spent ingesting the files
 * @param total the whole load, id reservation and counter commit included
 */
public record BulkLoadResult(long firstId, long ids, Map<String, TableResult> tables,
    Duration generate, Duration ingest, Duration total) {

  /** Rows, files and bytes of one table. */
  public record TableResult(long rows, int files, long bytes) {
  }

  /** Rows of every table. */
  public long rows() {
    return tables.values().stream().mapToLong(TableResult::rows).sum();
  }
}
