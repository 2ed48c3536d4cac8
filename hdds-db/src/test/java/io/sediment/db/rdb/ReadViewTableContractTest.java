package io.sediment.db.rdb;

import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.testing.TableContract;
import java.util.function.Function;

/**
 * The {@link TableContract} for the raw tables of a {@link ReadView}: the suite writes through the
 * store's table and reads through a view opened for each read, so every read path of a view
 * table (point reads, iterators, emptiness, estimates) must agree with the live table.
 */
class ReadViewTableContractTest extends RawTableContractTest {

  @Override
  protected <R> R read(DBStore store, Function<Table<byte[], byte[]>, R> read) {
    try (ReadView view = store.openReadView()) {
      return read.apply(view.getTable("bytes"));
    }
  }
}
