package io.sediment.db.tombstone;

import static io.sediment.db.tombstone.TombstoneBands.key;
import static io.sediment.db.tombstone.TombstoneBands.writeBand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.testing.TestStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.Options;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;

/**
 * A sampled iterator counts through the calling thread's {@code PerfContext}, which belongs to the
 * caller: a caller that measures its own RocksDB work there keeps its perf level, and its
 * counters are never reset, only grown by what the sampled iterator itself did.
 */
class SampledIteratorPerfContextTest {

  private static final int BAND_START = 1_000;
  private static final int BAND_END = 3_000;

  @TempDir Path dir;

  /** The caller's own counters of interest. */
  private record Counters(long fromMemtable, long userKeyComparisons, long deletesSkipped) {
    static Counters read(RocksDB db) {
      try (PerfContext pc = db.getPerfContext()) {
        return new Counters(pc.getFromMemtableCount(), pc.getUserKeyComparisonCount(),
            pc.getInternalDeleteSkippedCount());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = PerfLevel.class,
      names = {"DISABLE", "ENABLE_COUNT", "ENABLE_TIME_EXCEPT_FOR_MUTEX", "ENABLE_TIME"})
  void theCallersPerfLevelAndCountersSurviveASampledIterator(PerfLevel level) throws Exception {
    TombstonePolicy everyIterator = TombstonePolicy.defaults().withSampleEvery(1)
        .withMinTombstonesPerPass(1_000);
    try (DBStore store = TestStores.open(dir.resolve("store"), TestStores.DEFINITION, everyIterator);
         Options options = new Options().setCreateIfMissing(true);
         RocksDB own = RocksDB.open(options, dir.resolve("own").toString())) {
      writeBand(store, "bytes", 5_000, BAND_START, BAND_END);
      Table<byte[], byte[]> table = store.getTable("bytes");
      TombstoneTracker tracker = tracker(store);
      PerfLevel original = own.getPerfLevel();
      try {
        // The caller's own measured work, at its level: many memtable gets, and a scan over
        // deletes of its own, so a reset would lower every counter below what it had.
        own.setPerfLevel(level == PerfLevel.DISABLE ? PerfLevel.ENABLE_COUNT : level);
        callersOwnWork(own);
        own.setPerfLevel(level);
        Counters before = Counters.read(own);
        if (level != PerfLevel.DISABLE) {
          assertTrue(before.fromMemtable() >= 5_000 && before.deletesSkipped() >= 2_000,
              before.toString());
        }

        try (TableIterator<byte[], KeyValue<byte[], byte[]>> it = table.iterator()) {
          assertArrayEquals(key(BAND_END), it.seek(key(BAND_START)).getKey());
          it.next();
          assertTrue(it.hasNext());
        }

        assertEquals(level, own.getPerfLevel(), "the caller's perf level");
        Counters after = Counters.read(own);
        assertTrue(after.fromMemtable() >= before.fromMemtable(), before + " -> " + after);
        assertTrue(after.userKeyComparisons() >= before.userKeyComparisons(),
            before + " -> " + after);
        // Grown by exactly what the sampled iterator skipped (it reads the same counter).
        long counted = tracker.sampledScans().tombstonesSkipped();
        assertTrue(counted >= BAND_END - BAND_START, "the sampled iterator still counts: " + counted);
        assertEquals(1, tracker.slowPasses());
        assertEquals(before.deletesSkipped() + counted, after.deletesSkipped(),
            before + " -> " + after);
      } finally {
        own.setPerfLevel(original);
      }
    }
  }

  private static void callersOwnWork(RocksDB own) throws Exception {
    for (int i = 0; i < 5_000; i++) {
      own.put(ownKey(i), new byte[8]);
    }
    for (int i = 0; i < 2_000; i++) {
      own.delete(ownKey(i));
    }
    for (int i = 0; i < 5_000; i++) {
      own.get(ownKey(i));
    }
    try (RocksIterator it = own.newIterator()) {
      it.seekToFirst();
      assertTrue(it.isValid());
    }
  }

  private static byte[] ownKey(int i) {
    return String.format("own%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static TombstoneTracker tracker(DBStore store) {
    return ((io.sediment.db.rdb.RDBStore) store).getTable("bytes").tombstoneTracker();
  }
}
