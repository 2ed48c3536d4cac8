package io.sediment.freon;

import com.google.protobuf.MessageLite;
import io.grpc.Channel;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CommitKeyResponse;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteKeyResponse;
import io.sediment.proto.om.DeleteKeyResult;
import io.sediment.proto.om.DeleteKeysRequest;
import io.sediment.proto.om.DeleteKeysResponse;
import io.sediment.proto.om.KeyView;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListStatusRequest;
import io.sediment.proto.om.ListStatusResponse;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.LookupKeyResponse;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;

/**
 * The measured work: each operation through OmService over one channel, recording the sizes of
 * its calls for the echo floor (of a sample: a parsed response's size is computed field by field,
 * work a real client does not do). ListObjectsV2 pages ask for one {@link KeyView}. Thread-safe
 * (one stub, shared).
 *
 * <p>A delete is one DeleteKey, a batch delete one DeleteKeys; a key a batch did not delete
 * fails the operation (the key space hands out existing keys only).
 */
final class ServiceCalls implements OpExecutor {

  /** Size of every created key's data, as CommitKey reports it. */
  static final long DATA_SIZE = 4096;

  private final OmServiceGrpc.OmServiceBlockingStub om;
  private final String volume;
  private final String bucket;
  private final String fsoBucket;
  private final KeySpace keys;
  private final CallSizes sizes;
  private final KeyView listView;

  ServiceCalls(Channel channel, Names names, KeySpace keys, CallSizes sizes, KeyView listView) {
    this.om = OmServiceGrpc.newBlockingStub(channel);
    this.volume = names.volume();
    this.bucket = names.bucket();
    this.fsoBucket = names.fsoBucket();
    this.keys = keys;
    this.sizes = sizes;
    this.listView = listView;
  }

  @Override
  public void run(Op op) {
    switch (op.type()) {
      case CREATE: {
        OpenKeyRequest open = OpenKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
            .setKey(op.name()).build();
        OpenKeyResponse opened = om.openKey(open);
        record(OpType.CREATE, 0, open, opened);
        CommitKeyRequest commit = CommitKeyRequest.newBuilder().setVolume(volume)
            .setBucket(bucket).setKey(op.name()).setClientId(opened.getClientId())
            .setDataSize(DATA_SIZE).build();
        CommitKeyResponse committed = om.commitKey(commit);
        record(OpType.CREATE, 1, commit, committed);
        keys.created(op.name());
        return;
      }
      case LOOKUP: {
        LookupKeyRequest r = LookupKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
            .setKey(op.name()).build();
        LookupKeyResponse a = om.lookupKey(r);
        record(OpType.LOOKUP, 0, r, a);
        return;
      }
      case LIST:
      case LIST_DELIMITER: {
        ListObjectsV2Request.Builder b = ListObjectsV2Request.newBuilder().setVolume(volume)
            .setBucket(bucket).setStartAfter(op.name()).setMaxKeys(KeySpace.PAGE)
            .setView(listView);
        if (op.type() == OpType.LIST_DELIMITER) {
          b.setDelimiter("/");
        }
        ListObjectsV2Request r = b.build();
        ListObjectsV2Response a = om.listObjectsV2(r);
        record(op.type(), 0, r, a);
        return;
      }
      case LIST_STATUS: {
        ListStatusRequest r = ListStatusRequest.newBuilder().setVolume(volume)
            .setBucket(fsoBucket).setPath("").setStartKey(op.name())
            .setNumEntries(KeySpace.PAGE).build();
        ListStatusResponse a = om.listStatus(r);
        record(OpType.LIST_STATUS, 0, r, a);
        return;
      }
      case DELETE: {
        DeleteKeyRequest r = DeleteKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
            .setKey(op.name()).build();
        DeleteKeyResponse a = om.deleteKey(r);
        record(OpType.DELETE, 0, r, a);
        return;
      }
      case DELETE_BATCH: {
        DeleteKeysRequest r = DeleteKeysRequest.newBuilder().setVolume(volume).setBucket(bucket)
            .addAllKeys(op.batch()).build();
        DeleteKeysResponse a = om.deleteKeys(r);
        record(OpType.DELETE_BATCH, 0, r, a);
        for (DeleteKeyResult k : a.getResultsList()) {
          if (k.getOutcome() != DeleteKeyResult.Outcome.DELETED) {
            throw new IllegalStateException("DeleteKeys did not delete a key: " + k.getOutcome());
          }
        }
        return;
      }
      default:
        throw new AssertionError(op.type());
    }
  }

  private void record(OpType type, int call, MessageLite request, MessageLite response) {
    if (sizes.sampling(type, call)) {
      sizes.record(type, call, request.getSerializedSize(), response.getSerializedSize());
    }
  }
}
