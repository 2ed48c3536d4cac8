package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.TableIteratorContract;

/**
 * The {@link TableIteratorContract} for {@link RDBStoreByteArrayIterator}, the iterators of the raw
 * table {@code store.getTable("bytes")} ({@link RDBTable#iterator} and
 * {@link RDBTable#rangeIterator}). Its entries are fresh arrays, so the conversion to
 * {@code byte[]} is the identity.
 */
class ByteArrayIteratorContractTest extends TableIteratorContract<byte[], byte[]> {

  static RDBStoreByteArrayIterator checked(
      TableIterator<byte[], KeyValue<byte[], byte[]>> it) {
    return assertInstanceOf(RDBStoreByteArrayIterator.class, it);
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newIterator(DBStore store,
      byte[] prefix, IteratorType type) {
    return checked(store.getTable("bytes").iterator(prefix, type));
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newRangeIterator(DBStore store,
      byte[] from, byte[] to, IteratorType type) {
    return checked(store.getTable("bytes").rangeIterator(from, to, type));
  }

  @Override
  protected byte[] keyBytes(byte[] key) {
    return key;
  }

  @Override
  protected byte[] valueBytes(byte[] value) {
    return value;
  }

  @Override
  protected byte[] toKey(byte[] bytes) {
    return bytes;
  }
}
