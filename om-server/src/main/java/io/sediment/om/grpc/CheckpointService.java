package io.sediment.om.grpc;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.StoreCheckpoint;
import io.sediment.proto.om.CheckpointChunk;
import io.sediment.proto.om.CheckpointFile;
import io.sediment.proto.om.CheckpointFileDigest;
import io.sediment.proto.om.CheckpointManifest;
import io.sediment.proto.om.FetchCheckpointRequest;
import io.sediment.proto.om.ReplicationServiceGrpc;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ReplicationService: sends a consistent copy of the whole store to a replica that asks for it
 * (see om_replication.proto for the stream's shape). The copy is a checkpoint taken for the call
 * and deleted after it, sent in chunks of at most {@link #CHUNK_BYTES} as fast as the receiver
 * reads them (the handler waits while the call's outbound buffer is full, so a slow receiver
 * never makes the sender hold the copy in memory). Thread-safe.
 */
final class CheckpointService extends ReplicationServiceGrpc.ReplicationServiceImplBase {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointService.class);
  static final int CHUNK_BYTES = 1 << 20;

  private final OmMetadataStore store;

  CheckpointService(OmMetadataStore store) {
    this.store = store;
  }

  @Override
  public void fetchCheckpoint(FetchCheckpointRequest request,
      StreamObserver<CheckpointChunk> observer) {
    ServerCallStreamObserver<CheckpointChunk> call =
        (ServerCallStreamObserver<CheckpointChunk>) observer;
    long started = System.nanoTime();
    try (StoreCheckpoint copy = store.replicaFiles().checkpoint()) {
      LOG.info("Sending a copy of the store at {} ({} files) to replica '{}'", copy.position(),
          copy.files().size(), request.getReplicaId());
      CheckpointManifest.Builder manifest = CheckpointManifest.newBuilder()
          .setTerm(copy.position().term()).setIndex(copy.position().index());
      long bytes = 0;
      byte[] buffer = new byte[CHUNK_BYTES];
      for (String name : copy.files()) {
        Path file = copy.dir().resolve(name);
        long size = Files.size(file);
        send(call, CheckpointChunk.newBuilder()
            .setFile(CheckpointFile.newBuilder().setPath(name).setSize(size)).build());
        CRC32C crc = new CRC32C();
        try (InputStream in = Files.newInputStream(file)) {
          for (int n; (n = in.readNBytes(buffer, 0, buffer.length)) > 0; ) {
            crc.update(buffer, 0, n);
            send(call, CheckpointChunk.newBuilder().setData(ByteString.copyFrom(buffer, 0, n))
                .build());
          }
        }
        bytes += size;
        manifest.addFiles(CheckpointFileDigest.newBuilder().setPath(name).setSize(size)
            .setCrc32C((int) crc.getValue()));
      }
      send(call, CheckpointChunk.newBuilder().setManifest(manifest).build());
      call.onCompleted();
      LOG.info("Sent the copy at {} to replica '{}': {} files, {} bytes in {} ms",
          copy.position(), request.getReplicaId(), copy.files().size(), bytes,
          (System.nanoTime() - started) / 1_000_000);
    } catch (CancellationException e) {
      LOG.warn("Replica '{}' stopped reading the copy: {}", request.getReplicaId(),
          e.getMessage());
    } catch (IOException e) {
      call.onError(Status.INTERNAL.withDescription("Cannot read the copy: " + e.getMessage())
          .asRuntimeException());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      call.onError(Status.CANCELLED.withDescription("Server shutting down").asRuntimeException());
    } catch (RuntimeException e) {
      call.onError(GrpcStatuses.toStatus(e).asRuntimeException());
    }
  }

  /**
   * Sends one chunk once the call can take it. The handler runs on the call's serialized
   * executor, so readiness callbacks would only run after it returns: it polls instead.
   */
  private static void send(ServerCallStreamObserver<CheckpointChunk> call, CheckpointChunk chunk)
      throws InterruptedException {
    while (!call.isReady()) {
      if (call.isCancelled()) {
        throw new CancellationException("the call was cancelled");
      }
      Thread.sleep(2);
    }
    if (call.isCancelled()) {
      throw new CancellationException("the call was cancelled");
    }
    call.onNext(chunk);
  }
}
