package dev.flipper.queue;

import java.time.Duration;
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
 * @param uniqueKey null, or a key no other job of the queue may hold at the same time: enqueueing a
 *     job whose key is held returns the holder instead (see docs/queue.md "Unique jobs");
 *     1..{@value #UNIQUE_KEY_MAX_CHARS} characters of {@code [A-Za-z0-9_.:/@=+-]}
 * @param uniqueFor how long the key is held from enqueue, whatever becomes of the job; null (the
 *     default) holds it while the job is pending or running. Only with a unique key.
 */
public record NewJob(
    byte[] body,
    int priority,
    Instant runAfter,
    int attemptsAllowed,
    String customStatus,
    String uniqueKey,
    Duration uniqueFor) {
  public static final int DEFAULT_PRIORITY = 1;
  public static final int DEFAULT_ATTEMPTS_ALLOWED = 2;
  public static final int CUSTOM_STATUS_MAX_CHARS = 5000;
  public static final int UNIQUE_KEY_MAX_CHARS = 128;

  public NewJob {
    if (body == null) {
      throw QueueException.invalid("a job body is required (it may be empty, not null)");
    }
    customStatus = customStatus == null ? "" : customStatus;
  }

  /** A job without a unique key. */
  public NewJob(
      byte[] body, int priority, Instant runAfter, int attemptsAllowed, String customStatus) {
    this(body, priority, runAfter, attemptsAllowed, customStatus, null, null);
  }

  public static NewJob of(byte[] body) {
    return new NewJob(body, DEFAULT_PRIORITY, null, DEFAULT_ATTEMPTS_ALLOWED, "", null, null);
  }

  public static NewJob of(String utf8Body) {
    return of(
        Objects.requireNonNull(utf8Body, "body").getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  public NewJob withPriority(int newPriority) {
    return new NewJob(
        body, newPriority, runAfter, attemptsAllowed, customStatus, uniqueKey, uniqueFor);
  }

  public NewJob withRunAfter(Instant newRunAfter) {
    return new NewJob(
        body, priority, newRunAfter, attemptsAllowed, customStatus, uniqueKey, uniqueFor);
  }

  public NewJob withAttemptsAllowed(int attempts) {
    return new NewJob(body, priority, runAfter, attempts, customStatus, uniqueKey, uniqueFor);
  }

  public NewJob withCustomStatus(String status) {
    return new NewJob(body, priority, runAfter, attemptsAllowed, status, uniqueKey, uniqueFor);
  }

  /**
   * The job holds this key while pending or running, unless {@link #withUniqueFor} says otherwise.
   */
  public NewJob withUniqueKey(String key) {
    return new NewJob(body, priority, runAfter, attemptsAllowed, customStatus, key, uniqueFor);
  }

  /** The key is held for this long from enqueue, whatever becomes of the job. */
  public NewJob withUniqueFor(Duration window) {
    return new NewJob(body, priority, runAfter, attemptsAllowed, customStatus, uniqueKey, window);
  }
}
