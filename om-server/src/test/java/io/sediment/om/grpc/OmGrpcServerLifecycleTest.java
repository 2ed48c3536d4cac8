package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.CreateVolumeResponse;
import io.sediment.proto.om.GetTableStatsRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deadlines, client cancels, a closed store and shutdown with calls in flight, through a real
 * channel.
 */
class OmGrpcServerLifecycleTest {

  @TempDir Path dir;
  private final GateInterceptor gate = new GateInterceptor();
  private GrpcFixture f;

  @AfterEach
  void stop() throws Exception {
    gate.release();
    if (f != null) {
      f.close();
    }
  }

  private void start(SyncPolicy sync) throws Exception {
    f = new GrpcFixture(dir.resolve("om"), OmStoreOptions.defaults().withSyncPolicy(sync),
        OmGrpcServer.DEFAULT_MAX_INBOUND_MESSAGE_BYTES, gate);
  }

  @Test
  void aWriteWhoseDeadlineExpiresBeforeItRunsIsNotApplied() throws Exception {
    start(SyncPolicy.PROCESS_CRASH_SAFE);
    f.om.listVolumes(ListVolumesRequest.getDefaultInstance()); // connected and warm
    gate.arm("CreateVolume");
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> f.om.withDeadlineAfter(1500, TimeUnit.MILLISECONDS)
            .createVolume(CreateVolumeRequest.newBuilder().setVolume("late-volume").build()));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
    assertTrue(gate.entered.await(10, TimeUnit.SECONDS));
    awaitCancelled();
    gate.release();
    assertTrue(gate.finished.await(10, TimeUnit.SECONDS));
    assertEquals(Status.Code.NOT_FOUND, assertThrows(StatusRuntimeException.class,
        () -> f.om.getVolume(GetVolumeRequest.newBuilder().setVolume("late-volume").build()))
        .getStatus().getCode(), "a call past its deadline must not be applied");
  }

  @Test
  void aClientCancelMidListingLeavesTheServerServingAndThePreviousTokenUsable() throws Exception {
    start(SyncPolicy.PROCESS_CRASH_SAFE);
    bucketWithKeys(30);
    List<String> seen = new ArrayList<>();
    ListKeysResponse p1 = listKeys(ByteString.EMPTY);
    ListKeysResponse p2 = listKeys(p1.getNextPageToken());
    p1.getKeysList().forEach(k -> seen.add(k.getKeyName()));
    p2.getKeysList().forEach(k -> seen.add(k.getKeyName()));

    gate.arm("ListKeys");
    ListenableFuture<ListKeysResponse> page3 = OmServiceGrpc.newFutureStub(f.channel)
        .listKeys(request(p2.getNextPageToken()));
    assertTrue(gate.entered.await(10, TimeUnit.SECONDS));
    page3.cancel(true);
    awaitCancelled();
    gate.release();
    assertTrue(gate.finished.await(10, TimeUnit.SECONDS));
    assertTrue(page3.isCancelled());
    awaitMetric("ListKeys", "CANCELLED");

    ByteString token = p2.getNextPageToken();
    while (!token.isEmpty()) {
      ListKeysResponse r = listKeys(token);
      r.getKeysList().forEach(k -> seen.add(k.getKeyName()));
      token = r.getNextPageToken();
    }
    assertEquals(f.store.listKeys("vol-1", "bkt-1", null, null, 1000, null).items().stream()
        .map(KeyInfo::getKeyName).toList(), seen);
  }

  @Test
  void callsOnAClosedStoreAreUnavailable() throws Exception {
    start(SyncPolicy.PROCESS_CRASH_SAFE);
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-1").build());
    f.closeStore();
    for (Runnable call : List.<Runnable>of(
        () -> f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-2").build()),
        () -> f.om.listVolumes(ListVolumesRequest.getDefaultInstance()),
        () -> f.om.getVolume(GetVolumeRequest.newBuilder().setVolume("vol-1").build()),
        () -> f.admin.getTableStats(GetTableStatsRequest.getDefaultInstance()))) {
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
      assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.getMessage());
      assertTrue(e.getStatus().getDescription().contains("retry"), e.getMessage());
    }
  }

  @Test
  void duringShutdownNewCallsAreUnavailableAndInFlightCallsDrain() throws Exception {
    start(SyncPolicy.DURABLE);
    gate.arm("CreateVolume");
    ListenableFuture<CreateVolumeResponse> inFlight = OmServiceGrpc.newFutureStub(f.channel)
        .withDeadlineAfter(30, TimeUnit.SECONDS)
        .createVolume(CreateVolumeRequest.newBuilder().setVolume("in-flight").build());
    assertTrue(gate.entered.await(10, TimeUnit.SECONDS));

    AtomicReference<Boolean> clean = new AtomicReference<>();
    Thread stopper = new Thread(() -> clean.set(f.server.shutdown(Duration.ofSeconds(10))));
    stopper.start();
    ManagedChannel fresh = f.newChannel();
    try {
      Status.Code code = Status.Code.OK;
      for (int i = 0; i < 200 && code != Status.Code.UNAVAILABLE; i++) {
        try {
          OmServiceGrpc.newBlockingStub(fresh).withDeadlineAfter(2, TimeUnit.SECONDS)
              .listVolumes(ListVolumesRequest.getDefaultInstance());
          Thread.sleep(10);
        } catch (StatusRuntimeException e) {
          code = e.getStatus().getCode();
        }
      }
      assertEquals(Status.Code.UNAVAILABLE, code, "new calls are refused while draining");
    } finally {
      fresh.shutdownNow();
    }
    gate.release();
    assertEquals("in-flight", inFlight.get(10, TimeUnit.SECONDS).getVolume().getName(),
        "the in-flight call completes");
    stopper.join(20_000);
    assertEquals(Boolean.TRUE, clean.get());
    assertEquals("in-flight", f.store.getVolumeInfo("in-flight").getName());
  }

  @Test
  void shutdownWhileWritesAreInFlightLosesNoAcknowledgedWrite() throws Exception {
    start(SyncPolicy.DURABLE);
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-1").build());
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol-1").setBucket("bkt-1")
        .setLayout(BucketLayout.OBJECT_STORE).build());
    ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Status.Code> failures = new ConcurrentLinkedQueue<>();
    List<Thread> writers = new ArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    for (int t = 0; t < 4; t++) {
      int thread = t;
      Thread w = new Thread(() -> {
        OmServiceGrpc.OmServiceBlockingStub stub = OmServiceGrpc.newBlockingStub(f.channel);
        try {
          go.await();
          for (int i = 0; i < 5000; i++) {
            String key = "t" + thread + "/k" + i;
            OpenKeyResponse open = stub.withDeadlineAfter(10, TimeUnit.SECONDS).openKey(
                OpenKeyRequest.newBuilder().setVolume("vol-1").setBucket("bkt-1").setKey(key)
                    .build());
            stub.withDeadlineAfter(10, TimeUnit.SECONDS).commitKey(CommitKeyRequest.newBuilder()
                .setVolume("vol-1").setBucket("bkt-1").setKey(key)
                .setClientId(open.getClientId()).setDataSize(i).build());
            acked.add(key);
          }
        } catch (StatusRuntimeException e) {
          failures.add(e.getStatus().getCode());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      w.start();
      writers.add(w);
    }
    go.countDown();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (acked.size() < 60 && System.nanoTime() < until) {
      Thread.sleep(5);
    }
    f.server.shutdown(Duration.ofSeconds(5));
    f.closeStore();
    for (Thread w : writers) {
      w.join(20_000);
    }
    assertTrue(acked.size() >= 60, "writes were acknowledged before the shutdown");
    for (Status.Code c : failures) {
      assertTrue(c == Status.Code.UNAVAILABLE || c == Status.Code.CANCELLED, c.toString());
    }
    try (OmMetadataStore reopened = OmMetadataStore.open(dir.resolve("om"))) {
      for (String key : acked) {
        assertNotNull(reopened.lookupKey("vol-1", "bkt-1", key), key);
      }
      long keys = reopened.bucketCounters("vol-1", "bkt-1").get(io.sediment.om.core.OmCounter.KEYS);
      // A commit applied while its call was cancelled is present but unacknowledged: at most one
      // per writer.
      assertTrue(keys >= acked.size() && keys <= acked.size() + writers.size(),
          keys + " keys for " + acked.size() + " acknowledged commits");
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private void awaitCancelled() throws InterruptedException {
    for (int i = 0; i < 500 && (gate.heldContext == null || !gate.heldContext.isCancelled()); i++) {
      Thread.sleep(10);
    }
    assertTrue(gate.heldContext.isCancelled(), "the server saw the cancellation");
  }

  private void awaitMetric(String method, String code) throws InterruptedException {
    for (int i = 0; i < 500; i++) {
      double v = f.registry.scrape().stream()
          .filter(s -> s.getMetadata().getName().equals("sediment_grpc_server_calls"))
          .flatMap(s -> ((CounterSnapshot) s).getDataPoints().stream())
          .filter(d -> method.equals(d.getLabels().get("method"))
              && code.equals(d.getLabels().get("code")))
          .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
      if (v >= 1) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no " + method + " call recorded with " + code);
  }

  private void bucketWithKeys(int n) {
    f.store.createVolume("vol-1", "o");
    f.store.createBucket("vol-1", "bkt-1", BucketLayout.OBJECT_STORE, "", 0);
    for (int i = 0; i < n; i++) {
      String key = String.format("key-%03d", i);
      f.store.commitKey("vol-1", "bkt-1", key, f.store.openKey("vol-1", "bkt-1", key, "")
          .clientId(), i);
    }
  }

  private static ListKeysRequest request(ByteString token) {
    return ListKeysRequest.newBuilder().setVolume("vol-1").setBucket("bkt-1").setMaxKeys(5)
        .setPageToken(token).build();
  }

  private ListKeysResponse listKeys(ByteString token) {
    return f.om.listKeys(request(token));
  }
}
