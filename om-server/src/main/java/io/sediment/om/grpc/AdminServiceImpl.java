package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.sediment.db.DBStore;
import io.sediment.db.StoreException;
import io.sediment.db.stats.CompactionEvent;
import io.sediment.db.stats.HotRange;
import io.sediment.db.stats.KeyRange;
import io.sediment.db.stats.TableTombstoneStats;
import io.sediment.db.stats.TombstoneStats;
import io.sediment.db.tombstone.CompactionScheduler;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.requests.Replication;
import io.sediment.om.core.OmCounter;
import io.sediment.om.service.BackgroundService;
import io.sediment.om.service.OmServices;
import io.sediment.om.service.ServiceMetrics;
import io.sediment.proto.om.AddPeerRequest;
import io.sediment.proto.om.AddPeerResponse;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.CompactTableRequest;
import io.sediment.proto.om.CompactTableResponse;
import io.sediment.proto.om.CompactionEventProto;
import io.sediment.proto.om.CompactionStats;
import io.sediment.proto.om.CreateCheckpointRequest;
import io.sediment.proto.om.CreateCheckpointResponse;
import io.sediment.proto.om.GetCountersRequest;
import io.sediment.proto.om.GetCountersResponse;
import io.sediment.proto.om.GetReplicationStatusRequest;
import io.sediment.proto.om.GetReplicationStatusResponse;
import io.sediment.proto.om.GetServiceStatsRequest;
import io.sediment.proto.om.TransferLeaderRequest;
import io.sediment.proto.om.TransferLeaderResponse;
import io.sediment.proto.om.GetServiceStatsResponse;
import io.sediment.proto.om.GetTableStatsRequest;
import io.sediment.proto.om.GetTableStatsResponse;
import io.sediment.proto.om.GetTombstoneStatsRequest;
import io.sediment.proto.om.GetTombstoneStatsResponse;
import io.sediment.proto.om.HotRangeProto;
import io.sediment.proto.om.KeyRangeProto;
import io.sediment.proto.om.RemovePeerRequest;
import io.sediment.proto.om.RemovePeerResponse;
import io.sediment.proto.om.ServiceStats;
import io.sediment.proto.om.TableStats;
import io.sediment.proto.om.TableTombstones;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * {@code AdminService}: table and tombstone figures, targeted compaction, checkpoints and the
 * namespace counters of the store behind the server, and the counters of its background services
 * (when the server was given them). Errors are mapped as in
 * {@link OmServiceImpl}; an unknown table is INVALID_ARGUMENT, an existing checkpoint directory
 * ALREADY_EXISTS, a checkpoint directory outside the {@link CheckpointRoot} INVALID_ARGUMENT.
 *
 * <p>Thread-safe.
 */
public final class AdminServiceImpl extends AdminServiceGrpc.AdminServiceImplBase {

  private final OmMetadataStore store;
  /** The background services over {@link #store}, or {@code null} when the server runs none. */
  private final OmServices services;
  /** The group this server's store is replicated in, or {@code null} for a single node. */
  private final Replication replication;
  /** Where checkpoints are written, or {@code null} when the server writes none. */
  private final CheckpointRoot checkpointRoot;
  /** The token RPCs. */
  private final TokenRpcs tokens;

  /** Over {@code store} alone: no services, a single node, no checkpoints. */
  public AdminServiceImpl(OmMetadataStore store) {
    this(store, null, null, null);
  }

  /**
   * @param services the background services to report on; {@code null} for none
   * @param replication the replicated group to report on; {@code null} for a single node
   * @param checkpointRoot where {@code CreateCheckpoint} writes; {@code null}: it writes nothing
   *     (FAILED_PRECONDITION)
   */
  public AdminServiceImpl(OmMetadataStore store, OmServices services, Replication replication,
      CheckpointRoot checkpointRoot) {
    this.store = Objects.requireNonNull(store, "store");
    this.services = services;
    this.replication = replication;
    this.checkpointRoot = checkpointRoot;
    this.tokens = new TokenRpcs(store,
        replication == null ? WriteRequests.over(store) : replication.writes(), null);
  }

