package io.sediment.db.rdb;

import io.sediment.db.DBStore;
import io.sediment.db.IteratorType;
import io.sediment.db.KeyValue;
import io.sediment.db.ReadView;
import io.sediment.db.TableIterator;
import io.sediment.db.testing.TableIteratorContract;

/**
 * The {@link TableIteratorContract} for the iterators of a typed {@link ReadView} table
 * ({@link TypedTableIterator} over a snapshot, ISO-8859-1 strings). Each iterator comes from a
 * view opened for it and closed right after, so it sees every write made before it; it is
 * read-only: {@code removeFromDB} is refused.
 */
class ReadViewTypedIteratorContractTest extends TypedTableIteratorContractTest {

  @Override
  protected boolean removesFromDB() {
    return false;
  }

  @Override
  protected TableIterator<String, KeyValue<String, String>> newIterator(DBStore store,
      byte[] prefix, IteratorType type) {
    try (ReadView view = store.openReadView()) {
      return checked(view.getTable(LATIN1).iterator(text(prefix), type));
    }
  }

  @Override
  protected TableIterator<String, KeyValue<String, String>> newRangeIterator(DBStore store,
      byte[] from, byte[] to, IteratorType type) {
    try (ReadView view = store.openReadView()) {
      return checked(view.getTable(LATIN1).rangeIterator(text(from), text(to), type));
    }
  }
}
