package io.sediment.om.grpc;

import static io.sediment.db.testing.Eventually.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.sediment.db.testing.LogCapture;
import io.sediment.db.testing.TmpfsMount;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmCounter;
import io.sediment.om.core.OmException;
import io.sediment.om.service.KeyDeletingService;
import io.sediment.om.service.PurgeSteps;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.OmServiceGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server on a disk that fills up, for real (a tmpfs; skipped where mounting is not
 * permitted), with the default store profile: writes answer RESOURCE_EXHAUSTED naming the store
 * directory and the free space needed, reads keep working, the writes health service is
 * NOT_SERVING while it lasts, the log says it once, writes resume by themselves once the ballast
 * is gone, and every acknowledged write is there after a reopen.
 */
class DiskFullGrpcTest {

  /** The default profile's memtable size: the free space at which RocksDB resumes writes. */
  private static final long RESUME_BYTES = 64L << 20;

  @TempDir Path dir;

  @Test
  void writesAreResourceExhaustedWhileTheDiskIsFullAndResumeWithoutARestart() throws Exception {
    try (TmpfsMount fs = TmpfsMount.mount(dir.resolve("fs"), RESUME_BYTES + (36L << 20));
        LogCapture log = LogCapture.of("io.sediment")) {
      Path storeDir = fs.path().resolve("om");
      Path ballast = fs.path().resolve("ballast");
      // RocksDB preallocates 1.1 memtables (70 MiB) for each new WAL and ignores a preallocation
      // that fails: with less than that free, the WAL fills after a few writes.
      TmpfsMount.grow(ballast, fs.usableSpace() - (16L << 20));
      TreeSet<String> acked = new TreeSet<>();
      try (GrpcFixture f = new GrpcFixture(storeDir)) {
        HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(f.channel);
        assertEquals(ServingStatus.SERVING, status(health, OmGrpcServer.WRITES_HEALTH_SERVICE));
        for (int i = 0; i < 20; i++) {
          createVolume(f, acked, i);
        }
        // A deleted key waiting in deletedTable, for the key purge to fail on below.
        f.store.createBucket("vol-000000", "bkt", BucketLayout.OBJECT_STORE, "", 0);
        long client = f.store.openKey("vol-000000", "bkt", "k", "").clientId();
        f.store.commitKey("vol-000000", "bkt", "k", client, 1);
        f.store.deleteKey("vol-000000", "bkt", "k");
        TmpfsMount.fill(ballast);

        StatusRuntimeException refused = null;
        int i = 20;
        for (; i < 100_000 && refused == null; i++) {
          try {
            createVolume(f, acked, i);
          } catch (StatusRuntimeException e) {
            refused = e;
          }
        }
        assertNotNull(refused, "100,000 volumes fit on a full file system");
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getStatus().getCode(),
            refused::toString);
        String description = refused.getStatus().getDescription();
        assertTrue(description.contains("out of disk space in " + storeDir)
            && description.contains("at least " + RESUME_BYTES + " bytes"), description);
        // The facade says the same with its own code; the refused write changed nothing.
        OmException facade = assertThrows(OmException.class,
            () -> f.store.createVolume("refused", "o"));
        assertEquals(OmException.Code.RESOURCE_EXHAUSTED, facade.code());
        assertEquals(acked.size(), f.store.counters().get(OmCounter.VOLUMES));

        // Reads keep working.
        for (String v : acked) {
          assertEquals(v, f.om.getVolume(GetVolumeRequest.newBuilder().setVolume(v).build())
              .getVolume().getName());
        }
        assertEquals(List.copyOf(acked), listVolumes(f));

        // Health: writes NOT_SERVING, the server and OmService (reads) SERVING.
        assertEquals(ServingStatus.NOT_SERVING, status(health, OmGrpcServer.WRITES_HEALTH_SERVICE));
        assertEquals(ServingStatus.SERVING, status(health, ""));
        assertEquals(ServingStatus.SERVING, status(health, OmServiceGrpc.SERVICE_NAME));

        // A background service failing on the full disk does not repeat the WARN at every run.
        try (KeyDeletingService purge = new KeyDeletingService(PurgeSteps.on(f.store),
            Duration.ofMillis(50), 1000)) {
          purge.start();
          waitFor(() -> purge.metrics().failures() >= 3, 10_000, "three failed purge runs");
        }
        int next = i;
        assertThrows(StatusRuntimeException.class, () -> createVolume(f, acked, next));

        Files.delete(ballast);
        long start = System.nanoTime();
        waitFor(() -> {
          try {
            createVolume(f, acked, next);
            return true;
          } catch (StatusRuntimeException e) {
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e::toString);
            return false;
          }
        }, 30_000, "writes to resume");
        long resumedMillis = (System.nanoTime() - start) / 1_000_000;
        waitFor(() -> status(health, OmGrpcServer.WRITES_HEALTH_SERVICE) == ServingStatus.SERVING,
            5_000, "the writes health service to be SERVING again");
        for (int j = next + 1; j < next + 20; j++) {
          createVolume(f, acked, j);
        }
        assertTrue(resumedMillis < 20_000, "resumed after " + resumedMillis + " ms");

        List<String> warns = log.messages(Level.WARN);
        assertEquals(1, warns.size(), warns::toString);
        assertTrue(warns.get(0).contains("out of disk space in " + storeDir), warns::toString);
        assertEquals(1, log.messages(Level.INFO).stream()
            .filter(m -> m.contains("writes accepted again")).count(),
            () -> log.messages(Level.INFO).toString());
      }

      try (OmMetadataStore reopened = OmMetadataStore.open(storeDir)) {
        List<String> missing = new ArrayList<>();
        for (String v : acked) {
          try {
            reopened.getVolumeInfo(v);
          } catch (OmException e) {
            missing.add(v + ": " + e.getMessage());
          }
        }
        assertEquals(List.of(), missing, "acknowledged volumes lost of " + acked.size());
        assertEquals(acked.size(), reopened.counters().get(OmCounter.VOLUMES));
        assertEquals(reopened.counters(), reopened.countFromScan());
      }
    }
  }

  private static void createVolume(GrpcFixture f, TreeSet<String> acked, int i) {
    String name = String.format("vol-%06d", i);
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume(name).setOwner("o").build());
    acked.add(name);
  }

  private static List<String> listVolumes(GrpcFixture f) {
    List<String> out = new ArrayList<>();
    String after = "";
    while (true) {
      var page = f.om.listVolumes(ListVolumesRequest.newBuilder().setStartAfter(after)
          .setMaxResults(1000).build());
      page.getVolumesList().forEach(v -> out.add(v.getName()));
      if (!page.getTruncated()) {
        return out;
      }
      after = out.get(out.size() - 1);
    }
  }

  private static ServingStatus status(HealthGrpc.HealthBlockingStub health, String service) {
    return health.check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
  }
}
