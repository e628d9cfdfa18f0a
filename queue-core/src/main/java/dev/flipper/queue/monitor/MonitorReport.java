package dev.flipper.queue.monitor;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one {@link QueueMonitor#runOnce()} did, per queue. Queues with nothing done are absent.
 * Immutable.
 */
public record MonitorReport(Map<String, QueueCounts> queues) {
  public static final MonitorReport EMPTY = new MonitorReport(Map.of());

  public MonitorReport {
    queues = Map.copyOf(queues);
  }

  /**
   * One queue's work in one run.
   *
   * @param timedOutRetried claims that timed out and went back to PENDING
   * @param timedOutFailed claims that timed out with no attempt left and became FAILED
   * @param succeededDeleted SUCCEEDED jobs removed after the succeeded TTL
   * @param failedDeleted FAILED jobs removed after the failed TTL
   */
  public record QueueCounts(
      int timedOutRetried, int timedOutFailed, int succeededDeleted, int failedDeleted) {
    public static final QueueCounts NONE = new QueueCounts(0, 0, 0, 0);

    public int total() {
      return timedOutRetried + timedOutFailed + succeededDeleted + failedDeleted;
    }

    QueueCounts plus(QueueCounts other) {
      return new QueueCounts(
          timedOutRetried + other.timedOutRetried,
          timedOutFailed + other.timedOutFailed,
          succeededDeleted + other.succeededDeleted,
          failedDeleted + other.failedDeleted);
    }
  }

  /** The counts of one queue; zeros if the run did nothing for it. */
  public QueueCounts forQueue(String queue) {
    return queues.getOrDefault(queue, QueueCounts.NONE);
  }

  /** The counts summed over all queues. */
  public QueueCounts totals() {
    QueueCounts sum = QueueCounts.NONE;
    for (QueueCounts counts : queues.values()) {
      sum = sum.plus(counts);
    }
    return sum;
  }

  /** The sum of this report and another, for example of several monitors or runs. */
  public MonitorReport plus(MonitorReport other) {
    Map<String, QueueCounts> sum = new TreeMap<>(queues);
    other.queues.forEach((queue, counts) -> sum.merge(queue, counts, QueueCounts::plus));
    return new MonitorReport(sum);
  }

  @Override
  public String toString() {
    return "MonitorReport" + new TreeMap<>(queues);
  }
}
