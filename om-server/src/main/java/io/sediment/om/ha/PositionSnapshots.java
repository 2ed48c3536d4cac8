package io.sediment.om.ha;

import java.util.List;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;

/**
 * Ratis' view of a state machine whose snapshot is a log position and no files: a replica's
 * (its store, flushed, holds the applied position) or a benchmark's state machine that applies
 * nothing. Ratis purges the log up to the latest position recorded here.
 *
 * <p>Thread-safe.
 */
public final class PositionSnapshots implements StateMachineStorage {

  private volatile SnapshotInfo latest;

  /** Records {@code position} as the latest snapshot. */
  public void record(TermIndex position) {
    latest = new FileListSnapshotInfo(List.of(), position);
  }

  @Override
  public void init(RaftStorage raftStorage) {
  }

  /** The latest snapshot recorded, or null before the first. */
  @Override
  public SnapshotInfo getLatestSnapshot() {
    return latest;
  }

  @Override
  public void format() {
  }

  @Override
  public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) {
  }
}
