package dev.flipper.queue;

import java.time.Duration;

/**
 * Arguments of {@link QueueService#dequeue}.
 *
 * @param queue the queue to claim from
 * @param limit the most jobs to return; must be > 0
 * @param source who claims, for example {@code "mailer:host7"}; checkpoints must come from the same
 *     source
 * @param dryRun when true, return eligible jobs without claiming them
 * @param coverage the fraction of shards to visit, 0..1 (1 = all)
 * @param ack acks to apply in the same call, even when no job is returned; null for none
 * @param maxWait when no job is ready, how long the call may wait for one (0..{@link #MAX_WAIT});
 *     it returns as soon as a job is claimed. Null: not asked, so a server applies its {@code
 *     queue.longPollTimeout} (PinLater's behaviour) and the in-process queue answers at once
 */
public record DequeueParams(
    String queue,
    int limit,
    String source,
    boolean dryRun,
    double coverage,
    AckParams ack,
    Duration maxWait) {

  /** The longest wait a dequeue may ask for. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(30);

  public static DequeueParams of(String queue, int limit, String source) {
    return new DequeueParams(queue, limit, source, false, 1.0, null, null);
  }

  public DequeueParams withDryRun(boolean newDryRun) {
    return new DequeueParams(queue, limit, source, newDryRun, coverage, ack, maxWait);
  }

  public DequeueParams withCoverage(double newCoverage) {
    return new DequeueParams(queue, limit, source, dryRun, newCoverage, ack, maxWait);
  }

  public DequeueParams withAck(AckParams newAck) {
    return new DequeueParams(queue, limit, source, dryRun, coverage, newAck, maxWait);
  }

  public DequeueParams withMaxWait(Duration newMaxWait) {
    return new DequeueParams(queue, limit, source, dryRun, coverage, ack, newMaxWait);
  }
}
