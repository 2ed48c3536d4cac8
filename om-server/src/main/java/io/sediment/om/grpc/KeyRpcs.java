package io.sediment.om.grpc;

import static io.sediment.om.grpc.WireValues.nz;
import static io.sediment.om.grpc.WireValues.token;

import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.openfiles.OpenFileEntry;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitKeyResponse;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResponse;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListObjectsV1Request;
import io.sediment.proto.om.ListObjectsV1Response;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListOpenFilesRequest;
import io.sediment.proto.om.ListOpenFilesResponse;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.LookupKeyResponse;
import io.sediment.proto.om.OmLogEntry;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyEntry;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.RenameKeyRequest;
import io.sediment.proto.om.RenameKeyResponse;

/**
 * The object-key RPCs of {@code OmService}: open, commit, look up, delete and rename a key, list
 * keys (paged with a token), S3 ListObjects V1 and V2, and a bucket's open keys; each is one facade
 * call.
 *
 * <p>Responses expose what the facade returns: RenameKey the renamed key, the S3 listings their
 * markers and exact truncation, ListOpenFiles the bucket's maintained open-key count.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record KeyRpcs(OmMetadataStore store, WireValues wire) {

  /** Binds this area's RPCs: reads and writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.write(OmServiceGrpc.getOpenKeyMethod(), OmLogEntry.Builder::setOpenKey,
        OmLogEntry::getOpenKey, this::openKey);
    b.write(OmServiceGrpc.getCommitKeyMethod(), OmLogEntry.Builder::setCommitKey,
        OmLogEntry::getCommitKey, this::commitKey);
    b.read(OmServiceGrpc.getLookupKeyMethod(), this::lookupKey);
    b.write(OmServiceGrpc.getDeleteKeyMethod(), OmLogEntry.Builder::setDeleteKey,
        OmLogEntry::getDeleteKey, this::deleteKey);
    b.write(OmServiceGrpc.getRenameKeyMethod(), OmLogEntry.Builder::setRenameKey,
        OmLogEntry::getRenameKey, this::renameKey);
    b.read(OmServiceGrpc.getListKeysMethod(), this::listKeys);
    b.read(OmServiceGrpc.getListObjectsV1Method(), this::listObjectsV1);
    b.read(OmServiceGrpc.getListObjectsV2Method(), this::listObjectsV2);
    b.read(OmServiceGrpc.getListOpenFilesMethod(), this::listOpenFiles);
  }

  OpenKeyResponse openKey(OpenKeyRequest req) {
    OpenKeySession session = store.openKey(req.getVolume(), req.getBucket(), req.getKey(),
        req.getOwner());
    return OpenKeyResponse.newBuilder().setClientId(session.clientId())
        .setOpenKey(session.openKey()).build();
  }

  CommitKeyResponse commitKey(CommitKeyRequest req) {
    return CommitKeyResponse.newBuilder()
        .setKey(store.commitKey(req.getVolume(), req.getBucket(), req.getKey(), req.getClientId(),
            req.getDataSize(), req.getMetadataMap()))
        .build();
  }

  LookupKeyResponse lookupKey(LookupKeyRequest req) {
    return LookupKeyResponse.newBuilder()
        .setKey(store.lookupKey(req.getVolume(), req.getBucket(), req.getKey())).build();
  }

  DeleteKeyResponse deleteKey(DeleteKeyRequest req) {
    store.deleteKey(req.getVolume(), req.getBucket(), req.getKey());
    return DeleteKeyResponse.getDefaultInstance();
  }

  RenameKeyResponse renameKey(RenameKeyRequest req) {
    return RenameKeyResponse.newBuilder()
        .setKey(store.renameKey(req.getVolume(), req.getBucket(), req.getFromKey(), req.getToKey()))
        .build();
  }

  ListKeysResponse listKeys(ListKeysRequest req) {
    ListPage<KeyInfo> page = store.listKeys(req.getVolume(), req.getBucket(), req.getPrefix(),
        req.getStartAfter(), wire.pageSize(req.hasMaxKeys(), req.getMaxKeys()),
        token(req.getPageToken()));
    return ListKeysResponse.newBuilder().addAllKeys(page.items())
        .setTruncated(page.truncated()).setNextPageToken(token(page.nextToken())).build();
  }

  ListObjectsV1Response listObjectsV1(ListObjectsV1Request req) {
    ListObjectsV1Result r = store.listObjectsV1(new io.sediment.om.listing.ListObjectsV1Request(
        req.getVolume(), req.getBucket(), req.getPrefix(), req.getDelimiter(), req.getMarker(),
        wire.pageSize(req.hasMaxKeys(), req.getMaxKeys())));
    return ListObjectsV1Response.newBuilder()
        .addAllContents(r.contents())
        .addAllCommonPrefixes(r.commonPrefixes())
        .setIsTruncated(r.truncated())
        .setNextMarker(nz(r.nextMarker()))
        .build();
  }

  ListObjectsV2Response listObjectsV2(ListObjectsV2Request req) {
    ListObjectsV2Result r = store.listObjectsV2(new io.sediment.om.listing.ListObjectsV2Request(
        req.getVolume(), req.getBucket(), req.getPrefix(), req.getDelimiter(),
        req.getStartAfter(), wire.pageSize(req.hasMaxKeys(), req.getMaxKeys()),
        token(req.getContinuationToken())));
    return ListObjectsV2Response.newBuilder()
        .addAllContents(r.contents())
        .addAllCommonPrefixes(r.commonPrefixes())
        .setKeyCount(r.keyCount())
        .setIsTruncated(r.truncated())
        .setNextContinuationToken(token(r.nextContinuationToken()))
        .build();
  }

  ListOpenFilesResponse listOpenFiles(ListOpenFilesRequest req) {
    OpenFilesPage page = store.openFiles().list(req.getVolume(), req.getBucket(),
        wire.pageSize(req.hasMaxKeys(), req.getMaxKeys()), token(req.getPageToken()));
    ListOpenFilesResponse.Builder out = ListOpenFilesResponse.newBuilder();
    for (OpenFileEntry e : page.entries()) {
      out.addOpenKeys(OpenKeyEntry.newBuilder().setPath(e.path()).setClientId(e.clientId())
          .setKey(e.info()));
    }
    return out.setTotalOpenKeyCount(page.totalOpenKeyCount())
        .setTruncated(page.truncated())
        .setNextPageToken(token(page.nextToken()))
        .build();
  }
}
