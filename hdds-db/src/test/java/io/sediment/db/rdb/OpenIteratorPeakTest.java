package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RocksDatabase#openIteratorPeak()}: the most iterators open at once, resettable. */
class OpenIteratorPeakTest {

  @TempDir
  Path dir;

  @Test
  void thePeakRemembersTheMostOpenAtOnceUntilReset() {
    try (DBStore store = TestStores.open(dir)) {
      RocksDatabase db = ((RDBStore) store).database();
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      t.put("a", "1");
      assertEquals(0, db.openIteratorPeak());
      try (TableIterator<String, KeyValue<String, String>> one = t.iterator()) {
        try (TableIterator<String, KeyValue<String, String>> two =
                 t.iterator(null, IteratorType.KEY_ONLY);
             TableIterator<String, KeyValue<String, String>> three = t.iterator("a")) {
          assertEquals(3, db.openIteratorPeak());
        }
        assertEquals(1, db.openIteratorCount());
        assertEquals(3, db.openIteratorPeak(), "the peak stays after the iterators close");
        db.resetOpenIteratorPeak();
        assertEquals(1, db.openIteratorPeak(), "a reset starts from the iterators open now");
        t.iterator().close();
        assertEquals(2, db.openIteratorPeak());
      }
      assertEquals(0, db.openIteratorCount());
    }
  }
}
