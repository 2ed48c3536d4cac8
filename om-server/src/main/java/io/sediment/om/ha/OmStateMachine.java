package io.sediment.om.ha;

import com.google.protobuf.InvalidProtocolBufferException;
import io.sediment.db.StoreException;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.LogPosition;
import io.sediment.om.core.OmException;
import io.sediment.om.grpc.WriteRequests;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmLogReply;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's state machine: applies the group's log entries to its store, one at a time, in
 * log order, each through {@link WriteRequests#execute} inside
 * {@link io.sediment.om.core.AppliedLog#apply}, so the change and the entry's position commit in
 * one batch and a restart replays from the entry after the stored position.
 *
 * <p>Outcomes: a write the store rejects (bad name, missing bucket, ...) is part of the
 * deterministic result, the same on every replica, and goes back to the submitter as an error
 * reply. A failure that is this replica's own (its disk is full, its storage fails) must not be
 * skipped, or this replica would diverge: applying fails and Ratis stops this replica's state
 * machine; the others go on.
 *
 * <p>Snapshots are the store itself at its applied position: {@link #takeSnapshot} records the
 * position and flushes the memtables, after which Ratis may purge the log behind it. A follower
 * behind the purged log is told to install a snapshot from the leader
 * ({@link #notifyInstallSnapshotFromLeader}): on a thread of its own it downloads a copy of the
 * leader's store and replaces its own with it ({@link SnapshotInstall}); applying waits while the
 * files are swapped; Ratis then pauses and {@linkplain #reinitialize reinitializes} this state
 * machine at the copy's position and goes on from the log entry after it.
 *
 * <p>Reads: {@link #query} answers an empty message; it is the barrier of a linearizable read,
 * after which the caller reads the store directly.
 */
final class OmStateMachine extends BaseStateMachine {

  private static final Logger LOG = LoggerFactory.getLogger(OmStateMachine.class);

  private final OmMetadataStore store;
  private final WriteRequests requests;
  private final PositionSnapshots storage = new PositionSnapshots();
  private final SnapshotInstall install;
  /** Held while an entry is applied, a snapshot taken or the store's files swapped. */
  private final Object storeLock = new Object();
  private final ExecutorService installs = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "sediment-snapshot-install");
    t.setDaemon(true);
    return t;
  });

  OmStateMachine(OmMetadataStore store, SnapshotInstall install) {
    this.store = store;
    this.requests = WriteRequests.over(store);
    this.install = install;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage)
      throws IOException {
    super.initialize(server, groupId, raftStorage);
    getLifeCycle().startAndTransition(this::loadAppliedPosition);
  }

  private void loadAppliedPosition() {
    store.appliedLog().lastApplied().ifPresent(p -> {
      TermIndex applied = TermIndex.valueOf(p.term(), p.index());
      setLastAppliedTermIndex(applied);
      storage.record(applied);
    });
  }

  /** Ratis stops applying before it reloads this state machine after an install. Idempotent. */
  @Override
  public void pause() {
    if (getLifeCycleState() == LifeCycle.State.RUNNING) {
      getLifeCycle().transition(LifeCycle.State.PAUSING);
      getLifeCycle().transition(LifeCycle.State.PAUSED);
    }
  }

  /** After an install: the applied position is the installed store's. */
  @Override
  public void reinitialize() {
    synchronized (storeLock) {
      loadAppliedPosition();
    }
    getLifeCycle().transition(LifeCycle.State.STARTING);
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    synchronized (storeLock) {
      return applyLocked(trx);
    }
  }

  private CompletableFuture<Message> applyLocked(TransactionContext trx) {
    RaftProtos.LogEntryProto logEntry = trx.getLogEntry();
    LogPosition position = new LogPosition(logEntry.getTerm(), logEntry.getIndex());
    OmLogReply reply;
    try {
      OmLogEntry entry = OmLogEntry.parseFrom(
          logEntry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
      com.google.protobuf.Message response = store.appliedLog().apply(position,
          entry.getTimeMillis(), () -> requests.execute(entry));
      reply = OmLogReply.newBuilder().setResponse(response.toByteString()).build();
    } catch (InvalidProtocolBufferException e) {
      // Every replica parses the same bytes the same way: a deterministic rejection.
      reply = error(OmException.Code.INVALID_ARGUMENT, "Unreadable log entry " + position + ": "
          + e.getMessage());
    } catch (OmException e) {
      if (isLocalFailure(e)) {
        throw stop(position, e);
      }
      reply = error(e.code(), e.detail());
    } catch (RuntimeException e) {
      throw stop(position, e);
    }
    updateLastAppliedTermIndex(logEntry.getTerm(), logEntry.getIndex());
    return CompletableFuture.completedFuture(
        Message.valueOf(UnsafeByteOperations.unsafeWrap(reply.toByteArray())));
  }

  /**
   * The failure that stops this replica: thrown (not a failed future, after which Ratis 3.2.2
   * would log it and go on to the next entry), so Ratis' updater stops applying and closes this
   * replica's server with the entry not applied; the others go on.
   */
  private static RuntimeException stop(LogPosition position, RuntimeException e) {
    LOG.error("Replica cannot apply entry {}; stopping it", position, e);
    return e;
  }

  /**
   * Whether the store refused for a reason of this replica's own (its storage), not of the
   * namespace's state: such an entry must not be skipped here while others apply it.
   */
  private static boolean isLocalFailure(OmException e) {
    return e.code() == OmException.Code.INTERNAL || e.code() == OmException.Code.UNAVAILABLE
        || e.getCause() instanceof StoreException;
  }

  private static OmLogReply error(OmException.Code code, String message) {
    return OmLogReply.newBuilder().setErrorCode(code.name()).setErrorMessage(message).build();
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  @Override
  public CompletableFuture<Message> queryStale(Message request, long minIndex) {
    // Ratis' own waits for the applied index but is never woken in 3.2.2; stale reads are served
    // from the store without this barrier.
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  @Override
  public long takeSnapshot() {
    synchronized (storeLock) {
      return takeSnapshotLocked();
    }
  }

  private long takeSnapshotLocked() {
    TermIndex applied = getLastAppliedTermIndex();
    if (applied == null || applied.getIndex() < 0) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    store.appliedLog().recordApplied(new LogPosition(applied.getTerm(), applied.getIndex()));
    store.dbStore().flush();
    storage.record(applied);
    LOG.info("Snapshot at {}: the store's applied position, flushed", applied);
    return applied.getIndex();
  }

  /**
   * Downloads the leader's store and installs it in place of this replica's (see the class
   * comment); the future completes with the installed position, or exceptionally (Ratis asks again
   * at the leader's next notice) if the download or the install failed, the store unchanged.
   */
  @Override
  public CompletableFuture<TermIndex> notifyInstallSnapshotFromLeader(
      RaftProtos.RoleInfoProto roleInfo, TermIndex firstTermIndexInLog) {
    RaftProtos.RaftPeerProto leader = roleInfo.getFollowerInfo().getLeaderInfo().getId();
    String leaderId = RaftPeerId.valueOf(leader.getId()).toString();
    TermIndex applied = getLastAppliedTermIndex();
    long appliedIndex = applied == null ? RaftLog.INVALID_LOG_INDEX : applied.getIndex();
    if (firstTermIndexInLog.getIndex() <= appliedIndex + 1) {
      // Ratis also asks a replica that joins the group; the log it needs is all there.
      LOG.info("The leader's log starts at {}, this replica applied up to {}: no copy needed, "
          + "the log follows", firstTermIndexInLog, appliedIndex);
      return CompletableFuture.completedFuture(null);
    }
    // A member added at runtime has its OM address in the group's configuration only.
    String address = leader.getClientAddress().isEmpty() ? null : leader.getClientAddress();
    LOG.info("Replica is behind the leader's log, which starts at {}: installing a copy of "
        + "replica '{}''s store", firstTermIndexInLog, leaderId);
    return CompletableFuture.supplyAsync(() -> {
      try {
        CheckpointDownload.Received copy = install.download(leaderId, address);
        LogPosition position;
        synchronized (storeLock) {
          position = install.install(copy);
          TermIndex installed = TermIndex.valueOf(position.term(), position.index());
          storage.record(installed);
          return installed;
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("Installing a copy of replica '{}''s store failed; this replica's store is "
            + "unchanged and the leader will ask again", leaderId, e);
        throw new CompletionException(e);
      }
    }, installs);
  }

  @Override
  public void close() throws IOException {
    installs.shutdownNow();
    super.close();
  }
}
