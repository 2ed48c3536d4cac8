package io.sediment.om.core;

import io.sediment.proto.om.ReplicationConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of an {@link io.sediment.om.OmMetadataStore}.
 *
 * @param maxListSize server-side page cap of every listing (default 1000): {@code listKeys},
 *     {@code listVolumes} and {@code listBuckets} reject a larger page size, S3
 *     {@code listObjectsV2} clamps {@code max-keys} to it as S3 does
 * @param tokenMaxAge how long a continuation token is accepted after it was issued;
 *     {@link Duration#ZERO} for ever (default 1 day)
 * @param clock time source for creation, modification and deletion times and token ages
 * @param syncPolicy when a write is acknowledged (default {@link SyncPolicy#DURABLE}: after a
 *     group-committed WAL fsync)
 * @param maxPathDepth the most components an FSO path may have (default
 *     {@value #DEFAULT_MAX_PATH_DEPTH}): a create whose path is deeper, or a rename that would put
 *     any entry of the moved subtree deeper, is INVALID_ARGUMENT. Entries already deeper (a store
 *     written with a higher limit) stay readable, listable, deletable and purgeable.
 * @param metadataCacheSize how many volumes, and as many buckets, are kept parsed in memory
 *     (default {@value #DEFAULT_METADATA_CACHE_SIZE}; 0 reads them from RocksDB on every request);
 *     see {@link VolumeBucketCache}
 * @param defaultReplication the replication config a new key, file or upload gets when neither
 *     its request nor its bucket names one (default {@link ReplicationConfigs#DEFAULT},
 *     RATIS/THREE); must be valid ({@link ReplicationConfigs#check}). A server decides it before a
 *     write is logged, so the replicas of a group need not agree on it
 */
public record OmStoreOptions(int maxListSize, Duration tokenMaxAge, Clock clock,
    SyncPolicy syncPolicy, int maxPathDepth, int metadataCacheSize,
    ReplicationConfig defaultReplication) {

  public static final int DEFAULT_MAX_LIST_SIZE = 1000;
  public static final Duration DEFAULT_TOKEN_MAX_AGE = Duration.ofDays(1);
  /**
   * Default of {@link #maxPathDepth}: far deeper than any real file system tree (Linux's
   * PATH_MAX of 4096 bytes allows about 2,048 levels of one-letter names), yet small enough that
   * the per-level costs (a point get per component on every lookup, one row per level in the
   * purge, the rename check's walk) stay bounded.
   */
  public static final int DEFAULT_MAX_PATH_DEPTH = 1024;
  /**
   * Default of {@link #metadataCacheSize}: every volume and bucket of any namespace we expect
   * (Ozone clusters run thousands of buckets), at a few hundred bytes per parsed row.
   */
  public static final int DEFAULT_METADATA_CACHE_SIZE = 100_000;

  public OmStoreOptions {
    if (maxListSize <= 0) {
      throw new IllegalArgumentException("maxListSize must be positive: " + maxListSize);
    }
    Objects.requireNonNull(tokenMaxAge, "tokenMaxAge");
    if (tokenMaxAge.isNegative()) {
      throw new IllegalArgumentException("tokenMaxAge must not be negative");
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(syncPolicy, "syncPolicy");
    if (maxPathDepth < 1) {
      throw new IllegalArgumentException("maxPathDepth must be at least 1: " + maxPathDepth);
    }
    if (metadataCacheSize < 0) {
      throw new IllegalArgumentException("metadataCacheSize must not be negative: "
          + metadataCacheSize);
    }
    Objects.requireNonNull(defaultReplication, "defaultReplication");
    try {
      defaultReplication = ReplicationConfigs.check(defaultReplication);
    } catch (OmException e) {
      throw new IllegalArgumentException("defaultReplication: " + e.getMessage(), e);
    }
  }

  public static OmStoreOptions defaults() {
    return new OmStoreOptions(DEFAULT_MAX_LIST_SIZE, DEFAULT_TOKEN_MAX_AGE, Clock.systemUTC(),
        SyncPolicy.DURABLE, DEFAULT_MAX_PATH_DEPTH, DEFAULT_METADATA_CACHE_SIZE,
        ReplicationConfigs.DEFAULT);
  }

  public OmStoreOptions withMaxListSize(int size) {
    return new OmStoreOptions(size, tokenMaxAge, clock, syncPolicy, maxPathDepth,
        metadataCacheSize, defaultReplication);
  }

  public OmStoreOptions withTokenMaxAge(Duration age) {
    return new OmStoreOptions(maxListSize, age, clock, syncPolicy, maxPathDepth,
        metadataCacheSize, defaultReplication);
  }

  public OmStoreOptions withClock(Clock c) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, c, syncPolicy, maxPathDepth,
        metadataCacheSize, defaultReplication);
  }

  public OmStoreOptions withSyncPolicy(SyncPolicy policy) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, clock, policy, maxPathDepth,
        metadataCacheSize, defaultReplication);
  }

  public OmStoreOptions withMaxPathDepth(int depth) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, clock, syncPolicy, depth,
        metadataCacheSize, defaultReplication);
  }

  public OmStoreOptions withMetadataCacheSize(int size) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, clock, syncPolicy, maxPathDepth, size,
        defaultReplication);
  }

  /** See {@link #defaultReplication}; throws IllegalArgumentException for an invalid config. */
  public OmStoreOptions withDefaultReplication(ReplicationConfig config) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, clock, syncPolicy, maxPathDepth,
        metadataCacheSize, config);
  }
}
