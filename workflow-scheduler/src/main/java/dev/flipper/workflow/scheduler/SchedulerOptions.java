package dev.flipper.workflow.scheduler;

import java.time.Duration;
import java.util.Objects;

/**
 * Knobs of a scheduler. Immutable.
 *
 * @param owner this scheduler's unique name, the owner of the schedules it claims (host-pid, say)
 * @param claimLease how long a claimed schedule stays this scheduler's while it is fired; if the
 *     scheduler dies, another one fires the schedule after this (Pinball: 5 minutes)
 * @param batchSize schedules claimed per call (Pinball: 60)
 * @param recheck when a slot waits (DELAY, DELAY_UNTIL_SUCCESS, too many instances), how soon it is
 *     looked at again (Pinball: 5 minutes)
 * @param maxWait the longest a scheduler waits between passes (in the master, for a schedule to
 *     fall due or be written): a schedule whose claim another scheduler lost is seen within this
 *     time
 */
public record SchedulerOptions(
    String owner, Duration claimLease, int batchSize, Duration recheck, Duration maxWait) {

  public SchedulerOptions {
    Objects.requireNonNull(owner, "owner");
    if (owner.isEmpty() || owner.equals("parser")) {
      throw new IllegalArgumentException(
          "scheduler owner '" + owner + "' is empty or reserved; use host-pid");
    }
    if (claimLease.toSeconds() < 1
        || recheck.toMillis() < 1
        || maxWait.toMillis() < 1
        || batchSize < 1) {
      throw new IllegalArgumentException(
          "scheduler options out of range: claimLease "
              + claimLease
              + " (at least 1s), recheck "
              + recheck
              + " and maxWait "
              + maxWait
              + " (more than 0), batchSize "
              + batchSize
              + " (at least 1)");
    }
  }

  /** Lease 60 s, batches of 60, re-check waiting slots every 30 s, wait at most 1 s. */
  public static SchedulerOptions defaults(String owner) {
    return new SchedulerOptions(
        owner, Duration.ofSeconds(60), 60, Duration.ofSeconds(30), Duration.ofSeconds(1));
  }

  public SchedulerOptions withRecheck(Duration newRecheck) {
    return new SchedulerOptions(owner, claimLease, batchSize, newRecheck, maxWait);
  }

  public SchedulerOptions withBatchSize(int newBatchSize) {
    return new SchedulerOptions(owner, claimLease, newBatchSize, recheck, maxWait);
  }
}
