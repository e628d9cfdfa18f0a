package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.queue.memory.InMemoryQueueStore;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Connection handling of the Java client against real servers. */
class QueueClientTest {
  @TempDir Path dir;

  @Test
  void aPooledConnectionTheServerClosedIsReplacedBeforeAnEnqueueIsSent() {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    TestServer first = TestServer.over(store, b -> b);
    int port = first.port();
    try (QueueClient client =
        QueueClient.builder().server("127.0.0.1", port).maxAttempts(1).build()) {
      client.createQueue("c_q");
      first.server.close(); // the client's pooled connection is now dead
      try (TestServer second = TestServer.over(store.sharingStorage(), b -> b.port(port))) {
        // Idle for over a second, the pooled connection is probed and replaced instead of failing
        // the enqueue.
        await()
            .pollDelay(Duration.ofMillis(1100))
            .atMost(Duration.ofSeconds(5))
            .until(() -> client.enqueue("c_q", NewJob.of("x")) != null);
        assertThat(second.service.queueNames()).contains("c_q");
      }
    }
  }

  @Test
  void callsGoToAnyLiveServerOfTheServerSetFile() throws Exception {
    InMemoryQueueStore store = InMemoryQueueStore.withShards("1");
    int deadPort;
    try (ServerSocket unused = new ServerSocket(0)) {
      deadPort = unused.getLocalPort();
    }
    try (TestServer live = TestServer.over(store, b -> b)) {
      Path servers = dir.resolve("servers");
      Files.writeString(servers, "127.0.0.1:" + deadPort + "\n127.0.0.1:" + live.port() + "\n");
      try (QueueClient client =
          QueueClient.builder()
              .serverSetFile(servers)
              .connectTimeout(Duration.ofMillis(500))
              .build()) {
        for (int i = 0; i < 10; i++) {
          client.createQueue("q" + i); // a connect failure is retried on the other server
          client.enqueue("q" + i, NewJob.of("x")); // so is an enqueue that was never sent
        }
        assertThat(client.queueNames()).hasSize(10);
      }
    }
  }

  @Test
  void noReachableServerIsAQueueUnavailableExceptionThatSaysNothingWasSent() throws Exception {
    int deadPort;
    try (ServerSocket unused = new ServerSocket(0)) {
      deadPort = unused.getLocalPort();
    }
    try (QueueClient client =
        QueueClient.builder()
            .server("127.0.0.1", deadPort)
            .connectTimeout(Duration.ofMillis(500))
            .build()) {
      assertThatThrownBy(() -> client.enqueue("q", NewJob.of("x")))
          .isInstanceOfSatisfying(
              QueueUnavailableException.class,
              e -> {
                assertThat(e.mayHaveBeenApplied()).isFalse();
                assertThat(e.getMessage())
                    .contains("cannot connect to queue server 127.0.0.1:" + deadPort);
              });
    }
  }
}
