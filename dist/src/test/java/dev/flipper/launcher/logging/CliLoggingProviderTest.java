package dev.flipper.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;

/** The slf4j provider bin/flipper names for the command-line tools. */
class CliLoggingProviderTest {
  @Test
  void setsUpWarningsAndErrorsOnStderrInOneLinePerEvent() {
    CliLoggingProvider provider = new CliLoggingProvider();
    provider.initialize();

    LoggerContext context = (LoggerContext) provider.getLoggerFactory();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("dev.flipper.queue.client").getEffectiveLevel())
        .isEqualTo(Level.WARN);
    assertThat(root.getAppender("STDERR"))
        .isInstanceOfSatisfying(
            ConsoleAppender.class,
            stderr -> {
              assertThat(stderr.getTarget()).isEqualTo("System.err");
              assertThat(stderr.isStarted()).isTrue();
            });
    assertThat(context.isStarted()).isTrue();
    assertThat(provider.getMDCAdapter()).isNotNull();
    assertThat(provider.getMarkerFactory().getMarker("x").getName()).isEqualTo("x");
  }
}
