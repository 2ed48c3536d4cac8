package io.sediment.db.rdb;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.TableIterator;

/**
 * The {@link io.sediment.db.TableIterator} contract of {@link AbstractIteratorContractTest} for
 * {@link RDBStoreByteArrayIterator}, the iterators of the raw table {@code store.getTable("bytes")}
 * ({@link RDBTable#iterator} and {@link RDBTable#rangeIterator}). Its entries are fresh arrays, so
 * the conversion to {@code byte[]} is the identity.
 */
class ByteArrayIteratorContractTest extends AbstractIteratorContractTest<byte[]> {

  private static RDBStoreByteArrayIterator checked(
      TableIterator<byte[], KeyValue<byte[], byte[]>> it) {
    return assertInstanceOf(RDBStoreByteArrayIterator.class, it);
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newWholeTableIterator(RDBTable table,
      IteratorType type) {
    return checked(table.iterator(null, type));
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newPrefixIterator(RDBTable table,
      byte[] prefix, IteratorType type) {
    return checked(table.iterator(prefix, type));
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newRangeIterator(RDBTable table,
      byte[] from, byte[] to, IteratorType type) {
    return checked(table.rangeIterator(from, to, type));
  }

  @Override
  protected byte[] toBytes(byte[] raw) {
    return raw;
  }

  @Override
  protected byte[] toRaw(byte[] bytes) {
    return bytes;
  }

  @Override
  protected void releaseRaw(byte[] raw) {
  }
}
