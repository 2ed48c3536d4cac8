package io.sediment.db.rdb;

import io.sediment.db.StoreException;
import io.sediment.db.TableBulkLoad;
import io.sediment.db.codec.Bytes;
import io.sediment.db.codec.Codec;
import io.sediment.db.managed.ColumnFamily;
import io.sediment.db.managed.RocksDatabase;
import io.sediment.db.managed.SstFileSeries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The {@link TableBulkLoad} of one table of an {@link RDBStore}: encodes each row with the
 * table's codecs, checks it (null, key limit, strictly after the previous key) before anything is
 * written, appends it to an {@link SstFileSeries} in its own work directory, and ingests the
 * series in one {@link io.sediment.db.managed.SstIngestion#ingest} call. Not thread-safe.
 */
final class RDBTableBulkLoad<K, V> implements TableBulkLoad<K, V> {

  private enum State { OPEN, FINISHED, INGESTED, FAILED, CLOSED }

  private final RocksDatabase db;
  private final ColumnFamily family;
  private final Codec<K> keyCodec;
  private final Codec<V> valueCodec;
  private final int maxKeyBytes;
  private final Path dir;
  private final SstFileSeries files;
  private State state = State.OPEN;
  private byte[] previous;
  private long rows;

  /**
   * Creates the work directory {@code bulk-load-<table>-*} inside the store's directory and the
   * file series in it.
   *
   * @throws StoreException if the directory cannot be created
   */
  RDBTableBulkLoad(RocksDatabase db, ColumnFamily family, Codec<K> keyCodec, Codec<V> valueCodec,
      int maxKeyBytes, long targetFileBytes) {
    this.db = db;
    this.family = family;
    this.keyCodec = keyCodec;
    this.valueCodec = valueCodec;
    this.maxKeyBytes = maxKeyBytes;
    try {
      this.dir = Files.createTempDirectory(db.path(), "bulk-load-" + family.name() + "-");
    } catch (IOException e) {
      throw new StoreException("Store " + db.name() + ", table " + family.name()
          + ": cannot create a bulk-load directory in " + db.path() + ": " + e.getMessage(), e);
    }
    try {
      this.files = db.sstIngestion().newFiles(family, dir, targetFileBytes);
    } catch (RuntimeException | Error e) {
      deleteDirectory();
      throw e;
    }
  }

  @Override
  public String table() {
    return family.name();
  }

  @Override
  public void add(K key, V value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    require(State.OPEN, "add rows to");
    byte[] k = keyCodec.toPersistedFormat(key);
    if (k.length > maxKeyBytes) {
      throw new IllegalArgumentException("Table " + table() + ": key of " + k.length
          + " bytes exceeds the limit of " + maxKeyBytes);
    }
    if (previous != null && Arrays.compareUnsigned(k, previous) <= 0) {
      throw new IllegalArgumentException("Table " + table() + ": a bulk load adds keys in "
          + "strictly increasing order, but " + Bytes.toDisplayString(k)
          + (Arrays.equals(k, previous) ? " repeats the previous key"
              : " sorts before the previous key " + Bytes.toDisplayString(previous))
          + "; the row was not added");
    }
    byte[] v = valueCodec.toPersistedFormat(value);
    try {
      files.put(k, v);
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
    previous = k;
    rows++;
  }

  @Override
  public long rowCount() {
    return rows;
  }

  @Override
  public void finish() {
    if (state != State.OPEN) {
      return;
    }
    try {
      files.finish();
      state = State.FINISHED;
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  @Override
  public List<Path> files() {
    return files.files();
  }

  @Override
  public long fileBytes() {
    return files.bytes();
  }

  @Override
  public void ingest() {
    if (state == State.OPEN) {
      finish();
    }
    require(State.FINISHED, "ingest");
    if (rows == 0) {
      state = State.INGESTED;
      return;
    }
    try {
      db.sstIngestion().ingest(family, files.files());
      state = State.INGESTED;
    } catch (RuntimeException e) {
      state = State.FAILED;
      throw e;
    }
  }

  private void require(State expected, String what) {
    if (state != expected) {
      throw new IllegalStateException("Cannot " + what + " the bulk load of table " + table()
          + ": it is " + state.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  @Override
  public void close() {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    try {
      files.close();
    } finally {
      deleteDirectory();
    }
  }

  /** Deletes the work directory and everything in it (ingested files were linked, not moved). */
  private void deleteDirectory() {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the bulk-load directory " + dir, e);
    }
  }
}
