package io.sediment.db.managed;

import org.rocksdb.ColumnFamilyHandle;

/**
 * One open column family of a {@link RocksDatabase}: its name and its native handle. The handle
 * is closed by the database that opened it and never leaves this package; it is handed out only
 * for use with that database, so a column family of another store (perhaps already closed) is an
 * {@link IllegalArgumentException}, never a native call on a foreign or freed handle.
 */
public final class ColumnFamily {

  private final String name;
  private final ColumnFamilyHandle handle;
  private final RocksDatabase owner;

  ColumnFamily(String name, ColumnFamilyHandle handle, RocksDatabase owner) {
    this.name = name;
    this.handle = handle;
    this.owner = owner;
  }

  public String name() {
    return name;
  }

  /**
   * The native handle, for a call on {@code db}.
   *
   * @throws IllegalArgumentException if this column family belongs to another database
   */
  ColumnFamilyHandle handle(RocksDatabase db) {
    if (db != owner) {
      throw new IllegalArgumentException("Table " + name + " belongs to store "
          + owner.describe() + ", not to " + db.describe());
    }
    return handle;
  }

  @Override
  public String toString() {
    return name;
  }
}
