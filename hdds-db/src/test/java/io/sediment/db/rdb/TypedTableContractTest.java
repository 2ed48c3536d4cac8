package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.sediment.db.DBStore;
import io.sediment.db.Table;
import io.sediment.db.testing.TableContract;
import io.sediment.db.testing.TestStores;

/** The {@link TableContract} for {@link TypedTable}, the UTF-8 {@code String} table {@code strings}. */
class TypedTableContractTest extends TableContract<String, String> {

  @Override
  protected Table<String, String> table(DBStore store) {
    return assertInstanceOf(TypedTable.class, store.getTable(TestStores.STRINGS));
  }

  @Override
  protected String key(String text) {
    return text;
  }

  @Override
  protected String keyText(String key) {
    return key;
  }

  @Override
  protected String value(String text) {
    return text;
  }

  @Override
  protected String valueText(String value) {
    return value;
  }
}
