package dev.flipper.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PeerDisconnectFilterTest {
  private final LoggerContext context = new LoggerContext();
  private final PeerDisconnectFilter filter = new PeerDisconnectFilter();

  PeerDisconnectFilterTest() {
    context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN); // as logback.xml sets it
  }

  private FilterReply decide(String loggerName, Throwable thrown) {
    Logger logger = context.getLogger(loggerName);
    return filter.decide(
        null, logger, Level.WARN, "Got an Exception in internalRead", null, thrown);
  }

  @Test
  void aClientThatResetsItsConnectionIsNotLogged() throws Exception {
    SocketException reset = realConnectionReset();

    assertThat(decide("org.apache.thrift.server.TThreadPoolServer", reset))
        .isEqualTo(FilterReply.DENY);
    assertThat(
            decide(
                "org.apache.thrift.server.AbstractNonblockingServer$AsyncFrameBuffer",
                new TTransportException(reset)))
        .isEqualTo(FilterReply.DENY);
    assertThat(
            decide(
                "org.apache.thrift.server.TThreadPoolServer",
                new TTransportException(TTransportException.END_OF_FILE, "socket closed")))
        .isEqualTo(FilterReply.DENY);
  }

  @Test
  void otherFailuresAndOtherLoggersAndDebugStillLog() throws Exception {
    assertThat(decide("org.apache.thrift.server.TThreadPoolServer", new IOException("disk full")))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(decide("org.apache.thrift.server.TThreadPoolServer", null))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(decide("dev.flipper.queue.server.QueueServer", realConnectionReset()))
        .isEqualTo(FilterReply.NEUTRAL);

    context.getLogger("org.apache.thrift").setLevel(Level.DEBUG);
    assertThat(decide("org.apache.thrift.server.TThreadPoolServer", realConnectionReset()))
        .as("logging.level DEBUG shows them")
        .isEqualTo(FilterReply.NEUTRAL);
  }

  @Test
  void logbackXmlInstallsTheFilter() {
    LoggerContext configured = (LoggerContext) LoggerFactory.getILoggerFactory();
    assertThat(configured.getTurboFilterList())
        .hasAtLeastOneElementOfType(PeerDisconnectFilter.class);
  }

  /** The exception a server's read gets when its client closes with SO_LINGER 0 (a TCP reset). */
  private static SocketException realConnectionReset() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket accepted = server.accept()) {
      client.setSoLinger(true, 0);
      client.getOutputStream().write(new byte[] {(byte) 0x80, 1});
      client.close();
      InputStream in = accepted.getInputStream();
      try {
        while (in.read() >= 0) {
          // read what the client sent, then the reset
        }
      } catch (SocketException e) {
        return e;
      }
      throw new AssertionError("no reset: the stream just ended");
    }
  }
}
