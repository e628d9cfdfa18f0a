package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Idle or greedy peers cannot lock others out of the master: idle connections close after the idle
 * timeout, one peer address holds at most its share of the connections, and a new caller at a limit
 * takes the place of the longest-idle connection under it. Idle peers connect from 127.0.0.2, the
 * normal client from 127.0.0.1 (both loopback on Linux).
 */
class ConnectionLimitsTest {
  private final MetricRegistry metrics = new MetricRegistry();
  private final List<Socket> idle = new ArrayList<>();
  private TokenMasterServer server;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : idle) {
      socket.close();
    }
    server.close();
  }

  @Test
  void idleConnectionsAreClosedAfterTheIdleTimeoutAndOthersAreServedAgain() throws Exception {
    start(8, 8, Duration.ofMillis(300));
    for (int i = 0; i < 8; i++) {
      idle.add(idlePeer());
    }

    for (Socket socket : idle) {
      assertThat(closedByServerWithin(socket, 10_000)).as("an idle connection is closed").isTrue();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connectionCount() == 0);
    assertThat(aNormalClientIsServed()).isTrue();
  }

  @Test
  void aNewCallerFromAHostWhoseIdleConnectionsFillItsShareClosesTheLongestIdleAndIsServed()
      throws Exception {
    // The default limits (64 from one address): a script on this host left 64 idle connections,
    // and the CLI on the same host still gets in.
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .metrics(metrics)
            .build()
            .start();
    for (int i = 0; i < 64; i++) {
      idle.add(connect("127.0.0.1"));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connectionCount() == 64);

    assertThat(aClientFromIsServed("127.0.0.1")).isTrue();
    assertThat(closedByServerWithin(idle.get(0), 10_000))
        .as("the longest-idle connection of that host is closed")
        .isTrue();
    assertThat(metrics.counter("master.connections_evicted.per_peer_limit").getCount())
        .isEqualTo(1);
    assertThat(metrics.counter("master.connections_rejected.per_peer_limit").getCount()).isZero();
  }

  @Test
  void atTheServerLimitANewCallerClosesTheLongestIdleConnectionOfAnyHost() throws Exception {
    start(8, 8, Duration.ofMinutes(1));
    for (int i = 0; i < 8; i++) {
      idle.add(idlePeer());
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connectionCount() == 8);

    assertThat(aNormalClientIsServed()).isTrue();
    assertThat(closedByServerWithin(idle.get(0), 10_000)).isTrue();
    assertThat(metrics.counter("master.connections_evicted.server_limit").getCount()).isEqualTo(1);
  }

  @Test
  void aHostWhoseConnectionsAreAllInACallIsRefusedAnotherConnection() throws Exception {
    start(8, 4, Duration.ofMinutes(1));
    for (int i = 0; i < 4; i++) {
      Socket busy = idlePeer();
      busy.getOutputStream().write(PeerFaultsTest.queryStart(1_000)); // a request under way
      idle.add(busy);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> server.connectionCount() == 4);

    Socket oneTooMany = idlePeer();
    idle.add(oneTooMany);

    assertThat(closedByServerWithin(oneTooMany, 10_000))
        .as("the fifth connection of one peer is closed")
        .isTrue();
    assertThat(aNormalClientIsServed()).isTrue();
    assertThat(metrics.counter("master.connections_rejected.per_peer_limit").getCount())
        .isEqualTo(1);
    assertThat(metrics.counter("master.connections_evicted.per_peer_limit").getCount()).isZero();
  }

  private void start(int maxConnections, int perPeer, Duration idleTimeout) {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .metrics(metrics)
            .maxConnections(maxConnections)
            .maxConnectionsPerPeer(perPeer)
            .idleTimeout(idleTimeout)
            .build()
            .start();
  }

  private Socket idlePeer() throws IOException {
    return connect("127.0.0.2");
  }

  private Socket connect(String from) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
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
    return aClientFromIsServed("127.0.0.1");
  }

  private boolean aClientFromIsServed(String from) throws Exception {
    Socket raw = connect(from);
    raw.setSoTimeout(5_000);
    try (TSocket socket = new TSocket(raw)) {
      TokenMasterService.Client client = new TokenMasterService.Client(new TBinaryProtocol(socket));
      return client
              .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))))
              .getTokens()
              .size()
          == 1;
    }
  }
}
