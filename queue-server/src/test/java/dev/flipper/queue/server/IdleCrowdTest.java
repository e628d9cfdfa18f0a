package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 2,000 idle connections (from 127.0.0.2-5, 500 each, under the per-peer limit of 512) and 8
 * partial frames of 16 MiB held open (from 127.0.0.6): a normal client from 127.0.0.1 is still
 * served, each call within 1 s. Needs about 4,100 file descriptors.
 */
@Tag("slow")
class IdleCrowdTest {
  private final List<Socket> crowd = new ArrayList<>();
  private TestServer server;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : crowd) {
      socket.setSoLinger(true, 0);
      socket.close();
    }
    server.close();
  }

  @Test
  void aNormalClientIsServedBesideTwoThousandIdleConnectionsAndEightPartialFrames()
      throws Exception {
    server = TestServer.start(b -> b);
    for (int i = 0; i < 2_000; i++) {
      crowd.add(connect("127.0.0." + (2 + i % 4)));
    }
    for (int i = 0; i < 8; i++) {
      Socket partial = connect("127.0.0.6");
      partial
          .getOutputStream()
          .write(ByteBuffer.allocate(8).putInt(16 * 1024 * 1024 - 4).putInt(0).array());
      crowd.add(partial);
    }
    await().atMost(Duration.ofSeconds(60)).until(() -> server.server.connectionCount() == 2_008);

    TSocket socket = new TSocket("127.0.0.1", server.port(), 1_000);
    TFramedTransport transport = new TFramedTransport(socket);
    transport.open();
    try {
      dev.flipper.queue.thrift.PinLater.Client client =
          new dev.flipper.queue.thrift.PinLater.Client(new TBinaryProtocol(transport));
      for (int call = 0; call < 10; call++) {
        assertThat(client.getQueueNames(TestServer.CONTEXT)).isNotNull();
      }
    } finally {
      transport.close();
    }
  }

  private Socket connect(String from) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
    return socket;
  }
}