  /**
   * As {@link #AdminServiceImpl(OmMetadataStore, OmServices, Replication, CheckpointRoot)}, the
   * token RPCs served by {@code tokens}.
   */
  public AdminServiceImpl(OmMetadataStore store, OmServices services, Replication replication,
      CheckpointRoot checkpointRoot, TokenRpcs tokens) {
    this.store = Objects.requireNonNull(store, "store");
    this.services = services;
    this.replication = replication;
    this.checkpointRoot = checkpointRoot;
    this.tokens = Objects.requireNonNull(tokens, "tokens");
  }

  @Override
  public void createToken(io.sediment.proto.om.CreateTokenRequest req,
      StreamObserver<io.sediment.proto.om.CreateTokenResponse> obs) {
    UnaryCalls.run(obs, () -> tokens.create(req));
  }

  @Override
  public void revokeToken(io.sediment.proto.om.RevokeTokenRequest req,
      StreamObserver<io.sediment.proto.om.RevokeTokenResponse> obs) {
    UnaryCalls.run(obs, () -> tokens.revoke(req));
  }

  @Override
  public void listTokens(io.sediment.proto.om.ListTokensRequest req,
      StreamObserver<io.sediment.proto.om.ListTokensResponse> obs) {
    UnaryCalls.run(obs, () -> tokens.list(req));
  }

  @Override
  public void transferLeader(TransferLeaderRequest req,
      StreamObserver<TransferLeaderResponse> obs) {
    UnaryCalls.run(obs, () -> {
      if (replication == null) {
        throw new OmException(OmException.Code.FAILED_PRECONDITION,
            "This server is a single node, not a replica of a group");
      }
      replication.transferLeader(req.getToReplica(), java.time.Duration.ofMillis(
          req.getTimeoutMillis() == 0 ? 10_000 : Integer.toUnsignedLong(req.getTimeoutMillis())));
      return TransferLeaderResponse.getDefaultInstance();
    });
  }

  @Override
  public void addPeer(AddPeerRequest req, StreamObserver<AddPeerResponse> obs) {
    UnaryCalls.run(obs, () -> AddPeerResponse.newBuilder().addAllMembers(replication()
        .addPeer(req.getReplicaId(), req.getHost(), portOf(req.getRaftPort()),
            portOf(req.getRpcPort()), membershipTimeout(req.getTimeoutMillis())))
        .build());
  }

  @Override
  public void removePeer(RemovePeerRequest req, StreamObserver<RemovePeerResponse> obs) {
    UnaryCalls.run(obs, () -> RemovePeerResponse.newBuilder().addAllMembers(replication()
        .removePeer(req.getReplicaId(), membershipTimeout(req.getTimeoutMillis())))
        .build());
  }

  /** The group this server is a replica of; FAILED_PRECONDITION on a single node. */
  private Replication replication() {
    if (replication == null) {
      throw new OmException(OmException.Code.FAILED_PRECONDITION,
          "This server is a single node, not a replica of a group");
    }
    return replication;
  }

  /** A port from the wire, where uint32 may exceed an int: out of range either way. */
  private static int portOf(int unsigned) {
    return (int) Math.min(Integer.MAX_VALUE, Integer.toUnsignedLong(unsigned));
  }

  /** A membership change's wait: the request's, or 30 s (a new replica may take a while). */
  private static java.time.Duration membershipTimeout(int millis) {
    return java.time.Duration.ofMillis(millis == 0 ? 30_000 : Integer.toUnsignedLong(millis));
  }

  @Override
  public void getReplicationStatus(GetReplicationStatusRequest req,
      StreamObserver<GetReplicationStatusResponse> obs) {
    UnaryCalls.run(obs, () -> replication == null
        ? GetReplicationStatusResponse.getDefaultInstance() : replication.status());
  }

