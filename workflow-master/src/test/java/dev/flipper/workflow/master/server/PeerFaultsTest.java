package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.codahale.metrics.MetricRegistry;
import dev.flipper.thrift.PeerFaults;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TSocket;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Misbehaving peers of the master: one trickling a request byte by byte loses its connection at the
 * message-read time-out, and malformed requests or peers that vanish mid-request cost a counter,
 * not a log line (with a stack trace) each.
 */
class PeerFaultsTest {
  private final MetricRegistry metrics = new MetricRegistry();
  private TokenMasterServer server;

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aPeerTricklingARequestIsClosedAtTheMessageReadTimeout() throws Exception {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .metrics(metrics)
            .idleTimeout(Duration.ofMinutes(1))
            .messageReadTimeout(Duration.ofMillis(500))
            .build()
            .start();
    try (Socket trickler = new Socket("127.0.0.1", server.port())) {
      OutputStream out = trickler.getOutputStream();
      out.write(queryStart(1_000)); // a query whose name prefix declares 1,000 bytes
      Thread trickle =
          new Thread(
              () -> {
                try {
                  for (int i = 0; i < 1_000; i++) { // one byte every 20 ms: never idle, never done
                    out.write('a');
                    out.flush();
                    Thread.sleep(20);
                  }
                } catch (IOException | InterruptedException closed) {
                  // closed by the server (or the test): stop
                }
              });
      trickle.start();

      trickler.setSoTimeout(15_000);
      try {
        assertThat(trickler.getInputStream().read())
            .as("end of stream from the master")
            .isEqualTo(-1);
      } catch (SocketTimeoutException stillOpen) {
        throw new AssertionError("the trickling connection is still open after 15 s", stillOpen);
      } catch (IOException reset) {
        // a reset is a close too
      }
      trickle.interrupt();
    }
    assertThat(metrics.counter("master.peer_faults.message_read_timeout").getCount()).isEqualTo(1);
    assertThat(aNormalQuerySucceeds()).isTrue();
  }

  @Test
  void malformedRequestsAndVanishingPeersCostACounterNotALogLineEach() throws Exception {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .metrics(metrics)
            .build()
            .start();
    try (LogVolume log = new LogVolume()) {
      for (int i = 0; i < 100; i++) {
        send(
            new byte[] {(byte) 0x80, 0x02, 0, 1, 0, 0, 0, 1, 'q', 0, 0, 0, 1},
            false); // a bad protocol version
        send(queryStart(-5), false); // a negative string length: answered PROTOCOL_ERROR
        send(queryStart(1_000), true); // half a request, then a reset
      }
      assertThat(aNormalQuerySucceeds()).isTrue();
      assertThat(log.lines()).as("log lines for 300 bad connections").isLessThanOrEqualTo(2);
    }
    assertThat(metrics.counter("master.peer_faults.malformed_request").getCount()).isEqualTo(100);
  }

  @Test
  void aFaultLogLineNamesThePeerAddressAndPort() throws Exception {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .metrics(metrics)
            .build()
            .start();
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    Logger faultLog = (Logger) LoggerFactory.getLogger(PeerFaults.class);
    logged.start();
    faultLog.addAppender(logged);
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), 0));
      socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
      socket
          .getOutputStream()
          .write(new byte[] {(byte) 0x80, 0x02, 0, 1, 0, 0, 0, 1, 'q', 0, 0, 0, 1}); // bad version
      socket.setSoTimeout(10_000);
      socket.getInputStream().read();

      await().atMost(Duration.ofSeconds(10)).until(() -> !logged.list.isEmpty());
      assertThat(logged.list)
          .extracting(ILoggingEvent::getFormattedMessage)
          .singleElement(InstanceOfAssertFactories.STRING)
          .contains("malformed_request from 127.0.0.3:" + socket.getLocalPort() + ":");
    } finally {
      faultLog.detachAppender(logged);
    }
  }

  private void send(byte[] bytes, boolean reset) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      if (reset) {
        socket.setSoLinger(true, 0);
      } else {
        socket.setSoTimeout(10_000);
        try {
          socket
              .getInputStream()
              .read(); // an answer (PROTOCOL_ERROR), or the end of the connection
        } catch (IOException e) {
          // reset: closed too
        }
      }
    }
  }

  /** The start of a query call whose one query's name prefix declares {@code length} bytes. */
  static byte[] queryStart(int length) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(0x80010001); // strict header, CALL
    out.writeInt("query".length());
    out.writeBytes("query");
    out.writeInt(1); // seqid
    out.writeByte(TType.STRUCT); // args field 1: the request
    out.writeShort(1);
    out.writeByte(TType.LIST); // request field 1: queries
    out.writeShort(1);
    out.writeByte(TType.STRUCT);
    out.writeInt(1);
    out.writeByte(TType.STRING); // Query field 1: namePrefix
    out.writeShort(1);
    out.writeInt(length);
    return bytes.toByteArray();
  }

  private boolean aNormalQuerySucceeds() throws Exception {
    try (TSocket socket = new TSocket("127.0.0.1", server.port(), 5_000)) {
      socket.open();
      TokenMasterService.Client client = new TokenMasterService.Client(new TBinaryProtocol(socket));
      return client
              .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))))
              .getTokens()
              .size()
          == 1;
    }
  }
}
