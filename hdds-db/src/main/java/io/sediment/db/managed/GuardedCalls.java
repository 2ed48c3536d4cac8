package io.sediment.db.managed;

import io.sediment.db.StoreClosedException;
import io.sediment.db.StoreException;
import io.sediment.db.StoreOutOfSpaceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Runs native calls on one database as guarded operations and turns RocksDB's failures into the
 * store's exceptions, so that each operation of {@link RocksDatabase} is one line of intent.
 *
 * <p>Every call enters the database's {@link OperationGuard} (a {@code StoreClosedException} once
 * the close has begun, before any native call) and exits it whatever happens. A
 * {@link RocksDBException} becomes a {@link StoreOutOfSpaceException} when the file system is
 * full, else a {@link StoreException}; either names the store, the table (for a table operation),
 * the operation and RocksDB's status. A write ({@link #write}) is refused on a secondary
 * ({@link UnsupportedOperationException}), and its refusal for lack of space marks the store out
 * of space ({@link OutOfSpaceWatch}). Thread-safe.
 */
final class GuardedCalls {

  /** A native call on the database. */
  @FunctionalInterface
  interface NativeCall<T> {
    T call(RocksDB db) throws RocksDBException;
  }

  /** A native call without a result. */
  @FunctionalInterface
  interface NativeRun {
    void run(RocksDB db) throws RocksDBException;
  }

  /** A native read through the given read options (the store's, or a snapshot's). */
  @FunctionalInterface
  interface NativeRead<T> {
    T read(RocksDB db, ReadOptions readOptions) throws RocksDBException;
  }

  private final String name;
  private final Path path;
  private final Managed<RocksDB> db;
  private final OperationGuard guard;
  private final RocksOptions options;
  private final boolean secondary;

  GuardedCalls(String name, Path path, Managed<RocksDB> db, OperationGuard guard,
      RocksOptions options, boolean secondary) {
    this.name = name;
    this.path = path;
    this.db = db;
    this.guard = guard;
    this.options = options;
    this.secondary = secondary;
  }

  /**
   * Runs {@code call}; a failure names the table {@code cf} (or only the store when {@code null})
   * and {@code op}.
   */
  <T> T call(ColumnFamily cf, String op, NativeCall<T> call) {
    guard.enter();
    try {
      return call.call(db.get());
    } catch (RocksDBException e) {
      throw error(cf, op, e);
    } finally {
      guard.exit();
    }
  }

  /** As {@link #call}, without a result. */
  void run(ColumnFamily cf, String op, NativeRun run) {
    call(cf, op, rocks -> {
      run.run(rocks);
      return null;
    });
  }

  /**
   * Reads as {@code snapshot} sees it (now when {@code null}): the snapshot admits the read, so
   * it cannot be released under it.
   *
   * @throws IllegalArgumentException if {@code snapshot} is of another database
   */
  <T> T read(ColumnFamily cf, ManagedSnapshot snapshot, String op, NativeRead<T> read) {
    return call(cf, op, rocks -> {
      ReadOptions ro = beginRead(snapshot);
      try {
        return read.read(rocks, ro);
      } finally {
        endRead(snapshot);
      }
    });
  }

  /** As {@link #run}, for a write of table {@code cf} (see the class comment). */
  void write(ColumnFamily cf, String op, NativeRun write) {
    write(cf, op, op, write);
  }

  /**
   * A write of the whole store: refused on a secondary as {@code op}; a failure says
   * {@code failure} (for example {@code "WAL sync failed"}).
   */
  void write(String op, String failure, NativeRun write) {
    write(null, op, failure, write);
  }

  private void write(ColumnFamily cf, String op, String failureOp, NativeRun write) {
    checkWritable(op);
    guard.enter();
    long epoch = options.outOfSpaceWatch().epoch();
    try {
      write.run(db.get());
    } catch (RocksDBException e) {
      StoreException failure = error(cf, failureOp, e);
      if (failure instanceof StoreOutOfSpaceException full) {
        options.outOfSpaceWatch().writeRefused(epoch, full);
      }
      throw failure;
    } finally {
      guard.exit();
    }
  }

  /** Throws {@link UnsupportedOperationException} on a secondary: {@code op} is not allowed. */
  void checkWritable(String op) {
    if (secondary) {
      throw new UnsupportedOperationException("Store " + name + " at " + path
          + " is a read-only secondary instance: " + op + " is not allowed");
    }
  }

  /**
   * The read options of a read as {@code snapshot} sees it (now when {@code null}); a snapshot
   * read must be ended with {@link #endRead(ManagedSnapshot)}. Call it inside a guarded operation.
   */
  ReadOptions beginRead(ManagedSnapshot snapshot) {
    if (snapshot == null) {
      return options.readOptions();
    }
    if (!snapshot.of(db)) {
      throw new IllegalArgumentException("A snapshot of another store cannot be read through "
          + name + " at " + path);
    }
    return snapshot.enter();
  }

  static void endRead(ManagedSnapshot snapshot) {
    if (snapshot != null) {
      snapshot.exit();
    }
  }

  /**
   * The exception for {@code e}: a {@link StoreOutOfSpaceException} when the file system is full,
   * else a {@link StoreException} with RocksDB's message.
   */
  private StoreException error(ColumnFamily cf, String op, RocksDBException e) {
    String what = status(e) + ": store " + name
        + (cf == null ? ": " + op : ", table " + cf.name() + ": " + op + " failed");
    if (OutOfSpaceWatch.isNoSpace(e)) {
      return new StoreOutOfSpaceException(what, path, options.resumeFreeBytes(), usableSpace(), e);
    }
    return new StoreException(what + ": " + e.getMessage(), e);
  }

  /** The usable space on the file system of the store's directory; -1 if it cannot be read. */
  private long usableSpace() {
    try {
      return Files.getFileStore(path).getUsableSpace();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static String status(RocksDBException e) {
    return e.getStatus() != null ? e.getStatus().getCodeString() : "Unknown";
  }
}
