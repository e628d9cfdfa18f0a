package dev.flipper.launcher.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.ThrowableHandlingConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code %onceEx} in the log pattern: prints a stack trace the first time a distinct failure
 * (exception class plus top frame) is logged, or always when the event's logger is at DEBUG.
 * Repeats get one line, {@code [IOException: message; stack trace logged before]}, so a failing
 * dependency does not flood the log. Thread-safe.
 */
public final class OnceThrowableConverter extends ThrowableHandlingConverter {
  private static final int MAX_REMEMBERED = 10_000;

  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  @Override
  public String convert(ILoggingEvent event) {
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown == null) {
      return "";
    }
    if (isDebug(event.getLoggerName()) || firstTime(thrown)) {
      return CoreConstants.LINE_SEPARATOR + ThrowableProxyUtil.asString(thrown).stripTrailing();
    }
    return " [" + summary(thrown) + "; stack trace logged before]";
  }

  private boolean isDebug(String loggerName) {
    if (getContext() instanceof LoggerContext context) {
      Logger logger = context.getLogger(loggerName);
      return logger.isDebugEnabled();
    }
    return false;
  }

  private boolean firstTime(IThrowableProxy thrown) {
    StackTraceElementProxy[] frames = thrown.getStackTraceElementProxyArray();
    String top = frames != null && frames.length > 0 ? frames[0].getSTEAsString() : "";
    String key = thrown.getClassName() + "@" + top;
    if (seen.size() >= MAX_REMEMBERED) {
      seen.clear(); // bounded memory; at worst a trace is printed again
    }
    return seen.add(key);
  }

  private static String summary(IThrowableProxy thrown) {
    String name = thrown.getClassName().substring(thrown.getClassName().lastIndexOf('.') + 1);
    String message =
        thrown.getMessage() == null ? "" : ": " + thrown.getMessage().replace('\n', ' ');
    return name + message;
  }
}
