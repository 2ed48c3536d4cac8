package io.sediment.om.grpc;

import com.google.protobuf.Empty;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.requests.ReadGate;
import io.sediment.om.requests.WritePath;
import io.sediment.om.service.PurgeSteps;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.PurgeStep;
import io.sediment.proto.om.PurgeStepResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Applies mutating OmService requests to one store: each log entry's request goes to the handler
 * its area class binds ({@link RpcBinder#write}), the same code the single-node server runs. It is
 * the single-node {@link WritePath} (applied on the calling thread, answered once durable) and what
 * each replica's state machine applies entries with.
 *
 * <p>{@link #execute} reads no clock for an entry that went through {@link #preExecute}: row
 * times then come from the entry ({@link io.sediment.om.core.AppliedLog}) and a snapshot's
 * generated name from the entry's time.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
public final class WriteRequests implements WritePath {

  private final OmMetadataStore store;
  private final Map<OmLogEntry.RequestCase, RpcBinder.WriteRoute<?>> routes;

  private WriteRequests(OmMetadataStore store,
      Map<OmLogEntry.RequestCase, RpcBinder.WriteRoute<?>> routes) {
    this.store = store;
    this.routes = routes;
  }

  /** The write handlers of every area class over {@code store}. */
  public static WriteRequests over(OmMetadataStore store) {
    RpcBinder collect = new RpcBinder(null, ReadGate.NONE, null, null);
    OmServiceImpl.bindAreas(store, collect);
    return new WriteRequests(store, Map.copyOf(collect.routes()));
  }

  /**
   * Fixes what the entry's submitter decides before the entry is appended, so that applying it
   * needs no clock: the entry's time ({@code nowMillis}) and the generated name of a snapshot
   * created without one.
   */
  public static OmLogEntry preExecute(OmLogEntry.Builder entry, long nowMillis) {
    entry.setTimeMillis(nowMillis);
    if (entry.hasCreateSnapshot() && entry.getCreateSnapshot().getName().isEmpty()) {
      entry.setCreateSnapshot(entry.getCreateSnapshot().toBuilder()
          .setName(SnapshotRpcs.generatedSnapshotName(Instant.ofEpochMilli(nowMillis))));
    }
    return entry.build();
  }

  /**
   * Applies the entry's request and returns its response.
   *
   * @throws OmException as the store rejects it (nothing changed), or INVALID_ARGUMENT for an
   *     entry without a request this build knows
   */
  public Message execute(OmLogEntry entry) {
    if (entry.hasAdoptTokenSecret()) {
      store.appliedLog().adoptTokenSecret(entry.getAdoptTokenSecret().getSecret().toByteArray());
      return Empty.getDefaultInstance();
    }
    if (entry.hasCreateToken() || entry.hasRevokeToken()) {
      return TokenRpcs.apply(store, entry);
    }
    if (entry.hasPurgeStep()) {
      return PurgeStepResult.newBuilder().setPurged(purge(entry.getPurgeStep())).build();
    }
    RpcBinder.WriteRoute<?> route = routes.get(entry.getRequestCase());
    if (route == null) {
      throw OmException.invalid("Log entry with no request this server applies: "
          + entry.getRequestCase());
    }
    return route.apply(entry);
  }

  private long purge(PurgeStep step) {
    PurgeSteps steps = PurgeSteps.on(store);
    Duration threshold = Duration.ofMillis(step.getThresholdMillis());
    return switch (step.getKind()) {
      case PURGE_DELETED_KEYS -> steps.purgeDeletedKeys(step.getLimit());
      case EXPIRE_OPEN_KEYS -> steps.expireOpenKeys(threshold, step.getLimit());
      case EXPIRE_OPEN_FILES -> steps.expireOpenFiles(threshold, step.getLimit());
      case ABORT_EXPIRED_UPLOADS -> steps.abortExpiredUploads(threshold, step.getLimit());
      case PURGE_DELETED_DIRECTORIES -> steps.purgeDeletedDirectories(step.getLimit());
      case KIND_UNSPECIFIED, UNRECOGNIZED -> throw OmException.invalid(
          "Purge step of unknown kind " + step.getKindValue());
    };
  }

  @Override
  @SuppressWarnings("unchecked")
  public <R extends Message> R write(OmLogEntry.Builder entry, Parser<R> parser) {
    return (R) execute(entry.build());
  }

  /**
   * Applies the entry on the calling thread and returns: the future completes once the write is
   * durable, on the thread that synced the WAL, so no thread waits for the sync meanwhile
   * ({@link OmMetadataStore#deferringDurability}).
   */
  @Override
  @SuppressWarnings("unchecked")
  public <R extends Message> CompletableFuture<R> writeAsync(OmLogEntry.Builder entry,
      Parser<R> parser) {
    return store.deferringDurability(() -> (R) execute(entry.build()));
  }
}
