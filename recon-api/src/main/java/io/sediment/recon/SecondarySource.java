package io.sediment.recon;

import io.sediment.db.DBStore;
import io.sediment.db.DBStoreBuilder;
import io.sediment.om.core.OmDBDefinition;
import io.sediment.om.core.OmStoreOptions;
import io.sediment.om.insight.OmInsight;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ReconSource#secondary}: a read-only RocksDB secondary instance over a store directory
 * another process owns, caught up with the primary by one daemon thread at a fixed delay. A
 * catch-up waits for the views open at that moment (each request holds one briefly); a failed one
 * is logged and counted, and the next is tried on schedule.
 */
final class SecondarySource implements ReconSource {

  private static final Logger LOG = LoggerFactory.getLogger(SecondarySource.class);

  private final DBStore store;
  private final OmInsight insight;
  private final ScheduledExecutorService catchUp;
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();

  SecondarySource(Path storeDir, Path secondaryDir, Duration every) {
    Objects.requireNonNull(every, "every");
    if (every.isNegative() || every.isZero()) {
      throw new IllegalArgumentException("catch-up interval must be positive: " + every);
    }
    this.store = DBStoreBuilder.newBuilder(OmDBDefinition.DEFINITION).setPath(storeDir)
        .setSecondary(secondaryDir).build();
    this.insight = OmInsight.over(store, OmStoreOptions.DEFAULT_MAX_LIST_SIZE,
        OmInsight.DEFAULT_WALK_BUDGET);
    this.catchUp = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "sediment-recon-catchup");
      t.setDaemon(true);
      return t;
    });
    catchUp.scheduleWithFixedDelay(this::catchUpOnce, every.toMillis(), every.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** One catch-up now; false (logged and counted) if it failed. */
  boolean catchUpOnce() {
    try {
      store.catchUpWithPrimary();
      done.incrementAndGet();
      return true;
    } catch (RuntimeException e) {
      failed.incrementAndGet();
      LOG.warn("Recon: catching up with the primary at {} failed: {}", store.getPath(),
          e.getMessage());
      return false;
    }
  }

  @Override
  public OmInsight insight() {
    return insight;
  }

  @Override
  public DBStore store() {
    return store;
  }

  @Override
  public String mode() {
    return "secondary";
  }

  @Override
  public long catchUps() {
    return done.get();
  }

  @Override
  public long catchUpFailures() {
    return failed.get();
  }

  @Override
  public void close() {
    catchUp.shutdownNow();
    try {
      catchUp.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      store.close();
    }
  }
}
