package io.sediment.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Logging of {@code sediment serve}: Sediment's own loggers at INFO to the console (stderr, from
 * logback.xml) and to {@code <data>/logs/sediment.log}; grpc-java's java.util.logging routed into
 * SLF4J too. {@link #close()} undoes it (tests run serve inside one JVM).
 */
final class ServeLogging implements AutoCloseable {

  private static final String APPENDER = "SEDIMENT_FILE";

  private final LoggerContext context;
  private final FileAppender<ILoggingEvent> file;
  private final Level previousLevel;
  private final boolean bridged;

  private ServeLogging(LoggerContext context, FileAppender<ILoggingEvent> file, Level previous,
      boolean bridged) {
    this.context = context;
    this.file = file;
    this.previousLevel = previous;
    this.bridged = bridged;
  }

  /** Starts logging to {@code logFile} (appending). */
  static ServeLogging start(Path logFile) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return new ServeLogging(null, null, null, false);
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n");
    encoder.start();
    FileAppender<ILoggingEvent> file = new FileAppender<>();
    file.setContext(context);
    file.setName(APPENDER);
    file.setFile(logFile.toString());
    file.setAppend(true);
    file.setEncoder(encoder);
    file.start();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(file);
    Logger ours = context.getLogger("io.sediment");
    Level previous = ours.getLevel();
    ours.setLevel(Level.INFO);
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
