package dev.flipper.workflow.worker;

import dev.flipper.workflow.engine.ClaimedJob;
import java.time.Duration;

/**
 * What a worker does when a job runs past its warn time-out (once per execution). The worker always
 * logs a warning first; this is the place to plug e-mail in (the mailer of the scheduler's issue),
 * with the job's {@link ClaimedJob#emails()}. Implementations must be thread-safe and quick (hand
 * slow work to another thread).
 */
@FunctionalInterface
public interface WarnTimeoutAlert {
  /** Nothing beyond the worker's own log line. */
  WarnTimeoutAlert LOG_ONLY = (job, warnTimeout) -> {};

  void warn(ClaimedJob job, Duration warnTimeout);
}
