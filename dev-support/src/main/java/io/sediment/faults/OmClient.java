package io.sediment.faults;

import com.google.protobuf.ByteString;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A plaintext gRPC client of one server's OmService, every call with a deadline. Thread safe
 * (one channel shared by the writer threads). Calls throw {@link StatusRuntimeException} as the
 * stubs do.
 */
final class OmClient implements AutoCloseable {

  /** Pages a full listing may take before it is abandoned (bounds a broken server). */
  private static final int MAX_PAGES = 10_000;

  private final ManagedChannel channel;
  private final Duration deadline;

  OmClient(String target, Duration deadline) {
    this.channel = Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    this.deadline = deadline;
  }

  private OmServiceGrpc.OmServiceBlockingStub om() {
    return OmServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Creates the volume and the OBJECT_STORE bucket unless they exist. */
  void ensureBucket(String volume, String bucket) {
    try {
      om().createVolume(CreateVolumeRequest.newBuilder().setVolume(volume).setOwner("faults")
          .build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
        throw e;
      }
    }
    try {
      om().createBucket(CreateBucketRequest.newBuilder().setVolume(volume).setBucket(bucket)
          .setLayout(BucketLayout.OBJECT_STORE).build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
        throw e;
      }
    }
  }

  /** OpenKey then CommitKey; returns once the commit is acknowledged. */
  void commit(String volume, String bucket, String key, long size) {
    OpenKeyResponse open = om().openKey(OpenKeyRequest.newBuilder().setVolume(volume)
        .setBucket(bucket).setKey(key).build());
    om().commitKey(CommitKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key)
        .setClientId(open.getClientId()).setDataSize(size).build());
  }

  void delete(String volume, String bucket, String key) {
    om().deleteKey(DeleteKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key)
        .build());
  }

  /** True if the key is committed (LookupKey answers), false on NOT_FOUND. */
  boolean exists(String volume, String bucket, String key) {
    try {
      om().lookupKey(LookupKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
          .setKey(key).build());
      return true;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  /** Every committed key name of the bucket, in key order, paging with continuation tokens. */
  List<String> listKeys(String volume, String bucket) {
    List<String> out = new ArrayList<>();
    ByteString token = ByteString.EMPTY;
    for (int page = 0; page < MAX_PAGES; page++) {
      ListKeysResponse r = om().listKeys(ListKeysRequest.newBuilder().setVolume(volume)
          .setBucket(bucket).setPageToken(token).build());
      for (KeyInfo k : r.getKeysList()) {
        out.add(k.getKeyName());
      }
      if (!r.getTruncated()) {
        return out;
      }
      token = r.getNextPageToken();
    }
    throw new IllegalStateException("listing of " + volume + "/" + bucket + " did not end after "
        + MAX_PAGES + " pages");
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
