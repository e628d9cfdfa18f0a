package dev.flipper.admin.metrics;

import dev.flipper.queue.monitor.MonitorReport;
import dev.flipper.queue.monitor.QueueMonitor;
import io.prometheus.client.Collector.MetricFamilySamples;
import io.prometheus.client.Collector.MetricFamilySamples.Sample;
import io.prometheus.client.Collector.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the queue monitor of this process did since it started, per queue: claims timed out (retried
 * or failed) and finished jobs deleted after their TTL. Thread-safe.
 */
public final class QueueMonitorMetrics implements LabeledMetric {
  private static final String NAME = "flipper_queue_monitor_jobs";

  private final QueueMonitor monitor;

  public QueueMonitorMetrics(QueueMonitor monitor) {
    this.monitor = monitor;
  }

  @Override
  public List<MetricFamilySamples> collect() {
    List<Sample> samples = new ArrayList<>();
    for (Map.Entry<String, MonitorReport.QueueCounts> entry :
        monitor.totalSinceCreated().queues().entrySet()) {
      MonitorReport.QueueCounts counts = entry.getValue();
      add(samples, entry.getKey(), "claim_timed_out_retried", counts.timedOutRetried());
      add(samples, entry.getKey(), "claim_timed_out_failed", counts.timedOutFailed());
      add(samples, entry.getKey(), "succeeded_deleted", counts.succeededDeleted());
      add(samples, entry.getKey(), "failed_deleted", counts.failedDeleted());
    }
    return List.of(
        new MetricFamilySamples(
            NAME,
            Type.COUNTER,
            "Jobs the queue monitor of this process moved: claims timed out (back to PENDING or FAILED) and "
                + "finished jobs deleted after their TTL, by queue and action.",
            samples));
  }

  private static void add(List<Sample> samples, String queue, String action, long value) {
    samples.add(
        new Sample(NAME + "_total", List.of("queue", "action"), List.of(queue, action), value));
  }
}
