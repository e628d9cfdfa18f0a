package dev.flipper.launcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import dev.flipper.config.LoggingConfig;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@code logging} section to logback at start-up: the level of Flipper's loggers, and
 * optionally a log file instead of the console. logback.xml holds the pattern; this class only changes what
 * the config controls. Not thread-safe: call once, from the launcher, before daemons start.
 */
public final class LoggingSetup {
  /** The one line per event pattern, shared by console and file. */
  public static final String PATTERN =
      "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%mode] %logger{40} - %msg%onceEx%n";

  private LoggingSetup() {}

  /**
   * @param modes the process's mode(s), e.g. {@code queue} or {@code all}: shown in each line and put in
   *     place of {@code {mode}} in {@code logging.file}
   */
  public static void apply(LoggingConfig config, String modes) {
    ModeConverter.setProcessModes(modes);
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return; // another slf4j binding: leave it alone
    }
    Level level = Level.toLevel(config.level(), Level.INFO);
    context.getLogger("dev.flipper").setLevel(level);
    // Libraries chatter at INFO; keep them at WARN unless Flipper itself is quieter than that.
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(level.isGreaterOrEqual(Level.WARN) ? level : Level.WARN);
    if (!config.file().isEmpty()) {
      useFile(context, root, config.file().replace("{mode}", modes));
    }
  }

  private static void useFile(LoggerContext context, Logger root, String path) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    FileAppender<ILoggingEvent> file = new FileAppender<>();
    file.setContext(context);
    file.setName("FILE");
    file.setFile(path);
    file.setAppend(true);
    file.setEncoder(encoder);
    file.start();
    if (!file.isStarted()) {
      throw new IllegalStateException("cannot open log file '" + path + "' (see logging.file)");
    }
    List<Appender<ILoggingEvent>> old = new ArrayList<>();
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      old.add(it.next());
    }
    root.addAppender(file);
    for (Appender<ILoggingEvent> appender : old) {
      root.detachAppender(appender);
      appender.stop();
    }
  }
}
