package dev.flipper.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flipper.admin.metrics.Promtool;
import dev.flipper.config.ConfigLoader;
import dev.flipper.config.FlipperConfig;
import dev.flipper.queue.JobDescriptor;
import dev.flipper.queue.NewJob;
import dev.flipper.queue.client.QueueClient;
import dev.flipper.queue.client.QueueClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every daemon's /metrics passes {@code promtool check metrics} without a lint warning (promtool
 * comes from Debian's prometheus package, installed by scripts/ensure-services.sh; without it the
 * test fails), and the queue server's metrics follow the conventions in docs/operations.md: names
 * without queue names, {@code _total} counters, latency histograms per method, backlog gauges per
 * queue and priority.
 */
@Tag("tools")
class MetricsLintTest {
  @TempDir Path dir;

  private ModeRunner runner;

  @AfterEach
  void stop() {
    if (runner != null) {
      runner.closeAll();
    }
  }

  @Test
  void everyDaemonsMetricsPassPromtoolAndFollowTheConventions() throws Exception {
    FlipperConfig config =
        ConfigLoader.defaults(
            List.of(
                "storage.jdbc.shards=[{name: '1', url: 'jdbc:h2:file:"
                    + dir.resolve("flipper")
                    + ";MODE=MySQL'}]",
                "queue.port=0",
                "master.port=0",
                "ui.port=0",
                "queue.adminPort=0",
                "master.adminPort=0",
                "scheduler.adminPort=0",
                "workers.adminPort=0",
                "ui.adminPort=0"),
            Map.of());
    runner = new ModeRunner(config, new java.io.PrintWriter(new java.io.StringWriter()));
    runner.start(List.of(Mode.values()));
    exerciseTheQueueServer(thriftPort(runner.running().get(0)));

    List<String> modes = new ArrayList<>();
    String operationsDoc =
        Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs/operations.md"));
    for (ModeRunner.Running running : runner.running()) {
      if (running.mode() == Mode.MASTER) {
        // The workers daemon, started after the master, polls it; wait until a call has been timed.
        org.awaitility.Awaitility.await()
            .atMost(java.time.Duration.ofSeconds(60))
            .until(
                () ->
                    FlipperProcess.get(running.adminUrl() + "/metrics")
                        .body()
                        .contains("flipper_master_request_duration_seconds_count"));
      }
      String text = FlipperProcess.get(running.adminUrl() + "/metrics").body();
      modes.add(running.mode().modeName());
      assertThat(Promtool.check(text, dir))
          .as(
              "promtool check metrics on the %s daemon's /metrics:\n%s",
              running.mode().modeName(), text)
          .isEmpty();
      assertThat(text)
          .contains(
              "# TYPE process_cpu_seconds_total counter",
              "jvm_memory_bytes_used{area=\"heap\",}",
              "flipper_build_info{");
      // docs/operations.md lists every metric family a daemon exports.
      assertThat(text.lines().filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" ")[2]))
          .as(
              "metric families of the %s daemon missing from docs/operations.md",
              running.mode().modeName())
          .allSatisfy(family -> assertThat(operationsDoc).contains("`" + family + "`"));
      if (running.mode() == Mode.QUEUE) {
        assertQueueConventions(text);
      }
      if (running.mode() == Mode.MASTER) {
        assertThat(text).contains("# TYPE flipper_master_request_duration_seconds histogram");
      }
    }
    assertThat(modes).containsExactly("queue", "master", "scheduler", "workers", "ui");
  }

  private static void assertQueueConventions(String text) {
    assertThat(text)
        .contains("# TYPE flipper_queue_jobs_enqueued_total counter")
        .contains("flipper_queue_jobs_enqueued_total{queue=\"lint_q\",} 3.0")
        .contains("flipper_queue_jobs_dequeued_total{queue=\"lint_q\",} 1.0")
        .contains("# TYPE flipper_queue_request_duration_seconds histogram")
        // two enqueue calls, one of them failed
        .contains(
            "flipper_queue_request_duration_seconds_bucket{method=\"enqueueJobs\",le=\"+Inf\",} 2.0")
        .contains(
            "flipper_queue_request_errors_total{method=\"enqueueJobs\",code=\"QUEUE_NOT_FOUND\",} 1.0")
        .contains("flipper_queue_depth{queue=\"lint_q\",priority=\"1\",} 2.0")
        .contains("flipper_queue_depth{queue=\"lint_q\",priority=\"2\",} 0.0")
        .contains("flipper_queue_oldest_pending_age_seconds{queue=\"lint_q\",priority=\"1\",}")
        .contains("flipper_queue_paused{queue=\"lint_q\",} 0.0")
        .contains("flipper_queue_jobs_in_progress{queue=\"lint_q\",} 1.0")
        .contains("# TYPE flipper_queue_dequeue_delay_seconds histogram")
        .contains("flipper_queue_dequeue_delay_seconds_count{queue=\"lint_q\",} 1.0")
        .contains("# TYPE flipper_queue_enqueued_body_bytes histogram")
        .contains("flipper_queue_enqueued_body_bytes_sum{queue=\"lint_q\",} 3.0")
        .contains("flipper_queue_shard_up{shard=\"1\",} 1.0")
        .contains("# HELP flipper_queue_depth Pending jobs")
        .contains("# TYPE flipper_queue_monitor_jobs_total counter");
    // The queue name is a label value only, never part of a metric name.
    assertThat(text.lines().filter(l -> !l.startsWith("#")).map(l -> l.split("[{ ]")[0]))
        .noneMatch(name -> name.contains("lint_q"));
  }

  private static void exerciseTheQueueServer(int port) {
    try (QueueClient client =
        QueueClient.builder().server("127.0.0.1", port).source("lint").maxAttempts(1).build()) {
      client.createQueue("lint_q");
      List<JobDescriptor> jobs =
          client.enqueue("lint_q", List.of(NewJob.of("a"), NewJob.of("b"), NewJob.of("c")));
      assertThat(jobs).hasSize(3);
      assertThat(client.dequeue("lint_q", 1)).hasSize(1);
      try {
        client.enqueue("no_such_queue", NewJob.of("x"));
      } catch (QueueClientException expected) {
        // counted as an error of enqueueJobs
      }
    }
  }

  private static int thriftPort(ModeRunner.Running queue) {
    String endpoint = queue.daemon().endpoints().get(0); // "thrift port N"
    return Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(' ') + 1));
  }
}
