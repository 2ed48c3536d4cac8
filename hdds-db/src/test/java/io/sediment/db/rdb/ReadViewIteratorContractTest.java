package io.sediment.db.rdb;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.TableIteratorContract;

/**
 * The {@link TableIteratorContract} for the iterators of a raw {@link ReadView} table
 * ({@link RDBStoreByteArrayIterator} over a snapshot). Each iterator comes from a view opened for
 * it and closed right after (an iterator keeps reading its view's moment), so it sees every write
 * made before it. Such iterators are read-only: {@code removeFromDB} is refused.
 */
class ReadViewIteratorContractTest extends ByteArrayIteratorContractTest {

  @Override
  protected boolean removesFromDB() {
    return false;
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newIterator(DBStore store,
      byte[] prefix, IteratorType type) {
    try (ReadView view = store.openReadView()) {
      return checked(view.getTable("bytes").iterator(prefix, type));
    }
  }

  @Override
  protected TableIterator<byte[], KeyValue<byte[], byte[]>> newRangeIterator(DBStore store,
      byte[] from, byte[] to, IteratorType type) {
    try (ReadView view = store.openReadView()) {
      return checked(view.getTable("bytes").rangeIterator(from, to, type));
    }
  }
}
