package dev.flipper.queue;

import java.util.regex.Pattern;

/**
 * Argument checks shared by the operations of {@link QueueService}. Every check throws a {@link
 * QueueException} that names the value, where it was found and what is allowed. Stateless.
 */
final class Validation {
  static final int MAX_SCAN_LIMIT = 10_000;
  static final int MAX_SOURCE_LENGTH = 200;

  private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_]+");
  private static final Pattern UNIQUE_KEY = Pattern.compile("[A-Za-z0-9_.:/@=+-]+");

  /** The longest uniqueness window: a year. */
  static final java.time.Duration MAX_UNIQUE_FOR = java.time.Duration.ofDays(366);

  private final int priorityLevels;
  private final int maxBodyBytes;

  Validation(int priorityLevels, int maxBodyBytes) {
    this.priorityLevels = priorityLevels;
    this.maxBodyBytes = maxBodyBytes;
  }

  static void queueName(String queue) {
    if (queue == null || queue.isEmpty()) {
      throw new QueueException(
          ErrorCode.QUEUE_NAME_INVALID,
          "a queue name is required; allowed: letters, digits and '_'");
    }
    if (queue.length() > QueueService.MAX_QUEUE_NAME_LENGTH) {
      throw new QueueException(
          ErrorCode.QUEUE_NAME_TOO_LONG,
          "queue name '"
              + queue.substring(0, 20)
              + "...' has "
              + queue.length()
              + " characters; at most "
              + QueueService.MAX_QUEUE_NAME_LENGTH
              + " are allowed");
    }
    if (!QUEUE_NAME.matcher(queue).matches()) {
      throw new QueueException(
          ErrorCode.QUEUE_NAME_INVALID,
          "queue name '"
              + queue
              + "' is invalid; allowed: letters, digits and '_' ([A-Za-z0-9_]+)");
    }
  }

  /** A job's unique key and window, see {@link NewJob}. */
  static void uniqueness(String key, java.time.Duration window, String where) {
    if (key == null) {
      if (window != null) {
        throw QueueException.invalid(
            "uniqueFor of " + where + " is set but its uniqueKey is not; set both or neither");
      }
      return;
    }
    if (key.isEmpty() || key.length() > NewJob.UNIQUE_KEY_MAX_CHARS) {
      throw QueueException.invalid(
          "uniqueKey of "
              + where
              + " has "
              + key.length()
              + " characters; allowed: 1.."
              + NewJob.UNIQUE_KEY_MAX_CHARS);
    }
    if (!UNIQUE_KEY.matcher(key).matches()) {
      throw QueueException.invalid(
          "uniqueKey '"
              + key
              + "' of "
              + where
              + " is invalid; allowed: letters, digits and _ . : / @ = + - ([A-Za-z0-9_.:/@=+-]+)");
    }
    if (window != null && (window.toMillis() < 1 || window.compareTo(MAX_UNIQUE_FOR) > 0)) {
      throw QueueException.invalid(
          "uniqueFor "
              + window
              + " of "
              + where
              + " is out of range; allowed: 1 ms.."
              + MAX_UNIQUE_FOR.toDays()
              + " days, or unset to hold the key while the job is pending or running");
    }
  }

  void priority(int priority, String where) {
    if (priority < 1 || priority > priorityLevels) {
      throw new QueueException(
          ErrorCode.PRIORITY_NOT_SUPPORTED,
          "priority "
              + priority
              + " of "
              + where
              + " is not supported; allowed: 1.."
              + priorityLevels);
    }
  }

  void optionalPriority(Integer priority, String where) {
    if (priority != null) {
      priority(priority, where);
    }
  }

  void body(byte[] body, String where) {
    if (body.length > maxBodyBytes) {
      throw new QueueException(
          ErrorCode.ENQUEUE_REJECTED,
          where
              + " has a body of "
              + body.length
              + " bytes; the limit is "
              + maxBodyBytes
              + " bytes (queue.maxBodyBytes)");
    }
  }

  static void attemptsAllowed(int attempts, String where) {
    if (attempts < 1) {
      throw QueueException.invalid(
          "attempts allowed of " + where + " must be >= 1, was " + attempts);
    }
  }

  /** A limit in 1..max. */
  static void limit(int limit, int max, String operation) {
    if (limit < 1 || limit > max) {
      throw QueueException.invalid(operation + " limit must be 1.." + max + ", was " + limit);
    }
  }

  static void coverage(double coverage) {
    if (!(coverage >= 0.0 && coverage <= 1.0)) {
      throw QueueException.invalid(
          "dequeue coverage must be 0..1 (fraction of shards to visit), was " + coverage);
    }
  }

  static void source(String source) {
    if (source == null || source.isBlank()) {
      throw QueueException.invalid("a source is required, for example 'mailer:host7'");
    }
    if (source.length() > MAX_SOURCE_LENGTH) {
      throw QueueException.invalid(
          "source '"
              + source.substring(0, 20)
              + "...' has "
              + source.length()
              + " characters; at most "
              + MAX_SOURCE_LENGTH
              + " are allowed");
    }
  }

  static void state(JobState state, String operation) {
    if (state == null) {
      throw QueueException.invalid(
          operation + " needs a job state (PENDING, IN_PROGRESS, SUCCEEDED or FAILED)");
    }
  }

  static <T> T required(T value, String what) {
    if (value == null) {
      throw QueueException.invalid(what + " is required");
    }
    return value;
  }

  /** The first {@code max} characters of the text. */
  static String truncate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
