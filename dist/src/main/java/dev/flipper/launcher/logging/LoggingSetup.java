package dev.flipper.launcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.OutputStreamAppender;
import dev.flipper.config.LoggingConfig;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@code logging} section to logback at start-up: the level of Flipper's loggers, and
 * optionally a log file instead of the console. logback.xml holds the pattern (daemons log to
 * stdout); this class only changes what the config controls, and quiets the command-line tools
 * ({@link #forCommandLine}). Not thread-safe: call once, from the launcher, before daemons start.
 */
public final class LoggingSetup {
  /** The one line per event pattern, shared by console and file. */
  public static final String PATTERN =
      "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%mode] %logger{40} - %msg%onceEx%n";

  private LoggingSetup() {}

  /**
   * @param modes the process's mode(s), e.g. {@code queue} or {@code all}: shown in each line and
   *     put in place of {@code {mode}} in {@code logging.file}
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

  /**
   * For the command-line tools (queue-tool, tokens, workflow, config-check, bench, ...): only
   * warnings and errors, on stderr, so that stdout holds nothing but the command's output (--json
   * stays parseable while a client retries an absent server).
   */
  public static void forCommandLine() {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    forCommandLine(context);
  }

  static void forCommandLine(LoggerContext context) {
    context.getLogger("dev.flipper").setLevel(Level.WARN);
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setTarget("System.err");
    replaceAppenders(context, root, stderr, "STDERR");
  }

  private static void useFile(LoggerContext context, Logger root, String path) {
    FileAppender<ILoggingEvent> file = new FileAppender<>();
    file.setFile(path);
    file.setAppend(true);
    replaceAppenders(context, root, file, "FILE");
    if (!file.isStarted()) {
      throw new IllegalStateException("cannot open log file '" + path + "' (see logging.file)");
    }
  }

  /**
   * Starts {@code appender} with the one-line pattern; if it started, it replaces the root's
   * appenders.
   */
  private static void replaceAppenders(
      LoggerContext context,
      Logger root,
      OutputStreamAppender<ILoggingEvent> appender,
      String name) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    appender.setContext(context);
    appender.setName(name);
    appender.setEncoder(encoder);
    appender.start();
    if (!appender.isStarted()) {
      return;
    }
    List<Appender<ILoggingEvent>> old = new ArrayList<>();
    for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
      old.add(it.next());
    }
    root.addAppender(appender);
    for (Appender<ILoggingEvent> previous : old) {
      root.detachAppender(previous);
      previous.stop();
    }
  }
}
