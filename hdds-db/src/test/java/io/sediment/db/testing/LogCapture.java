package io.sediment.db.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Collects what one logger (and its children) logs at INFO and above while open; {@link #close()}
 * detaches and restores the logger's level. Thread-safe.
 */
public final class LogCapture implements AutoCloseable {

  private final Logger logger;
  private final Level previous;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(String name) {
    logger = (Logger) LoggerFactory.getLogger(name);
    previous = logger.getLevel();
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.INFO);
  }

  public static LogCapture of(String loggerName) {
    return new LogCapture(loggerName);
  }

  public static LogCapture of(Class<?> type) {
    return new LogCapture(type.getName());
  }

  /** The messages logged at {@code level}, formatted, in order. */
  public List<String> messages(Level level) {
    synchronized (appender) {
      return List.copyOf(appender.list).stream().filter(e -> e.getLevel() == level)
          .map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
    }
  }

  /**
   * For each event logged at {@code level}, in order, the class name of the throwable it carries
   * (logged with its stack), or {@code null} if it carries none.
   */
  public List<String> thrownClasses(Level level) {
    synchronized (appender) {
      return List.copyOf(appender.list).stream().filter(e -> e.getLevel() == level)
          .map(e -> e.getThrowableProxy() == null ? null : e.getThrowableProxy().getClassName())
          .collect(Collectors.toList());
    }
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    appender.stop();
    logger.setLevel(previous);
  }
}
