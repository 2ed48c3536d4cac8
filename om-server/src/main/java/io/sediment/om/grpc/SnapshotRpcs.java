package io.sediment.om.grpc;

import static io.sediment.om.grpc.WireValues.token;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateSnapshotResponse;
import io.sediment.proto.om.DeleteSnapshotRequest;
import io.sediment.proto.om.DeleteSnapshotResponse;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListSnapshotsResponse;
import io.sediment.proto.om.LookupSnapshotKeyRequest;
import io.sediment.proto.om.LookupSnapshotKeyResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.SnapshotInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The snapshot RPCs of {@code OmService}: create, delete, list (paged with a token) and look up a
 * key in a snapshot, each one facade call. The writes answer the snapshot row; a CreateSnapshot
 * without a name gets {@link #generatedSnapshotName(Instant)}.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record SnapshotRpcs(OmMetadataStore store, WireValues wire) {

  private static final DateTimeFormatter SNAPSHOT_NAME =
      DateTimeFormatter.ofPattern("'s'yyyyMMdd-HHmmss.SSS").withZone(ZoneOffset.UTC);

  /** Binds this area's RPCs: reads and writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.write(OmServiceGrpc.getCreateSnapshotMethod(), OmLogEntry.Builder::setCreateSnapshot,
        OmLogEntry::getCreateSnapshot, this::createSnapshot);
    b.write(OmServiceGrpc.getDeleteSnapshotMethod(), OmLogEntry.Builder::setDeleteSnapshot,
        OmLogEntry::getDeleteSnapshot, this::deleteSnapshot);
    b.read(OmServiceGrpc.getListSnapshotsMethod(), this::listSnapshots);
    b.read(OmServiceGrpc.getLookupSnapshotKeyMethod(), this::lookupKey);
  }

  CreateSnapshotResponse createSnapshot(CreateSnapshotRequest req) {
    return CreateSnapshotResponse.newBuilder()
        .setSnapshot(store.snapshots().create(req.getVolume(), req.getBucket(),
            req.getName().isEmpty() ? generatedSnapshotName(Instant.now()) : req.getName()))
        .build();
  }

  DeleteSnapshotResponse deleteSnapshot(DeleteSnapshotRequest req) {
    return DeleteSnapshotResponse.newBuilder()
        .setSnapshot(store.snapshots().delete(req.getVolume(), req.getBucket(), req.getName()))
        .build();
  }

  ListSnapshotsResponse listSnapshots(ListSnapshotsRequest req) {
    ListPage<SnapshotInfo> page = store.snapshots().list(req.getVolume(), req.getBucket(),
        req.getPrefix(), req.getPreviousSnapshot(),
        wire.pageSize(req.hasMaxEntries(), req.getMaxEntries()),
        token(req.getPageToken()), req.getIncludeDeleted());
    return ListSnapshotsResponse.newBuilder()
        .addAllSnapshots(page.items())
        .setTruncated(page.truncated())
        .setNextPageToken(token(page.nextToken()))
        .build();
  }

  LookupSnapshotKeyResponse lookupKey(LookupSnapshotKeyRequest req) {
    return LookupSnapshotKeyResponse.newBuilder()
        .setKey(store.snapshots().lookupKey(req.getVolume(), req.getBucket(), req.getSnapshotName(),
            req.getKey()))
        .build();
  }

  /**
   * The name of a snapshot created without one: {@code s} + the UTC time to the millisecond
   * ({@code s20250131-235959.123}), a valid snapshot name.
   */
  static String generatedSnapshotName(Instant at) {
    return SNAPSHOT_NAME.format(at);
  }
}
