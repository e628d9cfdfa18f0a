package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.ErrorCode;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.JobState;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueUnavailableException;
import dev.flipper.queue.client.ThriftJobQueue;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link ThriftJobQueue} does that the queue contract (run through it by the
 * Thrift*ContractTest classes) cannot show: the protocol's limits and failures of the connection
 * itself.
 */
class ThriftJobQueueTest {

  @Test
  void aCheckpointBodyThatIsNotUtf8IsRefusedInsteadOfChangedOnTheWay() {
    try (TestServer server = TestServer.start();
        ThriftJobQueue queue = ThriftJobQueue.over(server.client())) {
      queue.createQueue("utf8_q");
      JobDescriptor id = queue.enqueue("utf8_q", List.of(NewJob.of("body"))).get(0);
      queue.dequeue(DequeueParams.of("utf8_q", 1, TestServer.CONTEXT.getSource()));
      byte[] latin1 = {'c', 'a', 'f', (byte) 0xE9};

      QueueException e =
          catchThrowableOfType(
              QueueException.class,
              () ->
                  queue.checkpoint(
                      "utf8_q",
                      TestServer.CONTEXT.getSource(),
                      List.of(new CheckpointParams(id, latin1, false, null, null, null))));

      assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN);
      assertThat(e.getMessage()).startsWith("invalid request").contains(id.toString(), "UTF-8");
      assertThat(queue.lookup(List.of(id), true).get(id).body()).asString().isEqualTo("body");
      assertThat(queue.lookup(List.of(id), true).get(id).state()).isEqualTo(JobState.IN_PROGRESS);
    }
  }

  @Test
  void aQueueOverOneClientSendsEverySourceOverItsConnections() {
    try (TestServer server = TestServer.start();
        ThriftJobQueue queue = ThriftJobQueue.over(server.client())) {
      queue.createQueue("source_q");
      JobDescriptor id = queue.enqueue("source_q", List.of(NewJob.of("body"))).get(0);

      assertThat(queue.dequeue(DequeueParams.of("source_q", 1, "someone-else"))).hasSize(1);

      assertThat(queue.lookup(List.of(id), false).get(id).claimDescriptor())
          .endsWith(":someone-else");
    }
  }

  @Test
  void aSourceTheProtocolCannotCarryIsAnInvalidRequest() {
    try (TestServer server = TestServer.start();
        ThriftJobQueue queue = ThriftJobQueue.over(server.client())) {
      queue.createQueue("source_q");

      QueueException e =
          catchThrowableOfType(
              QueueException.class, () -> queue.dequeue(DequeueParams.of("source_q", 1, " ")));

      assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN);
      assertThat(e.getMessage())
          .startsWith("invalid request")
          .contains("source must be 1..200 characters");
    }
  }

  @Test
  void noReachableServerIsUnknownWithTheClientsExceptionAsCause() throws Exception {
    int deadPort;
    try (ServerSocket unused = new ServerSocket(0)) {
      deadPort = unused.getLocalPort();
    }
    try (ThriftJobQueue queue =
        ThriftJobQueue.over(
            QueueClient.builder()
                .server("127.0.0.1", deadPort)
                .connectTimeout(Duration.ofMillis(500))
                .build())) {

      QueueException e =
          catchThrowableOfType(
              QueueException.class, () -> queue.enqueue("q", List.of(NewJob.of("x"))));

      assertThat(e.errorCode()).isEqualTo(ErrorCode.UNKNOWN);
      assertThat(e.getMessage()).contains("127.0.0.1:" + deadPort);
      assertThat(e.getCause())
          .isInstanceOfSatisfying(
              QueueUnavailableException.class,
              cause -> assertThat(cause.mayHaveBeenApplied()).isFalse());
    }
  }
}
