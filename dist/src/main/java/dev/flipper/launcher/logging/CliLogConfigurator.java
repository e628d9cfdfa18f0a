package dev.flipper.launcher.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.HashMap;
import java.util.Map;

/**
 * Logback's configuration for a command-line tool run by {@code bin/flipper} (which sets the system
 * property {@value #PROPERTY}): what {@link LoggingSetup#forCommandLine} sets up (WARN and above on
 * stderr), built in code, so the tool does not parse logback.xml (the XML parser and Joran were a
 * fifth of the classes a command loaded). Without the property it leaves the configuration to
 * logback.xml. Registered in META-INF/services.
 */
public final class CliLogConfigurator extends ContextAwareBase implements Configurator {
  /** Set by bin/flipper for everything but daemon runs. */
  public static final String PROPERTY = "flipper.cli";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (!Boolean.getBoolean(PROPERTY)) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    setUp(context);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Sets {@code context} up for a command-line tool; also {@link CliLoggingProvider}'s way. */
  static void setUp(LoggerContext context) {
    @SuppressWarnings("unchecked")
    Map<String, String> rules =
        (Map<String, String>) context.getObject(CoreConstants.PATTERN_RULE_REGISTRY);
    if (rules == null) {
      rules = new HashMap<>();
      context.putObject(CoreConstants.PATTERN_RULE_REGISTRY, rules);
    }
    rules.put("mode", ModeConverter.class.getName());
    rules.put("onceEx", OnceThrowableConverter.class.getName());
    context.addTurboFilter(new PeerDisconnectFilter());
    LoggingSetup.forCommandLine(context);
  }
}
