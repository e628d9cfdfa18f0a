package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.flipper.thrift.PeerFaults;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue #25: the queue server's line for a call whose arguments cannot be read said {@code from ?};
 * it names the peer's address and port. Through a real server over TCP.
 */
class MalformedCallLogTest {
  @Test
  void aCallCutShortInsideItsFrameIsLoggedWithThePeersAddress() throws Exception {
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    Logger faultLog = (Logger) LoggerFactory.getLogger(PeerFaults.class);
    logged.start();
    faultLog.addAppender(logged);
    try (TestServer server = TestServer.start();
        Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
      socket.getOutputStream().write(enqueueCutShort());
      socket.setSoTimeout(10_000);
      socket.getInputStream().read(); // the server closes the connection

      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  logged.list.stream()
                      .anyMatch(e -> e.getFormattedMessage().contains("malformed_call")));
      assertThat(logged.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .filteredOn(line -> line.contains("malformed_call"))
          .singleElement(InstanceOfAssertFactories.STRING)
          .contains("malformed_call from 127.0.0.3:" + socket.getLocalPort() + ":");
    } finally {
      faultLog.detachAppender(logged);
    }
  }

  /** A framed enqueue call whose first argument (a struct) ends with the frame. */
  private static byte[] enqueueCutShort() throws Exception {
    ByteArrayOutputStream call = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(call);
    out.writeInt(0x80010001); // strict binary protocol, CALL
    byte[] name = "enqueue".getBytes(StandardCharsets.US_ASCII);
    out.writeInt(name.length);
    out.write(name);
    out.writeInt(1); // sequence id
    out.writeByte(12); // field 1: a struct (the request context)
    out.writeShort(1);
    out.writeByte(11); // its field 1: a string of 100 bytes, of which the frame holds none
    out.writeShort(1);
    out.writeInt(100);
    ByteArrayOutputStream framed = new ByteArrayOutputStream();
    DataOutputStream frame = new DataOutputStream(framed);
    frame.writeInt(call.size());
    frame.write(call.toByteArray());
    return framed.toByteArray();
  }
}
