package io.sediment.om.grpc;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ServerInterceptor;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.proto.om.AdminServiceGrpc;
import io.sediment.proto.om.OmServiceGrpc;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A store in a directory, an {@link OmGrpcServer} over it on an ephemeral loopback port, and a
 * real channel to it; checkpoints go to {@link #checkpointRoot()}. {@link #close()} closes channel, server and store (each once).
 */
final class GrpcFixture implements AutoCloseable {

  final Path dir;
  final PrometheusRegistry registry = new PrometheusRegistry();
  OmMetadataStore store;
  final OmGrpcServer server;
  final ManagedChannel channel;
  final OmServiceGrpc.OmServiceBlockingStub om;
  final AdminServiceGrpc.AdminServiceBlockingStub admin;
  private boolean storeClosed;

  GrpcFixture(Path dir, OmStoreOptions options, int maxInbound, ServerInterceptor... extra)
      throws IOException {
    this.dir = dir;
    this.store = OmMetadataStore.open(dir, options);
    OmGrpcServer.Builder b = OmGrpcServer.builder(store).port(0).registry(registry)
        .maxInboundMessageBytes(maxInbound).drainTimeout(Duration.ofSeconds(5));
    try {
      b.checkpointRoot(CheckpointRoot.open(checkpointRoot()));
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    for (ServerInterceptor i : extra) {
      b.interceptor(i);
    }
    try {
      this.server = b.build().start();
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    this.channel = newChannel();
    this.om = OmServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    this.admin = AdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  GrpcFixture(Path dir, ServerInterceptor... extra) throws IOException {
    this(dir, OmStoreOptions.defaults(), OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES, extra);
  }

  /** Where the server writes checkpoints: "checkpoints" beside the store's directory. */
  Path checkpointRoot() {
    return dir.resolveSibling("checkpoints");
  }

  ManagedChannel newChannel() {
    return Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
        InsecureChannelCredentials.create()).build();
  }

  void closeStore() {
    if (!storeClosed) {
      storeClosed = true;
      store.close();
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.shutdown(Duration.ofSeconds(5));
    closeStore();
  }
}
