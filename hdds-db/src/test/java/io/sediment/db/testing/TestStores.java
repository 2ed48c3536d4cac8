package io.sediment.db.testing;

import io.sediment.db.DBDefinition;
import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.TableDefinition;
import io.sediment.db.TombstonePolicy;
import io.sediment.db.codec.ByteArrayCodec;
import io.sediment.db.codec.StringCodec;
import java.nio.file.Path;
import java.time.Duration;

/** Stores for tests: small caches and memtables, real RocksDB in a temporary directory. */
public final class TestStores {

  public static final TableDefinition<byte[], byte[]> BYTES =
      TableDefinition.of("bytes", ByteArrayCodec.get(), ByteArrayCodec.get());
  public static final TableDefinition<String, String> STRINGS =
      TableDefinition.of("strings", StringCodec.get(), StringCodec.get());
  public static final DBDefinition DEFINITION = DBDefinition.of("test", BYTES, STRINGS);

  private TestStores() {
  }

  /** A profile small enough for tests: 8 MiB cache, 1 MiB memtables. */
  public static DBProfile smallProfile() {
    return DBProfile.builder().blockCacheBytes(8L << 20).writeBufferBytes(1L << 20).build();
  }

  public static DBStore open(Path dir) {
    return open(dir, DEFINITION);
  }

  /** A store without tombstone sampling or background compaction, so tests are deterministic. */
  public static DBStore open(Path dir, DBDefinition definition) {
    return open(dir, definition, TombstonePolicy.disabled());
  }

  public static DBStore open(Path dir, DBDefinition definition, TombstonePolicy policy) {
    return DBStoreBuilder.newBuilder(definition).setPath(dir).setProfile(smallProfile())
        .setCloseTimeout(Duration.ofSeconds(5)).setTombstonePolicy(policy).build();
  }
}
