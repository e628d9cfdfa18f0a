package dev.flipper.queue.server;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.queue.PasswordHash;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.spi.QueueStore;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.RequestContext;
import java.util.function.UnaryOperator;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * A queue server on an ephemeral port over an in-memory store with shards "1" and "2", for tests.
 */
final class TestServer implements AutoCloseable {
  static final String ADMIN_PASSWORD = "test-admin-password";
  static final RequestContext CONTEXT = new RequestContext("test:localhost");

  final QueueStore store;
  final QueueService service;
  final MetricRegistry metrics = new MetricRegistry();
  final QueueServer server;

  private TestServer(QueueStore store, UnaryOperator<QueueServer.Builder> settings) {
    this.store = store;
    this.service =
        QueueService.builder(store)
            .serverId("test-server")
            .adminPasswordHash(PasswordHash.of(ADMIN_PASSWORD))
            .build();
    this.server =
        settings
            .apply(
                QueueServer.builder(service)
                    .port(0)
                    .bindHost("127.0.0.1")
                    .metrics(metrics)
                    .shutdownGracePeriod(java.time.Duration.ofSeconds(2)))
            .build()
            .start();
  }

  static TestServer start() {
    return start(UnaryOperator.identity());
  }

  static TestServer start(UnaryOperator<QueueServer.Builder> settings) {
    return new TestServer(InMemoryQueueStore.withShards("1", "2"), settings);
  }

  /** A server over the given store, e.g. one shared with another server. */
  static TestServer over(QueueStore store, UnaryOperator<QueueServer.Builder> settings) {
    return new TestServer(store, settings);
  }

  int port() {
    return server.port();
  }

  /** A Flipper client of this server, source "test:localhost". */
  QueueClient client() {
    return QueueClient.builder().server("127.0.0.1", port()).source(CONTEXT.getSource()).build();
  }

  /** A plain Apache Thrift client (framed, binary), as PinLater's Python and Java clients use. */
  ThriftClient thriftClient() {
    try {
      TSocket socket = new TSocket("127.0.0.1", port(), 10_000);
      TFramedTransport transport = new TFramedTransport(socket);
      transport.open();
      return new ThriftClient(new PinLater.Client(new TBinaryProtocol(transport)), transport);
    } catch (TTransportException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.close();
    store.close();
  }

  record ThriftClient(PinLater.Client api, TFramedTransport transport) implements AutoCloseable {
    @Override
    public void close() {
      transport.close();
    }
  }
}
