package dev.flipper.launcher.logging;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %mode} in the log pattern: the daemon mode that logged the event. The launcher puts the
 * mode in the MDC while it starts or stops a mode; other threads show the process's mode(s).
 * Thread-safe.
 */
public final class ModeConverter extends ClassicConverter {
  /** MDC key for the mode being started or stopped. */
  public static final String MDC_KEY = "mode";

  private static volatile String processModes = "main";

  /** What events from threads without an MDC mode show, e.g. {@code queue} or {@code all}. */
  public static void setProcessModes(String modes) {
    processModes = modes;
  }

  @Override
  public String convert(ILoggingEvent event) {
    String mode = event.getMDCPropertyMap().get(MDC_KEY);
    return mode != null ? mode : processModes;
  }
}
