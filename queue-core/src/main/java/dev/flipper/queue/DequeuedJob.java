package dev.flipper.queue;

/**
 * A job returned by a dequeue. The attempt counts are as stored before this attempt: on the first
 * dequeue {@code attemptsRemaining == attemptsAllowed}.
 *
 * @param waitedMillis how long the job waited from becoming due (the later of its enqueue time and
 *     its run-after) to this dequeue, by the store's times and the service's clock: what the queue
 *     server reports as dequeue delay. 0 where unknown: jobs read from the wire carry no times.
 */
public record DequeuedJob(
    JobDescriptor descriptor,
    byte[] body,
    int attemptsAllowed,
    int attemptsRemaining,
    long waitedMillis) {

  /** A job whose wait is unknown (for example one read from the wire). */
  public DequeuedJob(
      JobDescriptor descriptor, byte[] body, int attemptsAllowed, int attemptsRemaining) {
    this(descriptor, body, attemptsAllowed, attemptsRemaining, 0);
  }
}
