package io.sediment.db;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a store directory holds, judged before RocksDB touches it, so that a store that is damaged
 * or in use is refused with nothing in it changed (RocksDB's own open rotates the info log and,
 * with create-if-missing, would start an empty store beside the data it cannot find).
 *
 * <ul>
 *   <li>{@link State#NEW}: the directory is missing or holds no RocksDB data file; a new store
 *       may be created there.</li>
 *   <li>{@link State#EXISTING}: it holds a {@code CURRENT} file; the store is opened, never
 *       created.</li>
 *   <li>{@link State#NO_CURRENT}: it holds data files (SSTs, write-ahead logs, a MANIFEST or
 *       OPTIONS files) but no {@code CURRENT}: a damaged store, never opened as a new one.</li>
 * </ul>
 *
 * <p>Immutable once inspected; {@link #refusal()} reads the directory again for its lock check.
 */
public final class StoreDirectory {

  /** What the directory holds. */
  public enum State { NEW, EXISTING, NO_CURRENT }

  private final Path dir;
  private final State state;
  private final List<String> dataFiles;

  private StoreDirectory(Path dir, State state, List<String> dataFiles) {
    this.dir = dir;
    this.state = state;
    this.dataFiles = dataFiles;
  }

  /** Looks at {@code dir} without changing anything. */
  public static StoreDirectory inspect(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return new StoreDirectory(dir, State.NEW, List.of());
    }
    boolean current = false;
    List<String> data = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String n = p.getFileName().toString();
        if (n.equals("CURRENT")) {
          current = true;
        } else if (isDataFile(n)) {
          data.add(n);
        }
      }
    }
    data.sort(null);
    State state = current ? State.EXISTING : data.isEmpty() ? State.NEW : State.NO_CURRENT;
    return new StoreDirectory(dir, state, List.copyOf(data));
  }

  /** SSTs, blob files, write-ahead logs, MANIFESTs and OPTIONS files: what a store's data is. */
  static boolean isDataFile(String name) {
    return name.matches("\\d+\\.(sst|log|blob)") || name.startsWith("MANIFEST-")
        || name.startsWith("OPTIONS-");
  }

  public State state() {
    return state;
  }

  /** The data files found (names, sorted); empty for a new directory. */
  public List<String> dataFiles() {
    return dataFiles;
  }

  /**
   * Why this directory must not be opened as a primary, or {@code null} if it may be: it holds
   * data but no {@code CURRENT}, or another process holds its lock.
   */
  public String refusal() throws IOException {
    if (state == State.NO_CURRENT) {
      long sst = dataFiles.stream().filter(n -> n.endsWith(".sst")).count();
      List<String> meta = dataFiles.stream().filter(n -> !n.endsWith(".sst")).toList();
      return "its CURRENT file is missing, but it holds " + sst + " SST files"
          + (meta.isEmpty() ? "" : " and " + String.join(", ", meta))
          + ": it is a damaged store, not a new one, so it was not opened and nothing in it was"
          + " changed. Restore it from a checkpoint, or rebuild CURRENT from its newest MANIFEST"
          + " with a repair";
    }
    if (state == State.EXISTING && lockedByAnotherProcess()) {
      return "its LOCK is held by another process (lock hold by another process): it was not"
          + " opened and nothing in it was changed";
    }
    return null;
  }

  /**
   * Call only for a directory this JVM has claimed (the open claims it first): closing the
   * probe's descriptor would drop a POSIX lock this process holds on the file.
   */
  private boolean lockedByAnotherProcess() throws IOException {
    Path lock = dir.resolve("LOCK");
    if (!Files.exists(lock)) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      if (l == null) {
        return true;
      }
      l.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }
}
