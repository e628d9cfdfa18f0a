package dev.flipper.queue;

import java.util.Objects;

/**
 * Identifies one job: {@code <queue>:s<shard>:p<priority>:<localId>}, for example {@code
 * mail:s1:p2:1042}. The local id is unique within its queue and shard. Immutable.
 */
public record JobDescriptor(String queue, String shard, int priority, long localId) {

  public JobDescriptor {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(shard, "shard");
    if (queue.isEmpty() || queue.indexOf(':') >= 0) {
      throw QueueException.invalid(
          "queue name '" + queue + "' in a job descriptor must be non-empty and contain no ':'");
    }
    if (shard.isEmpty() || shard.indexOf(':') >= 0) {
      throw QueueException.invalid(
          "shard name '" + shard + "' in a job descriptor must be non-empty and contain no ':'");
    }
    if (priority < 0) {
      throw QueueException.invalid("priority in a job descriptor must be >= 0, was " + priority);
    }
    if (localId < 0) {
      throw QueueException.invalid("local id in a job descriptor must be >= 0, was " + localId);
    }
  }

  /**
   * Parses a descriptor. Every malformed input, including null, gives a {@link QueueException} that
   * quotes the input and the expected form; never a NullPointerException.
   */
  public static JobDescriptor parse(String text) {
    if (text == null) {
      throw malformed("null", "a descriptor is required");
    }
    String[] parts = text.split(":", -1);
    if (parts.length != 4) {
      throw malformed(text, "expected 4 ':'-separated parts, found " + parts.length);
    }
    if (!parts[1].startsWith("s") || parts[1].length() < 2) {
      throw malformed(text, "the shard part must look like 's<shard>'");
    }
    if (!parts[2].startsWith("p") || parts[2].length() < 2) {
      throw malformed(text, "the priority part must look like 'p<priority>'");
    }
    // One spelling per job: "p01", "01" or "+1" would name the same job as "p1" and "1".
    if (!isCanonicalNumber(parts[2].substring(1))) {
      throw malformed(
          text,
          "the priority '"
              + parts[2].substring(1)
              + "' must be digits without a sign or leading 0");
    }
    if (!isCanonicalNumber(parts[3])) {
      throw malformed(
          text, "the local id '" + parts[3] + "' must be digits without a sign or leading 0");
    }
    int priority;
    long localId;
    try {
      priority = Integer.parseInt(parts[2].substring(1));
    } catch (NumberFormatException e) {
      throw malformed(text, "the priority '" + parts[2].substring(1) + "' is not a number");
    }
    try {
      localId = Long.parseLong(parts[3]);
    } catch (NumberFormatException e) {
      throw malformed(text, "the local id '" + parts[3] + "' is not a number");
    }
    try {
      return new JobDescriptor(parts[0], parts[1].substring(1), priority, localId);
    } catch (QueueException e) {
      throw malformed(text, e.getMessage().replace("invalid request: ", ""));
    }
  }

  private static boolean isCanonicalNumber(String digits) {
    if (digits.isEmpty() || (digits.length() > 1 && digits.charAt(0) == '0')) {
      return false;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static QueueException malformed(String text, String why) {
    return QueueException.invalid(
        "malformed job descriptor '"
            + text
            + "': "
            + why
            + " (form: <queue>:s<shard>:p<priority>:<localId>)");
  }

  @Override
  public String toString() {
    return queue + ":s" + shard + ":p" + priority + ":" + localId;
  }
}
