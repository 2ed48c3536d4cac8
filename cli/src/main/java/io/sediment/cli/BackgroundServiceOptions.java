package io.sediment.cli;

import io.sediment.om.purge.OmPurges;
import io.sediment.om.service.OmServices;
import io.sediment.om.service.PurgePacing;
import java.time.Duration;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The options of {@code sediment serve} for the background services (key purge, open-key cleanup,
 * multipart upload cleanup, directory purge): whether they run, and their intervals, expiry
 * thresholds, batch sizes and pacing. The defaults are {@link OmServices.Config#defaults()}.
 */
final class BackgroundServiceOptions {

  @Option(names = "--no-background-services",
      description = "Run no background service: deleted versions, expired open keys, stale "
          + "multipart uploads and recursively deleted directories then stay until a server runs "
          + "them.")
  boolean disabled;

  @Option(names = "--key-deleting-interval", paramLabel = "DURATION", defaultValue = "60s",
      converter = Durations.class,
      description = "Delay between KeyDeletingService runs, which purge deleted versions "
          + "(default: ${DEFAULT-VALUE}).")
  Duration keyDeletingInterval;

  @Option(names = "--key-deleting-batch", paramLabel = "N", defaultValue = "1000",
      description = "deletedTable rows purged per batch; a run takes batches while they come back "
          + "full (default: ${DEFAULT-VALUE}).")
  int keyDeletingBatch;

  @Option(names = "--open-key-cleanup-interval", paramLabel = "DURATION", defaultValue = "1h",
      converter = Durations.class,
      description = "Delay between OpenKeyCleanupService runs (default: ${DEFAULT-VALUE}).")
  Duration openKeyCleanupInterval;

  @Option(names = "--open-key-expire", paramLabel = "DURATION", defaultValue = "7d",
      converter = Durations.class,
      description = "Age at which a key or file left open is discarded (default: ${DEFAULT-VALUE}).")
  Duration openKeyExpire;

  @Option(names = "--open-key-cleanup-limit", paramLabel = "N", defaultValue = "1000",
      description = "Open rows examined per table per batch (default: ${DEFAULT-VALUE}).")
  int openKeyCleanupLimit;

  @Option(names = "--multipart-cleanup-interval", paramLabel = "DURATION", defaultValue = "1h",
      converter = Durations.class,
      description = "Delay between MultipartUploadCleanupService runs (default: ${DEFAULT-VALUE}).")
  Duration multipartCleanupInterval;

  @Option(names = "--multipart-expire", paramLabel = "DURATION", defaultValue = "30d",
      converter = Durations.class,
      description = "Age at which a multipart upload still in progress is aborted "
          + "(default: ${DEFAULT-VALUE}).")
  Duration multipartExpire;

  @Option(names = "--multipart-cleanup-limit", paramLabel = "N", defaultValue = "1000",
      description = "Uploads examined per batch (default: ${DEFAULT-VALUE}).")
  int multipartCleanupLimit;

  @Option(names = "--directory-deleting-interval", paramLabel = "DURATION", defaultValue = "60s",
      converter = Durations.class,
      description = "Delay between DirectoryDeletingService runs, which purge the subtrees of "
          + "recursively deleted FSO directories (default: ${DEFAULT-VALUE}).")
  Duration directoryDeletingInterval;

  @Option(names = "--directory-deleting-batch-size", paramLabel = "N", defaultValue = "1000",
      description = "Rows (directories, files and open files below deleted directories, and "
          + "queue rows) purged per batch (default: ${DEFAULT-VALUE}).")
  int directoryDeletingBatchSize;

  @Option(names = "--purge-rate", paramLabel = "ROWS", defaultValue = "0",
      description = "The most rows per second each background service removes while a run drains "
          + "a backlog; 0 for no limit (default: ${DEFAULT-VALUE}).")
  long purgeRate;

  @Option(names = "--purge-pause", paramLabel = "DURATION", defaultValue = "20ms",
      converter = Durations.class,
      description = "The least wait between two batches of a background service's run, a yield "
          + "to foreground calls; 0s for none (default: ${DEFAULT-VALUE}).")
  Duration purgePause;

  /** Usage errors for out-of-range values. */
  void validate(CommandLine cmd) {
    positive(cmd, "--key-deleting-interval", keyDeletingInterval);
    positive(cmd, "--open-key-cleanup-interval", openKeyCleanupInterval);
    positive(cmd, "--multipart-cleanup-interval", multipartCleanupInterval);
    positive(cmd, "--directory-deleting-interval", directoryDeletingInterval);
    notNegative(cmd, "--open-key-expire", openKeyExpire);
    notNegative(cmd, "--multipart-expire", multipartExpire);
    limit(cmd, "--key-deleting-batch", keyDeletingBatch);
    limit(cmd, "--open-key-cleanup-limit", openKeyCleanupLimit);
    limit(cmd, "--multipart-cleanup-limit", multipartCleanupLimit);
    limit(cmd, "--directory-deleting-batch-size", directoryDeletingBatchSize);
    if (purgeRate < 0 || purgeRate > PurgePacing.MAX_ROWS_PER_SECOND) {
      throw new CommandLine.ParameterException(cmd, "--purge-rate must be in [0, "
          + PurgePacing.MAX_ROWS_PER_SECOND + "] (0: no limit): " + purgeRate);
    }
    if (purgePause.isNegative() || purgePause.compareTo(PurgePacing.MAX_PAUSE) > 0) {
      throw new CommandLine.ParameterException(cmd, "--purge-pause must be 0s to "
          + Durations.format(PurgePacing.MAX_PAUSE) + ": " + Durations.format(purgePause));
    }
  }

  OmServices.Config config() {
    return new OmServices.Config(keyDeletingInterval, keyDeletingBatch, openKeyCleanupInterval,
        openKeyExpire, openKeyCleanupLimit, multipartCleanupInterval, multipartExpire,
        multipartCleanupLimit, directoryDeletingInterval, directoryDeletingBatchSize,
        new PurgePacing(purgeRate, purgePause));
  }

  /** One line for the operator: what runs how often. */
  String describe() {
    if (disabled) {
      return "Background services: none (--no-background-services)";
    }
    return String.format("Background services: key purge every %s (%d rows), open-key cleanup every"
            + " %s (expire after %s), multipart cleanup every %s (abort after %s), directory purge "
            + "every %s (%d rows); a run drains its backlog in batches, %s",
        Durations.format(keyDeletingInterval), keyDeletingBatch,
        Durations.format(openKeyCleanupInterval), Durations.format(openKeyExpire),
        Durations.format(multipartCleanupInterval), Durations.format(multipartExpire),
        Durations.format(directoryDeletingInterval), directoryDeletingBatchSize,
        new PurgePacing(purgeRate, purgePause).describe());
  }

  private static void positive(CommandLine cmd, String name, Duration d) {
    if (d.isZero() || d.isNegative()) {
      throw new CommandLine.ParameterException(cmd, name + " must be positive: " + d);
    }
  }

  private static void notNegative(CommandLine cmd, String name, Duration d) {
    if (d.isNegative()) {
      throw new CommandLine.ParameterException(cmd, name + " must not be negative: " + d);
    }
  }

  private static void limit(CommandLine cmd, String name, int n) {
    if (n < 1 || n > OmPurges.MAX_LIMIT) {
      throw new CommandLine.ParameterException(cmd, name + " must be in [1, " + OmPurges.MAX_LIMIT
          + "]: " + n);
    }
  }
}
