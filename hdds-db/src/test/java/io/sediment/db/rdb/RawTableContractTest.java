package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.sediment.db.DBStore;
import io.sediment.db.Table;
import io.sediment.db.testing.TableContract;
import io.sediment.db.testing.TestBytes;

/** The {@link TableContract} for {@link RDBTable}, the raw {@code byte[]} table {@code bytes}. */
class RawTableContractTest extends TableContract<byte[], byte[]> {

  @Override
  protected Table<byte[], byte[]> table(DBStore store) {
    return assertInstanceOf(RDBTable.class, store.getTable("bytes"));
  }

  @Override
  protected byte[] key(String text) {
    return TestBytes.b(text);
  }

  @Override
  protected String keyText(byte[] key) {
    return TestBytes.s(key);
  }

  @Override
  protected byte[] value(String text) {
    return TestBytes.b(text);
  }

  @Override
  protected String valueText(byte[] value) {
    return TestBytes.s(value);
  }
}
