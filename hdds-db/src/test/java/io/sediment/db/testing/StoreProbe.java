package io.sediment.db.testing;

import io.sediment.db.DBStore;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.rdb.RDBStore;

/**
 * What tests of other modules may ask a store about its native iterators, without reaching into
 * hdds-db's implementation packages themselves: how many are open now, and the most open at once.
 */
public final class StoreProbe {

  private final RocksDatabase database;

  private StoreProbe(RocksDatabase database) {
    this.database = database;
  }

  /** The probe of {@code store}, which must have been opened by {@code DBStoreBuilder}. */
  public static StoreProbe of(DBStore store) {
    return new StoreProbe(((RDBStore) store).database());
  }

  /** Native iterators created and not yet closed. */
  public int openIteratorCount() {
    return database.openIteratorCount();
  }

  /** The most native iterators open at once since the store opened or the last reset. */
  public int openIteratorPeak() {
    return database.openIteratorPeak();
  }

  /** Restarts {@link #openIteratorPeak()} from the number of iterators open now. */
  public void resetOpenIteratorPeak() {
    database.resetOpenIteratorPeak();
  }
}
