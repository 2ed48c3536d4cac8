package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sediment.db.DBStore;
import io.sediment.db.KeyValue;
import io.sediment.db.Table;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.TestStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path dir;

  @Test
  void putsAndListsAPrefix() {
    try (DBStore store = TestStores.open(dir)) {
      Table<String, String> t = store.getTable(TestStores.STRINGS);
      for (int i = 0; i < 20; i++) {
        t.put("k" + (i % 2) + "/" + i, "v" + i);
      }
      t.delete("k1/3");
      List<String> keys = new ArrayList<>();
      try (TableIterator<String, KeyValue<String, String>> it = t.iterator("k1/")) {
        it.forEachRemaining(kv -> keys.add(kv.getKey()));
      }
      assertEquals(List.of("k1/1", "k1/11", "k1/13", "k1/15", "k1/17", "k1/19", "k1/5", "k1/7", "k1/9"), keys);
      assertEquals("v5", t.get("k1/5"));
      assertEquals(1, t.getRangeKVs("k1/5", 1, "k1/").size());
    }
  }
}
