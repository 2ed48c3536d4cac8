package io.sediment.om.ha;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sediment.om.client.OmClient;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent clients put (open + commit, the size as the value), delete and look up a handful of
 * keys while leaders are stopped; the recorded history of each key must be linearizable
 * ({@link RegisterHistory}). Leader kills: {@code -Dsediment.ha.historyKills=N} (default 2).
 */
class LinearizableHistoryTest {

  private static final int KILLS = Integer.getInteger("sediment.ha.historyKills", 2);
  private static final int KEYS = 4;
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir
  Path root;

  @Test
  void everyKeysHistoryIsLinearizableAcrossLeaderKills() throws Exception {
    try (ReplicaCluster cluster = new ReplicaCluster(root, 3, Duration.ofMillis(400), false,
        true)) {
      List<RegisterHistory> histories = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        histories.add(new RegisterHistory());
      }
      try (OmClient admin = client(cluster)) {
        admin.call(OmServiceGrpc.getCreateVolumeMethod(),
            CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("alice").build());
        admin.call(OmServiceGrpc.getCreateBucketMethod(), CreateBucketRequest.newBuilder()
            .setVolume("vol").setBucket("bkt").setLayout(BucketLayout.OBJECT_STORE)
            .setOwner("alice").build());
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong values = new AtomicLong();
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        long seed = 1000 + c;
        Thread t = new Thread(() -> {
          Random random = new Random(seed);
          try (OmClient client = client(cluster)) {
            while (!stop.get()) {
              int k = random.nextInt(KEYS);
              step(client, "key" + k, histories.get(k), random.nextInt(3),
                  values.incrementAndGet());
            }
          }
        }, "client-" + c);
        t.start();
        clients.add(t);
      }
      try {
        for (int kill = 0; kill < KILLS; kill++) {
          Thread.sleep(1500);
          ReplicaCluster.Node leader = cluster.leader(WAIT);
          cluster.stop(leader.id);
          cluster.leader(WAIT);
          Thread.sleep(1500);
          cluster.start(leader.id);
        }
        Thread.sleep(1000);
      } finally {
        stop.set(true);
        for (Thread t : clients) {
          t.join();
        }
      }
      int ops = 0;
      for (int k = 0; k < KEYS; k++) {
        RegisterHistory h;
        synchronized (histories.get(k)) {
          h = histories.get(k);
        }
        ops += h.size();
        assertTrue(h.linearizable(), "the history of key" + k + " (" + h.size()
            + " operations) is not linearizable");
      }
      System.out.printf("HISTORY kills=%d keys=%d operations=%d: linearizable%n", KILLS, KEYS,
          ops);
      assertTrue(ops > 10 * KEYS, "too few operations to mean anything: " + ops);
    }
  }

  private static OmClient client(ReplicaCluster cluster) {
    return OmClient.connect(cluster.rpcTargets(), OmClient.Options.defaults()
        .withCallTimeout(Duration.ofSeconds(20)));
  }

  /** One operation on {@code key}, recorded in its history. */
  private static void step(OmClient client, String key, RegisterHistory history, int what,
      long value) {
    long invoked = System.nanoTime();
    switch (what) {
      case 0 -> {
        OpenKeyResponse open;
        try {
          open = client.call(OmServiceGrpc.getOpenKeyMethod(), OpenKeyRequest.newBuilder()
              .setVolume("vol").setBucket("bkt").setKey(key).setOwner("alice").build());
        } catch (StatusRuntimeException e) {
          return; // an open changes no key's value
        }
        try {
          client.call(OmServiceGrpc.getCommitKeyMethod(), CommitKeyRequest.newBuilder()
              .setVolume("vol").setBucket("bkt").setKey(key).setClientId(open.getClientId())
              .setDataSize(value).build());
          record(history, h -> h.write(value, invoked, System.nanoTime()));
        } catch (StatusRuntimeException e) {
          if (unknownOutcome(e)) {
            record(history, h -> h.writeUnknown(value, invoked));
          }
        }
      }
      case 1 -> {
        try {
          client.call(OmServiceGrpc.getDeleteKeyMethod(), DeleteKeyRequest.newBuilder()
              .setVolume("vol").setBucket("bkt").setKey(key).build());
          record(history, h -> h.write(null, invoked, System.nanoTime()));
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
            record(history, h -> h.read(null, invoked, System.nanoTime()));
          } else if (unknownOutcome(e)) {
            record(history, h -> h.writeUnknown(null, invoked));
          }
        }
      }
      default -> {
        try {
          long size = client.call(OmServiceGrpc.getLookupKeyMethod(), LookupKeyRequest
              .newBuilder().setVolume("vol").setBucket("bkt").setKey(key).build())
              .getKey().getDataSize();
          record(history, h -> h.read(size, invoked, System.nanoTime()));
        } catch (StatusRuntimeException e) {
          if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
            record(history, h -> h.read(null, invoked, System.nanoTime()));
          }
        }
      }
    }
  }

  private static boolean unknownOutcome(StatusRuntimeException e) {
    Status.Code c = e.getStatus().getCode();
    return c == Status.Code.UNAVAILABLE || c == Status.Code.DEADLINE_EXCEEDED
        || c == Status.Code.CANCELLED || c == Status.Code.UNKNOWN || c == Status.Code.INTERNAL;
  }

  private static void record(RegisterHistory history,
      java.util.function.Consumer<RegisterHistory> add) {
    synchronized (history) {
      add.accept(history);
    }
  }
}
