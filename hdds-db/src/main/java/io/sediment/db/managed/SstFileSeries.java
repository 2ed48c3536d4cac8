package io.sediment.db.managed;

import io.sediment.db.StoreException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * Rows of one column family written into a series of SST files in one directory
 * ({@code 000001.sst}, {@code 000002.sst}, ...), each finished once it reaches a target size,
 * with a copy of that column family's options (table format, filter, compression, comparator),
 * so the files read exactly like the ones its flushes write. Created by
 * {@link SstIngestion#newFiles}; {@link SstIngestion#ingest} adds the finished files to the
 * column family.
 *
 * <p>The caller adds keys in strictly increasing order (RocksDB refuses others; checking them
 * with a clear message is the caller's job). Owns its native objects, registered with
 * {@link NativeTracker}, and frees them in {@link #close()}; the files stay where they are. Not
 * thread-safe.
 */
public final class SstFileSeries implements AutoCloseable {

  /** Rows between two looks at the size of the file being written (a native call). */
  private static final int SIZE_CHECK_EVERY = 256;

  private final String owner;
  private final String family;
  private final Path dir;
  private final long targetFileBytes;
  private final Managed<EnvOptions> env;
  private final Managed<Options> options;
  private final List<Path> finished = new ArrayList<>();
  private long finishedBytes;
  private Managed<SstFileWriter> writer;
  private Path current;
  private long rowsInFile;

  /** Takes ownership of {@code options}, a copy of the column family's. */
  SstFileSeries(String owner, String family, Path dir, Options options, long targetFileBytes) {
    this.owner = owner;
    this.family = family;
    this.dir = dir;
    this.targetFileBytes = targetFileBytes;
    this.options = Managed.of(options, owner);
    Managed<EnvOptions> e = null;
    try {
      e = Managed.of(new EnvOptions(), owner);
    } catch (RuntimeException | Error failure) {
      this.options.close();
      throw failure;
    }
    this.env = e;
  }

  /**
   * Appends a row to the current file (starting one if none is open), and finishes the file once
   * it has reached the target size.
   *
   * @throws StoreException if RocksDB fails (a key out of order included)
   */
  public void put(byte[] key, byte[] value) {
    try {
      if (writer == null) {
        open();
      }
      writer.get().put(key, value);
      if (++rowsInFile % SIZE_CHECK_EVERY == 0 && writer.get().fileSize() >= targetFileBytes) {
        finishFile();
      }
    } catch (RocksDBException e) {
      throw failure("cannot write " + current, e);
    }
  }

  /**
   * Finishes the file being written, if any.
   *
   * @throws StoreException if RocksDB cannot finish it
   */
  public void finish() {
    if (writer == null) {
      return;
    }
    try {
      finishFile();
    } catch (RocksDBException e) {
      throw failure("cannot finish " + current, e);
    }
  }

  /** The finished files, in the order written (key order). */
  public List<Path> files() {
    return List.copyOf(finished);
  }

  /** The bytes of the finished files. */
  public long bytes() {
    return finishedBytes;
  }

  private void open() throws RocksDBException {
    current = dir.resolve(String.format(Locale.ROOT, "%06d.sst", finished.size() + 1));
    writer = Managed.of(new SstFileWriter(env.get(), options.get()), owner);
    rowsInFile = 0;
    writer.get().open(current.toString());
  }

  private void finishFile() throws RocksDBException {
    try {
      writer.get().finish();
      finishedBytes += writer.get().fileSize();
      finished.add(current);
    } finally {
      writer.close();
      writer = null;
    }
  }

  private StoreException failure(String what, RocksDBException e) {
    return new StoreException(GuardedCalls.status(e) + ": store " + owner + ", table " + family
        + ": bulk load " + what + ": " + e.getMessage(), e);
  }

  /** Frees the writer (an unfinished file stays incomplete on disk) and the options. Idempotent. */
  @Override
  public void close() {
    try {
      if (writer != null) {
        writer.close();
        writer = null;
      }
    } finally {
      env.close();
      options.close();
    }
  }
}
