package dev.flipper.workflow.ui;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.PasswordHash;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.mysql.JdbcQueueStore;
import dev.flipper.queue.mysql.JdbcShardConfig;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.token.TokenService;
import dev.flipper.token.memory.InMemoryTokenStore;
import dev.flipper.workflow.ui.queue.QueueServers;
import dev.flipper.workflow.ui.queue.RateLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the queue dashboard's tests look at: two real queue servers ("a" and "b") over Thrift on
 * ephemeral ports, each with its own queue service and its own JDBC store, both on one embedded H2
 * database (the shared store of a cluster); a UI whose {@code ui.queueServers} names server "a"
 * only. Seeded with queue {@code mail}: pending jobs of priorities 1 and 2, a future job, and a
 * FAILED job whose body holds {@code <script>}.
 */
final class QueueUiFixture implements AutoCloseable {
  /** The queue servers' admin password, which the dashboard sends with its changes. */
  static final String ADMIN_PASSWORD = "ui-queue-admin";

  static final String QUEUE = "mail";
  static final String XSS_BODY = "<script>window.xssBody=1</script> to ada@example.com";

  final Path dir;
  final List<JdbcQueueStore> stores = new ArrayList<>();
  final QueueServer serverA;
  final QueueServer serverB;
  final QueueClient clientA;
  final QueueClient clientB;
  final UiDaemon ui;
  JobDescriptor failed;
  final List<JobDescriptor> pending = new ArrayList<>();

  QueueUiFixture() {
    this(UiAuth.NONE);
  }

  QueueUiFixture(UiAuth auth) {
    this(auth, RateLimits.NONE);
  }

  QueueUiFixture(UiAuth auth, RateLimits rateLimits) {
    try {
      dir = Files.createTempDirectory("flipper-ui-queue");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    serverA = server("ui-queue-a");
    serverB = server("ui-queue-b");
    clientA = client(serverA);
    clientB = client(serverB);
    ui =
        new UiDaemon(
            new UiDaemon.Config("127.0.0.1", 0, "127.0.0.1"),
            auth,
            TokenService.builder(InMemoryTokenStore.create()).build(),
            "in-process",
            QueueServers.of("127.0.0.1:" + serverA.port()).withAdminPassword(ADMIN_PASSWORD),
            rateLimits,
            new MetricRegistry());
    ui.start();
  }

  private QueueServer server(String id) {
    JdbcQueueStore store =
        JdbcQueueStore.builder()
            .shards(List.of(JdbcShardConfig.embedded("1", dir.resolve("queue"))))
            .build();
    stores.add(store);
    QueueService service =
        QueueService.builder(store)
            .serverId(id)
            .adminPasswordHash(PasswordHash.of(ADMIN_PASSWORD))
            .build(); // pauses re-read every 1 s, the default
    return QueueServer.builder(service)
        .port(0)
        .bindHost("127.0.0.1")
        .longPollTimeout(Duration.ZERO)
        .shutdownGracePeriod(Duration.ofSeconds(1))
        .build()
        .start();
  }

  private static QueueClient client(QueueServer server) {
    return QueueClient.builder()
        .server("127.0.0.1", server.port())
        .source("test:" + server.port())
        .adminPassword(ADMIN_PASSWORD)
        .build();
  }

  String base() {
    return "http://127.0.0.1:" + ui.port();
  }

  /**
   * Queue {@code mail}: 3 pending (priority 1), 1 pending (priority 2), 1 future, 1 FAILED with the
   * XSS body.
   */
  QueueUiFixture seed() {
    clientA.createQueue(QUEUE);
    pending.addAll(
        clientA.enqueue(
            QUEUE,
            List.of(
                NewJob.of("hello 1"),
                NewJob.of("hello 2"),
                NewJob.of("hello 3"),
                NewJob.of("urgent later").withPriority(2))));
    clientA.enqueue(
        QUEUE, NewJob.of("tomorrow").withRunAfter(Instant.now().plus(Duration.ofDays(1))));
    failed = clientA.enqueue(QUEUE, NewJob.of(XSS_BODY).withPriority(3).withAttemptsAllowed(1));
    List<DequeuedJob> claimed = clientA.dequeue(QUEUE, 10);
    List<AckParams.Item> done = new ArrayList<>();
    for (DequeuedJob job : claimed) {
      if (!job.descriptor().equals(failed)) {
        clientA.checkpoint(
            QUEUE,
            List.of(
                new dev.flipper.queue.CheckpointParams(
                    job.descriptor(), null, true, null, null, null)));
      } else {
        done.add(new AckParams.Item(job.descriptor(), "boom: <b>bad address</b>", Duration.ZERO));
      }
    }
    clientA.ack(new AckParams(QUEUE, List.of(), done));
    return this;
  }

  @Override
  public void close() {
    ui.close();
    clientA.close();
    clientB.close();
    serverA.close();
    serverB.close();
    stores.forEach(JdbcQueueStore::close);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
