package io.sediment.db.managed;

import org.rocksdb.ColumnFamilyHandle;

/**
 * One open column family of a {@link RocksDatabase}: its name and its native handle. The handle
 * is closed by the database that opened it; the handle itself never leaves this package.
 */
public final class ColumnFamily {

  private final String name;
  private final ColumnFamilyHandle handle;

  ColumnFamily(String name, ColumnFamilyHandle handle) {
    this.name = name;
    this.handle = handle;
  }

  public String name() {
    return name;
  }

  ColumnFamilyHandle handle() {
    return handle;
  }

  @Override
  public String toString() {
    return name;
  }
}
