package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.thrift.ErrorCode;
import dev.flipper.queue.thrift.PinLater;
import dev.flipper.queue.thrift.PinLaterDeleteJobsRequest;
import dev.flipper.queue.thrift.PinLaterException;
import dev.flipper.queue.thrift.PinLaterGetJobCountRequest;
import dev.flipper.queue.thrift.PinLaterJobState;
import dev.flipper.queue.thrift.PinLaterRetryFailedJobsRequest;
import java.util.List;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every call that deletes or changes many jobs needs the queue admin password once one is set, as
 * deleteQueue: deleteJobs, retryFailedJobs and setQueuePaused without it or with a wrong one are
 * refused with PASSWORD_INVALID and change nothing; with it they work. Without a password set,
 * deleting stays off and the calls that can be undone (retry, pause) stay open. Over real Thrift,
 * as a PinLater client sends them.
 */
class AdminPasswordTest {
  private static final String QUEUE = "guarded";
  private TestServer server;
  private TestServer.ThriftClient client;

  @BeforeEach
  void start() {
    server = TestServer.start();
    server.service.createQueue(QUEUE);
    server.service.enqueue(QUEUE, List.of(NewJob.of("a"), NewJob.of("b")));
    client = server.thriftClient();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void deleteJobsNeedsThePassword() throws Exception {
    for (String password : new String[] {null, "", "wrong"}) {
      PinLaterException refused =
          catchThrowableOfType(
              () -> client.api().deleteJobs(TestServer.CONTEXT, deleteAll().setPassword(password)),
              PinLaterException.class);
      assertThat(refused.getErrorCode()).as(password).isEqualTo(ErrorCode.PASSWORD_INVALID);
      assertThat(refused.getMessage())
          .isEqualTo("wrong admin password for deleteJobs of queue '" + QUEUE + "'");
    }
    assertThat(pending()).isEqualTo(2);

    assertThat(
            client
                .api()
                .deleteJobs(TestServer.CONTEXT, deleteAll().setPassword(TestServer.ADMIN_PASSWORD)))
        .isEqualTo(2);
    assertThat(pending()).isZero();
  }

  @Test
  void retryFailedJobsNeedsThePassword() throws Exception {
    PinLaterException refused =
        catchThrowableOfType(
            () ->
                client
                    .api()
                    .retryFailedJobs(TestServer.CONTEXT, new PinLaterRetryFailedJobsRequest(QUEUE)),
            PinLaterException.class);
    assertThat(refused.getErrorCode()).isEqualTo(ErrorCode.PASSWORD_INVALID);
    assertThat(refused.getMessage())
        .isEqualTo("wrong admin password for retryFailedJobs of queue '" + QUEUE + "'");

    assertThat(
            client
                .api()
                .retryFailedJobs(
                    TestServer.CONTEXT,
                    new PinLaterRetryFailedJobsRequest(QUEUE)
                        .setPassword(TestServer.ADMIN_PASSWORD)))
        .isZero(); // nothing failed: allowed, and nothing to move
  }

  @Test
  void pausingNeedsThePassword() throws Exception {
    PinLaterException refused =
        catchThrowableOfType(
            () -> client.api().setQueuePaused(TestServer.CONTEXT, QUEUE, true, "wrong"),
            PinLaterException.class);
    assertThat(refused.getErrorCode()).isEqualTo(ErrorCode.PASSWORD_INVALID);
    assertThat(refused.getMessage())
        .isEqualTo("wrong admin password for setQueuePaused of queue '" + QUEUE + "'");
    assertThat(client.api().getPausedQueues(TestServer.CONTEXT)).isEmpty();

    client.api().setQueuePaused(TestServer.CONTEXT, QUEUE, true, TestServer.ADMIN_PASSWORD);
    assertThat(client.api().getPausedQueues(TestServer.CONTEXT)).containsExactly(QUEUE);
  }

  @Test
  void aServerWithoutAnAdminPasswordRefusesDeletingButPausesAndRetries() throws Exception {
    QueueServer open =
        QueueServer.builder(QueueService.builder(server.store).serverId("no-admin").build())
            .port(0)
            .bindHost("127.0.0.1")
            .build()
            .start();
    try (TFramedTransport transport = new TFramedTransport(new TSocket("127.0.0.1", open.port()))) {
      transport.open();
      PinLater.Client other = new PinLater.Client(new TBinaryProtocol(transport));
      PinLaterException refused =
          catchThrowableOfType(
              () -> other.deleteJobs(TestServer.CONTEXT, deleteAll().setPassword("anything")),
              PinLaterException.class);
      assertThat(refused.getErrorCode()).isEqualTo(ErrorCode.PASSWORD_INVALID);
      assertThat(refused.getMessage())
          .isEqualTo(
              "deleteJobs is disabled until queue.adminPasswordHash is set (generate one with"
                  + " `flipper hash-password`)");
      assertThat(pending()).isEqualTo(2);

      other.setQueuePaused(TestServer.CONTEXT, QUEUE, true, null);
      assertThat(other.getPausedQueues(TestServer.CONTEXT)).containsExactly(QUEUE);
      assertThat(
              other.retryFailedJobs(TestServer.CONTEXT, new PinLaterRetryFailedJobsRequest(QUEUE)))
          .isZero();
    } finally {
      open.close();
    }
  }

  private static PinLaterDeleteJobsRequest deleteAll() {
    return new PinLaterDeleteJobsRequest(QUEUE).setJobState(PinLaterJobState.PENDING);
  }

  private int pending() throws Exception {
    return client
        .api()
        .getJobCount(
            TestServer.CONTEXT,
            new PinLaterGetJobCountRequest(QUEUE).setJobState(PinLaterJobState.PENDING));
  }
}
