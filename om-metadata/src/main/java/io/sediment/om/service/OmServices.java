package io.sediment.om.service;

import io.sediment.om.OmMetadataStore;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The purge services of one {@link OmMetadataStore}, created together: {@link KeyDeletingService},
 * {@link OpenKeyCleanupService}, {@link MultipartUploadCleanupService} and
 * {@link DirectoryDeletingService}. Nothing starts until
 * {@link #start()}. Close this before the store: {@link #close()} stops every service (letting runs
 * in progress finish). Thread-safe.
 */
public final class OmServices implements AutoCloseable {

  /**
   * Intervals, batch sizes, expiry thresholds and pacing of the services.
   *
   * @param keyDeletingInterval delay between KeyDeletingService runs
   * @param keyDeletingBatchSize deletedTable rows purged per batch
   * @param openKeyCleanupInterval delay between OpenKeyCleanupService runs
   * @param openKeyExpireThreshold age at which an open key or file expires
   * @param openKeyCleanupLimit rows examined per open table per batch
   * @param multipartCleanupInterval delay between MultipartUploadCleanupService runs
   * @param multipartExpireThreshold age at which an upload in progress is aborted
   * @param multipartCleanupLimit uploads examined per batch
   * @param directoryDeletingInterval delay between DirectoryDeletingService runs
   * @param directoryDeletingBatchSize rows removed per directory purge batch
   * @param pacing how each service paces the batches of a run (the same for all four)
   */
  public record Config(Duration keyDeletingInterval, int keyDeletingBatchSize,
      Duration openKeyCleanupInterval, Duration openKeyExpireThreshold, int openKeyCleanupLimit,
      Duration multipartCleanupInterval, Duration multipartExpireThreshold,
      int multipartCleanupLimit, Duration directoryDeletingInterval,
      int directoryDeletingBatchSize, PurgePacing pacing) {

    public Config {
      Objects.requireNonNull(pacing, "pacing");
    }

    /** The first ten settings, with {@link PurgePacing#defaults()}. */
    public Config(Duration keyDeletingInterval, int keyDeletingBatchSize,
        Duration openKeyCleanupInterval, Duration openKeyExpireThreshold, int openKeyCleanupLimit,
        Duration multipartCleanupInterval, Duration multipartExpireThreshold,
        int multipartCleanupLimit, Duration directoryDeletingInterval,
        int directoryDeletingBatchSize) {
      this(keyDeletingInterval, keyDeletingBatchSize, openKeyCleanupInterval,
          openKeyExpireThreshold, openKeyCleanupLimit, multipartCleanupInterval,
          multipartExpireThreshold, multipartCleanupLimit, directoryDeletingInterval,
          directoryDeletingBatchSize, PurgePacing.defaults());
    }

    /**
     * The first eight settings, with the directory purge's defaults (every 60 s, 1,000 rows) and
     * {@link PurgePacing#defaults()}.
     */
    public Config(Duration keyDeletingInterval, int keyDeletingBatchSize,
        Duration openKeyCleanupInterval, Duration openKeyExpireThreshold, int openKeyCleanupLimit,
        Duration multipartCleanupInterval, Duration multipartExpireThreshold,
        int multipartCleanupLimit) {
      this(keyDeletingInterval, keyDeletingBatchSize, openKeyCleanupInterval,
          openKeyExpireThreshold, openKeyCleanupLimit, multipartCleanupInterval,
          multipartExpireThreshold, multipartCleanupLimit, Duration.ofSeconds(60), 1000);
    }

    /**
     * Ozone's thresholds (open keys 7 days, uploads 30 days) with shorter intervals: key purge
     * every 60 s, 1,000 rows a batch; open-key cleanup every hour, 1,000 rows per table a batch;
     * upload cleanup every hour, 1,000 uploads a batch; directory purge every 60 s, 1,000 rows a
     * batch; a run takes batches while they come back full, {@link PurgePacing#DEFAULT_PAUSE}
     * apart, with no rate limit.
     */
    public static Config defaults() {
      return new Config(Duration.ofSeconds(60), 1000, Duration.ofHours(1), Duration.ofDays(7),
          1000, Duration.ofHours(1), Duration.ofDays(30), 1000);
    }

    /** These settings with {@code p} as the pacing. */
    public Config withPacing(PurgePacing p) {
      return new Config(keyDeletingInterval, keyDeletingBatchSize, openKeyCleanupInterval,
          openKeyExpireThreshold, openKeyCleanupLimit, multipartCleanupInterval,
          multipartExpireThreshold, multipartCleanupLimit, directoryDeletingInterval,
          directoryDeletingBatchSize, p);
    }
  }

  private final KeyDeletingService keyDeleting;
  private final OpenKeyCleanupService openKeyCleanup;
  private final MultipartUploadCleanupService multipartCleanup;
  private final DirectoryDeletingService directoryDeleting;
  private final List<BackgroundService> all;

  private OmServices(PurgeSteps steps, Config c) {
    this.keyDeleting = new KeyDeletingService(steps, c.keyDeletingInterval(),
        c.keyDeletingBatchSize(), c.pacing());
    this.openKeyCleanup = new OpenKeyCleanupService(steps, c.openKeyCleanupInterval(),
        c.openKeyExpireThreshold(), c.openKeyCleanupLimit(), c.pacing());
    this.multipartCleanup = new MultipartUploadCleanupService(steps,
        c.multipartCleanupInterval(), c.multipartExpireThreshold(), c.multipartCleanupLimit(),
        c.pacing());
    this.directoryDeleting = new DirectoryDeletingService(steps, c.directoryDeletingInterval(),
        c.directoryDeletingBatchSize(), c.pacing());
    this.all = List.of(keyDeleting, openKeyCleanup, multipartCleanup, directoryDeleting);
  }

  /**
   * Creates (does not start) the services of {@code store}.
   *
   * @throws IllegalArgumentException for a non-positive interval, a negative threshold or a
   *     batch size or limit out of range
   */
  public static OmServices create(OmMetadataStore store, Config config) {
    return create(PurgeSteps.on(store), config);
  }

  /**
   * Creates (does not start) services that run their steps through {@code steps} (in a
   * replicated group: as log entries from the leader).
   *
   * @throws IllegalArgumentException as {@link #create(OmMetadataStore, Config)}
   */
  public static OmServices create(PurgeSteps steps, Config config) {
    Objects.requireNonNull(steps, "steps");
    Objects.requireNonNull(config, "config");
    return new OmServices(steps, config);
  }

  public KeyDeletingService keyDeleting() {
    return keyDeleting;
  }

  public OpenKeyCleanupService openKeyCleanup() {
    return openKeyCleanup;
  }

  public MultipartUploadCleanupService multipartUploadCleanup() {
    return multipartCleanup;
  }

  public DirectoryDeletingService directoryDeleting() {
    return directoryDeleting;
  }

  /** Every service, in creation order. */
  public List<BackgroundService> services() {
    return all;
  }

  /** Starts every service not running. */
  public void start() {
    for (BackgroundService s : all) {
      s.start();
    }
  }

  /** Stops every service (they may be started again). */
  public void stop() {
    for (BackgroundService s : all) {
      s.stop();
    }
  }

  /** Each service's metrics, by name. */
  public Map<String, ServiceMetrics> metrics() {
    Map<String, ServiceMetrics> out = new LinkedHashMap<>();
    for (BackgroundService s : all) {
      out.put(s.name(), s.metrics());
    }
    return out;
  }

  /** Stops every service for good. Idempotent. */
  @Override
  public void close() {
    for (BackgroundService s : all) {
      s.close();
    }
  }
}
