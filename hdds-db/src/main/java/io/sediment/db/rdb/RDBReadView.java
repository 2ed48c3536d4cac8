package io.sediment.db.rdb;

import io.sediment.db.ReadView;
import io.sediment.db.TableDefinition;
import io.sediment.db.managed.ManagedSnapshot;

/** A {@link ReadView} over one snapshot of an {@link RDBStore}; its tables are views of the store's. */
final class RDBReadView implements ReadView {

  private final RDBStore store;
  private final ManagedSnapshot snapshot;

  RDBReadView(RDBStore store, ManagedSnapshot snapshot) {
    this.store = store;
    this.snapshot = snapshot;
  }

  @Override
  public RDBTable getTable(String name) {
    return store.getTable(name).view(snapshot);
  }

  @Override
  public <K, V> TypedTable<K, V> getTable(TableDefinition<K, V> definition) {
    TypedTable<K, V> table = store.getTable(definition);
    return new TypedTable<>(table.rawTable().view(snapshot), definition);
  }

  @Override
  public long sequenceNumber() {
    return snapshot.sequenceNumber();
  }

  @Override
  public void close() {
    snapshot.close();
  }
}
