package dev.flipper.queue;

import java.time.Instant;
import java.util.Objects;

/**
 * A job to enqueue. Defaults match PinLater: priority 1, run now, 2 attempts, empty custom status.
 *
 * <pre>{@code NewJob.of(bytes).withPriority(2).withRunAfter(Instant.now().plusSeconds(60)) }</pre>
 *
 * @param body opaque bytes, stored and returned unchanged
 * @param priority 1 is the highest; valid values are 1..priorityLevels of the service
 * @param runAfter the job is not dequeued before this instant; null means now
 * @param attemptsAllowed total attempts including the first; at least 1
 * @param customStatus free text kept with the job, truncated to {@value #CUSTOM_STATUS_MAX_CHARS}
 *     chars
 */
public record NewJob(
    byte[] body, int priority, Instant runAfter, int attemptsAllowed, String customStatus) {
  public static final int DEFAULT_PRIORITY = 1;
  public static final int DEFAULT_ATTEMPTS_ALLOWED = 2;
  public static final int CUSTOM_STATUS_MAX_CHARS = 5000;

  public NewJob {
    if (body == null) {
      throw QueueException.invalid("a job body is required (it may be empty, not null)");
    }
    customStatus = customStatus == null ? "" : customStatus;
  }

  public static NewJob of(byte[] body) {
    return new NewJob(body, DEFAULT_PRIORITY, null, DEFAULT_ATTEMPTS_ALLOWED, "");
  }

  public static NewJob of(String utf8Body) {
    return of(
        Objects.requireNonNull(utf8Body, "body").getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  public NewJob withPriority(int newPriority) {
    return new NewJob(body, newPriority, runAfter, attemptsAllowed, customStatus);
  }

  public NewJob withRunAfter(Instant newRunAfter) {
    return new NewJob(body, priority, newRunAfter, attemptsAllowed, customStatus);
  }

  public NewJob withAttemptsAllowed(int attempts) {
    return new NewJob(body, priority, runAfter, attempts, customStatus);
  }

  public NewJob withCustomStatus(String status) {
    return new NewJob(body, priority, runAfter, attemptsAllowed, status);
  }
}
