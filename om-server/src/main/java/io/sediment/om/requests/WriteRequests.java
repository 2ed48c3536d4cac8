package io.sediment.om.requests;

import com.google.protobuf.Message;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.proto.om.AbortMultipartUploadResponse;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CommitFileResponse;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitKeyResponse;
import io.sediment.proto.om.CommitMultipartPartRequest;
import io.sediment.proto.om.CommitMultipartPartResponse;
import io.sediment.proto.om.CompleteMultipartUploadRequest;
import io.sediment.proto.om.CompleteMultipartUploadResponse;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateBucketResponse;
import io.sediment.proto.om.CreateDirectoryResponse;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateSnapshotResponse;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.DeleteBucketResponse;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.DeleteDirectoryResponse;
import io.sediment.proto.om.DeleteFileResponse;
import io.sediment.proto.om.DeleteKeyResponse;
import io.sediment.proto.om.DeleteSnapshotResponse;
import io.sediment.proto.om.DeleteVolumeResponse;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.InitiateMultipartUploadResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RenameKeyResponse;
import io.sediment.proto.om.RenameResponse;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import io.sediment.proto.om.SetBucketPropertiesResponse;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import io.sediment.proto.om.SetVolumePropertiesResponse;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Executes one mutating OmService request against the store and returns its response: the one
 * place where a write request becomes a facade call, shared by the single-node path (the gRPC
 * handler thread) and the replicated path (each replica's state machine, in log order).
 *
 * <p>{@link #execute} is deterministic given the store's state and the entry: it reads no clock
 * (a snapshot's missing name is filled in by {@link #preExecute} before the entry is appended, and
 * row times come from the entry when applied through {@link io.sediment.om.core.AppliedLog}).
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
public final class WriteRequests {

  private static final DateTimeFormatter SNAPSHOT_NAME =
      DateTimeFormatter.ofPattern("'s'yyyyMMdd-HHmmss.SSS").withZone(ZoneOffset.UTC);

  private final OmMetadataStore store;

  public WriteRequests(OmMetadataStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * What the entry's submitter decides before the entry is appended, so that applying it needs no
   * clock: the entry's time ({@code nowMillis}) and a generated name for a snapshot created
   * without one ({@link #generatedSnapshotName}).
   */
  public static OmLogEntry preExecute(OmLogEntry.Builder entry, long nowMillis) {
    entry.setTimeMillis(nowMillis);
    if (entry.hasCreateSnapshot() && entry.getCreateSnapshot().getName().isEmpty()) {
      entry.setCreateSnapshot(entry.getCreateSnapshot().toBuilder()
          .setName(generatedSnapshotName(Instant.ofEpochMilli(nowMillis))));
    }
    return entry.build();
  }

  /**
   * Executes the entry's request.
   *
   * @throws OmException as the facade call rejects it (nothing changed), or INVALID_ARGUMENT for
   *     an entry without a request
   */
  public Message execute(OmLogEntry entry) {
    return switch (entry.getRequestCase()) {
      case CREATE_VOLUME -> CreateVolumeResponse.newBuilder().setVolume(store.createVolume(
          entry.getCreateVolume().getVolume(), entry.getCreateVolume().getOwner())).build();
      case SET_VOLUME_PROPERTIES -> setVolumeProperties(entry.getSetVolumeProperties());
      case DELETE_VOLUME -> {
        store.deleteVolume(entry.getDeleteVolume().getVolume());
        yield DeleteVolumeResponse.getDefaultInstance();
      }
      case CREATE_BUCKET -> createBucket(entry.getCreateBucket());
      case SET_BUCKET_PROPERTIES -> setBucketProperties(entry.getSetBucketProperties());
      case DELETE_BUCKET -> {
        store.deleteBucket(entry.getDeleteBucket().getVolume(), entry.getDeleteBucket().getBucket());
        yield DeleteBucketResponse.getDefaultInstance();
      }
      case OPEN_KEY -> openKey(entry.getOpenKey());
      case COMMIT_KEY -> commitKey(entry.getCommitKey());
      case DELETE_KEY -> {
        var r = entry.getDeleteKey();
        store.deleteKey(r.getVolume(), r.getBucket(), r.getKey());
        yield DeleteKeyResponse.getDefaultInstance();
      }
      case RENAME_KEY -> {
        var r = entry.getRenameKey();
        yield RenameKeyResponse.newBuilder().setKey(
            store.renameKey(r.getVolume(), r.getBucket(), r.getFromKey(), r.getToKey())).build();
      }
      case CREATE_DIRECTORY -> {
        var r = entry.getCreateDirectory();
        yield CreateDirectoryResponse.newBuilder().setStatus(
            toProto(store.createDirectory(r.getVolume(), r.getBucket(), r.getPath()))).build();
      }
      case CREATE_FILE -> createFile(entry.getCreateFile());
      case COMMIT_FILE -> commitFile(entry.getCommitFile());
      case DELETE_FILE -> {
        var r = entry.getDeleteFile();
        store.deleteFile(r.getVolume(), r.getBucket(), r.getPath());
        yield DeleteFileResponse.getDefaultInstance();
      }
      case DELETE_DIRECTORY -> deleteDirectory(entry.getDeleteDirectory());
      case RENAME -> {
        var r = entry.getRename();
        yield RenameResponse.newBuilder().setStatus(toProto(
            store.rename(r.getVolume(), r.getBucket(), r.getFromPath(), r.getToPath()))).build();
      }
      case INITIATE_MULTIPART_UPLOAD -> initiate(entry.getInitiateMultipartUpload());
      case COMMIT_MULTIPART_PART -> commitPart(entry.getCommitMultipartPart());
      case COMPLETE_MULTIPART_UPLOAD -> complete(entry.getCompleteMultipartUpload());
      case ABORT_MULTIPART_UPLOAD -> {
        var r = entry.getAbortMultipartUpload();
        store.abortMultipartUpload(r.getVolume(), r.getBucket(), r.getKey(), r.getUploadId());
        yield AbortMultipartUploadResponse.getDefaultInstance();
      }
      case CREATE_SNAPSHOT -> createSnapshot(entry.getCreateSnapshot());
      case DELETE_SNAPSHOT -> {
        var r = entry.getDeleteSnapshot();
        yield DeleteSnapshotResponse.newBuilder().setSnapshot(
            store.deleteSnapshot(r.getVolume(), r.getBucket(), r.getName())).build();
      }
      case ADOPT_TOKEN_SECRET -> {
        store.appliedLog().adoptTokenSecret(entry.getAdoptTokenSecret().getSecret().toByteArray());
        yield com.google.protobuf.Empty.getDefaultInstance();
      }
      case REQUEST_NOT_SET -> throw OmException.invalid("Log entry without a request");
    };
  }

  private SetVolumePropertiesResponse setVolumeProperties(SetVolumePropertiesRequest r) {
    return SetVolumePropertiesResponse.newBuilder().setVolume(store.setVolumeProperties(
        r.getVolume(),
        r.hasOwner() ? r.getOwner() : null,
        r.hasQuotaInBytes() ? r.getQuotaInBytes() : null,
        r.hasQuotaInNamespace() ? r.getQuotaInNamespace() : null)).build();
  }

  private CreateBucketResponse createBucket(CreateBucketRequest r) {
    return CreateBucketResponse.newBuilder().setBucket(store.createBucket(r.getVolume(),
        r.getBucket(), r.getLayout(), r.getOwner(), r.getQuotaInBytes())).build();
  }

  private SetBucketPropertiesResponse setBucketProperties(SetBucketPropertiesRequest r) {
    return SetBucketPropertiesResponse.newBuilder().setBucket(store.setBucketProperties(
        r.getVolume(), r.getBucket(),
        r.hasOwner() ? r.getOwner() : null,
        r.hasQuotaInBytes() ? r.getQuotaInBytes() : null,
        r.hasQuotaInNamespace() ? r.getQuotaInNamespace() : null)).build();
  }

  private OpenKeyResponse openKey(OpenKeyRequest r) {
    OpenKeySession s = store.openKey(r.getVolume(), r.getBucket(), r.getKey(), r.getOwner());
    return OpenKeyResponse.newBuilder().setClientId(s.clientId()).setOpenKey(s.openKey()).build();
  }

  private CommitKeyResponse commitKey(CommitKeyRequest r) {
    return CommitKeyResponse.newBuilder().setKey(store.commitKey(r.getVolume(), r.getBucket(),
        r.getKey(), r.getClientId(), r.getDataSize())).build();
  }

  private CreateFileResponse createFile(CreateFileRequest r) {
    OpenKeySession s = store.createFile(r.getVolume(), r.getBucket(), r.getPath(), r.getOwner());
    return CreateFileResponse.newBuilder().setClientId(s.clientId()).setOpenFile(s.openKey())
        .build();
  }

  private CommitFileResponse commitFile(CommitFileRequest r) {
    return CommitFileResponse.newBuilder().setFile(store.commitFile(r.getVolume(), r.getBucket(),
        r.getPath(), r.getClientId(), uint64("Data size", r.getDataSize()))).build();
  }

  private DeleteDirectoryResponse deleteDirectory(DeleteDirectoryRequest r) {
    store.deleteDirectory(r.getVolume(), r.getBucket(), r.getPath(), r.getRecursive());
    return DeleteDirectoryResponse.getDefaultInstance();
  }

  private InitiateMultipartUploadResponse initiate(InitiateMultipartUploadRequest r) {
    return InitiateMultipartUploadResponse.newBuilder().setUploadId(store.initiateMultipartUpload(
        r.getVolume(), r.getBucket(), r.getKey(), r.getOwner())).build();
  }

  private CommitMultipartPartResponse commitPart(CommitMultipartPartRequest r) {
    return CommitMultipartPartResponse.newBuilder().setPart(store.commitPart(r.getVolume(),
        r.getBucket(), r.getKey(), r.getUploadId(), uint32(r.getPartNumber()),
        uint64("Part size", r.getSize()), r.getEtag())).build();
  }

  private CompleteMultipartUploadResponse complete(CompleteMultipartUploadRequest r) {
    List<CompletedPart> parts = new ArrayList<>(r.getPartsCount());
    for (io.sediment.proto.om.CompletedPart p : r.getPartsList()) {
      parts.add(new CompletedPart(uint32(p.getPartNumber()), p.getEtag()));
    }
    return CompleteMultipartUploadResponse.newBuilder().setKey(store.completeMultipartUpload(
        r.getVolume(), r.getBucket(), r.getKey(), r.getUploadId(), parts)).build();
  }

  private CreateSnapshotResponse createSnapshot(CreateSnapshotRequest r) {
    String name = r.getName().isEmpty() ? generatedSnapshotName(Instant.now()) : r.getName();
    return CreateSnapshotResponse.newBuilder().setSnapshot(
        store.createSnapshot(r.getVolume(), r.getBucket(), name)).build();
  }

  /**
   * The name of a snapshot created without one: {@code s} + the UTC time to the millisecond
   * ({@code s20250131-235959.123}), a valid snapshot name.
   */
  public static String generatedSnapshotName(Instant at) {
    return SNAPSHOT_NAME.format(at);
  }

  /** A uint32 field as an int: values above {@code Integer.MAX_VALUE} become it (out of range). */
  public static int uint32(int value) {
    return value < 0 ? Integer.MAX_VALUE : value;
  }

  /** A uint64 field as a long: values above {@code Long.MAX_VALUE} are INVALID_ARGUMENT. */
  public static long uint64(String what, long value) {
    if (value < 0) {
      throw OmException.invalid(what + " " + Long.toUnsignedString(value)
          + " is too large (at most " + Long.MAX_VALUE + ")");
    }
    return value;
  }

  /** The wire form of a facade {@link FileStatus}: the same fields, one to one. */
  public static io.sediment.proto.om.FileStatus toProto(FileStatus s) {
    return io.sediment.proto.om.FileStatus.newBuilder()
        .setPath(s.path())
        .setIsDirectory(s.isDirectory())
        .setSize(s.size())
        .setObjectId(s.objectId())
        .setParentId(s.parentId())
        .setCreationTime(s.creationTime())
        .setModificationTime(s.modificationTime())
        .setOwner(s.owner() == null ? "" : s.owner())
        .build();
  }
}