  @Override
  public void getTableStats(GetTableStatsRequest req, StreamObserver<GetTableStatsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      GetTableStatsResponse.Builder out = GetTableStatsResponse.newBuilder();
      for (TableTombstoneStats t : db().tombstoneStats().tables()) {
        out.addTables(TableStats.newBuilder()
            .setTable(t.table())
            .setEstimatedLiveKeys(t.estimatedLiveKeys())
            .setSstFiles(t.sstFiles())
            .setSstEntries(t.sstEntries())
            .setSstDeletions(t.sstDeletions())
            .setMemtableDeletes(t.memtableDeletes())
            .setMemtableRangeDeletes(t.memtableRangeDeletes()));
      }
      return out.build();
    });
  }

  @Override
  public void getTombstoneStats(GetTombstoneStatsRequest req,
      StreamObserver<GetTombstoneStatsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      if (!req.getTable().isEmpty()) {
        requireTable(req.getTable());
      }
      TombstoneStats stats = db().tombstoneStats();
      GetTombstoneStatsResponse.Builder out = GetTombstoneStatsResponse.newBuilder();
      for (TableTombstoneStats t : stats.tables()) {
        if (req.getTable().isEmpty() || req.getTable().equals(t.table())) {
          out.addTables(toProto(t));
        }
      }
      return out.setCompactions(toProto(stats.compactions())).build();
    });
  }

  @Override
  public void compactTable(CompactTableRequest req, StreamObserver<CompactTableResponse> obs) {
    UnaryCalls.run(obs, () -> {
      String table = requireTable(req.getTable());
      byte[] begin = req.hasBegin() ? req.getBegin().toByteArray() : null;
      byte[] end = req.hasEnd() ? req.getEnd().toByteArray() : null;
      if (begin != null && end != null && io.sediment.db.codec.Bytes.compare(begin, end) > 0) {
        throw Status.INVALID_ARGUMENT.withDescription("Compaction range begin is after its end")
            .asRuntimeException();
      }
      long before = tombstones(table);
      long start = System.nanoTime();
      db().compactRange(table, begin, end);
      long millis = (System.nanoTime() - start) / 1_000_000;
      return CompactTableResponse.newBuilder().setTable(table).setTombstonesBefore(before)
          .setTombstonesAfter(tombstones(table)).setDurationMillis(millis).build();
    });
  }

  @Override
  public void createCheckpoint(CreateCheckpointRequest req,
      StreamObserver<CreateCheckpointResponse> obs) {
    UnaryCalls.run(obs, () -> {
      if (checkpointRoot == null) {
        throw Status.FAILED_PRECONDITION.withDescription("This server has no checkpoint root, "
            + "so it writes no checkpoints (serve --checkpoint-root DIR)").asRuntimeException();
      }
      Path dir = checkpointRoot.resolve(req.getDir());
      String unwritable = CheckpointPaths.cannotCreate(dir);
      if (unwritable != null) {
        throw Status.FAILED_PRECONDITION.withDescription("Cannot create checkpoint directory "
            + dir + " on the server's machine: " + unwritable).asRuntimeException();
      }
      long start = System.nanoTime();
      try {
        db().createCheckpoint(dir);
        CheckpointRoot.restrict(dir);
      } catch (IOException e) {
        throw Status.INTERNAL.withDescription("Checkpoint " + dir + " was written, but it could "
            + "not be made readable by the server's user only: " + e).asRuntimeException();
      } catch (StoreException e) {
        // The path passed every check above, so what fails now is the target's file system (no
        // space left, a quota, a race with another writer): the caller's to fix, not a bug.
        throw Status.FAILED_PRECONDITION.withDescription("Cannot write checkpoint " + dir
            + " on the server's machine: " + e.getMessage()).asRuntimeException();
      }
      return CreateCheckpointResponse.newBuilder().setDir(dir.toString())
          .setDurationMillis((System.nanoTime() - start) / 1_000_000).build();
    });
  }

  @Override
  public void getCounters(GetCountersRequest req, StreamObserver<GetCountersResponse> obs) {
    UnaryCalls.run(obs, () -> {
      boolean bucket = !req.getVolume().isEmpty() || !req.getBucket().isEmpty();
      Map<OmCounter, Long> counters = bucket
          ? store.bucketCounters(req.getVolume(), req.getBucket()) : store.counters();
      GetCountersResponse.Builder out = GetCountersResponse.newBuilder();
      counters.forEach((c, v) -> out.putCounters(c.name(), v));
      return out.build();
    });
  }

  @Override
  public void getServiceStats(GetServiceStatsRequest req,
      StreamObserver<GetServiceStatsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      GetServiceStatsResponse.Builder out = GetServiceStatsResponse.newBuilder();
      if (services != null) {
        for (BackgroundService s : services.services()) {
          ServiceMetrics m = s.metrics();
          out.addServices(ServiceStats.newBuilder()
              .setName(m.name())
              .setRunning(m.running())
              .setIntervalMillis(s.interval().toMillis())
              .setRuns(m.runs())
              .setFailures(m.failures())
              .setItemsProcessed(m.itemsProcessed())
              .setLastRunItems(m.lastRunItems())
              .setLastRunMillis(m.lastRunDuration().toMillis())
              .setLastFailure(m.lastFailure() == null ? "" : m.lastFailure())
              .setBatches(m.batches())
              .setRowsPerSecond(m.rowsPerSecond())
              .setRunInProgress(m.runInProgress()));
        }
      }
      return out.build();
    });
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private DBStore db() {
    return store.dbStore();
  }

  private String requireTable(String table) {
    if (!db().listTables().contains(table)) {
      throw invalid("No table '" + table + "'; tables: " + String.join(", ", db().listTables()));
    }
    return table;
  }

  /** SST deletions (point and range) plus memtable point and range deletions of {@code table}. */
  private long tombstones(String table) {
    for (TableTombstoneStats t : db().tombstoneStats().tables()) {
      if (t.table().equals(table)) {
        return t.sstDeletions() + t.memtableDeletes() + t.memtableRangeDeletes();
      }
    }
    return 0;
  }

  private static RuntimeException invalid(String message) {
    return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
  }

  static TableTombstones toProto(TableTombstoneStats t) {
    TableTombstones.Builder b = TableTombstones.newBuilder()
        .setTable(t.table())
        .setEstimatedLiveKeys(t.estimatedLiveKeys())
        .setMemtableDeletes(t.memtableDeletes())
        .setMemtableRangeDeletes(t.memtableRangeDeletes())
        .setSstFiles(t.sstFiles())
        .setSstEntries(t.sstEntries())
        .setSstDeletions(t.sstDeletions())
        .setSstRangeDeletions(t.sstRangeDeletions())
        .setSlowPasses(t.slowPasses())
        .setTombstonesSkipped(t.tombstonesSkipped())
        .setSampledScans(t.sampledScans().scans())
        .setSampledEntriesReturned(t.sampledScans().entriesReturned())
        .setSampledTombstonesSkipped(t.sampledScans().tombstonesSkipped())
        .setSampledNativeNanos(t.sampledScans().nativeNanos());
    for (HotRange h : t.hotRanges()) {
      b.addHotRanges(HotRangeProto.newBuilder().setRange(toProto(h.range()))
          .setSlowPasses(h.slowPasses()).setTombstonesSkipped(h.tombstonesSkipped())
          .setLastSeenMillis(h.lastSeenMillis()));
    }
    for (KeyRange r : t.pendingCompactions()) {
      b.addPendingCompactions(toProto(r));
    }
    return b.build();
  }

  static CompactionStats toProto(io.sediment.db.stats.CompactionStats s) {
    CompactionStats.Builder b = CompactionStats.newBuilder()
        .setRequested(s.requested()).setMerged(s.merged()).setCompleted(s.completed())
        .setPinned(s.pinned()).setSkipped(s.skipped()).setFailed(s.failed())
        .setPending(s.pending());
    for (CompactionEvent e : s.recent()) {
      b.addRecent(CompactionEventProto.newBuilder()
          .setTable(e.table()).setRange(toProto(e.range())).setOutcome(e.outcome().name())
          .setTrigger(e.trigger().name())
          .setReason(e.reason() == null ? "" : e.reason())
          .setTombstonesBefore(e.tombstonesBefore()).setTombstonesAfter(e.tombstonesAfter())
          .setDurationMillis(e.durationMillis()).setAtMillis(e.atMillis()));
    }
    return b.build();
  }

  static KeyRangeProto toProto(KeyRange r) {
    KeyRangeProto.Builder b = KeyRangeProto.newBuilder();
    if (r.from() != null) {
      b.setFrom(ByteString.copyFrom(r.from()));
    }
    if (r.to() != null) {
      b.setTo(ByteString.copyFrom(r.to()));
    }
    return b.build();
  }
}
