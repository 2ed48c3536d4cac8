package io.sediment.om;

import io.sediment.om.core.FileTrees;
import io.sediment.om.core.LogPosition;
import java.nio.file.Path;
import java.util.List;

/**
 * A consistent copy of a whole store, taken for another replica: the live tables (a RocksDB
 * checkpoint) and every snapshot's checkpoint under {@code snapshots/}, as of the replicated log
 * position {@link #position()}. The files are hard links where the file system allows, so the copy
 * costs little space while it lives; {@link #close()} deletes it. Not thread-safe.
 */
public final class StoreCheckpoint implements AutoCloseable {

  private final Path dir;
  private final LogPosition position;
  private final List<String> files;

  StoreCheckpoint(Path dir, LogPosition position, List<String> files) {
    this.dir = dir;
    this.position = position;
    this.files = List.copyOf(files);
  }

  /** The directory holding the copy; opened as a store it is the store as of {@link #position}. */
  public Path dir() {
    return dir;
  }

  /** The last log entry the copy holds applied. */
  public LogPosition position() {
    return position;
  }

  /** Every regular file of the copy, relative to {@link #dir} with '/' separators, sorted. */
  public List<String> files() {
    return files;
  }

  /** Deletes the copy's files (the store's own stay). */
  @Override
  public void close() {
    FileTrees.delete(dir);
  }
}
