package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sediment.db.BatchOperation;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.StoreException;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only secondary store over a directory a primary store owns and keeps writing: it sees
 * the primary's data as of opening and then as of each catch-up (memtable-only writes, flushed
 * writes, point and range deletes), every write path throws a clear
 * {@link UnsupportedOperationException}, and catching up is refused on a primary.
 */
class SecondaryStoreTest {

  @TempDir Path dir;

  private DBStore primary() {
    return TestStores.open(dir.resolve("db"));
  }

  private DBStore secondary(String name) {
    return DBStoreBuilder.newBuilder(TestStores.DEFINITION).setPath(dir.resolve("db"))
        .setSecondary(dir.resolve(name)).setProfile(TestStores.smallProfile())
        .setCloseTimeout(Duration.ofMillis(300)).setTombstonePolicy(TombstonePolicy.disabled())
        .build();
  }

  private static List<String> keys(Table<String, String> table) {
    List<String> out = new ArrayList<>();
    try (TableIterator<String, KeyValue<String, String>> it = table.iterator()) {
      it.forEachRemaining(kv -> out.add(kv.getKey()));
    }
    return out;
  }

  @Test
  void secondarySeesThePrimaryAsOfOpeningAndThenAsOfEachCatchUp() {
    try (DBStore p = primary()) {
      Table<String, String> pt = p.getTable(TestStores.STRINGS);
      for (int i = 0; i < 10; i++) {
        pt.put(String.format("k%02d", i), "v" + i);
      }
      p.flush();
      pt.put("k10", "memtable-only");
      try (DBStore s = secondary("sec")) {
        assertTrue(s.isSecondary());
        assertFalse(p.isSecondary());
        Table<String, String> st = s.getTable(TestStores.STRINGS);
        assertEquals(11, keys(st).size());
        assertEquals("memtable-only", st.get("k10"));

        pt.put("k11", "later");
        pt.delete("k00");
        pt.deleteRange("k05", "k08");
        assertNull(st.get("k11"), "not visible before a catch-up");
        assertEquals(11, keys(st).size());

        s.catchUpWithPrimary();
        assertEquals("later", st.get("k11"));
        assertEquals(List.of("k01", "k02", "k03", "k04", "k08", "k09", "k10", "k11"), keys(st));

        // After the primary flushes (new SST files, WAL switched) the secondary still follows.
        p.flush();
        pt.put("k12", "after flush");
        s.catchUpWithPrimary();
        assertEquals("after flush", st.get("k12"));
      }
    }
  }

  @Test
  void anOpenViewHoldsOffCatchUpsSoWhatItReadsCannotChange() {
    try (DBStore p = primary()) {
      Table<String, String> pt = p.getTable(TestStores.STRINGS);
      pt.put("a", "1");
      try (DBStore s = secondary("sec")) {
        pt.put("b", "2");
        ReadView view = s.openReadView();
        try {
          IllegalStateException e = assertThrows(IllegalStateException.class, s::catchUpWithPrimary);
          assertTrue(e.getMessage().contains("views still open"), e.getMessage());
          assertEquals(List.of("a"), keys(view.getTable(TestStores.STRINGS)));
          assertThrows(UnsupportedOperationException.class,
              () -> view.getTable(TestStores.STRINGS).put("c", "3"));
        } finally {
          view.close();
        }
        view.close();
        s.catchUpWithPrimary();
        try (ReadView after = s.openReadView()) {
          assertEquals(List.of("a", "b"), keys(after.getTable(TestStores.STRINGS)));
        }
      }
    }
  }

  @Test
  void everyWriteOnASecondaryThrowsAClearException() {
    try (DBStore p = primary()) {
      p.getTable(TestStores.STRINGS).put("a", "1");
      try (DBStore s = secondary("sec")) {
        Table<String, String> st = s.getTable(TestStores.STRINGS);
        Table<byte[], byte[]> raw = s.getTable("bytes");
        List<Executable> writes = List.of(
            () -> st.put("b", "2"),
            () -> st.delete("a"),
            () -> st.deleteRange("a", "z"),
            () -> raw.put(new byte[] {1}, new byte[] {2}),
            () -> {
              try (BatchOperation batch = s.initBatchOperation()) {
                st.putWithBatch(batch, "c", "3");
                batch.commit();
              }
            },
            s::flush,
            s::syncWal,
            () -> s.compactRange("strings", null, null),
            () -> s.createCheckpoint(dir.resolve("cp")));
        for (Executable w : writes) {
          UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, w);
          assertTrue(e.getMessage().contains("read-only secondary"), e.getMessage());
        }
        assertEquals(List.of("a"), keys(st));
      }
      assertEquals(List.of("a"), keys(p.getTable(TestStores.STRINGS)));
    }
  }

  @Test
  void catchUpIsRefusedOnAPrimaryAndASecondaryNeedsAnExistingDirectory() {
    try (DBStore p = primary()) {
      assertThrows(IllegalStateException.class, p::catchUpWithPrimary);
    }
    DBStoreBuilder missing = DBStoreBuilder.newBuilder(TestStores.DEFINITION)
        .setPath(dir.resolve("nothing-here")).setSecondary(dir.resolve("sec"));
    StoreException e = assertThrows(StoreException.class, missing::build);
    assertTrue(e.getMessage().contains("nothing-here"), e.getMessage());
  }

  @Test
  void secondaryOutlivesItsPrimaryAndServesTheLastCaughtUpState() {
    DBStore p = primary();
    p.getTable(TestStores.STRINGS).put("x", "1");
    try (DBStore s = secondary("sec")) {
      p.getTable(TestStores.STRINGS).put("y", "2");
      p.close();
      s.catchUpWithPrimary();
      assertEquals(List.of("x", "y"), keys(s.getTable(TestStores.STRINGS)));
    }
  }

  @Test
  void tickersAndTablePropertiesAreReadable() {
    try (DBStore p = primary()) {
      Table<String, String> t = p.getTable(TestStores.STRINGS);
      t.put("a", "1");
      keys(t);
      Map<String, Long> tickers = p.getTickerCounts();
      assertTrue(tickers.get("NUMBER_DB_SEEK") >= 1, tickers::toString);
      assertEquals(p.getTickerCount("NUMBER_KEYS_WRITTEN"), tickers.get("NUMBER_KEYS_WRITTEN"));
      assertTrue(p.getLongProperty("strings", "rocksdb.cur-size-all-mem-tables") > 0);
      assertThrows(IllegalArgumentException.class,
          () -> p.getLongProperty("no-such-table", "rocksdb.estimate-num-keys"));
    }
  }
}
