package io.sediment.om.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.listing.ListObjectsV2Result;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.BucketLayout;
import io.sediment.proto.om.CommitKeyRequest;
import io.sediment.proto.om.CompactTableRequest;
import io.sediment.proto.om.CompactTableResponse;
import io.sediment.proto.om.CompactionEventProto;
import io.sediment.proto.om.CreateBucketRequest;
import io.sediment.proto.om.CreateCheckpointRequest;
import io.sediment.proto.om.CreateVolumeRequest;
import io.sediment.proto.om.DeleteBucketRequest;
import io.sediment.proto.om.DeleteKeyRequest;
import io.sediment.proto.om.DeleteVolumeRequest;
import io.sediment.proto.om.GetBucketRequest;
import io.sediment.proto.om.GetCountersRequest;
import io.sediment.proto.om.GetCountersResponse;
import io.sediment.proto.om.GetTableStatsRequest;
import io.sediment.proto.om.GetTableStatsResponse;
import io.sediment.proto.om.GetTombstoneStatsRequest;
import io.sediment.proto.om.GetTombstoneStatsResponse;
import io.sediment.proto.om.GetVolumeRequest;
import io.sediment.proto.om.KeyInfo;
import io.sediment.proto.om.ListBucketsRequest;
import io.sediment.proto.om.ListBucketsResponse;
import io.sediment.proto.om.ListKeysRequest;
import io.sediment.proto.om.ListKeysResponse;
import io.sediment.proto.om.ListObjectsV2Request;
import io.sediment.proto.om.ListObjectsV2Response;
import io.sediment.proto.om.ListVolumesRequest;
import io.sediment.proto.om.ListVolumesResponse;
import io.sediment.proto.om.LookupKeyRequest;
import io.sediment.proto.om.OmServiceGrpc;
import io.sediment.proto.om.OpenKeyRequest;
import io.sediment.proto.om.OpenKeyResponse;
import io.sediment.proto.om.SetBucketPropertiesRequest;
import io.sediment.proto.om.SetVolumePropertiesRequest;
import io.sediment.proto.om.VolumeInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives every wired RPC of OmService and AdminService through a real gRPC channel to a server on
 * an ephemeral loopback port, comparing listings with direct facade calls, and checks the error
 * statuses, health, reflection and per-RPC metrics.
 */
class OmGrpcServerTest {

  @TempDir Path dir;
  private GrpcFixture f;

