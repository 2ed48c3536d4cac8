package io.sediment.bench.raw;

import io.sediment.db.DBStore;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.rdb.RDBStore;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Plain rocksdbjni calls on one table of an open Sediment store: the floor a benchmark compares
 * the layer with, measured on the very same native database, options, cache and files.
 *
 * <p>The store keeps its native handles private to {@code io.sediment.db.managed}; this class
 * reaches them by reflection, which only a benchmark may do. It owns nothing: the store frees
 * the handles when it closes, after which these calls must not be made. Every call uses RocksDB's
 * default read options (no bounds, no Java-side {@code ReadOptions}), as a user of bare
 * rocksdbjni would write it. Thread-safe as RocksDB is.
 */
public final class RawRocks {

  private final RocksDB db;
  private final ColumnFamilyHandle family;

  private RawRocks(RocksDB db, ColumnFamilyHandle family) {
    this.db = db;
    this.family = family;
  }

  /** The raw handles of {@code table} in {@code store}, which must be an {@code RDBStore}. */
  public static RawRocks of(DBStore store, String table) {
    try {
      RocksDatabase database = ((RDBStore) store).database();
      Field managedDb = RocksDatabase.class.getDeclaredField("db");
      managedDb.setAccessible(true);
      Object managed = managedDb.get(database);
      Method unwrap = managed.getClass().getDeclaredMethod("get");
      unwrap.setAccessible(true);
      ColumnFamily cf = database.columnFamily(table);
      Method handle = ColumnFamily.class.getDeclaredMethod("handle", RocksDatabase.class);
      handle.setAccessible(true);
      return new RawRocks((RocksDB) unwrap.invoke(managed),
          (ColumnFamilyHandle) handle.invoke(cf, database));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Cannot reach the native handles of " + store, e);
    }
  }

  /** {@code RocksDB#get(cf, key)}: the value, or {@code null}. */
  public byte[] get(byte[] key) {
    try {
      return db.get(family, key);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * As {@link #seekAndRead(byte[])}, with the iterator's lower bound at {@code lowerInclusive}
   * (read options and a slice of its own, freed after the iterator, as a plain rocksdbjni user
   * bounds an iterator).
   */
  public byte[][] seekAndRead(byte[] target, byte[] lowerInclusive) {
    try (Slice lower = new Slice(lowerInclusive);
        ReadOptions options = new ReadOptions().setIterateLowerBound(lower);
        RocksIterator it = db.newIterator(family, options)) {
      it.seek(target);
      if (!it.isValid()) {
        return null;
      }
      return new byte[][] {it.key(), it.value()};
    }
  }

  /**
   * A new iterator, one seek to {@code target}, the key and value it landed on, close: returns
   * {@code {key, value}}, or {@code null} at the end of the table.
   */
  public byte[][] seekAndRead(byte[] target) {
    try (RocksIterator it = db.newIterator(family)) {
      it.seek(target);
      if (!it.isValid()) {
        return null;
      }
      return new byte[][] {it.key(), it.value()};
    }
  }
}
