package io.sediment.recon;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sediment.db.DBStore;
import io.sediment.db.PinningDecision;
import io.sediment.db.stats.CompactionStats;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.tombstone.CompactionScheduler;
import io.sediment.om.core.OmCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The store's figures as Prometheus metrics, read at each scrape: every RocksDB statistics ticker,
 * per-table gauges (key estimates, sizes, tombstones, hot ranges), whether the store is out of
 * disk space, targeted compactions, the namespace counters and the source's catch-ups. Thread-safe.
 */
final class StoreMetrics implements MultiCollector {

  private final ReconSource source;

  StoreMetrics(ReconSource source) {
    this.source = source;
  }

  @Override
  public MetricSnapshots collect() {
    DBStore store = source.store();
    List<MetricSnapshot> out = new ArrayList<>();

    CounterSnapshot.Builder tickers = CounterSnapshot.builder().name("sediment_rocksdb_ticker")
        .help("RocksDB statistics tickers of the store, by TickerType name");
    for (Map.Entry<String, Long> t : store.getTickerCounts().entrySet()) {
      tickers.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
          .labels(Labels.of("ticker", t.getKey())).value(t.getValue()).build());
    }
    out.add(tickers.build());

    io.sediment.db.stats.TombstoneStats stats = store.tombstoneStats();
    List<TableTombstoneStats> tables = stats.tables();
    out.add(tableGauge("sediment_table_estimated_keys", "RocksDB estimate of live keys",
        tables, TableTombstoneStats::estimatedLiveKeys));
    out.add(tableGauge("sediment_table_sst_files", "Live SST files", tables,
        TableTombstoneStats::sstFiles));
    out.add(tableGauge("sediment_table_sst_entries", "Entries in SST files, tombstones included",
        tables, TableTombstoneStats::sstEntries));
    out.add(tableGauge("sediment_table_point_tombstones", "Point deletions in SST files", tables,
        t -> t.sstDeletions() - t.sstRangeDeletions()));
    out.add(tableGauge("sediment_table_range_tombstones", "Range deletions in SST files", tables,
        TableTombstoneStats::sstRangeDeletions));
    out.add(tableGauge("sediment_table_memtable_deletes", "Point deletes in memtables", tables,
        TableTombstoneStats::memtableDeletes));
    out.add(tableGauge("sediment_table_memtable_range_deletes", "Range deletions in memtables",
        tables, TableTombstoneStats::memtableRangeDeletes));
    out.add(tableGauge("sediment_table_hot_ranges", "Key ranges where scans keep skipping"
        + " tombstones", tables, t -> t.hotRanges().size()));
    out.add(tableGauge("sediment_table_pending_compactions", "Ranges waiting for a targeted"
        + " compaction", tables, t -> t.pendingCompactions().size()));
    out.add(tableGauge("sediment_table_sst_bytes", "Total size of the SST files", tables,
        t -> store.getLongProperty(t.table(), "rocksdb.total-sst-files-size")));
    out.add(tableGauge("sediment_table_memtable_bytes", "Size of the memtables", tables,
        t -> store.getLongProperty(t.table(), "rocksdb.cur-size-all-mem-tables")));
    out.add(tableCounter("sediment_table_slow_passes", "Positionings or advances that skipped"
        + " at least the policy's minimum of tombstones", tables, TableTombstoneStats::slowPasses));
    out.add(tableCounter("sediment_table_tombstones_skipped", "Tombstones skipped by slow"
        + " passes", tables, TableTombstoneStats::tombstonesSkipped));

    if (!tables.isEmpty()) {
      // Every table the profile configures shares one cache: any table's properties describe it.
      String any = tables.get(0).table();
      GaugeSnapshot.Builder cache = GaugeSnapshot.builder().name("sediment_block_cache_bytes")
          .help("The shared block cache: capacity, usage and pinned usage");
      for (String kind : List.of("capacity", "usage", "pinned-usage")) {
        cache.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(Labels.of("kind", kind))
            .value(store.getLongProperty(any, "rocksdb.block-cache-" + kind)).build());
      }
      out.add(cache.build());
    }
    PinningDecision pinning = store.partitionPinning();
    out.add(GaugeSnapshot.builder().name("sediment_partitions_pinned")
        .help("1 when every index and filter partition stays pinned, as decided at open")
        .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(Labels.of("requested", pinning.requested().name().toLowerCase(Locale.ROOT)))
            .value(pinning.pinned() ? 1 : 0).build())
        .build());

    if (!store.isSecondary()) {
      // A secondary never writes, so it cannot tell; only the owner of the store reports this.
      out.add(GaugeSnapshot.builder().name("sediment_store_out_of_space")
          .help("1 while the store refuses writes because its disk is full (reads keep working;"
              + " writes resume by themselves once the largest memtable size is free)")
          .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
              .value(store.isOutOfSpace() ? 1 : 0).build())
          .build());
    }

    CompactionStats c = stats.compactions();
    CounterSnapshot.Builder compactions = CounterSnapshot.builder()
        .name("sediment_targeted_compactions")
        .help("Targeted compactions of tombstone ranges, by outcome");
    long[] values = {c.requested(), c.merged(), c.completed(), c.pinned(), c.skipped(), c.failed()};
    String[] names = {"requested", "merged", "completed", "pinned", "skipped", "failed"};
    for (int i = 0; i < names.length; i++) {
      compactions.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
          .labels(Labels.of("outcome", names[i])).value(values[i]).build());
    }
    out.add(compactions.build());

    GaugeSnapshot.Builder namespace = GaugeSnapshot.builder().name("sediment_namespace_objects")
        .help("Namespace counters maintained by every write (bytes for the *_bytes counters)");
    for (Map.Entry<OmCounter, Long> e : source.insight().counters().entrySet()) {
      namespace.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
          .labels(Labels.of("counter", e.getKey().name().toLowerCase(Locale.ROOT)))
          .value(e.getValue()).build());
    }
    out.add(namespace.build());

    out.add(CounterSnapshot.builder().name("sediment_recon_catchups")
        .help("Catch-ups with the primary (secondary mode), by result")
        .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
            .labels(Labels.of("result", "ok", "mode", source.mode())).value(source.catchUps()).build())
        .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
            .labels(Labels.of("result", "failed", "mode", source.mode()))
            .value(source.catchUpFailures()).build())
        .build());
    return new MetricSnapshots(out);
  }

  private static GaugeSnapshot tableGauge(String name, String help, List<TableTombstoneStats> tables,
      ToDoubleFunction<TableTombstoneStats> value) {
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
    for (TableTombstoneStats t : tables) {
      b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
          .labels(Labels.of("table", t.table())).value(value.applyAsDouble(t)).build());
    }
    return b.build();
  }

  private static CounterSnapshot tableCounter(String name, String help,
      List<TableTombstoneStats> tables, ToDoubleFunction<TableTombstoneStats> value) {
    CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
    for (TableTombstoneStats t : tables) {
      b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
          .labels(Labels.of("table", t.table())).value(value.applyAsDouble(t)).build());
    }
    return b.build();
  }
}
