package dev.flipper.queue.worker;

/**
 * The code that runs a queue's jobs. Returning normally acks the job as succeeded; throwing acks it
 * as failed, and the job is retried after {@link #retryPolicy()}'s delay while attempts remain.
 * Called from several threads at once, so implementations must be thread-safe.
 *
 * <pre>{@code
 * JobHandler mailer = job -> send(job.bodyAsString());
 * }</pre>
 */
@FunctionalInterface
public interface JobHandler {
  /** Maximum length of the failure text stored in the job's custom status by default. */
  int FAILURE_STATUS_MAX_CHARS = 1000;

  void handle(WorkerJob job) throws Exception;

  /**
   * Delay before the next attempt of a failed job. Default: PinLater's example worker, 1 s ×
   * (attempt − 1).
   */
  default RetryPolicy retryPolicy() {
    return RetryPolicy.linear(java.time.Duration.ofSeconds(1));
  }

  /**
   * Text appended to the job's custom status when an attempt fails. Default: the error, shortened.
   */
  default String failureStatus(WorkerJob job, Throwable error) {
    String text = "attempt " + job.attempt() + " failed: " + error + "\n";
    return text.length() <= FAILURE_STATUS_MAX_CHARS
        ? text
        : text.substring(0, FAILURE_STATUS_MAX_CHARS - 4) + "...\n";
  }
}
