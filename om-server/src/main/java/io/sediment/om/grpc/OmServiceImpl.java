package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.multipart.PartListing;
import io.sediment.om.openfiles.OpenFileEntry;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.proto.om.AbortMultipartUploadRequest;
import io.sediment.proto.om.AbortMultipartUploadResponse;
import io.sediment.proto.om.BucketInfo;
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
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateDirectoryResponse;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.CreateSnapshotRequest;
import io.sediment.proto.om.CreateSnapshotResponse;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.DeleteBucketResponse;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.DeleteDirectoryResponse;
import io.sediment.proto.om.DeleteFileRequest;
import io.sediment.proto.om.DeleteFileResponse;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResponse;
import io.sediment.proto.om.DeleteSnapshotRequest;
import io.sediment.proto.om.DeleteSnapshotResponse;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.DeleteVolumeResponse;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.GetBucketResponse;
import io.sediment.proto.om.GetFileStatusRequest;
import io.sediment.proto.om.GetFileStatusResponse;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.GetVolumeResponse;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.InitiateMultipartUploadResponse;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListBucketsResponse;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListMultipartUploadsRequest;
import io.sediment.proto.om.ListMultipartUploadsResponse;
import io.sediment.proto.om.ListObjectsV1Request;
import io.sediment.proto.om.ListObjectsV1Response;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListOpenFilesResponse;
import io.sediment.proto.om.ListPartsRequest;
import io.sediment.proto.om.ListPartsResponse;
import io.sediment.proto.om.ListSnapshotsRequest;
import io.sediment.proto.om.ListSnapshotsResponse;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import io.sediment.proto.om.LookupFileRequest;
import io.sediment.proto.om.LookupFileResponse;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.LookupKeyResponse;
import io.sediment.proto.om.LookupSnapshotKeyRequest;
import io.sediment.proto.om.LookupSnapshotKeyResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RenameKeyRequest;
import io.sediment.proto.om.RenameKeyResponse;
import io.sediment.proto.om.RenameRequest;
import io.sediment.proto.om.RenameResponse;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import io.sediment.proto.om.SetBucketPropertiesResponse;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import io.sediment.proto.om.SetVolumePropertiesResponse;
import io.sediment.proto.om.SnapshotInfo;
import io.sediment.proto.om.VolumeInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code OmService}: each RPC is one call of the {@link OmMetadataStore} facade, run through
 * {@link UnaryCalls} (deadline and cancel checks, error mapping by {@link GrpcStatuses}).
 *
 * <p>Request conventions: empty strings mean "not given"; an absent page size means the store's
 * page cap and an explicit 0 the facade's empty page; continuation tokens travel as the bytes of
 * the facade's opaque token text.
 *
 * <p>Responses expose what the facade returns: S3 listings their markers and exact truncation,
 * ListOpenFiles the bucket's maintained open-key count, snapshot writes the snapshot row. A
 * CreateSnapshot without a name gets {@link #generatedSnapshotName(Instant)}.
 *
 * <p>The file-system RPCs (FILE_SYSTEM_OPTIMIZED buckets) return the facade's
 * {@link FileStatus} as the wire {@code FileStatus}, field for field ({@link #toProto}); a
 * ListStatus start key is a full path relative to the bucket, exclusive.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
public final class OmServiceImpl extends OmServiceGrpc.OmServiceImplBase {

  private static final DateTimeFormatter SNAPSHOT_NAME =
      DateTimeFormatter.ofPattern("'s'yyyyMMdd-HHmmss.SSS").withZone(ZoneOffset.UTC);

  private final OmMetadataStore store;

  public OmServiceImpl(OmMetadataStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  // ---- Volumes ----------------------------------------------------------------------------------

  @Override
  public void createVolume(CreateVolumeRequest req, StreamObserver<CreateVolumeResponse> obs) {
    UnaryCalls.run(obs, () -> CreateVolumeResponse.newBuilder()
        .setVolume(store.createVolume(req.getVolume(), req.getOwner())).build());
  }

  @Override
  public void getVolume(GetVolumeRequest req, StreamObserver<GetVolumeResponse> obs) {
    UnaryCalls.run(obs, () -> GetVolumeResponse.newBuilder()
        .setVolume(store.getVolumeInfo(req.getVolume())).build());
  }

  @Override
  public void setVolumeProperties(SetVolumePropertiesRequest req,
      StreamObserver<SetVolumePropertiesResponse> obs) {
    UnaryCalls.run(obs, () -> SetVolumePropertiesResponse.newBuilder()
        .setVolume(store.setVolumeProperties(req.getVolume(),
            req.hasOwner() ? req.getOwner() : null,
            req.hasQuotaInBytes() ? req.getQuotaInBytes() : null,
            req.hasQuotaInNamespace() ? req.getQuotaInNamespace() : null))
        .build());
  }

  @Override
  public void deleteVolume(DeleteVolumeRequest req, StreamObserver<DeleteVolumeResponse> obs) {
    UnaryCalls.run(obs, () -> {
      store.deleteVolume(req.getVolume());
      return DeleteVolumeResponse.getDefaultInstance();
    });
  }

  @Override
  public void listVolumes(ListVolumesRequest req, StreamObserver<ListVolumesResponse> obs) {
    UnaryCalls.run(obs, () -> {
      ListPage<VolumeInfo> page = store.listVolumes(req.getPrefix(), req.getStartAfter(),
          pageSize(req.hasMaxResults(), req.getMaxResults()));
      return ListVolumesResponse.newBuilder().addAllVolumes(page.items())
          .setTruncated(page.truncated()).build();
    });
  }

  // ---- Buckets ----------------------------------------------------------------------------------

  @Override
  public void createBucket(CreateBucketRequest req, StreamObserver<CreateBucketResponse> obs) {
    UnaryCalls.run(obs, () -> CreateBucketResponse.newBuilder()
        .setBucket(store.createBucket(req.getVolume(), req.getBucket(), req.getLayout(),
            req.getOwner(), req.getQuotaInBytes()))
        .build());
  }

  @Override
  public void getBucket(GetBucketRequest req, StreamObserver<GetBucketResponse> obs) {
    UnaryCalls.run(obs, () -> GetBucketResponse.newBuilder()
        .setBucket(store.getBucketInfo(req.getVolume(), req.getBucket())).build());
  }

  @Override
  public void setBucketProperties(SetBucketPropertiesRequest req,
      StreamObserver<SetBucketPropertiesResponse> obs) {
    UnaryCalls.run(obs, () -> SetBucketPropertiesResponse.newBuilder()
        .setBucket(store.setBucketProperties(req.getVolume(), req.getBucket(),
            req.hasOwner() ? req.getOwner() : null,
            req.hasQuotaInBytes() ? req.getQuotaInBytes() : null,
            req.hasQuotaInNamespace() ? req.getQuotaInNamespace() : null))
        .build());
  }

  @Override
  public void deleteBucket(DeleteBucketRequest req, StreamObserver<DeleteBucketResponse> obs) {
    UnaryCalls.run(obs, () -> {
      store.deleteBucket(req.getVolume(), req.getBucket());
      return DeleteBucketResponse.getDefaultInstance();
    });
  }

  @Override
  public void listBuckets(ListBucketsRequest req, StreamObserver<ListBucketsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      ListPage<BucketInfo> page = store.listBuckets(req.getVolume(), req.getPrefix(),
          req.getStartAfter(), pageSize(req.hasMaxResults(), req.getMaxResults()));
      return ListBucketsResponse.newBuilder().addAllBuckets(page.items())
          .setTruncated(page.truncated()).build();
    });
  }

  // ---- Keys -------------------------------------------------------------------------------------

  @Override
  public void openKey(OpenKeyRequest req, StreamObserver<OpenKeyResponse> obs) {
    UnaryCalls.run(obs, () -> {
      OpenKeySession session = store.openKey(req.getVolume(), req.getBucket(), req.getKey(),
          req.getOwner());
      return OpenKeyResponse.newBuilder().setClientId(session.clientId())
          .setOpenKey(session.openKey()).build();
    });
  }

  @Override
  public void commitKey(CommitKeyRequest req, StreamObserver<CommitKeyResponse> obs) {
    UnaryCalls.run(obs, () -> CommitKeyResponse.newBuilder()
        .setKey(store.commitKey(req.getVolume(), req.getBucket(), req.getKey(), req.getClientId(),
            req.getDataSize()))
        .build());
  }

  @Override
  public void lookupKey(LookupKeyRequest req, StreamObserver<LookupKeyResponse> obs) {
    UnaryCalls.run(obs, () -> LookupKeyResponse.newBuilder()
        .setKey(store.lookupKey(req.getVolume(), req.getBucket(), req.getKey())).build());
  }

  @Override
  public void deleteKey(DeleteKeyRequest req, StreamObserver<DeleteKeyResponse> obs) {
    UnaryCalls.run(obs, () -> {
      store.deleteKey(req.getVolume(), req.getBucket(), req.getKey());
      return DeleteKeyResponse.getDefaultInstance();
    });
  }

  @Override
  public void listKeys(ListKeysRequest req, StreamObserver<ListKeysResponse> obs) {
    UnaryCalls.run(obs, () -> {
      ListPage<KeyInfo> page = store.listKeys(req.getVolume(), req.getBucket(), req.getPrefix(),
          req.getStartAfter(), pageSize(req.hasMaxKeys(), req.getMaxKeys()),
          token(req.getPageToken()));
      return ListKeysResponse.newBuilder().addAllKeys(page.items())
          .setTruncated(page.truncated()).setNextPageToken(token(page.nextToken())).build();
    });
  }

  @Override
  public void listObjectsV2(ListObjectsV2Request req, StreamObserver<ListObjectsV2Response> obs) {
    UnaryCalls.run(obs, () -> {
      ListObjectsV2Result r = store.listObjectsV2(new io.sediment.om.listing.ListObjectsV2Request(
          req.getVolume(), req.getBucket(), req.getPrefix(), req.getDelimiter(),
          req.getStartAfter(), pageSize(req.hasMaxKeys(), req.getMaxKeys()),
          token(req.getContinuationToken())));
      return ListObjectsV2Response.newBuilder()
          .addAllContents(r.contents())
          .addAllCommonPrefixes(r.commonPrefixes())
          .setKeyCount(r.keyCount())
          .setIsTruncated(r.truncated())
          .setNextContinuationToken(token(r.nextContinuationToken()))
          .build();
    });
  }

  // ---- Keys: rename and S3 ListObjects V1 ---------------------------------------------------------

  @Override
  public void renameKey(RenameKeyRequest req, StreamObserver<RenameKeyResponse> obs) {
    UnaryCalls.run(obs, () -> RenameKeyResponse.newBuilder()
        .setKey(store.renameKey(req.getVolume(), req.getBucket(), req.getFromKey(), req.getToKey()))
        .build());
  }

  @Override
  public void listObjectsV1(ListObjectsV1Request req, StreamObserver<ListObjectsV1Response> obs) {
    UnaryCalls.run(obs, () -> {
      ListObjectsV1Result r = store.listObjectsV1(new io.sediment.om.listing.ListObjectsV1Request(
          req.getVolume(), req.getBucket(), req.getPrefix(), req.getDelimiter(), req.getMarker(),
          pageSize(req.hasMaxKeys(), req.getMaxKeys())));
      return ListObjectsV1Response.newBuilder()
          .addAllContents(r.contents())
          .addAllCommonPrefixes(r.commonPrefixes())
          .setIsTruncated(r.truncated())
          .setNextMarker(nz(r.nextMarker()))
          .build();
    });
  }

  // ---- Multipart uploads ------------------------------------------------------------------------

  @Override
  public void initiateMultipartUpload(InitiateMultipartUploadRequest req,
      StreamObserver<InitiateMultipartUploadResponse> obs) {
    UnaryCalls.run(obs, () -> InitiateMultipartUploadResponse.newBuilder()
        .setUploadId(store.multipart().initiate(req.getVolume(), req.getBucket(), req.getKey(),
            req.getOwner()))
        .build());
  }

  @Override
  public void commitMultipartPart(CommitMultipartPartRequest req,
      StreamObserver<CommitMultipartPartResponse> obs) {
    UnaryCalls.run(obs, () -> CommitMultipartPartResponse.newBuilder()
        .setPart(store.multipart().commitPart(req.getVolume(), req.getBucket(), req.getKey(),
            req.getUploadId(), uint32(req.getPartNumber()), uint64("Part size", req.getSize()),
            req.getEtag()))
        .build());
  }

  @Override
  public void completeMultipartUpload(CompleteMultipartUploadRequest req,
      StreamObserver<CompleteMultipartUploadResponse> obs) {
    UnaryCalls.run(obs, () -> {
      List<CompletedPart> parts = new ArrayList<>(req.getPartsCount());
      for (io.sediment.proto.om.CompletedPart p : req.getPartsList()) {
        parts.add(new CompletedPart(uint32(p.getPartNumber()), p.getEtag()));
      }
      return CompleteMultipartUploadResponse.newBuilder()
          .setKey(store.multipart().complete(req.getVolume(), req.getBucket(), req.getKey(),
              req.getUploadId(), parts))
          .build();
    });
  }

  @Override
  public void abortMultipartUpload(AbortMultipartUploadRequest req,
      StreamObserver<AbortMultipartUploadResponse> obs) {
    UnaryCalls.run(obs, () -> {
      store.multipart().abort(req.getVolume(), req.getBucket(), req.getKey(),
          req.getUploadId());
      return AbortMultipartUploadResponse.getDefaultInstance();
    });
  }

  @Override
  public void listParts(ListPartsRequest req, StreamObserver<ListPartsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      PartListing page = store.multipart().listParts(req.getVolume(), req.getBucket(), req.getKey(),
          req.getUploadId(), uint32(req.getPartNumberMarker()),
          pageSize(req.hasMaxParts(), req.getMaxParts()));
      return ListPartsResponse.newBuilder()
          .addAllParts(page.parts())
          .setIsTruncated(page.truncated())
          .setNextPartNumberMarker(page.nextPartNumberMarker())
          .build();
    });
  }

  @Override
  public void listMultipartUploads(ListMultipartUploadsRequest req,
      StreamObserver<ListMultipartUploadsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      MultipartUploadListing page = store.multipart().list(req.getVolume(), req.getBucket(),
          req.getPrefix(), req.getKeyMarker(), req.getUploadIdMarker(),
          pageSize(req.hasMaxUploads(), req.getMaxUploads()));
      return ListMultipartUploadsResponse.newBuilder()
          .addAllUploads(page.uploads())
          .setIsTruncated(page.truncated())
          .setNextKeyMarker(nz(page.nextKeyMarker()))
          .setNextUploadIdMarker(nz(page.nextUploadIdMarker()))
          .build();
    });
  }

  // ---- Open keys and files ----------------------------------------------------------------------

  @Override
  public void listOpenFiles(ListOpenFilesRequest req, StreamObserver<ListOpenFilesResponse> obs) {
    UnaryCalls.run(obs, () -> {
      OpenFilesPage page = store.openFiles().list(req.getVolume(), req.getBucket(),
          pageSize(req.hasMaxKeys(), req.getMaxKeys()), token(req.getPageToken()));
      ListOpenFilesResponse.Builder out = ListOpenFilesResponse.newBuilder();
      for (OpenFileEntry e : page.entries()) {
        out.addOpenKeys(OpenKeyEntry.newBuilder().setPath(e.path()).setClientId(e.clientId())
            .setKey(e.info()));
      }
      return out.setTotalOpenKeyCount(page.totalOpenKeyCount())
          .setTruncated(page.truncated())
          .setNextPageToken(token(page.nextToken()))
          .build();
    });
  }

  // ---- Snapshots --------------------------------------------------------------------------------

  @Override
  public void createSnapshot(CreateSnapshotRequest req, StreamObserver<CreateSnapshotResponse> obs) {
    UnaryCalls.run(obs, () -> CreateSnapshotResponse.newBuilder()
        .setSnapshot(store.snapshots().create(req.getVolume(), req.getBucket(),
            req.getName().isEmpty() ? generatedSnapshotName(Instant.now()) : req.getName()))
        .build());
  }

  @Override
  public void deleteSnapshot(DeleteSnapshotRequest req, StreamObserver<DeleteSnapshotResponse> obs) {
    UnaryCalls.run(obs, () -> DeleteSnapshotResponse.newBuilder()
        .setSnapshot(store.snapshots().delete(req.getVolume(), req.getBucket(), req.getName()))
        .build());
  }

  @Override
  public void listSnapshots(ListSnapshotsRequest req, StreamObserver<ListSnapshotsResponse> obs) {
    UnaryCalls.run(obs, () -> {
      ListPage<SnapshotInfo> page = store.snapshots().list(req.getVolume(), req.getBucket(),
          req.getPrefix(), req.getPreviousSnapshot(),
          pageSize(req.hasMaxEntries(), req.getMaxEntries()),
          token(req.getPageToken()), req.getIncludeDeleted());
      return ListSnapshotsResponse.newBuilder()
          .addAllSnapshots(page.items())
          .setTruncated(page.truncated())
          .setNextPageToken(token(page.nextToken()))
          .build();
    });
  }

  @Override
  public void lookupSnapshotKey(LookupSnapshotKeyRequest req,
      StreamObserver<LookupSnapshotKeyResponse> obs) {
    UnaryCalls.run(obs, () -> LookupSnapshotKeyResponse.newBuilder()
        .setKey(store.snapshots().lookupKey(req.getVolume(), req.getBucket(), req.getSnapshotName(),
            req.getKey()))
        .build());
  }

  // ---- Conversions ------------------------------------------------------------------------------

  /**
   * An optional page size: absent → the store's cap; present → as given, 0 included (the facade's
   * empty page); a uint32 above {@code Integer.MAX_VALUE} stays "too large".
   */
  private int pageSize(boolean present, int requested) {
    if (!present) {
      return store.options().maxListSize();
    }
    return uint32(requested);
  }

  /** A uint32 field as an int: values above {@code Integer.MAX_VALUE} become it (out of range). */
  private static int uint32(int value) {
    return value < 0 ? Integer.MAX_VALUE : value;
  }

  /** A uint64 field as a long: values above {@code Long.MAX_VALUE} are INVALID_ARGUMENT. */
  private static long uint64(String what, long value) {
    if (value < 0) {
      throw new OmException(OmException.Code.INVALID_ARGUMENT, what + " "
          + Long.toUnsignedString(value) + " is too large (at most "
          + Long.MAX_VALUE + ")");
    }
    return value;
  }

  /**
   * The name of a snapshot created without one: {@code s} + the UTC time to the millisecond
   * ({@code s20250131-235959.123}), a valid snapshot name.
   */
  static String generatedSnapshotName(Instant at) {
    return SNAPSHOT_NAME.format(at);
  }

  static String token(ByteString bytes) {
    return bytes.isEmpty() ? null : bytes.toStringUtf8();
  }

  static ByteString token(String token) {
    return token == null || token.isEmpty() ? ByteString.EMPTY : ByteString.copyFromUtf8(token);
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }

  // ---- File system (FSO) ------------------------------------------------------------------------

  @Override
  public void createDirectory(CreateDirectoryRequest req,
      StreamObserver<CreateDirectoryResponse> obs) {
    UnaryCalls.run(obs, () -> CreateDirectoryResponse.newBuilder()
        .setStatus(toProto(store.fso().createDirectory(req.getVolume(), req.getBucket(), req.getPath())))
        .build());
  }

  @Override
  public void createFile(CreateFileRequest req, StreamObserver<CreateFileResponse> obs) {
    UnaryCalls.run(obs, () -> {
      OpenKeySession session = store.fso().createFile(req.getVolume(), req.getBucket(), req.getPath(),
          req.getOwner());
      return CreateFileResponse.newBuilder().setClientId(session.clientId())
          .setOpenFile(session.openKey()).build();
    });
  }

  @Override
  public void commitFile(CommitFileRequest req, StreamObserver<CommitFileResponse> obs) {
    UnaryCalls.run(obs, () -> CommitFileResponse.newBuilder()
        .setFile(store.fso().commitFile(req.getVolume(), req.getBucket(), req.getPath(),
            req.getClientId(), uint64("Data size", req.getDataSize())))
        .build());
  }

  @Override
  public void lookupFile(LookupFileRequest req, StreamObserver<LookupFileResponse> obs) {
    UnaryCalls.run(obs, () -> LookupFileResponse.newBuilder()
        .setFile(store.fso().lookupFile(req.getVolume(), req.getBucket(), req.getPath())).build());
  }

  @Override
  public void getFileStatus(GetFileStatusRequest req, StreamObserver<GetFileStatusResponse> obs) {
    UnaryCalls.run(obs, () -> GetFileStatusResponse.newBuilder()
        .setStatus(toProto(store.fso().getFileStatus(req.getVolume(), req.getBucket(), req.getPath())))
        .build());
  }

  @Override
  public void deleteFile(DeleteFileRequest req, StreamObserver<DeleteFileResponse> obs) {
    UnaryCalls.run(obs, () -> {
      store.fso().deleteFile(req.getVolume(), req.getBucket(), req.getPath());
      return DeleteFileResponse.getDefaultInstance();
    });
  }

  @Override
  public void deleteDirectory(DeleteDirectoryRequest req,
      StreamObserver<DeleteDirectoryResponse> obs) {
    UnaryCalls.run(obs, () -> {
      store.fso().deleteDirectory(req.getVolume(), req.getBucket(), req.getPath(), req.getRecursive());
      return DeleteDirectoryResponse.getDefaultInstance();
    });
  }

  @Override
  public void rename(RenameRequest req, StreamObserver<RenameResponse> obs) {
    UnaryCalls.run(obs, () -> RenameResponse.newBuilder()
        .setStatus(toProto(store.fso().rename(req.getVolume(), req.getBucket(), req.getFromPath(),
            req.getToPath())))
        .build());
  }

  @Override
  public void listStatus(ListStatusRequest req, StreamObserver<ListStatusResponse> obs) {
    UnaryCalls.run(obs, () -> {
      ListPage<FileStatus> page = store.fso().listStatus(req.getVolume(), req.getBucket(),
          req.getPath(), req.getRecursive(), req.getStartKey(),
          pageSize(req.hasNumEntries(), req.getNumEntries()),
          token(req.getPageToken()));
      ListStatusResponse.Builder out = ListStatusResponse.newBuilder();
      for (FileStatus s : page.items()) {
        out.addStatuses(toProto(s));
      }
      return out.setTruncated(page.truncated()).setNextPageToken(token(page.nextToken())).build();
    });
  }

  /** The wire form of a facade {@link FileStatus}: the same fields, one to one. */
  static io.sediment.proto.om.FileStatus toProto(FileStatus s) {
    return io.sediment.proto.om.FileStatus.newBuilder()
        .setPath(s.path())
        .setIsDirectory(s.isDirectory())
        .setSize(s.size())
        .setObjectId(s.objectId())
        .setParentId(s.parentId())
        .setCreationTime(s.creationTime())
        .setModificationTime(s.modificationTime())
        .setOwner(nz(s.owner()))
        .build();
  }
}
