package io.sediment.om;

import io.sediment.om.core.AppliedLog;
import io.sediment.om.core.FileTrees;
import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmException;
import io.sediment.om.snapshot.Snapshots;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Whole copies of a store moving between replicas of a group: the leader {@linkplain #checkpoint
 * copies out} its store at its applied log position; a replica too far behind the leader's log
 * writes that copy into {@link #incomingDir()} and {@linkplain #installIncoming() installs} it in
 * place of its own files. Thread-safe.
 */
public final class ReplicaFiles {

  private final OmMetadataStore om;

  ReplicaFiles(OmMetadataStore om) {
    this.om = om;
  }

  /**
   * A consistent copy of the whole store, live tables and snapshots, next to the store's directory,
   * taken under the store's write lock (writes wait for the checkpoint, typically a memtable flush
   * and hard links), so that it holds exactly the writes up to its position. The caller closes it.
   *
   * @throws OmException FAILED_PRECONDITION if the store never applied a replicated log entry
   *     (it has no position a copy could be installed at)
   */
  public StoreCheckpoint checkpoint() {
    OmAreas a = om.areas();
    Path dir = a.store.getPath();
    Path out = ReplacementDirs.newOutgoing(dir);
    return a.ctx.underWriteLock(() -> {
      LogPosition position = new AppliedLog(a.ctx).lastApplied().orElseThrow(() ->
          new OmException(OmException.Code.FAILED_PRECONDITION, "The store in " + dir
              + " has applied no replicated log entry: it has no position to copy"));
      try {
        a.store.createCheckpoint(out);
        linkSnapshots(dir.resolve(Snapshots.ROOT_DIR), out.resolve(Snapshots.ROOT_DIR));
        return new StoreCheckpoint(out, position, FileTrees.files(out));
      } catch (RuntimeException e) {
        FileTrees.delete(out);
        throw e;
      }
    });
  }

  /**
   * Links the snapshots' checkpoints into the copy, leaving out those still being written: a
   * create writes its checkpoint without the write lock and moves it into place (under the lock)
   * only when it records the snapshot, so the rest is stable while this holds the lock.
   */
  private static void linkSnapshots(Path from, Path to) {
    if (!Files.isDirectory(from)) {
      return;
    }
    try (Stream<Path> entries = Files.list(from)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        String name = p.getFileName().toString();
        if (!name.startsWith(Snapshots.PENDING_PREFIX)) {
          FileTrees.linkTree(p, to.resolve(name));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + from, e);
    }
  }

  /**
   * The directory a replacement copy is written into before {@link #installIncoming}: next to the
   * store's, created empty (a copy an earlier attempt left there is deleted).
   */
  public Path incomingDir() {
    Path incoming = ReplacementDirs.incoming(om.areas().store.getPath());
    FileTrees.delete(incoming);
    try {
      return Files.createDirectories(incoming);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + incoming, e);
    }
  }

  /**
   * Replaces the store's files with the complete copy in {@link #incomingDir()} and serves it from
   * then on; returns the log position the copy holds applied.
   *
   * <p>The copy is first opened on its own: one that is not a store, is damaged, or holds no
   * applied position is refused ({@link OmException} FAILED_PRECONDITION, or the open's own
   * error) with the store unchanged. Then, under the write lock, the store closes (calls in flight
   * finish; calls after that fail as on a closed store, then see the new files), its directory is
   * moved aside, the copy takes its place and opens. If that open fails, the old files are put
   * back and served again, and the failure is thrown. A crash at any point leaves either store
   * whole; the next open finishes or undoes the replacement ({@link ReplacementDirs#recover}).
   */
  public LogPosition installIncoming() {
    Path dir = om.areas().store.getPath();
    Path incoming = ReplacementDirs.incoming(dir);
    if (!Files.isDirectory(incoming)) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION, "No copy to install: "
          + incoming + " does not exist");
    }
    LogPosition position;
    try (OmAreas copy = OmAreas.open(incoming, om.options(), om.profile())) {
      position = new AppliedLog(copy.ctx).lastApplied().orElseThrow(() ->
          new OmException(OmException.Code.FAILED_PRECONDITION, "The copy in " + incoming
              + " holds no applied log position; refusing to install it"));
    }
    Path ready = ReplacementDirs.ready(dir);
    Path replaced = ReplacementDirs.replaced(dir);
    FileTrees.rename(incoming, ready);
    OmAreas old = om.areas();
    old.ctx.underWriteLock(() -> {
      old.close();
      FileTrees.rename(dir, replaced);
      FileTrees.rename(ready, dir);
      try {
        om.areas(OmAreas.open(dir, om.options(), om.profile()));
      } catch (RuntimeException e) {
        FileTrees.rename(dir, ready);
        FileTrees.rename(replaced, dir);
        om.areas(OmAreas.open(dir, om.options(), om.profile()));
        throw e;
      }
      return null;
    });
    FileTrees.delete(replaced);
    return position;
  }
}
