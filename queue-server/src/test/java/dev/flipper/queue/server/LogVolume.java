package dev.flipper.queue.server;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * Counts what the root logger writes (lines, and bytes with stack traces) while it is open, for log
 * bounds.
 */
final class LogVolume extends AppenderBase<ILoggingEvent> implements AutoCloseable {
  private final AtomicLong lines = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

  LogVolume() {
    setContext(root.getLoggerContext());
    start();
    root.addAppender(this);
  }

  @Override
  protected void append(ILoggingEvent event) {
    long size =
        100 + event.getFormattedMessage().length(); // time, level, thread and logger take ~100
    for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
      lines.addAndGet(t.getStackTraceElementProxyArray().length);
      size += 100L * (1 + t.getStackTraceElementProxyArray().length);
    }
    lines.incrementAndGet();
    bytes.addAndGet(size);
  }

  long lines() {
    return lines.get();
  }

  long bytes() {
    return bytes.get();
  }

  @Override
  public void close() {
    root.detachAppender(this);
    stop();
  }
}
