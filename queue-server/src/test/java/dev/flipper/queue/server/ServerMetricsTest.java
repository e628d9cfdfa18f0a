package dev.flipper.queue.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.CheckpointParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PinLater-named metrics (docs/thrift.md, "Metrics") land in the server's registry. */
class ServerMetricsTest {

  @Test
  void perQueueCountersTimersHistogramsAndErrorCounters() {
    try (TestServer server = TestServer.start();
        QueueClient client = server.client()) {
      client.createQueue("m_q");
      client.enqueue("m_q", RateLimitTest.jobs(5));
      List<DequeuedJob> jobs = client.dequeue("m_q", 4);
      client.checkpoint(
          "m_q",
          List.of(
              CheckpointParams.heartbeat(jobs.get(0).descriptor()),
              CheckpointParams.heartbeat(jobs.get(1).descriptor())));
      client.ack(
          new AckParams(
              "m_q",
              List.of(
                  AckParams.Item.of(jobs.get(0).descriptor()),
                  AckParams.Item.of(jobs.get(1).descriptor())),
              List.of(AckParams.Item.of(jobs.get(2).descriptor()))));
      try {
        client.enqueue("nowhere_q", NewJob.of("x"));
      } catch (RuntimeException expected) {
        // counted below
      }

      MetricRegistry metrics = server.metrics;
      assertThat(metrics.counter("m_q_enqueue").getCount()).isEqualTo(5);
      assertThat(metrics.counter("m_q_dequeue").getCount()).isEqualTo(4);
      assertThat(metrics.histogram("m_q_enqueue_body_bytes").getCount()).isEqualTo(5);
      assertThat(metrics.timer("m_q_dequeue_delay").getCount()).isEqualTo(4);
      assertThat(metrics.counter("m_q_checkpoint").getCount()).isEqualTo(2);
      assertThat(metrics.counter("m_q_ack_succeeded").getCount()).isEqualTo(2);
      assertThat(metrics.counter("m_q_ack_failed").getCount()).isEqualTo(1);
      assertThat(metrics.timer("PinLaterService.enqueueJobs").getCount()).isEqualTo(2);
      assertThat(metrics.timer("PinLaterService.dequeueJobs").getCount()).isEqualTo(1);
      assertThat(metrics.counter("PinLater.enqueueJobs.errors.QUEUE_NOT_FOUND").getCount())
          .isEqualTo(1);
      assertThat(metrics.getCounters()).doesNotContainKey("nowhere_q_enqueue");
      assertThat(metrics.getGauges())
          .containsKeys("PinLaterService.inflight_calls", "PinLaterService.long_poll_waiting");
    }
  }
}
