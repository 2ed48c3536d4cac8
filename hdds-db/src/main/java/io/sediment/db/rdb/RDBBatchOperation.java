package io.sediment.db.rdb;

import io.sediment.db.BatchOperation;
import io.sediment.db.managed.ManagedWriteBatch;
import io.sediment.db.managed.RocksDatabase;
import java.util.Objects;

/**
 * A {@link BatchOperation} over one native write batch of one store. The native batch copies
 * each key and value when it is added, so callers may release their buffers right after adding.
 */
public final class RDBBatchOperation implements BatchOperation {

  private final RocksDatabase db;
  private final ManagedWriteBatch batch;
  private boolean committed;
  private boolean closed;

  RDBBatchOperation(RocksDatabase db) {
    this.db = db;
    this.batch = db.newBatch();
  }

  /** The native batch of {@code operation}, checked to belong to {@code db} and be open. */
  static ManagedWriteBatch writable(BatchOperation operation, RocksDatabase db) {
    Objects.requireNonNull(operation, "batch");
    if (!(operation instanceof RDBBatchOperation b) || b.db != db) {
      throw new IllegalArgumentException("Batch does not belong to store " + db.name());
    }
    if (b.closed || b.committed) {
      throw new IllegalStateException("Batch is already " + (b.committed ? "committed" : "closed"));
    }
    return b.batch;
  }

  @Override
  public void commit() {
    if (closed || committed) {
      throw new IllegalStateException("Batch is already " + (committed ? "committed" : "closed"));
    }
    db.write(batch);
    committed = true;
  }

  @Override
  public int size() {
    return closed ? 0 : batch.count();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      batch.close();
    }
  }
}
