package dev.flipper.bench;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/** Counts the lines the root logger writes (a stack trace's frames too) while it is open. */
final class LogLines extends AppenderBase<ILoggingEvent> implements AutoCloseable {
  private final AtomicLong lines = new AtomicLong();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  private LogLines() {
    setContext(root.getLoggerContext());
  }

  static LogLines counting() {
    LogLines counter = new LogLines();
    counter.start();
    counter.root.addAppender(counter);
    return counter;
  }

  @Override
  protected void append(ILoggingEvent event) {
    lines.incrementAndGet();
    for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
      lines.addAndGet(1 + t.getStackTraceElementProxyArray().length);
    }
  }

  long lines() {
    return lines.get();
  }

  @Override
  public void close() {
    root.detachAppender(this);
    stop();
  }
}
