package io.sediment.om.tls;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls {@link TlsMaterial#reload} at a fixed period on a daemon thread of its own, so that
 * certificates, keys and CAs replaced on disk (a renewal) are served without a restart. A reload
 * that puts new material in place is logged at INFO; files that cannot be used are logged at WARN
 * naming the file (once per distinct failure) while the material in place keeps being served.
 *
 * <p>Thread-safe; {@link #close} stops it and is idempotent.
 */
public final class TlsReloader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TlsReloader.class);

  private final TlsMaterial material;
  private final ScheduledExecutorService timer;
  /** The last failure logged, so a file left broken is not logged every period. */
  private String lastFailure;

  private TlsReloader(TlsMaterial material, Duration period) {
    this.material = material;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tls-reload");
      t.setDaemon(true);
      return t;
    });
    long millis = period.toMillis();
    timer.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Starts checking {@code material}'s files every {@code period}.
   *
   * @throws IllegalArgumentException if the period is not positive
   */
  public static TlsReloader every(TlsMaterial material, Duration period) {
    Objects.requireNonNull(material, "material");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("A reload period must be positive: " + period);
    }
    return new TlsReloader(material, period);
  }

  /** One check, as the timer runs it. */
  synchronized void check() {
    try {
      if (material.reload()) {
        LOG.info("Reloaded the TLS files: now {}", material);
      }
      lastFailure = null;
    } catch (IOException | RuntimeException e) {
      String failure = e.getMessage();
      if (!Objects.equals(failure, lastFailure)) {
        LOG.warn("Kept the TLS material in place, the files on disk are not usable: {}", failure);
        lastFailure = failure;
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
