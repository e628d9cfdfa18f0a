package dev.flipper.queue;

import java.time.Instant;

/**
 * One checkpoint of a running job. It applies only while the job is IN_PROGRESS under a claim made
 * by the same source; otherwise it is a silent no-op (a stale worker cannot disturb the new owner).
 * Attempts are never decremented by a checkpoint.
 *
 * @param job the job to checkpoint
 * @param newBody replaces the body; null keeps it
 * @param moveToPending release the claim and make the job PENDING again
 * @param runAfter the new run-after time, which also restarts the claim time-out; null means now
 * @param attemptsAllowed sets both attempts allowed and remaining; null keeps them
 * @param prependCustomStatus text put in front of the custom status; null keeps it
 */
public record CheckpointParams(
    JobDescriptor job,
    byte[] newBody,
    boolean moveToPending,
    Instant runAfter,
    Integer attemptsAllowed,
    String prependCustomStatus) {

  public CheckpointParams {
    if (job == null) {
      throw QueueException.invalid("a checkpoint needs a job descriptor");
    }
    if (attemptsAllowed != null && attemptsAllowed < 1) {
      throw QueueException.invalid(
          "attempts allowed for job " + job + " must be >= 1, was " + attemptsAllowed);
    }
  }

  /** A heartbeat: keeps the claim and restarts its time-out. */
  public static CheckpointParams heartbeat(JobDescriptor job) {
    return new CheckpointParams(job, null, false, null, null, null);
  }
}
