package io.sediment.om.audit;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit log's own file: the lines of an {@link AuditInterceptor} given {@link #logger()}, one
 * per line, nothing else, written through logback by an asynchronous appender over a rolling
 * file.
 *
 * <p>Rotation: the file rolls over at midnight (UTC of the server's clock) and whenever it
 * exceeds {@link Rotation#maxFileBytes()}; rolled files sit beside it as
 * {@code NAME-yyyy-MM-dd.I.log.gz}, and the oldest are deleted beyond
 * {@link Rotation#maxHistoryDays()} days or {@link Rotation#totalCapBytes()} in all.
 *
 * <p>Back-pressure: lines wait in a queue of {@link #QUEUE_SIZE} for the writer thread. While it
 * is more than four fifths full, INFO lines (successful reads) are dropped, so a slow disk never
 * holds up a read; WARN lines (writes, failures, denials) are never dropped: when the queue is
 * full the call writing one waits.
 *
 * <p>The logger does not pass its lines to the root logger (no console copy), before or after
 * {@link #close()}, which writes out the queue (waiting up to {@link #FLUSH_MILLIS} ms), closes
 * the file and detaches it: the logger then writes nowhere. Needs logback as the SLF4J implementation.
 */
public final class AuditLogFile implements AutoCloseable {

  /** Lines queued for the writer thread at most. */
  public static final int QUEUE_SIZE = 8192;
  /** How long {@link #close()} waits for the queue to be written. */
  public static final int FLUSH_MILLIS = 10_000;

  /**
   * When the file rolls over and how much of it is kept.
   *
   * @param maxFileBytes a file rolls over once larger than this
   * @param maxHistoryDays rolled files older than this many days are deleted
   * @param totalCapBytes the oldest rolled files are deleted while all together exceed this
   */
  public record Rotation(long maxFileBytes, int maxHistoryDays, long totalCapBytes) {

    /** 100 MiB files, kept 30 days, at most 10 GiB. */
    public static final Rotation DEFAULT = new Rotation(100L << 20, 30, 10L << 30);

    /**
     * @throws IllegalArgumentException if a value is not positive or the cap is below a file
     */
    public Rotation {
      if (maxFileBytes < 1 || maxHistoryDays < 1 || totalCapBytes < maxFileBytes) {
        throw new IllegalArgumentException("Audit log rotation needs a positive file size, "
            + "history and a total cap of at least one file: " + maxFileBytes + ", "
            + maxHistoryDays + ", " + totalCapBytes);
      }
    }
  }

  private final Path file;
  private final ch.qos.logback.classic.Logger logger;
  private final AsyncAppender async;

  private AuditLogFile(Path file, ch.qos.logback.classic.Logger logger, AsyncAppender async) {
    this.file = file;
    this.logger = logger;
    this.async = async;
  }

  /**
   * Creates {@code file} readable and writable by its owner only (0600, where the file system
   * has POSIX permissions), and its missing directories owner-only (0700); an existing file or
   * directory is left as it is.
   *
   * @throws IllegalStateException naming the file if it cannot be created
   */
  private static void createOwnerOnly(Path file) {
    boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
    try {
      Path dir = file.getParent();
      if (dir != null && !Files.isDirectory(dir)) {
        if (posix) {
          Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
              PosixFilePermissions.fromString("rwx------")));
        } else {
          Files.createDirectories(dir);
        }
      }
      if (!Files.exists(file)) {
        if (posix) {
          Files.createFile(file, PosixFilePermissions.asFileAttribute(
              PosixFilePermissions.fromString("rw-------")));
        } else {
          Files.createFile(file);
        }
      }
    } catch (FileAlreadyExistsException raced) {
      // created meanwhile: appended to as it is
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create the audit log " + file + ": " + e, e);
    }
  }

  /**
   * Starts writing the {@value AuditInterceptor#LOGGER_NAME} logger to {@code file} (appending;
   * a new file and its missing directories are created owner-only).
   *
   * @throws IllegalStateException if SLF4J is not bound to logback, or the file cannot be opened
   */
  public static AuditLogFile open(Path file, Rotation rotation) {
    return open(AuditInterceptor.LOGGER_NAME, file, rotation);
  }

  /** {@link #open(Path, Rotation)} for the logger {@code loggerName}. */
  static AuditLogFile open(String loggerName, Path file, Rotation rotation) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(rotation, "rotation");
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      throw new IllegalStateException("An audit log file needs logback as the SLF4J "
          + "implementation, not " + LoggerFactory.getILoggerFactory().getClass().getName());
    }
    Path abs = file.toAbsolutePath().normalize();
    createOwnerOnly(abs);
    String name = abs.getFileName().toString();
    String stem = name.endsWith(".log") ? name.substring(0, name.length() - 4) : name;

    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%msg%n");
    encoder.start();

    RollingFileAppender<ILoggingEvent> rolling = new RollingFileAppender<>();
    rolling.setContext(context);
    rolling.setName("AUDIT_FILE " + abs);
    rolling.setFile(abs.toString());
    rolling.setAppend(true);
    rolling.setEncoder(encoder);
    SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
    policy.setContext(context);
    policy.setParent(rolling);
    policy.setFileNamePattern(abs.resolveSibling(stem + "-%d{yyyy-MM-dd,UTC}.%i.log.gz")
        .toString());
    policy.setMaxFileSize(new FileSize(rotation.maxFileBytes()));
    policy.setMaxHistory(rotation.maxHistoryDays());
    policy.setTotalSizeCap(new FileSize(rotation.totalCapBytes()));
    policy.start();
    rolling.setRollingPolicy(policy);
    rolling.start();
    if (!rolling.isStarted()) {
      policy.stop();
      throw new IllegalStateException("Cannot write the audit log " + abs
          + " (see the logback status messages)");
    }

    AsyncAppender async = new AsyncAppender();
    async.setContext(context);
    async.setName("AUDIT_ASYNC " + abs);
    async.setQueueSize(QUEUE_SIZE);
    // INFO (successful reads) is dropped while the queue is 4/5 full; WARN never (blocks instead).
    async.setDiscardingThreshold(QUEUE_SIZE / 5);
    async.setNeverBlock(false);
    async.setMaxFlushTime(FLUSH_MILLIS);
    async.addAppender(rolling);
    async.start();

    ch.qos.logback.classic.Logger logger = context.getLogger(loggerName);
    logger.setLevel(Level.INFO);
    logger.setAdditive(false);
    logger.addAppender(async);
    return new AuditLogFile(abs, logger, async);
  }

  /** Where the lines go: give it to {@link AuditInterceptor}. */
  public Logger logger() {
    return logger;
  }

  /** The file written (absolute). */
  public Path file() {
    return file;
  }

  /** Writes out what is queued, closes the file and detaches it. Idempotent. */
  @Override
  public synchronized void close() {
    if (!async.isStarted()) {
      return;
    }
    logger.detachAppender(async);
    async.stop();
    async.detachAndStopAllAppenders();
  }
}
