package io.sediment.freon;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.sediment.bench.raw.RawTables;
import io.sediment.om.OmMetadataStore;
import io.sediment.om.bulk.NamespacePlan;
import io.sediment.om.core.OmKeys;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.OpenKeySession;
import io.sediment.om.core.SyncPolicy;
import io.sediment.om.grpc.OmGrpcServer;
import io.sediment.om.service.PurgePacing;
import io.sediment.proto.om.BucketInfo;
import io.sediment.proto.om.VolumeInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A server started in this process on a store in a new temporary directory (deleted on close),
 * with the echo service registered: the target with both floors. The store's keys are prefilled
 * by the bulk loader and its FSO files through its API with {@link SyncPolicy#PROCESS_CRASH_SAFE},
 * then it is closed and reopened with the default {@link SyncPolicy#DURABLE} before the server
 * starts, so measured writes are durable.
 */
final class InProcessTarget implements FreonTarget {

  private static final String OWNER = "freon";

  private final Path dir;
  private final int handlerThreads;
  private final PurgeBacklog backlog;
  private OmMetadataStore store;
  private OmGrpcServer server;
  private ManagedChannel channel;
  private RawTables rawTables;
  private RawCalls raw;

  /**
   * @param parent where the temporary directory goes ({@code null}: the system's)
   * @param handlerThreads the server's handler threads
   * @param backlog deleted keys and files written before the run for the purge services
   */
  InProcessTarget(Path parent, int handlerThreads, PurgeBacklog backlog) throws IOException {
    this.dir = parent == null ? Files.createTempDirectory("sediment-freon")
        : Files.createTempDirectory(parent, "sediment-freon");
    this.handlerThreads = handlerThreads;
    this.backlog = backlog;
  }

  @Override
  public void prepare(Names names, long keys, long files, PrintStream progress)
      throws InterruptedException {
    Path storeDir = dir.resolve("store");
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    try (OmMetadataStore bulk = OmMetadataStore.open(storeDir,
        OmStoreOptions.defaults().withSyncPolicy(SyncPolicy.PROCESS_CRASH_SAFE))) {
      // The volume, both buckets and the keys come from the bulk loader: the write path's rows
      // and exact counters from sorted files ingested at once (seconds for a million keys
      // instead of minutes of calls), so that workloads run on namespaces of millions of keys.
      NamespacePlan plan = NamespacePlan.freon().volumes(List.of(names.volume())).owner(OWNER)
          .obsBuckets(List.of(names.bucket())).fsoBuckets(List.of(names.fsoBucket()))
          .keysPerBucket(keys).keySize(ServiceCalls.DATA_SIZE).build();
      long start = System.nanoTime();
      bulk.bulkLoader(3).load(plan, (step, message) -> { });
      if (progress != null) {
        progress.printf(Locale.ROOT, "freon: %,d keys bulk-loaded in %.1f s%n", keys,
            (System.nanoTime() - start) / 1e9);
      }
      Prefill.run("FSO files", files, threads, i -> {
        String name = KeySpace.file(i);
        OpenKeySession s = bulk.fso().createFile(names.volume(), names.fsoBucket(), name, OWNER);
        bulk.fso().commitFile(names.volume(), names.fsoBucket(), name, s.clientId(),
            ServiceCalls.DATA_SIZE);
      }, progress);
      if (!backlog.isEmpty()) {
        backlog.create(bulk, names, OWNER, threads, progress);
      }
    }
    store = OmMetadataStore.open(storeDir, OmStoreOptions.defaults());
    try {
      server = OmGrpcServer.builder(store).port(0).handlerThreads(handlerThreads)
          .drainTimeout(Duration.ofSeconds(2))
          .extraService(EchoService.definition())
          .build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(),
        InsecureChannelCredentials.create()).build();
    rawTables = RawTables.of(store.dbStore(), RawCalls.TABLES);
    VolumeInfo v = store.getVolumeInfo(names.volume());
    BucketInfo fso = store.getBucketInfo(names.volume(), names.fsoBucket());
    byte[] row = keys > 0
        ? rawTables.get("keyTable", OmKeys.utf8(
            OmKeys.objectKey(names.volume(), names.bucket(), KeySpace.key(0))))
        : new byte[200];
    raw = new RawCalls(rawTables, names, v.getObjectId(), fso.getObjectId(), row);
  }

  /**
   * The purge services over this target's store and backlog, not started yet ({@code enabled}
   * false: the baseline, services off).
   */
  PurgeRun purgeRun(Names names, boolean enabled, PurgePacing pacing, int batchSize) {
    return new PurgeRun(store, names, backlog, enabled, pacing, batchSize);
  }

  @Override
  public ManagedChannel channel() {
    return channel;
  }

  @Override
  public EchoCalls echo(CallSizes sizes, Channel channel) {
    return new EchoCalls(channel, sizes);
  }

  @Override
  public RawCalls raw() {
    return raw;
  }

  @Override
  public CallTimes serverCallTimes() {
    return server == null ? CallTimes.NONE : CallTimes.ofServer(server.registry());
  }

  @Override
  public String describe() {
    return "in-process";
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (server != null) {
      server.shutdown(Duration.ofSeconds(2));
    }
    if (rawTables != null) {
      rawTables.close();
    }
    if (store != null) {
      store.close();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
