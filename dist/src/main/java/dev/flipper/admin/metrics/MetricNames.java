package dev.flipper.admin.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the daemons' Dropwizard metric names (kept for /stats.txt, where PinLater's names are
 * expected) become Prometheus names: queue, method, code and result move out of the name into
 * labels, every family gets a help text in words. Names without a rule get {@code flipper_} plus
 * the name in snake case. Stateless.
 */
final class MetricNames {
  /** A Prometheus family name, its help, and the labels taken from the Dropwizard name. */
  record Mapped(String family, String help, List<String> labelNames, List<String> labelValues) {}

  private record Rule(Pattern pattern, String family, String help, List<String> labels) {}

  private static final List<Rule> RULES =
      List.of(
          rule(
              "PinLaterService\\.inflight_calls",
              "flipper_queue_requests_in_flight",
              "Thrift requests the queue server has started and not yet answered."),
          rule(
              "PinLaterService\\.long_poll_waiting",
              "flipper_queue_long_poll_waiting",
              "Dequeue requests waiting in a long poll for jobs now."),
          rule(
              "PinLaterService\\.connections_rejected\\.(\\w+)",
              "flipper_queue_connections_rejected",
              "Connections the queue server closed at once at its connection limits, by reason.",
              "reason"),
          rule(
              "PinLaterService\\.connections_evicted\\.(\\w+)",
              "flipper_queue_connections_evicted",
              "Idle connections the queue server closed to make room for a new one, by limit reached.",
              "reason"),
          rule(
              "PinLaterService\\.peer_faults\\.(\\w+)",
              "flipper_queue_peer_faults",
              "Frames the queue server refused or connections it closed for what their peer sent, by reason.",
              "reason"),
          rule(
              "PinLaterService\\.(\\w+)",
              "flipper_queue_request_duration_seconds",
              "Time the queue server took to answer a Thrift request, by method.",
              "method"),
          rule(
              "PinLater\\.(\\w+)\\.errors\\.(\\w+)",
              "flipper_queue_request_errors",
              "Queue server requests answered with an error, by method and error code.",
              "method",
              "code"),
          rule(
              "(\\w+)_dequeue_requests_rate_limited",
              "flipper_queue_dequeue_rate_limited",
              "Dequeue requests refused by the queue's rate limit, by queue.",
              "queue"),
          rule(
              "(\\w+)_ack_(succeeded|failed)",
              "flipper_queue_jobs_acked",
              "Jobs acknowledged by workers, by queue and result.",
              "queue",
              "result"),
          rule(
              "(\\w+)_dequeue_delay",
              "flipper_queue_dequeue_delay_seconds",
              "Time from a job becoming due (the later of its enqueue time and run-after) to its"
                  + " claim by a dequeue, by queue.",
              "queue"),
          rule(
              "(\\w+)_enqueue_body_bytes",
              "flipper_queue_enqueued_body_bytes",
              "Sizes of the bodies of jobs enqueued, by queue.",
              "queue"),
          rule(
              "(\\w+)_enqueue", "flipper_queue_jobs_enqueued", "Jobs enqueued, by queue.", "queue"),
          rule(
              "(\\w+)_dequeue",
              "flipper_queue_jobs_dequeued",
              "Jobs handed out by dequeues, by queue.",
              "queue"),
          rule(
              "(\\w+)_checkpoint",
              "flipper_queue_checkpoints",
              "Job checkpoints applied, by queue.",
              "queue"),
          rule(
              "queue\\.shards\\.total",
              "flipper_queue_shards",
              "Shards configured for the queue store."),
          rule(
              "queue\\.shards\\.healthy",
              "flipper_queue_shards_healthy",
              "Shards of the queue store reachable now."),
          rule(
              "TokenMaster\\.(\\w+)",
              "flipper_master_request_duration_seconds",
              "Time the token master took to answer a Thrift request, by method.",
              "method"),
          rule(
              "TokenMaster\\.(\\w+)\\.errors\\.(\\w+)",
              "flipper_master_request_errors",
              "Token master requests that failed, by method and error code.",
              "method",
              "code"),
          rule(
              "master\\.running",
              "flipper_master_running",
              "1 while the token master serves requests, else 0."),
          rule(
              "master\\.connections_rejected\\.(\\w+)",
              "flipper_master_connections_rejected",
              "Connections the token master closed at once at its connection limits, by reason.",
              "reason"),
          rule(
              "master\\.connections_evicted\\.(\\w+)",
              "flipper_master_connections_evicted",
              "Idle connections the token master closed to make room for a new one, by limit reached.",
              "reason"),
          rule(
              "master\\.peer_faults\\.(\\w+)",
              "flipper_master_peer_faults",
              "Connections the token master closed for what their peer sent, by reason.",
              "reason"),
          rule(
              "master\\.waiting_claims",
              "flipper_master_waiting_claims",
              "Workers waiting in a long-poll claim on the token master now."),
          rule(
              "scheduler\\.running",
              "flipper_scheduler_running",
              "1 while the scheduler runs, else 0."),
          rule(
              "scheduler\\.started",
              "flipper_scheduler_started",
              "Workflow instances this scheduler started since the process started."),
          rule(
              "workers\\.running",
              "flipper_worker_running",
              "1 while the worker daemon runs, else 0."),
          rule(
              "workers\\.busy",
              "flipper_worker_busy_slots",
              "Workflow jobs the worker daemon runs now."),
          rule(
              "workers\\.jobs\\.(\\w+)",
              "flipper_worker_jobs",
              "Workflow jobs the worker daemon finished, by result.",
              "result"),
          rule("ui\\.running", "flipper_ui_running", "1 while the UI serves pages, else 0."));

  private MetricNames() {}

  private static Rule rule(String regex, String family, String help, String... labels) {
    return new Rule(Pattern.compile(regex), family, help, List.of(labels));
  }

  static Mapped map(String dropwizardName, String kind) {
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(dropwizardName);
      if (m.matches()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= m.groupCount(); i++) {
          values.add(m.group(i));
        }
        return new Mapped(rule.family(), rule.help(), rule.labels(), values);
      }
    }
    String snake =
        dropwizardName
            .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9_]", "_")
            .replaceAll("_+", "_");
    return new Mapped(
        "flipper_" + snake,
        "The " + kind + " '" + dropwizardName + "' of this daemon.",
        List.of(),
        List.of());
  }
}
