package io.sediment.db.rdb;

import io.sediment.db.ReadView;
import io.sediment.db.TableDefinition;
import io.sediment.db.codec.Codec;
import io.sediment.db.managed.ManagedSnapshot;

/**
 * A {@link ReadView} over one snapshot of an {@link RDBStore}; its tables are views of the
 * store's. On a secondary store (whose RocksDB ignores snapshots) there is no snapshot: the view
 * instead holds off catch-ups until it is closed ({@code onClose} releases that hold), so what it
 * reads cannot change under it.
 */
final class RDBReadView implements ReadView {

  private final RDBStore store;
  private final ManagedSnapshot snapshot;
  private final long sequenceNumber;
  private final Runnable onClose;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();

  RDBReadView(RDBStore store, ManagedSnapshot snapshot) {
    this(store, snapshot, snapshot.sequenceNumber(), () -> { });
  }

  RDBReadView(RDBStore store, ManagedSnapshot snapshot, long sequenceNumber, Runnable onClose) {
    this.store = store;
    this.snapshot = snapshot;
    this.sequenceNumber = sequenceNumber;
    this.onClose = onClose;
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
  public <K, V> TypedTable<K, V> getTable(TableDefinition<K, ?> definition, Codec<V> readAs) {
    TypedTable<K, ?> table = store.getTable(definition);
    return new TypedTable<>(table.rawTable().view(snapshot), new TableDefinition<>(
        definition.name(), definition.keyCodec(), readAs, definition.deleteHeavy()));
  }

  @Override
  public long sequenceNumber() {
    return sequenceNumber;
  }

  @Override
  public void close() {
    if (closed.get()) {
      return;
    }
    if (snapshot != null) {
      snapshot.close(); // if it throws, the view stays open and a later close retries
    }
    if (closed.compareAndSet(false, true)) {
      onClose.run();
    }
  }
}
