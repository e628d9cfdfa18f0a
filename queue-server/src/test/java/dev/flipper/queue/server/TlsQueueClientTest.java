package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.tls.TlsFolder;
import dev.flipper.tls.TlsIdentity;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link QueueClient} with mutual TLS against a real queue server over TCP. */
class TlsQueueClientTest {
  @TempDir static Path certificates;
  @TempDir static Path otherCertificates;
  static TlsFolder folder;

  @BeforeAll
  static void issue() throws Exception {
    folder = TlsFolder.init(certificates, List.of(), Clock.systemUTC());
  }

  @Test
  void aTlsClientRoundTripsJobsIncludingALargeFrame() throws Exception {
    TlsIdentity queue = identity("queue");
    try (TestServer server = TestServer.start(b -> b.tls(queue));
        QueueClient client = client(server).tls(identity("app")).build()) {
      server.service.createQueue("tls_client_q");
      List<NewJob> jobs = new ArrayList<>();
      for (int j = 0; j < 5; j++) {
        byte[] body = new byte[1_000_000];
        Arrays.fill(body, (byte) ('k' + j));
        jobs.add(NewJob.of(body));
      }

      assertThat(client.enqueue("tls_client_q", jobs)).hasSize(5);
      List<DequeuedJob> dequeued = client.dequeue("tls_client_q", 5);

      assertThat(dequeued).hasSize(5);
      assertThat(dequeued.stream().map(j -> j.body()[0]).toList())
          .containsExactlyInAnyOrder((byte) 'k', (byte) 'l', (byte) 'm', (byte) 'n', (byte) 'o');
      assertThat(dequeued.get(0).body()).hasSize(1_000_000);
    }
  }

  @Test
  void aClientWithoutTlsOrOfAnotherAuthorityCannotReachATlsServer() throws Exception {
    TlsFolder other = TlsFolder.init(otherCertificates, List.of(), Clock.systemUTC());
    TlsIdentity queue = identity("queue");
    try (TestServer server = TestServer.start(b -> b.tls(queue));
        QueueClient plain = client(server).maxAttempts(1).build();
        QueueClient stranger = client(server).maxAttempts(1).tls(other.identity("app")).build()) {

      QueueUnavailableException fromPlain =
          catchThrowableOfType(QueueUnavailableException.class, plain::queueNames);
      QueueUnavailableException fromStranger =
          catchThrowableOfType(QueueUnavailableException.class, stranger::queueNames);

      assertThat(fromPlain).isNotNull();
      assertThat(fromStranger)
          .hasMessageContaining("TLS handshake with localhost:" + server.port());
    }
  }

  private static QueueClient.Builder client(TestServer server) {
    return QueueClient.builder().server("localhost", server.port()).source("tls-test:localhost");
  }

  private static TlsIdentity identity(String name) throws Exception {
    return folder.identity(name);
  }
}
