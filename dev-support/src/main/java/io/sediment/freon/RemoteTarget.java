package io.sediment.freon;

import io.grpc.ChannelCredentials;
import io.grpc.CompositeChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.auth.BearerCallCredentials;
import io.sediment.om.tls.TlsMaterial;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitFileRequest;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateFileRequest;
import io.sediment.proto.om.CreateFileResponse;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * A running server at {@code host:port}, plaintext or TLS (trusting a CA file), with or without
 * a bearer token: the target without floors (its server has no echo and its store is not in
 * this process). Prefills through the service.
 */
final class RemoteTarget implements FreonTarget {

  private final String target;
  private final ManagedChannel channel;
  private final int prefillThreads;

  /**
   * @param ca CA certificate file to trust over TLS, or {@code null} for plaintext
   * @param token bearer token for every call, or {@code null}
   */
  RemoteTarget(String target, Path ca, String token, int prefillThreads) throws IOException {
    ChannelCredentials credentials = ca == null ? InsecureChannelCredentials.create()
        : TlsMaterial.load(null, null, ca).channelCredentials();
    if (token != null) {
      credentials = CompositeChannelCredentials.create(credentials,
          new BearerCallCredentials(token));
    }
    this.target = target;
    this.channel = Grpc.newChannelBuilder(target, credentials).build();
    this.prefillThreads = prefillThreads;
  }

  @Override
  public void prepare(Names names, long keys, long files, PrintStream progress)
      throws InterruptedException {
    OmServiceGrpc.OmServiceBlockingStub om = OmServiceGrpc.newBlockingStub(channel);
    ignoreExisting(() -> om.createVolume(CreateVolumeRequest.newBuilder()
        .setVolume(names.volume()).setOwner("freon").build()));
    ignoreExisting(() -> om.createBucket(CreateBucketRequest.newBuilder()
        .setVolume(names.volume()).setBucket(names.bucket())
        .setLayout(BucketLayout.OBJECT_STORE).build()));
    ignoreExisting(() -> om.createBucket(CreateBucketRequest.newBuilder()
        .setVolume(names.volume()).setBucket(names.fsoBucket())
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build()));
    Prefill.run("keys", keys, prefillThreads, i -> {
      String name = KeySpace.key(i);
      OpenKeyResponse open = om.openKey(OpenKeyRequest.newBuilder().setVolume(names.volume())
          .setBucket(names.bucket()).setKey(name).build());
      om.commitKey(CommitKeyRequest.newBuilder().setVolume(names.volume())
          .setBucket(names.bucket()).setKey(name).setClientId(open.getClientId())
          .setDataSize(ServiceCalls.DATA_SIZE).build());
    }, progress);
    Prefill.run("FSO files", files, prefillThreads, i -> {
      String name = KeySpace.file(i);
      CreateFileResponse open = om.createFile(CreateFileRequest.newBuilder()
          .setVolume(names.volume()).setBucket(names.fsoBucket()).setPath(name).build());
      om.commitFile(CommitFileRequest.newBuilder().setVolume(names.volume())
          .setBucket(names.fsoBucket()).setPath(name).setClientId(open.getClientId())
          .setDataSize(ServiceCalls.DATA_SIZE).build());
    }, progress);
  }

  private static void ignoreExisting(Runnable create) {
    try {
      create.run();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
        throw e;
      }
    }
  }

  @Override
  public ManagedChannel channel() {
    return channel;
  }

  @Override
  public EchoCalls echo(CallSizes sizes, Channel channel) {
    return null;
  }

  @Override
  public RawCalls raw() {
    return null;
  }

  @Override
  public CallTimes serverCallTimes() {
    return CallTimes.NONE;
  }

  @Override
  public String describe() {
    return target;
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
