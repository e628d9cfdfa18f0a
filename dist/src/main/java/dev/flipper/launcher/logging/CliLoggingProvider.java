package dev.flipper.launcher.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.CoreConstants;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The slf4j provider of a command-line tool run by {@code bin/flipper} (which names it with {@code
 * -Dslf4j.provider}): logback's context set up by {@link CliLogConfigurator} directly, without the
 * service lookups over every jar, the security policy and the status report of logback's own
 * start-up, which were a tenth of a tool's run (issue 26). Daemons keep logback's provider and
 * logback.xml.
 */
public final class CliLoggingProvider implements SLF4JServiceProvider {
  private LoggerContext context;
  private IMarkerFactory markers;
  private MDCAdapter mdc;

  @Override
  public void initialize() {
    context = new LoggerContext();
    context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
    CliLogConfigurator.setUp(context);
    context.start();
    markers = new BasicMarkerFactory();
    mdc = new LogbackMDCAdapter();
    context.setMDCAdapter(mdc);
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return context;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }
}
