package dev.flipper.queue;

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
 */
public record DequeueParams(
    String queue, int limit, String source, boolean dryRun, double coverage, AckParams ack) {

  public static DequeueParams of(String queue, int limit, String source) {
    return new DequeueParams(queue, limit, source, false, 1.0, null);
  }

  public DequeueParams withDryRun(boolean newDryRun) {
    return new DequeueParams(queue, limit, source, newDryRun, coverage, ack);
  }

  public DequeueParams withCoverage(double newCoverage) {
    return new DequeueParams(queue, limit, source, dryRun, newCoverage, ack);
  }

  public DequeueParams withAck(AckParams newAck) {
    return new DequeueParams(queue, limit, source, dryRun, coverage, newAck);
  }
}
