package dev.flipper.queue.worker;

import dev.flipper.queue.DequeuedJob;
import dev.flipper.queue.JobDescriptor;
import java.nio.charset.StandardCharsets;

/** One claimed job as a {@link JobHandler} sees it. Immutable. */
public final class WorkerJob {
  private final DequeuedJob job;

  WorkerJob(DequeuedJob job) {
    this.job = job;
  }

  public JobDescriptor descriptor() {
    return job.descriptor();
  }

  public byte[] body() {
    return job.body().clone();
  }

  public String bodyAsString() {
    return new String(job.body(), StandardCharsets.UTF_8);
  }

  public int attemptsAllowed() {
    return job.attemptsAllowed();
  }

  /** Attempts left before this one, as stored when the job was claimed. */
  public int attemptsRemaining() {
    return job.attemptsRemaining();
  }

  /** This attempt's number, 1 for the first. */
  public int attempt() {
    return Math.max(1, job.attemptsAllowed() - job.attemptsRemaining() + 1);
  }

  /** True if a failure now makes the job FAILED instead of retrying it. */
  public boolean isLastAttempt() {
    return job.attemptsRemaining() <= 1;
  }

  @Override
  public String toString() {
    return job.descriptor() + " (attempt " + attempt() + " of " + attemptsAllowed() + ")";
  }
}
