package io.sediment.om.snapshot;

import io.sediment.db.DBProfile;
import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.db.TombstonePolicy;
import io.sediment.om.core.FileTrees;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmException.Code;
import io.sediment.om.core.OmException;
import io.sediment.proto.om.SnapshotInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The checkpoint directories of a store's snapshots and the stores opened on them: each opened on
 * first read (auto-compaction off, a small block cache, no tombstone accounting) and kept until its
 * snapshot is deleted or this closes. Readers hold the read lock; closing a store takes the write
 * lock, so a read never sees a closed store and no handle outlives its snapshot. Thread-safe.
 */
public final class SnapshotStores implements AutoCloseable {

  /** Block cache of one opened snapshot store. */
  private static final long SNAPSHOT_CACHE_BYTES = 8L << 20;

  private final Path root;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** Opened snapshot stores by snapshot id; guarded by itself (and emptied under the write lock). */
  private final Map<String, DBStore> stores = new HashMap<>();
  /** Set under the write lock by {@link #close()}. */
  private boolean closed;

  /** The snapshot stores of checkpoints under {@code root}; opens nothing yet. */
  public SnapshotStores(Path root) {
    this.root = root;
  }

  /** The directory that holds the checkpoints. */
  public Path root() {
    return root;
  }

  /**
   * Runs {@code body} on the store of the snapshot {@code activeRow} returns, under the read lock:
   * the row is read under the lock, so a snapshot whose delete has closed its store is seen as
   * deleted ({@code activeRow} throws).
   *
   * @throws OmException UNAVAILABLE after {@link #close()}, INTERNAL if the checkpoint is missing
   */
  <T> T read(Supplier<SnapshotInfo> activeRow, Function<DBStore, T> body) {
    lock.readLock().lock();
    try {
      if (closed) {
        throw new OmException(Code.UNAVAILABLE, "The store is closed");
      }
      return body.apply(storeOf(activeRow.get()));
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Closes the store of a deleted snapshot (after reads in progress finish) and removes its
   * checkpoint directory; a directory that cannot be removed now is removed at the next open.
   */
  void evict(SnapshotInfo deleted) {
    lock.writeLock().lock();
    try {
      DBStore store;
      synchronized (stores) {
        store = stores.remove(deleted.getSnapshotId());
      }
      if (store != null) {
        store.close();
      }
    } finally {
      lock.writeLock().unlock();
    }
    deleteQuietly(root.resolve(deleted.getCheckpointDir()));
  }

  /** Number of snapshot stores open now (for tests and metrics). */
  public int openCount() {
    synchronized (stores) {
      return stores.size();
    }
  }

  /** Closes every opened store (after reads in progress); later reads are UNAVAILABLE. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      closed = true;
      RuntimeException first = null;
      synchronized (stores) {
        for (DBStore s : stores.values()) {
          try {
            s.close();
          } catch (RuntimeException e) {
            if (first == null) {
              first = e;
            } else {
              first.addSuppressed(e);
            }
          }
        }
        stores.clear();
      }
      if (first != null) {
        throw first;
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** The cached store of an ACTIVE snapshot, opened on first use; caller holds the read lock. */
  private DBStore storeOf(SnapshotInfo info) {
    synchronized (stores) {
      DBStore store = stores.get(info.getSnapshotId());
      if (store != null) {
        return store;
      }
      Path dir = root.resolve(info.getCheckpointDir());
      if (!Files.isRegularFile(dir.resolve("CURRENT"))) {
        // Opening would create an empty database in its place.
        throw new OmException(Code.INTERNAL, "The checkpoint of snapshot '" + info.getName()
            + "' (" + info.getSnapshotId() + ") is missing from " + dir);
      }
      DBProfile profile = DBProfile.defaults().toBuilder()
          .disableAutoCompactions(true)
          .blockCacheBytes(SNAPSHOT_CACHE_BYTES)
          .build();
      store = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION)
          .setPath(dir)
          .setProfile(profile)
          .setTombstonePolicy(TombstonePolicy.disabled())
          .build();
      stores.put(info.getSnapshotId(), store);
      return store;
    }
  }

  /** Deletes everything under the root but the {@code active} checkpoint directories. */
  void removeAllBut(Set<String> active) {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (Stream<Path> entries = Files.list(root)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        if (!active.contains(p.getFileName().toString())) {
          deleteQuietly(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the snapshot directory " + root, e);
    }
  }

  /** Deletes {@code path} recursively if it exists; a failure leaves it for the next open. */
  static void deleteQuietly(Path path) {
    try {
      FileTrees.delete(path);
    } catch (UncheckedIOException e) {
      // Left for removeAllBut at the next open.
    }
  }
}
