package io.sediment.om.grpc;

import static io.sediment.om.grpc.WireValues.nz;
import static io.sediment.om.grpc.WireValues.token;
import static io.sediment.om.grpc.WireValues.uint64;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.fso.FileStatus;
import io.sediment.om.listing.ListPage;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CommitFileResponse;
import io.sediment.proto.om.CreateDirectoryRequest;
import io.sediment.proto.om.CreateDirectoryResponse;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.DeleteDirectoryRequest;
import io.sediment.proto.om.DeleteDirectoryResponse;
import io.sediment.proto.om.DeleteFileRequest;
import io.sediment.proto.om.DeleteFileResponse;
import io.sediment.proto.om.GetFileStatusRequest;
import io.sediment.proto.om.GetFileStatusResponse;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.LookupFileRequest;
import io.sediment.proto.om.LookupFileResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.RenameRequest;
import io.sediment.proto.om.RenameResponse;

/**
 * The file-system RPCs of {@code OmService} (FILE_SYSTEM_OPTIMIZED buckets): create a directory,
 * create and commit a file, look up a file, get a path's status, delete a file or a directory,
 * rename and list a directory, each one facade call. They return the facade's {@link FileStatus}
 * as the wire {@code FileStatus}, field for field ({@link #toProto}); CreateFile answers the client
 * id and the open row (its replication config decided before the write is logged:
 * {@link ReplicationChoice}); a ListStatus start key is a full path relative to the bucket, exclusive.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record FileSystemRpcs(OmMetadataStore store, WireValues wire) {

  /** Binds this area's RPCs: reads and writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.write(OmServiceGrpc.getCreateDirectoryMethod(), OmLogEntry.Builder::setCreateDirectory,
        OmLogEntry::getCreateDirectory, this::createDirectory);
    b.writeDecided(OmServiceGrpc.getCreateFileMethod(), new ReplicationChoice(store)::decide,
        OmLogEntry.Builder::setCreateFile, OmLogEntry::getCreateFile, this::createFile);
    b.write(OmServiceGrpc.getCommitFileMethod(), OmLogEntry.Builder::setCommitFile,
        OmLogEntry::getCommitFile, this::commitFile);
    b.read(OmServiceGrpc.getLookupFileMethod(), this::lookupFile);
    b.read(OmServiceGrpc.getGetFileStatusMethod(), this::getFileStatus);
    b.write(OmServiceGrpc.getDeleteFileMethod(), OmLogEntry.Builder::setDeleteFile,
        OmLogEntry::getDeleteFile, this::deleteFile);
    b.write(OmServiceGrpc.getDeleteDirectoryMethod(), OmLogEntry.Builder::setDeleteDirectory,
        OmLogEntry::getDeleteDirectory, this::deleteDirectory);
    b.write(OmServiceGrpc.getRenameMethod(), OmLogEntry.Builder::setRename,
        OmLogEntry::getRename, this::rename);
    b.read(OmServiceGrpc.getListStatusMethod(), this::listStatus);
  }

  CreateDirectoryResponse createDirectory(CreateDirectoryRequest req) {
    return CreateDirectoryResponse.newBuilder()
        .setStatus(toProto(store.fso().createDirectory(req.getVolume(), req.getBucket(), req.getPath())))
        .build();
  }

  CreateFileResponse createFile(CreateFileRequest req) {
    OpenKeySession session = store.fso().createFile(req.getVolume(), req.getBucket(), req.getPath(),
        req.getOwner(), ReplicationChoice.applied(req.hasReplicationConfig(),
            req.getReplicationConfig()));
    return CreateFileResponse.newBuilder().setClientId(session.clientId())
        .setOpenFile(session.openKey()).build();
  }

  CommitFileResponse commitFile(CommitFileRequest req) {
    return CommitFileResponse.newBuilder()
        .setFile(store.fso().commitFile(req.getVolume(), req.getBucket(), req.getPath(),
            req.getClientId(), uint64("Data size", req.getDataSize()), req.getMetadataMap()))
        .build();
  }

  LookupFileResponse lookupFile(LookupFileRequest req) {
    return LookupFileResponse.newBuilder()
        .setFile(store.fso().lookupFile(req.getVolume(), req.getBucket(), req.getPath())).build();
  }

  GetFileStatusResponse getFileStatus(GetFileStatusRequest req) {
    return GetFileStatusResponse.newBuilder()
        .setStatus(toProto(store.fso().getFileStatus(req.getVolume(), req.getBucket(), req.getPath())))
        .build();
  }

  DeleteFileResponse deleteFile(DeleteFileRequest req) {
    store.fso().deleteFile(req.getVolume(), req.getBucket(), req.getPath());
    return DeleteFileResponse.getDefaultInstance();
  }

  DeleteDirectoryResponse deleteDirectory(DeleteDirectoryRequest req) {
    store.fso().deleteDirectory(req.getVolume(), req.getBucket(), req.getPath(), req.getRecursive());
    return DeleteDirectoryResponse.getDefaultInstance();
  }

  RenameResponse rename(RenameRequest req) {
    return RenameResponse.newBuilder()
        .setStatus(toProto(store.fso().rename(req.getVolume(), req.getBucket(), req.getFromPath(),
            req.getToPath())))
        .build();
  }

  ListStatusResponse listStatus(ListStatusRequest req) {
    ListPage<FileStatus> page = store.fso().listStatus(req.getVolume(), req.getBucket(),
        req.getPath(), req.getRecursive(), req.getStartKey(),
        wire.pageSize(req.hasNumEntries(), req.getNumEntries()),
        token(req.getPageToken()));
    ListStatusResponse.Builder out = ListStatusResponse.newBuilder();
    for (FileStatus s : page.items()) {
      out.addStatuses(toProto(s));
    }
    return out.setTruncated(page.truncated()).setNextPageToken(token(page.nextToken())).build();
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
