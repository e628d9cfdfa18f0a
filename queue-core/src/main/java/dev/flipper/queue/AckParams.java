package dev.flipper.queue;

import java.time.Duration;
import java.util.List;

/**
 * Arguments of {@link QueueService#ack}: jobs that succeeded and jobs that failed. Acks of jobs
 * that are not IN_PROGRESS are silent no-ops, so a repeated ack is harmless.
 */
public record AckParams(String queue, List<Item> succeeded, List<Item> failed) {

  public AckParams {
    succeeded = succeeded == null ? List.of() : List.copyOf(succeeded);
    failed = failed == null ? List.of() : List.copyOf(failed);
  }

  public boolean isEmpty() {
    return succeeded.isEmpty() && failed.isEmpty();
  }

  /**
   * One acked job.
   *
   * @param job the job, as returned by dequeue
   * @param appendCustomStatus text appended to the job's custom status; "" for none
   * @param retryDelay for a failed job that has attempts left: how long before it may run again
   */
  public record Item(JobDescriptor job, String appendCustomStatus, Duration retryDelay) {
    /**
     * Longest retry delay: far beyond any use, and now + it can never overflow epoch milliseconds.
     */
    public static final Duration MAX_RETRY_DELAY = Duration.ofDays(3650);

    public Item {
      if (job == null) {
        throw QueueException.invalid("an ack item needs a job descriptor");
      }
      appendCustomStatus = appendCustomStatus == null ? "" : appendCustomStatus;
      retryDelay = retryDelay == null ? Duration.ZERO : retryDelay;
      if (retryDelay.isNegative() || retryDelay.compareTo(MAX_RETRY_DELAY) > 0) {
        throw QueueException.invalid(
            "retry delay for job "
                + job
                + " must be 0.."
                + MAX_RETRY_DELAY.toMillis()
                + " ms ("
                + MAX_RETRY_DELAY.toDays()
                + " days), was "
                + retryDelay.toMillis()
                + " ms");
      }
    }

    public static Item of(JobDescriptor job) {
      return new Item(job, "", Duration.ZERO);
    }
  }
}
