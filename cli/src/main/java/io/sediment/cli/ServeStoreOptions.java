package io.sediment.cli;

import io.sediment.db.DBProfile;
import io.sediment.om.core.OmException;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.core.ReplicationConfigs;
import io.sediment.om.core.ReplicationText;
import io.sediment.om.core.SyncPolicy;
import io.sediment.proto.om.ReplicationConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code sediment serve} that shape the embedded store: the store's own settings
 * ({@link #storeOptions}, an {@link OmStoreOptions}) and its RocksDB tuning ({@link #profile}, a
 * {@link DBProfile}). Those two methods are the only places the options become store settings: a
 * new store setting gets an option here and one line in one of them.
 */
final class ServeStoreOptions {

  /** The block cache of {@link DBProfile#defaults()}, as the option's default. */
  static final String DEFAULT_BLOCK_CACHE = "256MiB";

  @Option(names = "--page-cap", paramLabel = "N", defaultValue = "" + OmStoreOptions.DEFAULT_MAX_LIST_SIZE,
      description = "Largest page of any listing (default: ${DEFAULT-VALUE}).")
  int pageCap;

  @Option(names = "--max-path-depth", paramLabel = "N",
      defaultValue = "" + OmStoreOptions.DEFAULT_MAX_PATH_DEPTH,
      description = "Most components of a path in a FILE_SYSTEM_OPTIMIZED bucket: a create "
          + "deeper than it, or a rename that would put an entry deeper, is INVALID_ARGUMENT; "
          + "deeper entries a store already holds stay readable and deletable "
          + "(default: ${DEFAULT-VALUE}).")
  int maxPathDepth;

  @Option(names = "--sync", paramLabel = "POLICY", defaultValue = "DURABLE",
      description = "When a write is acknowledged: DURABLE (after a group-committed WAL fsync) or "
          + "PROCESS_CRASH_SAFE; a replica (--ha-id) ignores it: its store runs without a WAL "
          + "(REPLAYED_FROM_LOG), its Raft log being durable (default: ${DEFAULT-VALUE}).")
  SyncPolicy sync;

  @Option(names = "--list-token-max-age", paramLabel = "DURATION", defaultValue = "1d",
      converter = Durations.class,
      description = "How long a listing's continuation token is accepted after it was issued; "
          + "0s: for ever (default: ${DEFAULT-VALUE}).")
  Duration listTokenMaxAge;

  @Option(names = "--metadata-cache-size", paramLabel = "N",
      defaultValue = "" + OmStoreOptions.DEFAULT_METADATA_CACHE_SIZE,
      description = "How many volumes, and as many buckets, are kept parsed in memory; 0 reads "
          + "them from RocksDB on every request (default: ${DEFAULT-VALUE}).")
  int metadataCacheSize;

  @Option(names = "--default-replication-type", paramLabel = "TYPE", defaultValue = "RATIS",
      description = "Replication type of a new key whose request and bucket name none: RATIS, "
          + "STAND_ALONE or EC, as Ozone's ozone.server.default.replication.type "
          + "(default: ${DEFAULT-VALUE}).")
  String defaultReplicationType;

  @Option(names = "--default-replication", paramLabel = "REPLICATION", defaultValue = "THREE",
      description = "Its replication: ONE or THREE, or for EC e.g. rs-6-3-1024k, as Ozone's "
          + "ozone.server.default.replication (default: ${DEFAULT-VALUE}). Decided when a call "
          + "is taken, before a group logs it: the replicas of a group need not agree.")
  String defaultReplication;

  @Option(names = "--block-cache-size", paramLabel = "SIZE", defaultValue = DEFAULT_BLOCK_CACHE,
      converter = Sizes.class,
      description = "The store's shared RocksDB block cache (data, index and filter blocks), "
          + "e.g. 256MiB or 2g (default: ${DEFAULT-VALUE}).")
  long blockCacheBytes;

  @Option(names = "--partition-pinning", paramLabel = "AUTO|ALL|NONE", defaultValue = "AUTO",
      description = "Whether the index and filter partitions of the open files stay pinned in "
          + "the block cache: ALL, NONE, or AUTO (pin when those already on disk take at most "
          + "an eighth of the cache, decided at each open) (default: ${DEFAULT-VALUE}).")
  DBProfile.PartitionPinning partitionPinning;

  @Option(names = "--rocksdb-options", paramLabel = "FILE",
      description = "A RocksDB OPTIONS-format ini file overriding the profile: its [DBOptions] "
          + "replace the DB options and each [CFOptions \"table\"] section that table's options "
          + "(default: none).")
  Path rocksdbOptions;

  /** Refuses, as usage errors, values the store would refuse, and an unreadable options file. */
  void validate(CommandLine cmd) {
    if (pageCap < 1) {
      throw new CommandLine.ParameterException(cmd, "--page-cap must be at least 1: " + pageCap);
    }
    if (maxPathDepth < 1) {
      throw new CommandLine.ParameterException(cmd, "--max-path-depth must be at least 1: "
          + maxPathDepth);
    }
    if (listTokenMaxAge.isNegative()) {
      throw new CommandLine.ParameterException(cmd, "--list-token-max-age must not be negative: "
          + Durations.format(listTokenMaxAge));
    }
    if (metadataCacheSize < 0) {
      throw new CommandLine.ParameterException(cmd, "--metadata-cache-size must not be negative: "
          + metadataCacheSize);
    }
    if (blockCacheBytes < 1 << 20) {
      throw new CommandLine.ParameterException(cmd, "--block-cache-size must be at least 1MiB: "
          + blockCacheBytes);
    }
    if (sync == SyncPolicy.REPLAYED_FROM_LOG) {
      // Without a WAL a crash loses the writes since the last flush; only a replica has a log
      // that brings them back, and it picks the policy itself.
      throw new CommandLine.ParameterException(cmd, "--sync must be DURABLE or "
          + "PROCESS_CRASH_SAFE: REPLAYED_FROM_LOG is what a replica (--ha-id) runs, its Raft "
          + "log bringing back what a crash loses");
    }
    replication(cmd);
    if (rocksdbOptions != null && !(Files.isRegularFile(rocksdbOptions)
        && Files.isReadable(rocksdbOptions))) {
      throw new CommandLine.ParameterException(cmd, "--rocksdb-options names no readable file: "
          + rocksdbOptions);
    }
  }

  /**
   * The default replication config the two options name.
   *
   * @throws CommandLine.ParameterException (a usage error) naming a form or a config that is not
   *     valid
   */
  private ReplicationConfig replication(CommandLine cmd) {
    try {
      return ReplicationConfigs.check(ReplicationText.parse(defaultReplicationType,
          defaultReplication));
    } catch (IllegalArgumentException | OmException e) {
      throw new CommandLine.ParameterException(cmd, "--default-replication-type "
          + defaultReplicationType + " --default-replication " + defaultReplication + ": "
          + e.getMessage());
    }
  }

  /**
   * The store's settings; a {@code replica} acknowledges writes once its Raft log has them and
   * replays the log after a crash, so its store needs no WAL of its own
   * ({@link SyncPolicy#REPLAYED_FROM_LOG} whatever --sync says).
   */
  OmStoreOptions storeOptions(boolean replica) {
    return OmStoreOptions.defaults()
        .withMaxListSize(pageCap)
        .withTokenMaxAge(listTokenMaxAge)
        .withSyncPolicy(replica ? SyncPolicy.REPLAYED_FROM_LOG : sync)
        .withMaxPathDepth(maxPathDepth)
        .withMetadataCacheSize(metadataCacheSize)
        .withDefaultReplication(ReplicationText.parse(defaultReplicationType,
            defaultReplication));
  }

  /** The store's RocksDB tuning: {@link DBProfile#defaults()} with these options applied. */
  DBProfile profile() {
    return DBProfile.defaults().toBuilder()
        .blockCacheBytes(blockCacheBytes)
        .partitionPinning(partitionPinning)
        .optionsFile(rocksdbOptions == null ? null : rocksdbOptions.toAbsolutePath().normalize())
        .build();
  }
}
