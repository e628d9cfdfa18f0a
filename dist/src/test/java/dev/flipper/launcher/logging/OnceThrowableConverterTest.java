package dev.flipper.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OnceThrowableConverterTest {
  private final LoggerContext context = new LoggerContext();
  private final OnceThrowableConverter converter = new OnceThrowableConverter();
  private Logger logger;

  @BeforeEach
  void setUp() {
    converter.setContext(context);
    converter.start();
    logger = context.getLogger("dev.flipper.test");
    logger.setLevel(Level.INFO);
  }

  private String render(Throwable thrown) {
    return converter.convert(
        new LoggingEvent("fqcn", logger, Level.WARN, "shard down", thrown, null));
  }

  private static IOException failure(String message) {
    return new IOException(message); // same class and top frame on every call
  }

  @Test
  void printsTheStackTraceOnlyTheFirstTimeAFailureIsSeen() {
    String first = render(failure("connection refused"));
    String second = render(failure("connection reset"));

    assertThat(first)
        .startsWith(System.lineSeparator() + "java.io.IOException: connection refused")
        .contains("\tat ");
    assertThat(second).isEqualTo(" [IOException: connection reset; stack trace logged before]");
  }

  @Test
  void aDifferentFailurePrintsItsOwnTrace() {
    render(failure("connection refused"));

    assertThat(render(new IllegalStateException("bad state")))
        .contains("java.lang.IllegalStateException: bad state", "\tat ");
  }

  @Test
  void atDebugEveryStackTraceIsPrinted() {
    logger.setLevel(Level.DEBUG);
    render(failure("connection refused"));

    assertThat(render(failure("connection refused"))).contains("\tat ");
  }

  @Test
  void eventsWithoutAnExceptionAddNothing() {
    assertThat(render(null)).isEmpty();
  }
}
