package io.sediment.db.managed;

import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.KeyRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.CompactionReason;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.Status;
import org.rocksdb.TableProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the compactions RocksDB runs by itself because a table's {@code CompactOnDeletionCollector}
 * marked their files (compaction reason {@code kFilesMarkedForCompaction}) into
 * {@link CompactionEvent}s with trigger {@link CompactionEvent.Trigger#DELETION_COLLECTOR}: the
 * table, the input files' key range, the point and range deletions the input files held and
 * the output files hold (their table properties), the time between the job's begin and end, and
 * the job's status. Other compactions are ignored. A marked file that overlaps nothing below is
 * only moved down (a trivial move, its tombstones kept): the event says so, with as many
 * tombstones out as in.
 *
 * <p>The listener runs on RocksDB's compaction threads. For a marked compaction its begin reads
 * the live files' metadata once (the input files' key ranges; the files are gone by the end) and
 * its end sums the table properties RocksDB hands over; every other compaction costs one
 * comparison. It never throws back into RocksDB (a failure is logged and the event, if any, has an
 * open key range) and holds no native object beyond the callback: the job's statistics, which
 * would need closing, are not read. Events before {@link #deliverTo} (compactions while the store
 * opens) are kept, at most {@link #EARLY_EVENTS}, and delivered then. Thread-safe.
 */
public final class DeletionCompactions {

  private static final Logger LOG = LoggerFactory.getLogger(DeletionCompactions.class);

  /** Events kept while no consumer is attached; the oldest are dropped beyond. */
  static final int EARLY_EVENTS = 100;

  private final String store;
  /** Marked compactions begun and not ended, by job id. */
  private final Map<Integer, Started> started = new ConcurrentHashMap<>();
  private final Deque<CompactionEvent> early = new ArrayDeque<>();
  private Consumer<CompactionEvent> consumer;

  private record Started(KeyRange range, long startNanos) { }

  DeletionCompactions(String store) {
    this.store = store;
  }

  /**
   * Sends every event to {@code sink} from now on (on RocksDB's threads: it must be quick and
   * must not call back into the database), first the events kept since the store opened.
   */
  public void deliverTo(Consumer<CompactionEvent> sink) {
    Objects.requireNonNull(sink, "sink");
    synchronized (this) {
      while (!early.isEmpty()) {
        deliver(sink, early.removeFirst());
      }
      consumer = sink;
    }
  }

  private void emit(CompactionEvent e) {
    synchronized (this) {
      if (consumer == null) {
        early.addLast(e);
        while (early.size() > EARLY_EVENTS) {
          early.removeFirst();
        }
        return;
      }
      deliver(consumer, e);
    }
  }

  private void deliver(Consumer<CompactionEvent> sink, CompactionEvent e) {
    try {
      sink.accept(e);
    } catch (RuntimeException failed) {
      LOG.warn("Store {}: the compaction history refused {}", store, e, failed);
    }
  }

  /** A listener to install on the database's options; the caller owns and closes it. */
  AbstractEventListener newListener() {
    return new AbstractEventListener(AbstractEventListener.EnabledEventCallback.ON_COMPACTION_BEGIN,
        AbstractEventListener.EnabledEventCallback.ON_COMPACTION_COMPLETED) {
      @Override
      public void onCompactionBegin(RocksDB db, CompactionJobInfo info) {
        try {
          if (info.compactionReason() == CompactionReason.kFilesMarkedForCompaction) {
            began(info.jobId(), inputRange(db, info.inputFiles()));
          }
        } catch (RuntimeException e) {
          LOG.warn("Store {}: cannot read the start of a deletion-triggered compaction", store, e);
        }
      }

      @Override
      public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
        try {
          if (info.compactionReason() == CompactionReason.kFilesMarkedForCompaction) {
            ended(info.jobId(), new String(info.columnFamilyName(), StandardCharsets.UTF_8),
                info.status(), info.inputFiles(), info.outputFiles(), info.tableProperties(),
                info.baseInputLevel(), info.outputLevel());
          }
        } catch (RuntimeException e) {
          LOG.warn("Store {}: cannot record a deletion-triggered compaction", store, e);
        }
      }
    };
  }

  void began(int jobId, KeyRange inputs) {
    started.put(jobId, new Started(inputs, System.nanoTime()));
  }

  /**
   * Records the end of marked compaction {@code jobId}: its tombstones in and out are the point and
   * range deletions {@code properties} give for the input and output files.
   */
  void ended(int jobId, String table, Status status, List<String> inputs, List<String> outputs,
      Map<String, TableProperties> properties, int fromLevel, int toLevel) {
    Started s = started.remove(jobId);
    long before = deletions(inputs, properties);
    long after = deletions(outputs, properties);
    boolean ok = status == null || status.getCode() == Status.Code.Ok;
    long millis = s == null ? 0 : (System.nanoTime() - s.startNanos()) / 1_000_000;
    KeyRange range = s == null || s.range() == null ? new KeyRange(null, null) : s.range();
    String files = inputs.size() + " file" + (inputs.size() == 1 ? "" : "s");
    String levels = " (L" + fromLevel + " -> L" + toLevel + ")";
    String reason;
    if (!ok) {
      reason = "RocksDB's compaction of " + files + " its deletion collector marked failed: "
          + status.getCodeString() + (status.getState() == null ? "" : " " + status.getState());
    } else if (!inputs.isEmpty() && names(inputs).equals(names(outputs))) {
      // A trivial move: nothing below overlapped, so RocksDB only relinked the files.
      reason = "RocksDB moved " + files + " its deletion collector marked" + levels
          + " without rewriting: its " + before + " tombstone(s) stay until a compaction"
          + " rewrites " + (inputs.size() == 1 ? "it" : "them");
    } else {
      reason = "RocksDB compacted " + files + " its deletion collector marked" + levels + ": "
          + before + " tombstone(s) in, " + after + " out";
    }
    if (range.from() == null && range.to() == null) {
      reason += "; key range unknown";
    }
    emit(new CompactionEvent(table, range,
        ok ? CompactionEvent.Outcome.COMPLETED : CompactionEvent.Outcome.FAILED, reason, before,
        ok ? after : -1, millis, System.currentTimeMillis(),
        CompactionEvent.Trigger.DELETION_COLLECTOR));
  }

  /** Point and range deletions of {@code files} by their table properties (a missing one: 0). */
  private static long deletions(List<String> files, Map<String, TableProperties> properties) {
    Map<String, TableProperties> byName = new HashMap<>();
    properties.forEach((path, p) -> byName.put(fileName(path), p));
    long n = 0;
    for (String f : files) {
      TableProperties p = byName.get(fileName(f));
      if (p != null) {
        n += p.getNumDeletions() + p.getNumRangeDeletions();
      }
    }
    return n;
  }

  /**
   * The keys the input files of a starting compaction span, {@code [smallest, largest + 0x00)},
   * from the database's live files; null when none of them is found.
   */
  private static KeyRange inputRange(RocksDB db, List<String> inputs) {
    java.util.Set<String> names = names(inputs);
    byte[] smallest = null;
    byte[] largest = null;
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      if (!names.contains(fileName(f.fileName()))) {
        continue;
      }
      if (smallest == null || Arrays.compareUnsigned(f.smallestKey(), smallest) < 0) {
        smallest = f.smallestKey();
      }
      if (largest == null || Arrays.compareUnsigned(f.largestKey(), largest) > 0) {
        largest = f.largestKey();
      }
    }
    return smallest == null ? null
        : new KeyRange(smallest, Arrays.copyOf(largest, largest.length + 1));
  }

  private static java.util.Set<String> names(List<String> files) {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (String f : files) {
      out.add(fileName(f));
    }
    return out;
  }

  /** {@code 000012.sst} of {@code /dir/000012.sst} or {@code /000012.sst}. */
  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
