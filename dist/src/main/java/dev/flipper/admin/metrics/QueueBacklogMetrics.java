package dev.flipper.admin.metrics;

import dev.flipper.queue.JobState;
import dev.flipper.queue.QueueException;
import dev.flipper.queue.QueueService;
import dev.flipper.queue.spi.BodyFilter;
import dev.flipper.queue.spi.ShardStore;
import dev.flipper.queue.spi.StoredJob;
import io.prometheus.client.Collector.MetricFamilySamples;
import io.prometheus.client.Collector.MetricFamilySamples.Sample;
import io.prometheus.client.Collector.Type;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The queue server's view of its store, read on each scrape: per queue and priority the due pending
 * jobs (depth, capped like counts) and how long the oldest of them has waited since its run-after;
 * per queue whether it is paused and how many of its jobs are claimed and not yet acknowledged (in
 * progress, as the store says, so the same on every server); per shard whether it is reachable.
 * Shards that fail are skipped (their {@code flipper_queue_shard_up} is 0). Thread-safe.
 */
public final class QueueBacklogMetrics implements LabeledMetric {
  /** Counts stop here per shard and priority: the gauge says "at least", not an exact backlog. */
  private static final int DEPTH_CAP = 100_000;

  private final QueueService service;
  private final Clock clock;

  public QueueBacklogMetrics(QueueService service, Clock clock) {
    this.service = service;
    this.clock = clock;
  }

  @Override
  public List<MetricFamilySamples> collect() {
    long now = clock.millis();
    List<ShardStore> shards = service.store().shards();
    List<Sample> up = new ArrayList<>();
    List<Sample> depth = new ArrayList<>();
    List<Sample> age = new ArrayList<>();
    List<Sample> paused = new ArrayList<>();
    List<Sample> inProgress = new ArrayList<>();
    for (ShardStore shard : shards) {
      up.add(
          new Sample(
              "flipper_queue_shard_up",
              List.of("shard"),
              List.of(shard.name()),
              shard.healthy() ? 1 : 0));
    }
    Set<String> queues;
    Set<String> pausedQueues;
    try {
      queues = service.queueNames();
      pausedQueues = service.pausedQueues();
    } catch (QueueException e) {
      queues = Set.of();
      pausedQueues = Set.of();
    }
    for (String queue : queues) {
      paused.add(
          new Sample(
              "flipper_queue_paused",
              List.of("queue"),
              List.of(queue),
              pausedQueues.contains(queue) ? 1 : 0));
      long claimed = 0;
      for (int priority = 1; priority <= service.priorityLevels(); priority++) {
        long jobs = 0;
        long oldestRunAfter = Long.MAX_VALUE;
        for (ShardStore shard : shards) {
          if (!shard.healthy()) {
            continue;
          }
          try {
            jobs +=
                shard.count(
                    queue, priority, JobState.PENDING, false, BodyFilter.ALL, now, DEPTH_CAP);
            claimed += inProgress(shard, queue, priority, now);
            for (StoredJob next : shard.peek(queue, priority, 1, now)) {
              oldestRunAfter = Math.min(oldestRunAfter, next.runAfterMillis());
            }
          } catch (QueueException e) {
            // unreachable or the queue vanished meanwhile: this shard adds nothing
          }
        }
        List<String> labels = List.of(queue, String.valueOf(priority));
        depth.add(new Sample("flipper_queue_depth", List.of("queue", "priority"), labels, jobs));
        double waited =
            oldestRunAfter == Long.MAX_VALUE ? 0 : Math.max(0, now - oldestRunAfter) / 1e3;
        age.add(
            new Sample(
                "flipper_queue_oldest_pending_age_seconds",
                List.of("queue", "priority"),
                labels,
                waited));
      }
      inProgress.add(
          new Sample("flipper_queue_jobs_in_progress", List.of("queue"), List.of(queue), claimed));
    }
    return List.of(
        new MetricFamilySamples(
            "flipper_queue_shard_up",
            Type.GAUGE,
            "1 if the queue server can reach the shard now, else 0.",
            up),
        new MetricFamilySamples(
            "flipper_queue_depth",
            Type.GAUGE,
            "Pending jobs whose run-after has come (due, not yet dequeued), by queue and priority; counted up to "
                + DEPTH_CAP
                + " per shard.",
            depth),
        new MetricFamilySamples(
            "flipper_queue_oldest_pending_age_seconds",
            Type.GAUGE,
            "How long the oldest due pending job has waited since its run-after, by queue and priority; 0 when "
                + "none waits.",
            age),
        new MetricFamilySamples(
            "flipper_queue_paused",
            Type.GAUGE,
            "1 if the queue is paused (dequeues return no job), else 0.",
            paused),
        new MetricFamilySamples(
            "flipper_queue_jobs_in_progress",
            Type.GAUGE,
            "Jobs claimed by a dequeue and not yet acknowledged, by queue, as the store counts them"
                + " (across all servers); counted up to "
                + DEPTH_CAP
                + " per shard, priority and run-after side.",
            inProgress));
  }

  /**
   * IN_PROGRESS jobs of one priority on the shard. A heartbeat may move a claimed job's run-after
   * past now, so both sides of now are counted.
   */
  private static long inProgress(ShardStore shard, String queue, int priority, long now) {
    return (long)
            shard.count(
                queue, priority, JobState.IN_PROGRESS, false, BodyFilter.ALL, now, DEPTH_CAP)
        + shard.count(queue, priority, JobState.IN_PROGRESS, true, BodyFilter.ALL, now, DEPTH_CAP);
  }
}
