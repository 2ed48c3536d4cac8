package io.sediment.om.grpc;

import static io.sediment.om.grpc.WireValues.nz;
import static io.sediment.om.grpc.WireValues.uint32;
import static io.sediment.om.grpc.WireValues.uint64;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.multipart.CompletedPart;
import io.sediment.om.multipart.MultipartUploadListing;
import io.sediment.om.multipart.PartListing;
import io.sediment.proto.om.AbortMultipartUploadRequest;
import io.sediment.proto.om.AbortMultipartUploadResponse;
import io.sediment.proto.om.CommitMultipartPartRequest;
import io.sediment.proto.om.CommitMultipartPartResponse;
import io.sediment.proto.om.CompleteMultipartUploadRequest;
import io.sediment.proto.om.CompleteMultipartUploadResponse;
import io.sediment.proto.om.InitiateMultipartUploadRequest;
import io.sediment.proto.om.InitiateMultipartUploadResponse;
import io.sediment.proto.om.ListMultipartUploadsRequest;
import io.sediment.proto.om.ListMultipartUploadsResponse;
import io.sediment.proto.om.ListPartsRequest;
import io.sediment.proto.om.ListPartsResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import java.util.ArrayList;
import java.util.List;

/**
 * The multipart-upload RPCs of {@code OmService}: initiate, commit a part, complete, abort, list
 * an upload's parts and list a bucket's uploads, each one facade call. Part numbers are uint32 (one
 * above {@code Integer.MAX_VALUE} stays out of range); a part size above {@code Long.MAX_VALUE} is
 * INVALID_ARGUMENT. An initiation's entry carries the completed key's replication config, decided
 * before it is logged ({@link ReplicationChoice}). The listings answer the S3 markers for the next page.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record MultipartRpcs(OmMetadataStore store, WireValues wire) {

  /** Binds this area's RPCs: reads and writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.writeDecided(OmServiceGrpc.getInitiateMultipartUploadMethod(),
        new ReplicationChoice(store)::decide, OmLogEntry.Builder::setInitiateMultipartUpload,
        OmLogEntry::getInitiateMultipartUpload, this::initiate);
    b.write(OmServiceGrpc.getCommitMultipartPartMethod(), OmLogEntry.Builder::setCommitMultipartPart,
        OmLogEntry::getCommitMultipartPart, this::commitPart);
    b.write(OmServiceGrpc.getCompleteMultipartUploadMethod(), OmLogEntry.Builder::setCompleteMultipartUpload,
        OmLogEntry::getCompleteMultipartUpload, this::complete);
    b.write(OmServiceGrpc.getAbortMultipartUploadMethod(), OmLogEntry.Builder::setAbortMultipartUpload,
        OmLogEntry::getAbortMultipartUpload, this::abort);
    b.read(OmServiceGrpc.getListPartsMethod(), this::listParts);
    b.read(OmServiceGrpc.getListMultipartUploadsMethod(), this::listUploads);
  }

  InitiateMultipartUploadResponse initiate(InitiateMultipartUploadRequest req) {
    return InitiateMultipartUploadResponse.newBuilder()
        .setUploadId(store.multipart().initiate(req.getVolume(), req.getBucket(), req.getKey(),
            req.getOwner(), ReplicationChoice.applied(req.hasReplicationConfig(),
                req.getReplicationConfig())))
        .build();
  }

  CommitMultipartPartResponse commitPart(CommitMultipartPartRequest req) {
    return CommitMultipartPartResponse.newBuilder()
        .setPart(store.multipart().commitPart(req.getVolume(), req.getBucket(), req.getKey(),
            req.getUploadId(), uint32(req.getPartNumber()), uint64("Part size", req.getSize()),
            req.getEtag()))
        .build();
  }

  CompleteMultipartUploadResponse complete(CompleteMultipartUploadRequest req) {
    List<CompletedPart> parts = new ArrayList<>(req.getPartsCount());
    for (io.sediment.proto.om.CompletedPart p : req.getPartsList()) {
      parts.add(new CompletedPart(uint32(p.getPartNumber()), p.getEtag()));
    }
    return CompleteMultipartUploadResponse.newBuilder()
        .setKey(store.multipart().complete(req.getVolume(), req.getBucket(), req.getKey(),
            req.getUploadId(), parts))
        .build();
  }

  AbortMultipartUploadResponse abort(AbortMultipartUploadRequest req) {
    store.multipart().abort(req.getVolume(), req.getBucket(), req.getKey(),
        req.getUploadId());
    return AbortMultipartUploadResponse.getDefaultInstance();
  }

  ListPartsResponse listParts(ListPartsRequest req) {
    PartListing page = store.multipart().listParts(req.getVolume(), req.getBucket(), req.getKey(),
        req.getUploadId(), uint32(req.getPartNumberMarker()),
        wire.pageSize(req.hasMaxParts(), req.getMaxParts()));
    return ListPartsResponse.newBuilder()
        .addAllParts(page.parts())
        .setIsTruncated(page.truncated())
        .setNextPartNumberMarker(page.nextPartNumberMarker())
        .build();
  }

  ListMultipartUploadsResponse listUploads(ListMultipartUploadsRequest req) {
    MultipartUploadListing page = store.multipart().list(req.getVolume(), req.getBucket(),
        req.getPrefix(), req.getKeyMarker(), req.getUploadIdMarker(),
        wire.pageSize(req.hasMaxUploads(), req.getMaxUploads()));
    return ListMultipartUploadsResponse.newBuilder()
        .addAllUploads(page.uploads())
        .setIsTruncated(page.truncated())
        .setNextKeyMarker(nz(page.nextKeyMarker()))
        .setNextUploadIdMarker(nz(page.nextUploadIdMarker()))
        .build();
  }
}