  @BeforeEach
  void start() throws Exception {
    f = new GrpcFixture(dir.resolve("om"),
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE).withMaxListSize(100),
        4096);
  }

  @AfterEach
  void stop() throws Exception {
    f.close();
  }

  // ---- writes -----------------------------------------------------------------------------------

  @Test
  void volumeAndBucketWritesRoundTripAndMatchTheFacade() {
    VolumeInfo v = f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol1")
        .setOwner("alice").build()).getVolume();
    assertEquals("vol1", v.getName());
    assertEquals(v, f.store.getVolumeInfo("vol1"));

    VolumeInfo changed = f.om.setVolumeProperties(SetVolumePropertiesRequest.newBuilder()
        .setVolume("vol1").setQuotaInBytes(1 << 20).build()).getVolume();
    assertEquals(1 << 20, changed.getQuotaInBytes());
    assertEquals("alice", changed.getOwner(), "an absent optional owner is left unchanged");
    assertEquals(changed, f.om.getVolume(GetVolumeRequest.newBuilder().setVolume("vol1").build())
        .getVolume());

    BucketInfo b = f.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol1")
        .setBucket("bucket1").setLayout(BucketLayout.OBJECT_STORE).build()).getBucket();
    assertEquals("alice", b.getOwner(), "an empty owner means the volume's owner");
    BucketInfo b2 = f.om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume("vol1").setBucket("bucket1").setOwner("bob").build()).getBucket();
    assertEquals("bob", b2.getOwner());
    assertEquals(b2, f.om.getBucket(GetBucketRequest.newBuilder().setVolume("vol1")
        .setBucket("bucket1").build()).getBucket());
    assertEquals(b2, f.store.getBucketInfo("vol1", "bucket1"));

    f.om.deleteBucket(DeleteBucketRequest.newBuilder().setVolume("vol1").setBucket("bucket1").build());
    f.om.deleteVolume(DeleteVolumeRequest.newBuilder().setVolume("vol1").build());
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> f.om.getVolume(
        GetVolumeRequest.newBuilder().setVolume("vol1").build())));
  }

  @Test
  void keyWritesOpenCommitLookupDelete() {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    OpenKeyResponse open = f.om.openKey(OpenKeyRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setKey("dir/k1").build());
    assertTrue(open.getClientId() > 0);
    assertEquals("dir/k1", open.getOpenKey().getKeyName());
    KeyInfo committed = f.om.commitKey(CommitKeyRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setKey("dir/k1").setClientId(open.getClientId()).setDataSize(123).build()).getKey();
    assertEquals(123, committed.getDataSize());
    assertEquals(committed, f.om.lookupKey(lookup("vol", "bkt", "dir/k1")).getKey());
    assertEquals(committed, f.store.lookupKey("vol", "bkt", "dir/k1"));

    f.om.deleteKey(DeleteKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey("dir/k1")
        .build());
    assertEquals(Status.Code.NOT_FOUND, codeOf(() -> f.om.lookupKey(lookup("vol", "bkt", "dir/k1"))));
    GetCountersResponse counters = f.admin.getCounters(GetCountersRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").build());
    assertEquals(0L, counters.getCountersOrThrow("KEYS"));
    assertEquals(1L, counters.getCountersOrThrow("DELETED_KEYS"));
    assertEquals(1L, f.admin.getCounters(GetCountersRequest.getDefaultInstance())
        .getCountersOrThrow("BUCKETS"));
  }

  @Test
  void aLookupKeyCallReadsOneRowFromRocksDb() {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    OpenKeyResponse open = f.om.openKey(OpenKeyRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .setKey("k").build());
    f.om.commitKey(CommitKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey("k")
        .setClientId(open.getClientId()).setDataSize(5).build());
    f.om.lookupKey(lookup("vol", "bkt", "k"));

    long before = f.store.dbStore().getTickerCount("NUMBER_KEYS_READ");
    assertEquals(5, f.om.lookupKey(lookup("vol", "bkt", "k")).getKey().getDataSize());
    assertEquals(1, f.store.dbStore().getTickerCount("NUMBER_KEYS_READ") - before,
        "RocksDB gets for one LookupKey call (volume and bucket are kept parsed)");
  }

  // ---- listings, paged to the end ---------------------------------------------------------------

  @Test
  void listVolumesAndBucketsPageToTheEndLikeTheFacade() {
    for (int i = 0; i < 13; i++) {
      f.store.createVolume(String.format("vol-%02d", i), "o");
    }
    for (int i = 0; i < 11; i++) {
      f.store.createBucket("vol-03", String.format("b-%02d", i), BucketLayout.OBJECT_STORE, "", 0);
    }
    List<String> volumes = new ArrayList<>();
    String after = "";
    int pages = 0;
    while (true) {
      ListVolumesResponse r = f.om.listVolumes(ListVolumesRequest.newBuilder().setPrefix("vol-")
          .setStartAfter(after).setMaxResults(4).build());
      pages++;
      r.getVolumesList().forEach(v -> volumes.add(v.getName()));
      if (!r.getTruncated()) {
        break;
      }
      after = r.getVolumes(r.getVolumesCount() - 1).getName();
    }
    assertEquals(4, pages);
    assertEquals(f.store.listVolumes("vol-", null, 100).items().stream().map(VolumeInfo::getName)
        .toList(), volumes);

    List<String> buckets = new ArrayList<>();
    after = "";
    while (true) {
      ListBucketsResponse r = f.om.listBuckets(ListBucketsRequest.newBuilder().setVolume("vol-03")
          .setStartAfter(after).setMaxResults(3).build());
      r.getBucketsList().forEach(b -> buckets.add(b.getBucketName()));
      if (!r.getTruncated()) {
        break;
      }
      after = r.getBuckets(r.getBucketsCount() - 1).getBucketName();
    }
    assertEquals(f.store.listBuckets("vol-03", null, null, 100).items().stream()
        .map(BucketInfo::getBucketName).toList(), buckets);
    assertEquals(11, buckets.size());
  }

  @Test
  void listKeysPagesWithTokensToTheEndLikeTheFacade() {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    for (int i = 0; i < 47; i++) {
      commit("vol", "bkt", String.format("p/%03d", i), i);
      commit("vol", "bkt", String.format("q/%03d", i), i);
    }
    List<KeyInfo> viaGrpc = new ArrayList<>();
    ByteString token = ByteString.EMPTY;
    int pages = 0;
    do {
      ListKeysResponse r = f.om.listKeys(ListKeysRequest.newBuilder().setVolume("vol").setBucket("bkt")
          .setPrefix("p/").setStartAfter("p/004").setMaxKeys(7).setPageToken(token).build());
      pages++;
      viaGrpc.addAll(r.getKeysList());
      assertEquals(r.getTruncated(), !r.getNextPageToken().isEmpty());
      token = r.getNextPageToken();
    } while (!token.isEmpty());
    assertEquals(f.store.listKeys("vol", "bkt", "p/", "p/004", 100, null).items(), viaGrpc);
    assertEquals(42, viaGrpc.size());
    assertEquals(6, pages);
  }

  @Test
  void listObjectsV2PagesWithDelimiterToTheEndLikeTheFacade() {
    volumeAndBucket("vol", "bkt", BucketLayout.LEGACY);
    for (int i = 0; i < 9; i++) {
      for (int j = 0; j < 4; j++) {
        commit("vol", "bkt", "photos/" + i + "/img" + j, j);
      }
      commit("vol", "bkt", "photos/top" + i, i);
    }
    List<String> viaGrpc = new ArrayList<>();
    ByteString token = ByteString.EMPTY;
    do {
      ListObjectsV2Response r = f.om.listObjectsV2(ListObjectsV2Request.newBuilder()
          .setVolume("vol").setBucket("bkt").setPrefix("photos/").setDelimiter("/").setMaxKeys(4)
          .setContinuationToken(token).build());
      assertEquals(r.getContentsCount() + r.getCommonPrefixesCount(), r.getKeyCount());
      assertTrue(r.getKeyCount() <= 4);
      r.getCommonPrefixesList().forEach(p -> viaGrpc.add("P:" + p));
      r.getContentsList().forEach(k -> viaGrpc.add("K:" + k.getKeyName()));
      token = r.getNextContinuationToken();
      assertEquals(r.getIsTruncated(), !token.isEmpty());
    } while (!token.isEmpty());
    ListObjectsV2Result direct = f.store.listObjectsV2(io.sediment.om.listing.ListObjectsV2Request
        .of("vol", "bkt").withPrefix("photos/").withDelimiter("/").withMaxKeys(100));
    List<String> expected = new ArrayList<>();
    direct.commonPrefixes().forEach(p -> expected.add("P:" + p));
    direct.contents().forEach(k -> expected.add("K:" + k.getKeyName()));
    assertEquals(new HashSet<>(expected), new HashSet<>(viaGrpc));
    assertEquals(expected.size(), viaGrpc.size(), "no duplicates across pages");
    assertEquals(18, viaGrpc.size());
  }

  @Test
  void pageSizeZeroMeansTheStoreCapAndAboveTheCapIsRejected() {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    for (int i = 0; i < 120; i++) {
      commit("vol", "bkt", String.format("k%03d", i), 1);
    }
    ListKeysResponse r = f.om.listKeys(ListKeysRequest.newBuilder().setVolume("vol").setBucket("bkt")
        .build());
    assertEquals(100, r.getKeysCount());
    assertTrue(r.getTruncated());
    assertEquals(Status.Code.INVALID_ARGUMENT, codeOf(() -> f.om.listKeys(ListKeysRequest
        .newBuilder().setVolume("vol").setBucket("bkt").setMaxKeys(101).build())));
    assertEquals(100, f.om.listObjectsV2(ListObjectsV2Request.newBuilder().setVolume("vol")
        .setBucket("bkt").setMaxKeys(100_000).build()).getKeyCount(), "S3 max-keys is clamped");
  }

  // ---- errors -----------------------------------------------------------------------------------

  @Test
  void errorsMapToStatusCodesWithMessagesAndChangeNothing() throws Exception {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    commit("vol", "bkt", "k", 1);
    f.store.createBucket("vol", "fso", BucketLayout.FILE_SYSTEM_OPTIMIZED, "", 0);

    StatusRuntimeException bad = assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("Bad_Name").build()));
    assertTrue(bad.getStatus().getDescription().contains("Bad_Name"), bad.getMessage());
    assertFalse(bad.getStatus().getDescription().startsWith("INVALID_ARGUMENT"),
        "the code is not repeated in the description");
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.om.listKeys(ListKeysRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setPageToken(ByteString.copyFromUtf8("forged")).build()));
    assertStatus(Status.Code.NOT_FOUND,
        () -> f.om.getVolume(GetVolumeRequest.newBuilder().setVolume("nope").build()));
    assertStatus(Status.Code.NOT_FOUND, () -> f.om.commitKey(CommitKeyRequest.newBuilder()
        .setVolume("vol").setBucket("bkt").setKey("k").setClientId(999_999).build()));
    assertStatus(Status.Code.ALREADY_EXISTS,
        () -> f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol").build()));
    StatusRuntimeException nonEmpty = assertStatus(Status.Code.FAILED_PRECONDITION,
        () -> f.om.deleteBucket(DeleteBucketRequest.newBuilder().setVolume("vol").setBucket("bkt")
            .build()));
    assertTrue(nonEmpty.getStatus().getDescription().contains("not empty"), nonEmpty.getMessage());
    assertStatus(Status.Code.UNIMPLEMENTED, () -> f.om.openKey(OpenKeyRequest.newBuilder()
        .setVolume("vol").setBucket("fso").setKey("k").build()));
    StatusRuntimeException big = assertStatus(Status.Code.RESOURCE_EXHAUSTED,
        () -> f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("big")
            .setOwner("x".repeat(5000)).build()));
    assertTrue(big.getMessage().contains("4096") || big.getMessage().toLowerCase()
        .contains("size"), big.getMessage());
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.admin.compactTable(
        CompactTableRequest.newBuilder().setTable("noSuchTable").build()));
    Path root = f.checkpointRoot();
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.admin.createCheckpoint(
        CreateCheckpointRequest.newBuilder().setDir("../outside").build()));
    Files.createDirectory(root.resolve("taken"));
    assertStatus(Status.Code.ALREADY_EXISTS, () -> f.admin.createCheckpoint(
        CreateCheckpointRequest.newBuilder().setDir(root.resolve("taken").toString()).build()));
    StatusRuntimeException noParent = assertStatus(Status.Code.FAILED_PRECONDITION,
        () -> f.admin.createCheckpoint(CreateCheckpointRequest.newBuilder()
            .setDir("missing/cp").build()));
    assertTrue(noParent.getStatus().getDescription().contains(root.resolve("missing").toString()),
        noParent.getStatus().getDescription());
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> f.admin.createCheckpoint(
        CreateCheckpointRequest.newBuilder().setDir("n".repeat(300)).build()));
    if (java.nio.file.Files.isDirectory(Path.of("/proc/self"))) {
      StatusRuntimeException proc = assertStatus(Status.Code.INVALID_ARGUMENT,
          () -> f.admin.createCheckpoint(CreateCheckpointRequest.newBuilder().setDir("/proc/x")
              .build()));
      assertTrue(proc.getStatus().getDescription().contains("/proc/x")
          && proc.getStatus().getDescription().contains(root.toString()),
          proc.getStatus().getDescription());
    }
  }

  /**
   * Every RPC of the service is served: a default (empty) request reaches the facade, which
   * answers it (ListVolumes) or refuses its empty names; never UNIMPLEMENTED or INTERNAL.
   */
  @Test
  void everyRpcIsServed() {
    Set<String> seen = new HashSet<>();
    for (MethodDescriptor<?, ?> md : OmServiceGrpc.getServiceDescriptor().getMethods()
        .stream().map(m -> (MethodDescriptor<?, ?>) m).toList()) {
      String name = md.getBareMethodName();
      seen.add(name);
      Status.Code code = codeOf(() -> callWithDefaultRequest(md));
      assertTrue(code == Status.Code.OK || code == Status.Code.INVALID_ARGUMENT,
          name + " should be served: " + code);
    }
    assertTrue(seen.containsAll(Set.of("CreateDirectory", "CreateFile", "CommitFile",
        "LookupFile", "GetFileStatus", "DeleteFile", "DeleteDirectory", "Rename", "ListStatus")),
        seen.toString());
    assertEquals(43, seen.size());
  }

  /**
   * A request that is not a valid message of its method (here a key that is not UTF-8, which
   * proto3 refuses to parse) is INVALID_ARGUMENT with a reason, on every service, and reaches
   * nothing; the same bytes made valid are served.
   */
  @Test
  void aRequestThatDoesNotParseIsInvalidArgumentNotUnknown() {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    MethodDescriptor<byte[], byte[]> lookupKey = raw(OmServiceGrpc.getLookupKeyMethod());
    byte[] valid = LookupKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").setKey("k")
        .build().toByteArray();
    assertStatus(Status.Code.NOT_FOUND, () -> rawCall(lookupKey, valid));
    byte[] head = LookupKeyRequest.newBuilder().setVolume("vol").setBucket("bkt").build()
        .toByteArray();
    byte[] badKey = java.util.Arrays.copyOf(head, head.length + 4);
    System.arraycopy(new byte[] {(3 << 3) | 2, 2, (byte) 0xC0, (byte) 0x80}, 0, badKey,
        head.length, 4);
    StatusRuntimeException e = assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> rawCall(lookupKey, badKey));
    assertTrue(e.getStatus().getDescription().contains("LookupKey"), e.getMessage());
    assertStatus(Status.Code.INVALID_ARGUMENT,
        () -> rawCall(lookupKey, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF}));
    assertStatus(Status.Code.INVALID_ARGUMENT, () -> rawCall(
        raw(io.sediment.proto.om.AdminServiceGrpc.getCompactTableMethod()),
        new byte[] {(1 << 3) | 2, 1, (byte) 0xFF}));
    // The server keeps serving the channel.
    assertEquals("bkt", f.om.getBucket(GetBucketRequest.newBuilder().setVolume("vol")
        .setBucket("bkt").build()).getBucket().getBucketName());
  }

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public java.io.InputStream stream(byte[] value) {
          return new java.io.ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(java.io.InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      };

  private static MethodDescriptor<byte[], byte[]> raw(MethodDescriptor<?, ?> md) {
    return md.toBuilder(BYTES, BYTES).build();
  }

  private byte[] rawCall(MethodDescriptor<byte[], byte[]> md, byte[] request) {
    return ClientCalls.blockingUnaryCall(f.channel, md,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request);
  }

  // ---- admin ------------------------------------------------------------------------------------

  @Test
  void aCompactionRocksDbRanForTheDeletionCollectorIsReportedWithItsTrigger() throws Exception {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    // Keys opened and flushed to the bottom of openKeyTable, then committed: each commit deletes
    // the key's open row, so a flush writes a file of tombstones over those rows, which
    // openKeyTable's deletion collector marks and RocksDB compacts by itself.
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      ids.add(f.store.openKey("vol", "bkt", String.format("k%04d", i), "o").clientId());
    }
    f.store.dbStore().flush("openKeyTable");
    f.store.dbStore().compactRange("openKeyTable", null, null);
    for (int i = 0; i < 3000; i++) {
      f.store.commitKey("vol", "bkt", String.format("k%04d", i), ids.get(i), 1);
    }
    f.store.dbStore().flush("openKeyTable");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    CompactionEventProto e = null;
    while (e == null) {
      assertTrue(System.nanoTime() < deadline, "no DELETION_COLLECTOR compaction reported");
      e = f.admin.getTombstoneStats(GetTombstoneStatsRequest.getDefaultInstance())
          .getCompactions().getRecentList().stream()
          .filter(c -> c.getTrigger().equals("DELETION_COLLECTOR")).findFirst().orElse(null);
      Thread.sleep(50);
    }
    assertEquals("openKeyTable", e.getTable());
    assertEquals("COMPLETED", e.getOutcome(), e.getReason());
    assertEquals(3000, e.getTombstonesBefore());
    assertEquals(0, e.getTombstonesAfter());
    assertTrue(e.getRange().getFrom().toStringUtf8().startsWith("/vol/bkt/k0000"),
        e.getRange().getFrom().toStringUtf8());
  }

  @Test
  void adminReportsTablesTombstonesCompactsAndCheckpoints() throws Exception {
    volumeAndBucket("vol", "bkt", BucketLayout.OBJECT_STORE);
    for (int i = 0; i < 50; i++) {
      commit("vol", "bkt", String.format("k%03d", i), 1);
    }
    for (int i = 0; i < 30; i++) {
      f.store.deleteKey("vol", "bkt", String.format("k%03d", i));
    }
    f.store.dbStore().flush();
    GetTableStatsResponse tables = f.admin.getTableStats(GetTableStatsRequest.getDefaultInstance());
    assertEquals(f.store.dbStore().listTables(), tables.getTablesList().stream()
        .map(t -> t.getTable()).toList());
    GetTombstoneStatsResponse ts = f.admin.getTombstoneStats(GetTombstoneStatsRequest.newBuilder()
        .setTable("keyTable").build());
    assertEquals(1, ts.getTablesCount());
    assertEquals(30, ts.getTables(0).getSstDeletions());

    CompactTableResponse c = f.admin.compactTable(CompactTableRequest.newBuilder()
        .setTable("keyTable").setBegin(ByteString.copyFromUtf8("/vol/bkt/")).build());
    assertEquals(30, c.getTombstonesBefore());
    assertEquals(0, c.getTombstonesAfter());
    CompactionEventProto manual = f.admin.getTombstoneStats(GetTombstoneStatsRequest
        .getDefaultInstance()).getCompactions().getRecentList().stream()
        .filter(e -> e.getTable().equals("keyTable")).reduce((a, b) -> b).orElseThrow();
    assertEquals("MANUAL", manual.getTrigger(), "the compaction is in the history");
    assertEquals(30, manual.getTombstonesBefore());
    assertEquals(0, manual.getTombstonesAfter());

    Path cp = f.checkpointRoot().resolve("checkpoint-1");
    assertEquals(f.checkpointRoot().toRealPath().resolve("checkpoint-1").toString(),
        f.admin.createCheckpoint(CreateCheckpointRequest.newBuilder()
        .setDir("checkpoint-1").build()).getDir());
    assertTrue(Files.isDirectory(cp));
    try (OmMetadataStore copy = OmMetadataStore.open(cp)) {
      assertEquals(20, copy.listKeys("vol", "bkt", null, null, 100, null).items().size());
    }
  }

  // ---- health, reflection, metrics --------------------------------------------------------------

  @Test
  void healthIsServingForTheServerAndEachService() {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(f.channel);
    for (String service : List.of("", OmServiceGrpc.SERVICE_NAME,
        io.sediment.proto.om.AdminServiceGrpc.SERVICE_NAME)) {
      assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.check(
          HealthCheckRequest.newBuilder().setService(service).build()).getStatus(), service);
    }
  }

  @Test
  void reflectionListsTheServices() throws Exception {
    List<String> services = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(f.channel)
        .serverReflectionInfo(new StreamObserver<>() {
          @Override
          public void onNext(ServerReflectionResponse r) {
            for (ServiceResponse s : r.getListServicesResponse().getServiceList()) {
              services.add(s.getName());
            }
          }

          @Override
          public void onError(Throwable t) {
            done.countDown();
          }

          @Override
          public void onCompleted() {
            done.countDown();
          }
        });
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("*").build());
    requests.onCompleted();
    assertTrue(done.await(10, TimeUnit.SECONDS));
    assertTrue(services.containsAll(List.of("sediment.om.v1.OmService",
        "sediment.om.v1.AdminService", "grpc.health.v1.Health")), services.toString());
  }

  @Test
  void metricsCountCallsErrorsByCodeAndLatency() {
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-m1").build());
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-m2").build());
    codeOf(() -> f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-m1").build()));
    MetricSnapshots snaps = f.registry.scrape();
    assertEquals(2.0, counter(snaps, "sediment_grpc_server_calls", "CreateVolume", "OK"));
    assertEquals(1.0, counter(snaps, "sediment_grpc_server_calls", "CreateVolume",
        "ALREADY_EXISTS"));
    assertEquals(1.0, counter(snaps, "sediment_grpc_server_errors", "CreateVolume",
        "ALREADY_EXISTS"));
    assertEquals(0.0, counter(snaps, "sediment_grpc_server_errors", "CreateVolume", "OK"));
    HistogramSnapshot latency = (HistogramSnapshot) find(snaps,
        "sediment_grpc_server_call_duration_seconds");
    long observed = latency.getDataPoints().stream()
        .filter(d -> "CreateVolume".equals(d.getLabels().get("method")))
        .mapToLong(d -> d.getCount()).sum();
    assertEquals(3, observed);
  }

  /**
   * A status travels in HTTP/2 trailers, which a client refuses past 8 KiB: a NOT_FOUND quoting a
   * path of tens of KiB (FSO calls accept stored paths up to 64 KiB) must stay NOT_FOUND, with
   * its message cut, not turn into INTERNAL.
   */
  @Test
  void aMissingPathOfTensOfKibIsNotFoundWithItsMessageCut() throws Exception {
    try (GrpcFixture big = new GrpcFixture(dir.resolve("big"), OmStoreOptions.defaults(), 1 << 20)) {
      big.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol").setOwner("o").build());
      big.om.createBucket(CreateBucketRequest.newBuilder().setVolume("vol").setBucket("fso")
          .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
      String longPath = "d/".repeat(15_000) + "k";
      StatusRuntimeException e = assertStatus(Status.Code.NOT_FOUND,
          () -> big.om.getFileStatus(io.sediment.proto.om.GetFileStatusRequest.newBuilder()
              .setVolume("vol").setBucket("fso").setPath(longPath).build()));
      String description = e.getStatus().getDescription();
      assertTrue(description.length() <= GrpcStatuses.MAX_DESCRIPTION_CHARS, "" + description.length());
      assertTrue(description.endsWith(" characters)"), description);
    }
  }

  /** {@code serve --host ::1} prints {@code target()}: an IPv6 literal needs brackets there. */
  @Test
  void theTargetOfAnIpv6HostIsUsableAsAGrpcTarget() throws Exception {
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("::1"))) {
      probe.getLocalPort();
    } catch (java.io.IOException noIpv6) {
      org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback on this machine: " + noIpv6);
    }
    OmGrpcServer v6 = OmGrpcServer.builder(f.store).host("::1").port(0).build().start();
    io.grpc.ManagedChannel channel = io.grpc.Grpc.newChannelBuilder(v6.target(),
        io.grpc.InsecureChannelCredentials.create()).build();
    try {
      assertEquals("[::1]:" + v6.port(), v6.target());
      f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume("vol-v6").setOwner("o").build());
      assertEquals("vol-v6", OmServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
          .getVolume(GetVolumeRequest.newBuilder().setVolume("vol-v6").build()).getVolume().getName());
    } finally {
      channel.shutdownNow();
      v6.shutdown(java.time.Duration.ofSeconds(5));
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private void volumeAndBucket(String v, String b, BucketLayout layout) {
    f.om.createVolume(CreateVolumeRequest.newBuilder().setVolume(v).setOwner("o").build());
    f.om.createBucket(CreateBucketRequest.newBuilder().setVolume(v).setBucket(b)
        .setLayout(layout).build());
  }

  private void commit(String v, String b, String key, long size) {
    OpenKeyResponse open = f.om.openKey(OpenKeyRequest.newBuilder().setVolume(v).setBucket(b)
        .setKey(key).build());
    f.om.commitKey(CommitKeyRequest.newBuilder().setVolume(v).setBucket(b).setKey(key)
        .setClientId(open.getClientId()).setDataSize(size).build());
  }

  private static LookupKeyRequest lookup(String v, String b, String k) {
    return LookupKeyRequest.newBuilder().setVolume(v).setBucket(b).setKey(k).build();
  }

  @SuppressWarnings("unchecked")
  private Object callWithDefaultRequest(MethodDescriptor<?, ?> md) {
    MethodDescriptor<Message, Message> m = (MethodDescriptor<Message, Message>) md;
    Message request = (Message) ((MethodDescriptor.PrototypeMarshaller<?>) m.getRequestMarshaller())
        .getMessagePrototype();
    return ClientCalls.blockingUnaryCall(f.channel, m,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), request);
  }

  private static StatusRuntimeException assertStatus(Status.Code code, Executable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
    assertEquals(code, e.getStatus().getCode(), e.getMessage());
    assertTrue(e.getStatus().getDescription() != null && !e.getStatus().getDescription().isEmpty(),
        "a message says what to fix");
    return e;
  }

  private static Status.Code codeOf(Executable call) {
    try {
      call.execute();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } catch (Throwable t) {
      throw new AssertionError(t);
    }
  }

  private static MetricSnapshot find(MetricSnapshots snaps, String name) {
    return snaps.stream().filter(s -> s.getMetadata().getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name + " in " + snaps.stream()
            .map(s -> s.getMetadata().getName()).collect(Collectors.toList())));
  }

  private static double counter(MetricSnapshots snaps, String name, String method, String code) {
    CounterSnapshot c = (CounterSnapshot) find(snaps, name);
    return c.getDataPoints().stream()
        .filter(d -> method.equals(d.getLabels().get("method"))
            && code.equals(d.getLabels().get("code")))
        .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum();
  }
}
