package dev.flipper.launcher.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.io.EOFException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import org.apache.thrift.transport.TTransportException;
import org.slf4j.Marker;

/**
 * Drops what the Thrift library logs when a client goes away (connection reset, broken pipe, end of
 * stream): libthrift's servers log each as a WARN with a stack trace, though a client that
 * disconnects, crashes or is killed is routine. Set {@code logging.level: DEBUG} to see them again.
 * Other Thrift events (a frame too large, a protocol error) pass. Registered in logback.xml;
 * thread-safe.
 */
public final class PeerDisconnectFilter extends TurboFilter {
  private static final String THRIFT = "org.apache.thrift.";

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (t == null
        || !logger.getName().startsWith(THRIFT)
        || logger.getEffectiveLevel().toInt() <= Level.DEBUG_INT) {
      return FilterReply.NEUTRAL;
    }
    return isDisconnect(t) ? FilterReply.DENY : FilterReply.NEUTRAL;
  }

  /**
   * Whether {@code thrown}, or one of its causes, says the other end closed or reset the
   * connection.
   */
  static boolean isDisconnect(Throwable thrown) {
    for (Throwable cause = thrown;
        cause != null;
        cause = cause.getCause() == cause ? null : cause.getCause()) {
      if (cause instanceof TTransportException e && e.getType() == TTransportException.END_OF_FILE
          || cause instanceof EOFException
          || cause instanceof ClosedChannelException) {
        return true;
      }
      String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
      if (cause instanceof SocketException
          && (message.contains("connection reset")
              || message.contains("broken pipe")
              || message.contains("socket closed"))) {
        return true;
      }
    }
    return false;
  }
}
