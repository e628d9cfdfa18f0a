package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.thrift.PinLater;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Idle, stalled or greedy peers cannot lock others out of the queue server: idle connections (also
 * one stuck in the middle of a frame) close after the idle timeout, and one peer address holds at
 * most its share, and a new caller at a limit takes the place of the longest-idle connection under
 * it. Those peers connect from 127.0.0.2, the normal client from 127.0.0.1 (both loopback on
 * Linux).
 */
class ConnectionLimitsTest {
  private final List<Socket> peers = new ArrayList<>();
  private TestServer server;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : peers) {
      socket.close();
    }
    server.close();
  }

  @Test
  void idleAndStalledConnectionsAreClosedAfterTheIdleTimeout() throws Exception {
    server = TestServer.start(b -> b.idleTimeout(Duration.ofMillis(300)));
    Socket idle = peer();
    Socket stalled = peer();
    // A frame of 16 MiB - 4 bytes announced, 4 bytes sent, then nothing.
    stalled
        .getOutputStream()
        .write(ByteBuffer.allocate(8).putInt(16 * 1024 * 1024 - 4).putInt(0).array());

    assertThat(closedByServerWithin(idle, 10_000)).as("the idle connection is closed").isTrue();
    assertThat(closedByServerWithin(stalled, 10_000))
        .as("the stalled connection is closed")
        .isTrue();
    await().atMost(Duration.ofSeconds(10)).until(() -> server.server.connectionCount() == 0);
    assertThat(aNormalClientIsServed()).isTrue();
  }

  @Test
  void aNewCallerFromAHostWhoseIdleConnectionsFillItsShareClosesTheLongestIdleAndIsServed()
      throws Exception {
    server = TestServer.start(b -> b.maxConnections(32).maxConnectionsPerPeer(8));
    for (int i = 0; i < 8; i++) {
      connect("127.0.0.1");
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.server.connectionCount() == 8);

    assertThat(aClientFromIsServed("127.0.0.1")).isTrue();
    assertThat(closedByServerWithin(peers.get(0), 10_000))
        .as("the longest-idle connection of that host is closed")
        .isTrue();
    assertThat(evicted("per_peer_limit")).isEqualTo(1);
    assertThat(rejected("per_peer_limit")).isZero();
  }

  @Test
  void atTheServerLimitANewCallerClosesTheLongestIdleConnectionOfAnyHost() throws Exception {
    server = TestServer.start(b -> b.maxConnections(8).maxConnectionsPerPeer(8));
    for (int i = 0; i < 8; i++) {
      peer();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.server.connectionCount() == 8);

    assertThat(aNormalClientIsServed()).isTrue();
    assertThat(closedByServerWithin(peers.get(0), 10_000)).isTrue();
    assertThat(evicted("server_limit")).isEqualTo(1);
  }

  @Test
  void aHostWhoseConnectionsAreAllInACallIsRefusedAnotherConnection() throws Exception {
    server = TestServer.start(b -> b.maxConnections(8).maxConnectionsPerPeer(4));
    for (int i = 0; i < 4; i++) {
      // A frame announced and partly sent: a request under way.
      peer().getOutputStream().write(ByteBuffer.allocate(8).putInt(1_000).putInt(0).array());
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.server.connectionCount() == 4);

    Socket oneTooMany = peer();

    assertThat(closedByServerWithin(oneTooMany, 10_000))
        .as("the fifth connection of one peer is closed")
        .isTrue();
    assertThat(aNormalClientIsServed()).isTrue();
    assertThat(rejected("per_peer_limit")).isEqualTo(1);
    assertThat(evicted("per_peer_limit")).isZero();
  }

  private long rejected(String limit) {
    return server.metrics.counter("PinLaterService.connections_rejected." + limit).getCount();
  }

  private long evicted(String limit) {
    return server.metrics.counter("PinLaterService.connections_evicted." + limit).getCount();
  }

  private Socket peer() throws IOException {
    return connect("127.0.0.2");
  }

  private Socket connect(String from) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
    peers.add(socket);
    return socket;
  }

  private static boolean closedByServerWithin(Socket socket, int millis) throws IOException {
    socket.setSoTimeout(millis);
    try {
      return socket.getInputStream().read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  private boolean aNormalClientIsServed() throws Exception {
    try (TestServer.ThriftClient client = server.thriftClient()) {
      return client.api().getQueueNames(TestServer.CONTEXT) != null;
    }
  }

  private boolean aClientFromIsServed(String from) throws Exception {
    Socket raw = connect(from);
    raw.setSoTimeout(10_000);
    try (TFramedTransport transport = new TFramedTransport(new TSocket(raw))) {
      return new PinLater.Client(new TBinaryProtocol(transport)).getQueueNames(TestServer.CONTEXT)
          != null;
    }
  }
}
