package io.sediment.bench.raw;

import io.sediment.db.DBStore;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.rdb.RDBStore;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Plain rocksdbjni reads and synced writes on several tables of one open Sediment store: the
 * floor {@code freon} holds a service call against, on the very same native database, options,
 * cache, files and write-ahead log.
 *
 * <p>Handles are reached by reflection as {@link RawRocks} does, and are not owned: the store
 * frees them when it closes, after which no call may be made. This object owns only its
 * {@code WriteOptions} (sync, as a durable service write): {@link #close()} frees them.
 * Thread-safe as RocksDB is: concurrent {@link #writeSync} calls are grouped by RocksDB's own
 * write group (one WAL fsync for the group).
 */
public final class RawTables implements AutoCloseable {

  /** One row of a write: a put when {@code value != null}, else a point delete. */
  public record Mutation(String table, byte[] key, byte[] value) { }

  private final RocksDB db;
  private final Map<String, ColumnFamilyHandle> families;
  private final WriteOptions sync = new WriteOptions().setSync(true);

  private RawTables(RocksDB db, Map<String, ColumnFamilyHandle> families) {
    this.db = db;
    this.families = families;
  }

  /** The raw handles of {@code tables} in {@code store}, which must be an {@code RDBStore}. */
  public static RawTables of(DBStore store, List<String> tables) {
    try {
      RocksDatabase database = ((RDBStore) store).database();
      Field managedDb = RocksDatabase.class.getDeclaredField("db");
      managedDb.setAccessible(true);
      Object managed = managedDb.get(database);
      Method unwrap = managed.getClass().getDeclaredMethod("get");
      unwrap.setAccessible(true);
      Method handle = ColumnFamily.class.getDeclaredMethod("handle", RocksDatabase.class);
      handle.setAccessible(true);
      Map<String, ColumnFamilyHandle> families = new HashMap<>();
      for (String table : tables) {
        families.put(table,
            (ColumnFamilyHandle) handle.invoke(database.columnFamily(table), database));
      }
      return new RawTables((RocksDB) unwrap.invoke(managed), Map.copyOf(families));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot reach the native handles of " + store, e);
    }
  }

  private ColumnFamilyHandle family(String table) {
    ColumnFamilyHandle h = families.get(table);
    if (h == null) {
      throw new IllegalArgumentException("Table not opened raw: " + table);
    }
    return h;
  }

  /** {@code RocksDB#get(cf, key)} with default read options: the value, or {@code null}. */
  public byte[] get(String table, byte[] key) {
    try {
      return db.get(family(table), key);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A new iterator bounded above by {@code upperExclusive}, one seek to {@code from}, then up to
   * {@code count} entries read (key and value copied out, skipping {@code from} itself when
   * {@code fromExclusive}), then closed. Returns the number of entries read: fewer than
   * {@code count} only at the bound.
   */
  public int scan(String table, byte[] from, boolean fromExclusive, byte[] upperExclusive,
      int count) {
    try (Slice upper = new Slice(upperExclusive);
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = db.newIterator(family(table), options)) {
      it.seek(from);
      if (fromExclusive && it.isValid() && java.util.Arrays.equals(it.key(), from)) {
        it.next();
      }
      int read = 0;
      long bytes = 0;
      while (read < count && it.isValid()) {
        bytes += it.key().length + it.value().length;
        read++;
        it.next();
      }
      // Keeps the copies from being optimized away.
      return bytes < 0 ? -1 : read;
    }
  }

  /** One WriteBatch of {@code mutations}, written with {@code sync=true}; returns once durable. */
  public void writeSync(List<Mutation> mutations) {
    try (WriteBatch batch = new WriteBatch()) {
      for (Mutation m : mutations) {
        if (m.value() == null) {
          batch.delete(family(m.table()), m.key());
        } else {
          batch.put(family(m.table()), m.key(), m.value());
        }
      }
      db.write(sync, batch);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Deletes {@code [from, to)} of {@code table} with one range tombstone, synced (clears rows a
   * floor wrote).
   */
  public void deleteRange(String table, byte[] from, byte[] to) {
    try (WriteBatch batch = new WriteBatch()) {
      batch.deleteRange(family(table), from, to);
      db.write(sync, batch);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    sync.close();
  }
}
