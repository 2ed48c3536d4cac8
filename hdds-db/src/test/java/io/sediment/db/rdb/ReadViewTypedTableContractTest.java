package io.sediment.db.rdb;

import io.sediment.db.DBStore;
import io.sediment.db.ReadView;
import io.sediment.db.Table;
import io.sediment.db.testing.TableContract;
import io.sediment.db.testing.TestStores;
import java.util.function.Function;

/**
 * The {@link TableContract} for the typed tables of a {@link ReadView}: writes go through the
 * store's table, every read through a view opened for it.
 */
class ReadViewTypedTableContractTest extends TypedTableContractTest {

  @Override
  protected <R> R read(DBStore store, Function<Table<String, String>, R> read) {
    try (ReadView view = store.openReadView()) {
      return read.apply(view.getTable(TestStores.STRINGS));
    }
  }
}
