package io.sediment.om.grpc;

import static io.sediment.om.grpc.WireValues.nz;
import static io.sediment.om.grpc.WireValues.token;

import io.grpc.Status;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.auth.CallPrincipal;
import io.sediment.om.authz.RpcRights;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.keys.ObjectKeys.Deletion;
import io.sediment.om.listing.KeyRowView;
import io.sediment.om.listing.ListObjectsV1Result;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.om.listing.ListPage;
import io.sediment.om.openfiles.OpenFileEntry;
import io.sediment.om.openfiles.OpenFilesPage;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitKeyResponse;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResponse;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeysEntry;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The object-key RPCs of {@code OmService}: open, commit, look up, delete and rename a key,
 * delete a page of keys, list keys (paged with a token), S3 ListObjects V1 and V2, and a bucket's
 * open keys; each is one facade call.
 *
 * <p>OpenKey's entry carries the key's replication config as decided before it is logged
 * ({@link ReplicationChoice}).
 *
 * <p>DeleteKeys is the one write whose log entry carries a decision besides its request: when
 * calls are checked, the keys the caller may not delete ({@link RpcRights#deniedDeletes}, on the
 * serving replica before the entry is submitted); applying the entry leaves those keys alone and
 * reports them FAILED with PERMISSION_DENIED, so every replica writes and answers the same.
 *
 * <p>Responses expose what the facade returns: RenameKey the renamed key, the S3 listings their
 * markers and exact truncation, ListOpenFiles the bucket's maintained open-key count.
 *
 * <p>Thread-safe (stateless over a thread-safe store).
 */
record KeyRpcs(OmMetadataStore store, WireValues wire) {

  /** Binds this area's RPCs: reads and writes (each with its log entry field). */
  void bindTo(RpcBinder b) {
    b.writeDecided(OmServiceGrpc.getOpenKeyMethod(), new ReplicationChoice(store)::decide,
        OmLogEntry.Builder::setOpenKey, OmLogEntry::getOpenKey, this::openKey);
    b.write(OmServiceGrpc.getCommitKeyMethod(), OmLogEntry.Builder::setCommitKey,
        OmLogEntry::getCommitKey, this::commitKey);
    b.read(OmServiceGrpc.getLookupKeyMethod(), this::lookupKey);
    b.write(OmServiceGrpc.getDeleteKeyMethod(), OmLogEntry.Builder::setDeleteKey,
        OmLogEntry::getDeleteKey, this::deleteKey);
    RpcRights rights = b.rights();
    b.writeDecided(OmServiceGrpc.getDeleteKeysMethod(), req -> deleteKeysEntry(rights, req),
        OmLogEntry.Builder::setDeleteKeys, OmLogEntry::getDeleteKeys, this::deleteKeys);
    b.write(OmServiceGrpc.getRenameKeyMethod(), OmLogEntry.Builder::setRenameKey,
        OmLogEntry::getRenameKey, this::renameKey);
    b.read(OmServiceGrpc.getListKeysMethod(), this::listKeys);
    b.read(OmServiceGrpc.getListObjectsV1Method(), this::listObjectsV1);
    b.read(OmServiceGrpc.getListObjectsV2Method(), this::listObjectsV2);
    b.read(OmServiceGrpc.getListOpenFilesMethod(), this::listOpenFiles);
  }

  OpenKeyResponse openKey(OpenKeyRequest req) {
    OpenKeySession session = store.openKey(req.getVolume(), req.getBucket(), req.getKey(),
        req.getOwner(), ReplicationChoice.applied(req.hasReplicationConfig(),
            req.getReplicationConfig()));
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
    // The key goes out as stored, without a parse and an encoding (EncodedFields).
    return LookupKeyResponse.newBuilder()
        .setUnknownFields(EncodedFields.single(LookupKeyResponse.KEY_FIELD_NUMBER,
            store.lookupKeyEncoded(req.getVolume(), req.getBucket(), req.getKey())))
        .build();
  }

  DeleteKeyResponse deleteKey(DeleteKeyRequest req) {
    store.deleteKey(req.getVolume(), req.getBucket(), req.getKey());
    return DeleteKeyResponse.getDefaultInstance();
  }

  /**
   * The log entry of a DeleteKeys call: its request and, when {@code rights} checks calls, the
   * keys the caller may not delete.
   */
  DeleteKeysEntry deleteKeysEntry(RpcRights rights, DeleteKeysRequest req) {
    DeleteKeysEntry.Builder entry = DeleteKeysEntry.newBuilder().setRequest(req);
    int count = req.getKeysCount();
    // A list the store refuses whole (empty, above the cap) is not worth a check per key.
    if (rights == null || count == 0 || count > wire.maxListSize()) {
      return entry.build();
    }
    RpcRights.DeniedKeys denied = rights.deniedDeletes(CallPrincipal.current(), req.getVolume(),
        req.getBucket(), req.getKeysList());
    return entry.addAllDenied(denied.positions()).addAllDeniedMessages(denied.reasons()).build();
  }

  /**
   * Applies a DeleteKeys entry: one batch deleting every key not denied.
   *
   * @throws OmException INVALID_ARGUMENT for an entry whose denials do not
   *     match its keys, and as {@link OmMetadataStore#deleteKeys} rejects the request
   */
  DeleteKeysResponse deleteKeys(DeleteKeysEntry entry) {
    DeleteKeysRequest req = entry.getRequest();
    List<String> keys = req.getKeysList();
    if (entry.getDeniedCount() != entry.getDeniedMessagesCount()) {
      throw OmException.invalid("A DeleteKeys entry with "
          + entry.getDeniedCount() + " denied keys and " + entry.getDeniedMessagesCount()
          + " reasons");
    }
    Map<Integer, String> denied = new HashMap<>();
    for (int i = 0; i < entry.getDeniedCount(); i++) {
      denied.put(entry.getDenied(i), entry.getDeniedMessages(i));
    }
    List<Deletion> outcomes = store.deleteKeys(req.getVolume(), req.getBucket(), keys,
        denied.keySet());
    DeleteKeysResponse.Builder out = DeleteKeysResponse.newBuilder();
    for (int i = 0; i < keys.size(); i++) {
      DeleteKeyResult.Builder r = out.addResultsBuilder().setKey(keys.get(i));
      switch (outcomes.get(i)) {
        case DELETED -> r.setOutcome(DeleteKeyResult.Outcome.DELETED);
        case NOT_FOUND -> r.setOutcome(DeleteKeyResult.Outcome.NOT_FOUND);
        case SKIPPED -> r.setOutcome(DeleteKeyResult.Outcome.FAILED)
            .setErrorCode(Status.Code.PERMISSION_DENIED.name())
            .setMessage(denied.get(i));
      }
    }
    return out.build();
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
    KeyRowView view = KeyViews.rows(req.getView(), req.getViewValue());
    ListObjectsV1Result r = store.listObjectsV1(new io.sediment.om.listing.ListObjectsV1Request(
        req.getVolume(), req.getBucket(), req.getPrefix(), req.getDelimiter(), req.getMarker(),
        wire.pageSize(req.hasMaxKeys(), req.getMaxKeys()), view));
    return ListObjectsV1Response.newBuilder()
        .setUnknownFields(r.encodedColumns() != null
            ? EncodedFields.single(ListObjectsV1Response.COLUMNS_FIELD_NUMBER, r.encodedColumns())
            : EncodedFields.repeated(ListObjectsV1Response.CONTENTS_FIELD_NUMBER,
                r.encodedContents()))
        .addAllCommonPrefixes(r.commonPrefixes())
        .setIsTruncated(r.truncated())
        .setNextMarker(nz(r.nextMarker()))
        .build();
  }

  ListObjectsV2Response listObjectsV2(ListObjectsV2Request req) {
    KeyRowView view = KeyViews.rows(req.getView(), req.getViewValue());
    ListObjectsV2Result r = store.listObjectsV2(new io.sediment.om.listing.ListObjectsV2Request(
        req.getVolume(), req.getBucket(), req.getPrefix(), req.getDelimiter(),
        req.getStartAfter(), wire.pageSize(req.hasMaxKeys(), req.getMaxKeys()),
        token(req.getContinuationToken()), view));
    // The keys go out as stored (cut by the view as read, or gathered into columns), without a
    // parse and an encoding each (EncodedFields).
    return ListObjectsV2Response.newBuilder()
        .setUnknownFields(r.encodedColumns() != null
            ? EncodedFields.single(ListObjectsV2Response.COLUMNS_FIELD_NUMBER, r.encodedColumns())
            : EncodedFields.repeated(ListObjectsV2Response.CONTENTS_FIELD_NUMBER,
                r.encodedContents()))
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
