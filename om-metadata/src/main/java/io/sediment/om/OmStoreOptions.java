package io.sediment.om;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of an {@link OmMetadataStore}.
 *
 * @param maxListSize server-side page cap of every listing (default 1000): {@code listKeys},
 *     {@code listVolumes} and {@code listBuckets} reject a larger page size, S3
 *     {@code listObjectsV2} clamps {@code max-keys} to it as S3 does
 * @param tokenMaxAge how long a continuation token is accepted after it was issued;
 *     {@link Duration#ZERO} for ever (default 1 day)
 * @param clock time source for creation, modification and deletion times and token ages
 * @param syncPolicy when a write is acknowledged (default {@link SyncPolicy#DURABLE}: after a
 *     group-committed WAL fsync)
 */
public record OmStoreOptions(int maxListSize, Duration tokenMaxAge, Clock clock,
    SyncPolicy syncPolicy) {

  public static final int DEFAULT_MAX_LIST_SIZE = 1000;
  public static final Duration DEFAULT_TOKEN_MAX_AGE = Duration.ofDays(1);

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
  }

  public static OmStoreOptions defaults() {
    return new OmStoreOptions(DEFAULT_MAX_LIST_SIZE, DEFAULT_TOKEN_MAX_AGE, Clock.systemUTC(),
        SyncPolicy.DURABLE);
  }

  public OmStoreOptions withMaxListSize(int size) {
    return new OmStoreOptions(size, tokenMaxAge, clock, syncPolicy);
  }

  public OmStoreOptions withTokenMaxAge(Duration age) {
    return new OmStoreOptions(maxListSize, age, clock, syncPolicy);
  }

  public OmStoreOptions withClock(Clock c) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, c, syncPolicy);
  }

  public OmStoreOptions withSyncPolicy(SyncPolicy policy) {
    return new OmStoreOptions(maxListSize, tokenMaxAge, clock, policy);
  }
}
