package io.sediment.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Logging of {@code sediment serve}: Sediment's own loggers at the chosen level to the console
 * (stderr, from logback.xml) and to the log file, which logback rolls over daily (UTC) and at
 * {@link #MAX_FILE_BYTES} into {@code NAME-yyyy-MM-dd.N.log.gz} beside it, keeping
 * {@link #MAX_HISTORY_DAYS} days and at most {@link #TOTAL_CAP_BYTES} of rolled files;
 * grpc-java's java.util.logging is routed into SLF4J too. {@link #close()} undoes it (tests run
 * serve inside one JVM). Not thread-safe: start and close from one thread.
 */
final class ServeLogging implements AutoCloseable {

  /** A log file rolls over once larger than this (100 MiB). */
  static final long MAX_FILE_BYTES = 100L << 20;
  /** Rolled files older than this many days are deleted. */
  static final int MAX_HISTORY_DAYS = 30;
  /** The oldest rolled files are deleted while all together exceed this (1 GiB). */
  static final long TOTAL_CAP_BYTES = 1L << 30;

  private static final String APPENDER = "SEDIMENT_FILE";

  private final LoggerContext context;
  private final RollingFileAppender<ILoggingEvent> file;
  private final Level previousLevel;
  private final boolean bridged;

  private ServeLogging(LoggerContext context, RollingFileAppender<ILoggingEvent> file,
      Level previous, boolean bridged) {
    this.context = context;
    this.file = file;
    this.previousLevel = previous;
    this.bridged = bridged;
  }

  /**
   * Starts logging Sediment's loggers ({@code io.sediment}) at {@code level} to {@code logFile}
   * (appending) and the console.
   *
   * @throws CliFailure if the file cannot be written
   */
  static ServeLogging start(Path logFile, Level level) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return new ServeLogging(null, null, null, false);
    }
    Path abs = logFile.toAbsolutePath().normalize();
    String name = abs.getFileName().toString();
    String stem = name.endsWith(".log") ? name.substring(0, name.length() - 4) : name;
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n");
    encoder.start();
    RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
    file.setContext(context);
    file.setName(APPENDER);
    file.setFile(abs.toString());
    file.setAppend(true);
    file.setEncoder(encoder);
    SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
    policy.setContext(context);
    policy.setParent(file);
    policy.setFileNamePattern(abs.resolveSibling(stem + "-%d{yyyy-MM-dd,UTC}.%i.log.gz")
        .toString());
    policy.setMaxFileSize(new FileSize(MAX_FILE_BYTES));
    policy.setMaxHistory(MAX_HISTORY_DAYS);
    policy.setTotalSizeCap(new FileSize(TOTAL_CAP_BYTES));
    policy.start();
    file.setRollingPolicy(policy);
    file.start();
    if (!file.isStarted()) {
      policy.stop();
      throw new CliFailure("Cannot write the log file " + abs + " (pick another with --log-file)");
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(file);
    Logger ours = context.getLogger("io.sediment");
    Level previous = ours.getLevel();
    ours.setLevel(level);
    boolean bridged = false;
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
      bridged = true;
    }
    return new ServeLogging(context, file, previous, bridged);
  }

  @Override
  public void close() {
    if (context == null) {
      return;
    }
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(file);
    file.stop();
    context.getLogger("io.sediment").setLevel(previousLevel);
    if (bridged) {
      SLF4JBridgeHandler.uninstall();
    }
  }
}
