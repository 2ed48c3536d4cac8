package io.sediment.bench.raw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.Table;
import io.sediment.db.TableDefinition;
import io.sediment.db.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RawRocks} reaches the native handles of an open store by reflection on hdds-db's private
 * members; this proves it still does (a renamed field or method fails here, not in a benchmark
 * fork) and that its calls read what the store wrote.
 */
class RawRocksTest {

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void plainCallsOnTheOpenStoreReadWhatTheStoreWrote() {
    TableDefinition<byte[], byte[]> def =
        TableDefinition.of("t", ByteArrayCodec.get(), ByteArrayCodec.get());
    try (DBStore store = DBStoreBuilder.newBuilder(DBDefinition.of("raw", def)).setPath(dir)
        .build()) {
      Table<byte[], byte[]> table = store.getTable("t");
      table.put(b("k1"), b("v1"));
      table.put(b("k3"), b("v3"));
      RawRocks raw = RawRocks.of(store, "t");
      assertArrayEquals(b("v1"), raw.get(b("k1")));
      assertNull(raw.get(b("k2")));
      byte[][] landed = raw.seekAndRead(b("k2"));
      assertArrayEquals(b("k3"), landed[0]);
      assertArrayEquals(b("v3"), landed[1]);
      assertNull(raw.seekAndRead(b("k4")));
      assertArrayEquals(b("k3"), raw.seekAndRead(b("k0"), b("k2"))[0], "clamped to the bound");
    }
  }
}
