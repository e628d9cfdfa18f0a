package dev.flipper.admin.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.admin.AdminServer;
import dev.flipper.queue.AckParams;
import dev.flipper.queue.DequeueParams;
import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.memory.InMemoryQueueStore;
import dev.flipper.queue.server.QueueServer;
import dev.flipper.queue.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue server's per-job metrics on /metrics, over Thrift and the admin port: dequeue delay
 * (due → claim) and body size histograms and the in-progress gauge, per queue only, in base units,
 * accepted by promtool. Time is the service's injected clock, so delays are exact.
 */
@Tag("tools")
class QueueJobMetricsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  private final MutableClock clock = MutableClock.startingAt(T0);
  private final BucketedTimers registry = new BucketedTimers();
  private QueueServer server;
  private AdminServer admin;
  private QueueClient client;

  @BeforeEach
  void start() {
    QueueService service =
        QueueService.builder(InMemoryQueueStore.withShards("1")).clock(clock).build();
    registry.register("queue.backlog", new QueueBacklogMetrics(service, clock));
    server = QueueServer.builder(service).port(0).metrics(registry).clock(clock).build().start();
    admin = new AdminServer("queue", "127.0.0.1", 0, registry, Map::of);
    admin.start();
    client =
        QueueClient.builder()
            .server("127.0.0.1", server.port())
            .source("metrics")
            .maxAttempts(1)
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    admin.close();
    server.close();
  }

  @Test
  void dequeueDelayBodySizeAndInProgressPerQueue() throws Exception {
    client.createQueue("delay_q");
    client.enqueue(
        "delay_q",
        List.of(
            NewJob.of(new byte[10]), NewJob.of(new byte[100]).withRunAfter(T0.plusSeconds(60))));
    clock.advance(Duration.ofSeconds(2));
    List<DequeuedJob> first = client.dequeue("delay_q", 5); // the 10-byte job, waited 2 s
    client.enqueue("delay_q", NewJob.of(new byte[5000])); // due at T0 + 2 s
    clock.set(T0.plusSeconds(90));
    List<DequeuedJob> later = client.dequeue("delay_q", 5); // waited 30 s (run-after) and 88 s
    assertThat(first).hasSize(1);
    assertThat(later).hasSize(2);
    client.ack(
        new AckParams("delay_q", List.of(AckParams.Item.of(first.get(0).descriptor())), List.of()));

    String text = scrape();

    assertThat(text.lines())
        .contains(
            "# TYPE flipper_queue_dequeue_delay_seconds histogram",
            "flipper_queue_dequeue_delay_seconds_bucket{queue=\"delay_q\",le=\"1.0\",} 0.0",
            "flipper_queue_dequeue_delay_seconds_bucket{queue=\"delay_q\",le=\"2.5\",} 1.0",
            "flipper_queue_dequeue_delay_seconds_bucket{queue=\"delay_q\",le=\"30.0\",} 2.0",
            "flipper_queue_dequeue_delay_seconds_bucket{queue=\"delay_q\",le=\"60.0\",} 2.0",
            "flipper_queue_dequeue_delay_seconds_bucket{queue=\"delay_q\",le=\"300.0\",} 3.0",
            "flipper_queue_dequeue_delay_seconds_bucket{queue=\"delay_q\",le=\"+Inf\",} 3.0",
            "flipper_queue_dequeue_delay_seconds_count{queue=\"delay_q\",} 3.0",
            "flipper_queue_dequeue_delay_seconds_sum{queue=\"delay_q\",} 120.0",
            "# TYPE flipper_queue_enqueued_body_bytes histogram",
            "flipper_queue_enqueued_body_bytes_bucket{queue=\"delay_q\",le=\"64.0\",} 1.0",
            "flipper_queue_enqueued_body_bytes_bucket{queue=\"delay_q\",le=\"256.0\",} 2.0",
            "flipper_queue_enqueued_body_bytes_bucket{queue=\"delay_q\",le=\"4096.0\",} 2.0",
            "flipper_queue_enqueued_body_bytes_bucket{queue=\"delay_q\",le=\"16384.0\",} 3.0",
            "flipper_queue_enqueued_body_bytes_count{queue=\"delay_q\",} 3.0",
            "flipper_queue_enqueued_body_bytes_sum{queue=\"delay_q\",} 5110.0",
            "# TYPE flipper_queue_jobs_in_progress gauge",
            "flipper_queue_jobs_in_progress{queue=\"delay_q\",} 2.0");
    // Bounded labels: the queue (and a histogram's le), never a job.
    assertThat(
            text.lines()
                .filter(
                    line ->
                        line.startsWith("flipper_queue_dequeue_delay_seconds")
                            || line.startsWith("flipper_queue_enqueued_body_bytes")
                            || line.startsWith("flipper_queue_jobs_in_progress")))
        // buckets and +Inf, _count and _sum of each histogram; one gauge sample
        .hasSize(
            (CumulativeBuckets.DELAY_SECONDS.length + 3)
                + (CumulativeBuckets.SIZE_BYTES.length + 3)
                + 1)
        .allMatch(line -> line.matches("[a-z_]+\\{queue=\"delay_q\",(le=\"[^\"]+\",)?} \\S+"));
    assertThat(Promtool.check(text, dir)).as("promtool check metrics on:\n%s", text).isEmpty();
  }

  @Test
  void aDryRunDequeueRecordsNoDelay() throws Exception {
    client.createQueue("peek_q");
    client.enqueue("peek_q", NewJob.of("x"));
    clock.advance(Duration.ofSeconds(5));
    assertThat(client.dequeue(DequeueParams.of("peek_q", 1, "metrics").withDryRun(true)))
        .hasSize(1);

    assertThat(scrape())
        .doesNotContain("flipper_queue_dequeue_delay_seconds_count{queue=\"peek_q\",}")
        .contains("flipper_queue_jobs_in_progress{queue=\"peek_q\",} 0.0");
  }

  private String scrape() throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + admin.port() + "/metrics");
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
