package dev.flipper.workflow.master.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.master.thrift.Query;
import dev.flipper.workflow.master.thrift.QueryRequest;
import dev.flipper.workflow.master.thrift.TokenMasterService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 2,000 idle connections and 8 partial requests declaring 16 MiB strings, held open: a normal
 * client is still served, each call within 1 s. The master runs a thread per connection, so this
 * test raises its connection limits to 2,100 (default 512 in all, 64 per peer); its memory stays
 * what the peers sent, not what they declared.
 */
@Tag("slow")
class IdleCrowdTest {
  private final List<Socket> crowd = new ArrayList<>();
  private TokenMasterServer server;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : crowd) {
      socket.setSoLinger(true, 0);
      socket.close();
    }
    server.close();
  }

  @Test
  void aNormalClientIsServedBesideTwoThousandIdleConnectionsAndEightPartialRequests()
      throws Exception {
    server =
        TokenMasterServer.builder(TokenService.builder(InMemoryTokenStore.create()).build())
            .port(0)
            .bindHost("127.0.0.1")
            .maxConnections(2_100)
            .maxConnectionsPerPeer(2_100)
            .build()
            .start();
    for (int i = 0; i < 2_000; i++) {
      crowd.add(connect("127.0.0.2"));
    }
    for (int i = 0; i < 8; i++) {
      Socket partial = connect("127.0.0.3");
      partial.getOutputStream().write(PeerFaultsTest.queryStart(16 * 1024 * 1024 - 64));
      partial.getOutputStream().write(new byte[4]);
      crowd.add(partial);
    }
    await().atMost(Duration.ofSeconds(60)).until(() -> server.connectionCount() == 2_008);

    try (TSocket socket = new TSocket("127.0.0.1", server.port(), 1_000)) {
      socket.open();
      TokenMasterService.Client client = new TokenMasterService.Client(new TBinaryProtocol(socket));
      for (int call = 0; call < 10; call++) {
        assertThat(
                client
                    .query(new QueryRequest().setQueries(List.of(new Query().setNamePrefix("/"))))
                    .getTokens())
            .hasSize(1);
      }
    }
  }

  private Socket connect(String from) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
    return socket;
  }
}
